package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// refConvLanes is a plain float64 same-padded 3×3 convolution on the lane
// layout: out[co][sq][p] = bias[co] + Σ w[co][ci][ky][kx]·in[ci][sq+(ky−1,kx−1)][p].
func refConvLanes(in []float32, cin int, w, bias []float32, cout int) []float64 {
	out := make([]float64, cout*LaneChannel)
	for co := 0; co < cout; co++ {
		for sq := 0; sq < planeSquares; sq++ {
			r, f := sq/8, sq%8
			for p := 0; p < Lanes; p++ {
				s := float64(bias[co])
				for ci := 0; ci < cin; ci++ {
					for ky := 0; ky < 3; ky++ {
						for kx := 0; kx < 3; kx++ {
							rr, ff := r+ky-1, f+kx-1
							if rr < 0 || rr > 7 || ff < 0 || ff > 7 {
								continue
							}
							s += float64(w[((co*cin+ci)*3+ky)*3+kx]) * float64(in[ci*LaneChannel+padSquare(rr*8+ff)*Lanes+p])
						}
					}
				}
				out[co*LaneChannel+padSquare(sq)*Lanes+p] = s
			}
		}
	}
	return out
}

// randomLanes returns channels planes in lane layout with random interior
// values and a zero border.
func randomLanes(rng *rand.Rand, channels int) []float32 {
	a := make([]float32, channels*LaneChannel)
	for c := 0; c < channels; c++ {
		for sq := 0; sq < planeSquares; sq++ {
			for p := 0; p < Lanes; p++ {
				a[c*LaneChannel+padSquare(sq)*Lanes+p] = rng.Float32()*2 - 1
			}
		}
	}
	return a
}

// Every kernel set's Winograd convolution (input transform, products,
// output transform with its bias, residual and ReLU) matches a plain
// float64 convolution, for channel counts that fill no register block
// evenly as well as the network's, and leaves the border, the channels
// past cout and the buffers' slack untouched.
func TestWinogradConvolution(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 15))
	for _, name := range Available() {
		k, err := ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, sz := range [][2]int{{1, 1}, {3, 5}, {8, 8}, {37, 32}, {32, 32}, {5, 9}, {32, 73}, {64, 17}} {
			cin, cout := sz[0], sz[1]
			for _, mode := range []struct{ residual, relu bool }{{false, false}, {false, true}, {true, false}, {true, true}} {
				t.Run(fmt.Sprintf("%s/%dx%d/res=%v,relu=%v", name, cin, cout, mode.residual, mode.relu), func(t *testing.T) {
					in := randomLanes(rng, cin)
					w := make([]float32, cout*cin*9)
					bias := make([]float32, cout)
					for i := range w {
						w[i] = float32(rng.NormFloat64() / math.Sqrt(float64(cin*9)))
					}
					for i := range bias {
						bias[i] = rng.Float32() - 0.5
					}
					l := NewLayer(cin, cout)
					l.SetFilters(w, bias)
					want := refConvLanes(in, cin, w, bias, cout)
					// One spare channel and some slack after it: must stay untouched.
					const sentinel = 12345
					dst := randomLanes(rng, cout+1)
					for i := cout * LaneChannel; i < len(dst); i++ {
						dst[i] = sentinel
					}
					old := append([]float32(nil), dst...)
					v := make([]float32, Points*Stride(cin)+7)
					m := make([]float32, Points*Stride(l.Rows)+7)
					k.WinoIn(in, cin, v, Cols, Stride(cin))
					k.Products(l, v, m)
					k.WinoOut(m, l.Rows, cout, l.Bias, dst, mode.residual, mode.relu)
					for i, got := range dst {
						c, sq := i/LaneChannel, i%LaneChannel/Lanes
						interior := c < cout && sq/padSide >= 1 && sq/padSide <= 8 && sq%padSide >= 1 && sq%padSide <= 8
						if !interior {
							if got != old[i] {
								t.Fatalf("wrote %v outside the output's interior (channel %d, padded square %d), was %v", got, c, sq, old[i])
							}
							continue
						}
						exp := want[i]
						if mode.residual {
							exp += float64(old[i])
						}
						if mode.relu {
							exp = math.Max(exp, 0)
						}
						if d := math.Abs(float64(got) - exp); d > 2e-6*math.Sqrt(float64(cin*9))+1e-6 {
							t.Fatalf("channel %d padded square %d lane %d: %v, want %v (|Δ| %.3g)", c, sq, i%Lanes, got, exp, d)
						}
					}
				})
			}
		}
	}
}

// The assembly transforms compute exactly what the portable ones compute
// (the same additions in the same order), on random data including the
// stale values a reused buffer holds.
func TestWinogradTransformsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 16))
	ref, err := ByName(Portable)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range Available() {
		k, err := ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range []int{1, 2, 7, 37} {
			in := randomLanes(rng, ch)
			n := Points * Stride(ch)
			v1, v2 := make([]float32, n), make([]float32, n)
			ref.WinoIn(in, ch, v1, Cols, Stride(ch))
			k.WinoIn(in, ch, v2, Cols, Stride(ch))
			for i := range v1 {
				if v1[i] != v2[i] {
					t.Fatalf("%s: input transform of %d channels differs at %d: %v, want %v", name, ch, i, v2[i], v1[i])
				}
			}
			rows := (ch + PadRows) / RowBlock * RowBlock
			m := make([]float32, Points*Stride(rows))
			for i := range m {
				m[i] = rng.Float32()*2 - 1
			}
			bias := make([]float32, ch)
			for i := range bias {
				bias[i] = rng.Float32() - 0.5
			}
			// The adjoints: output gradient → dM, and dV → input gradient.
			gl := randomLanes(rng, ch)
			a1, a2 := make([]float32, len(m)), make([]float32, len(m))
			ref.WinoOutAdj(gl, ch, a1, Cols, Stride(rows))
			k.WinoOutAdj(gl, ch, a2, Cols, Stride(rows))
			for i := range a1 {
				if math.Float32bits(a1[i]) != math.Float32bits(a2[i]) {
					t.Fatalf("%s: output adjoint of %d channels differs at %d: %v, want %v", name, ch, i, a2[i], a1[i])
				}
			}
			x1, x2 := make([]float32, ch*LaneChannel), randomLanes(rng, ch) // stale values must not matter
			ref.WinoInAdj(m, ch, Stride(rows), x1)
			k.WinoInAdj(m, ch, Stride(rows), x2)
			for i := range x1 {
				if math.Float32bits(x1[i]) != math.Float32bits(x2[i]) {
					t.Fatalf("%s: input adjoint of %d channels differs at %d: %v, want %v", name, ch, i, x2[i], x1[i])
				}
			}
			for _, flags := range [][2]bool{{false, false}, {true, true}, {true, false}, {false, true}} {
				d1, d2 := randomLanes(rng, ch), make([]float32, ch*LaneChannel)
				copy(d2, d1)
				ref.WinoOut(m, rows, ch, bias, d1, flags[0], flags[1])
				k.WinoOut(m, rows, ch, bias, d2, flags[0], flags[1])
				for i := range d1 {
					if d1[i] != d2[i] {
						t.Fatalf("%s: output transform of %d channels (residual, relu = %v) differs at %d: %v, want %v", name, ch, flags, i, d2[i], d1[i])
					}
				}
			}
		}
	}
}

// Every kernel set's toLanes and fromLanes are inverse on the interior;
// toLanes zeroes the unused lanes of a partial group and never writes the
// border, and fromLanes writes nothing but the positions' channels.
func TestLaneLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	for _, name := range Available() {
		k, err := ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range []int{1, 3, 37} {
			for s := 1; s <= Lanes; s++ {
				src := make([]float32, s*ch*planeSquares)
				for i := range src {
					src[i] = rng.Float32() + 1
				}
				dst := make([]float32, ch*LaneChannel)
				for i := range dst {
					dst[i] = 7
				}
				k.ToLanes(src, ch, s, dst)
				for c := 0; c < ch; c++ {
					for ps := 0; ps < padSquares; ps++ {
						r, f := ps/padSide, ps%padSide
						for p := 0; p < Lanes; p++ {
							got := dst[c*LaneChannel+ps*Lanes+p]
							switch {
							case r == 0 || r == 9 || f == 0 || f == 9:
								if got != 7 {
									t.Fatalf("%s ch=%d s=%d: border written: %v", name, ch, s, got)
								}
							case p >= s:
								if got != 0 {
									t.Fatalf("%s ch=%d s=%d: unused lane %d holds %v", name, ch, s, p, got)
								}
							default:
								if want := src[(p*ch+c)*planeSquares+(r-1)*8+f-1]; got != want {
									t.Fatalf("%s ch=%d s=%d: channel %d square %d lane %d: %v, want %v", name, ch, s, c, ps, p, got, want)
								}
							}
						}
					}
				}
				// Back, into blocks with a spare channel that must stay untouched.
				stride := (ch + 1) * planeSquares
				back := make([]float32, s*stride)
				for i := range back {
					back[i] = -1
				}
				k.FromLanes(dst, ch, s, back, stride)
				for p := 0; p < s; p++ {
					for i := 0; i < stride; i++ {
						got, want := back[p*stride+i], float32(-1)
						if i < ch*planeSquares {
							want = src[p*ch*planeSquares+i]
						}
						if got != want {
							t.Fatalf("%s ch=%d s=%d: position %d float %d: %v, want %v", name, ch, s, p, i, got, want)
						}
					}
				}
			}
		}
	}
}

// Every kernel set's C = A·Bᵀ matches a float64 product, for the block
// kernels' sizes and for sizes they leave to the portable loop, with
// padded strides; it writes nothing outside C. With acc it adds A·Bᵀ to C
// (here: twice the product after a second call).
func TestGemmNT(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 19))
	for _, name := range Available() {
		k, err := ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, sz := range [][3]int{{4, 4, 16}, {4, 4, 8}, {8, 12, 128}, {32, 40, 1024}, {5, 7, 33}, {4, 8, 24}, {1, 1, 1}} {
			m, n, kk := sz[0], sz[1], sz[2]
			lda, ldb, ldc := kk+3, kk+5, n+2
			a, b := make([]float32, m*lda), make([]float32, n*ldb)
			for i := range a {
				a[i] = rng.Float32()*2 - 1
			}
			for i := range b {
				b[i] = rng.Float32()*2 - 1
			}
			c := make([]float32, m*ldc)
			for i := range c {
				c[i] = float32(math.NaN())
			}
			for pass, acc := range []bool{false, true} {
				k.GemmNT(m, n, kk, a, lda, b, ldb, c, ldc, acc)
				for i := 0; i < m; i++ {
					for j := 0; j < ldc; j++ {
						got := c[i*ldc+j]
						if j >= n {
							if !math.IsNaN(float64(got)) {
								t.Fatalf("%s %v: wrote C[%d][%d] outside C", name, sz, i, j)
							}
							continue
						}
						var want float64
						for l := 0; l < kk; l++ {
							want += float64(a[i*lda+l]) * float64(b[j*ldb+l])
						}
						want *= float64(pass + 1)
						if d := math.Abs(float64(got) - want); d > 2e-5*math.Sqrt(float64(kk))+1e-6 {
							t.Fatalf("%s %v acc=%v: C[%d][%d] = %v, want %v", name, sz, acc, i, j, got, want)
						}
					}
				}
			}
		}
	}
}

// The adjoint transforms are the transposes of the transforms:
// ⟨T x, y⟩ = ⟨x, Tᵀ y⟩ for the input transform (on the interior of x: the
// border is the convolution's padding) and the output transform (no bias,
// residual or ReLU), for every kernel set.
func TestWinogradAdjoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 20))
	dot := func(a, b []float32) float64 {
		var s float64
		for i := range a {
			s += float64(a[i]) * float64(b[i])
		}
		return s
	}
	interior := func(a []float32) []float32 { // a copy with the border zeroed
		b := make([]float32, len(a))
		for i := range a {
			if sq := i % LaneChannel / Lanes; sq/padSide >= 1 && sq/padSide <= 8 && sq%padSide >= 1 && sq%padSide <= 8 {
				b[i] = a[i]
			}
		}
		return b
	}
	for _, name := range Available() {
		k, err := ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range []int{1, 5, 32} {
			xi := Stride(ch)
			// Input transform: V = T x, ⟨V, dV⟩ = ⟨x, Tᵀ dV⟩.
			x := randomLanes(rng, ch)
			v := make([]float32, Points*xi)
			k.WinoIn(x, ch, v, Cols, xi)
			dv := make([]float32, len(v))
			for i := range dv {
				dv[i] = rng.Float32()*2 - 1
			}
			dx := make([]float32, ch*LaneChannel)
			k.WinoInAdj(dv, ch, xi, dx)
			if l, r := dot(v, dv), dot(x, interior(dx)); math.Abs(l-r) > 1e-4*(math.Abs(l)+1) {
				t.Errorf("%s, %d channels: input transform ⟨Tx, y⟩ = %v but ⟨x, Tᵀy⟩ = %v", name, ch, l, r)
			}
			// Output transform: Y = T M, ⟨Y, dY⟩ = ⟨M, Tᵀ dY⟩.
			m := make([]float32, Points*xi)
			for i := range m {
				m[i] = rng.Float32()*2 - 1
			}
			y := make([]float32, ch*LaneChannel)
			k.WinoOut(m, ch, ch, make([]float32, ch), y, false, false)
			dy := interior(randomLanes(rng, ch))
			dm := make([]float32, len(m))
			k.WinoOutAdj(dy, ch, dm, Cols, xi)
			if l, r := dot(y, dy), dot(m, dm); math.Abs(l-r) > 1e-4*(math.Abs(l)+1) {
				t.Errorf("%s, %d channels: output transform ⟨TM, y⟩ = %v but ⟨M, Tᵀy⟩ = %v", name, ch, l, r)
			}
		}
	}
}

// The ReLU and bias gradient kernels of every set compute exactly what the
// portable ones compute, including lengths that are not whole vectors.
func TestGradientKernelsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 23))
	ref, err := ByName(Portable)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range Available() {
		k, err := ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 7, 8, 64, 1000, 4099} {
			dy, y := make([]float32, n), make([]float32, n)
			for i := range dy {
				dy[i], y[i] = rng.Float32()*2-1, rng.Float32()*2-1
			}
			y[0] = 0 // the kink: no gradient
			d1, d2 := make([]float32, n), make([]float32, n)
			ref.ReluGrad(dy, y, d1)
			k.ReluGrad(dy, y, d2)
			for i := range d1 {
				want := dy[i]
				if y[i] <= 0 {
					want = 0
				}
				if d1[i] != want || math.Float32bits(d2[i]) != math.Float32bits(d1[i]) {
					t.Fatalf("%s n=%d: relu gradient [%d] = %v (portable %v), want %v", name, n, i, d2[i], d1[i], want)
				}
			}
		}
		for _, sz := range [][2]int{{1, 1}, {3, 5}, {130, 32}} {
			batch, ch := sz[0], sz[1]
			x := make([]float32, batch*ch*planeSquares)
			for i := range x {
				x[i] = rng.Float32()*2 - 1
			}
			s1, s2 := make([]float32, ch), make([]float32, ch)
			ref.ChannelSums(x, batch, ch, 0, ch, s1)
			k.ChannelSums(x, batch, ch, 0, ch, s2)
			for c := 0; c < ch; c++ {
				var want float64
				for b := 0; b < batch; b++ {
					for q := 0; q < planeSquares; q++ {
						want += float64(x[(b*ch+c)*planeSquares+q])
					}
				}
				if math.Float32bits(s1[c]) != math.Float32bits(s2[c]) || math.Abs(float64(s1[c])-want) > 1e-5*float64(batch*planeSquares) {
					t.Fatalf("%s %v: channel %d sums to %v (portable %v), want %v", name, sz, c, s2[c], s1[c], want)
				}
			}
		}
	}
}

// transformFilter's written-out products equal the plain matrix products
// G f Gᵀ in float64, rounded once (up to the sign of zeros).
func TestTransformFilterMatchesProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 26))
	g := [4][3]float64{{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}}
	for trial := 0; trial < 2000; trial++ {
		var f [9]float32
		for i := range f {
			f[i] = float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4)))
			if rng.IntN(8) == 0 {
				f[i] = 0
			}
		}
		var tt [4][3]float64
		for r := 0; r < 4; r++ {
			for c := 0; c < 3; c++ {
				tt[r][c] = g[r][0]*float64(f[c]) + g[r][1]*float64(f[3+c]) + g[r][2]*float64(f[6+c])
			}
		}
		got := transformFilter(f[:])
		for r := 0; r < 4; r++ {
			for c := 0; c < 4; c++ {
				want := float32(tt[r][0]*g[c][0] + tt[r][1]*g[c][1] + tt[r][2]*g[c][2])
				if got[r*4+c] != want {
					t.Fatalf("filter %v: U[%d][%d] = %v, want %v", f, r, c, got[r*4+c], want)
				}
			}
		}
	}
}

// toLanesMasked is toLanes of the masked values (dy where the mask > 0,
// else 0: negative, zero and NaN masks zero it) and writes no border;
// toLanesMaskedKeep also keeps the masked values; laneSums sums each
// channel's interior, for every kernel set.
func TestLaneLayoutMasked(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 27))
	for _, name := range Available() {
		k, err := ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range []int{1, 3, 32} {
			for s := 1; s <= Lanes; s++ {
				src := randomNormal(rng, s*ch*planeSquares, 1)
				mask := randomNormal(rng, s*ch*planeSquares, 1)
				for i := range mask {
					switch rng.IntN(6) {
					case 0:
						mask[i] = 0
					case 1:
						mask[i] = float32(math.NaN())
					}
				}
				masked := make([]float32, len(src))
				for i := range src {
					if mask[i] > 0 {
						masked[i] = src[i]
					}
				}
				want, got := make([]float32, ch*LaneChannel), make([]float32, ch*LaneChannel)
				for i := range want {
					want[i], got[i] = 7, 7 // the border stays as it was
				}
				toLanes(masked, ch, s, want)
				k.ToLanesMasked(src, mask, ch, s, got)
				for i := range want {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] == 0 && want[i] == 0) {
						t.Fatalf("%s ch=%d s=%d: float %d = %v, want %v", name, ch, s, i, got[i], want[i])
					}
				}
				// With keep: the same lanes, and the masked values in src's layout.
				got2 := make([]float32, ch*LaneChannel)
				for i := range got2 {
					got2[i] = 7
				}
				keep := make([]float32, len(src)+5)
				for i := range keep {
					keep[i] = -3
				}
				k.ToLanesMaskedKeep(src, mask, keep, ch, s, got2)
				for i := range got {
					if math.Float32bits(got2[i]) != math.Float32bits(got[i]) {
						t.Fatalf("%s ch=%d s=%d: with keep, float %d = %v, want %v", name, ch, s, i, got2[i], got[i])
					}
				}
				for i, v := range keep {
					want := float32(-3)
					if i < len(masked) {
						want = masked[i]
					}
					if v != want {
						t.Fatalf("%s ch=%d s=%d: kept float %d = %v, want %v", name, ch, s, i, v, want)
					}
				}
				clear(got)
				k.ToLanesMasked(src, mask, ch, s, got)
				sums := make([]float32, ch)
				k.LaneSums(got, ch, sums)
				for c := 0; c < ch; c++ {
					var ref float64
					for p := 0; p < s; p++ {
						for q := 0; q < planeSquares; q++ {
							ref += float64(masked[(p*ch+c)*planeSquares+q])
						}
					}
					if d := math.Abs(float64(sums[c]) - ref); d > 1e-5*(1+math.Abs(ref)) {
						t.Fatalf("%s ch=%d s=%d: channel %d sums to %v, want %v", name, ch, s, c, sums[c], ref)
					}
				}
			}
		}
	}
}

// FilterGradient's written-out products equal the plain matrix products
// Gᵀ dU G in float64, rounded once (up to the sign of zeros).
func TestFilterGradientMatchesProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 29))
	g := [4][3]float64{{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}}
	const cin, cout = 3, 5
	du := make([]float64, cout*Points*cin)
	for trial := 0; trial < 200; trial++ {
		for i := range du {
			du[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
			if rng.IntN(8) == 0 {
				du[i] = 0
			}
		}
		dw := make([]float32, cout*cin*9)
		FilterGradient(du, cin, cout, dw)
		for co := 0; co < cout; co++ {
			for ci := 0; ci < cin; ci++ {
				var u [16]float64
				for xi := range u {
					u[xi] = du[(co*Points+xi)*cin+ci]
				}
				for a := 0; a < 3; a++ {
					var tt [4]float64
					for j := 0; j < 4; j++ {
						tt[j] = g[0][a]*u[j] + g[1][a]*u[4+j] + g[2][a]*u[8+j] + g[3][a]*u[12+j]
					}
					for b := 0; b < 3; b++ {
						want := float32(tt[0]*g[0][b] + tt[1]*g[1][b] + tt[2]*g[2][b] + tt[3]*g[3][b])
						if got := dw[(co*cin+ci)*9+a*3+b]; got != want {
							t.Fatalf("dw[%d][%d][%d][%d] = %v, want %v", co, ci, a, b, got, want)
						}
					}
				}
			}
		}
	}
}

// randomNormal returns n normal variates of standard deviation scale.
func randomNormal(rng *rand.Rand, n int, scale float64) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.NormFloat64() * scale)
	}
	return s
}
