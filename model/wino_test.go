package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// refConvLanes is a plain float64 same-padded 3×3 convolution on the lane
// layout: out[co][sq][p] = bias[co] + Σ w[co][ci][ky][kx]·in[ci][sq+(ky−1,kx−1)][p].
func refConvLanes(in []float32, cin int, w, bias []float32, cout int) []float64 {
	out := make([]float64, cout*laneChannel)
	for co := 0; co < cout; co++ {
		for sq := 0; sq < planeSquares; sq++ {
			r, f := sq/8, sq%8
			for p := 0; p < lanes; p++ {
				s := float64(bias[co])
				for ci := 0; ci < cin; ci++ {
					for ky := 0; ky < 3; ky++ {
						for kx := 0; kx < 3; kx++ {
							rr, ff := r+ky-1, f+kx-1
							if rr < 0 || rr > 7 || ff < 0 || ff > 7 {
								continue
							}
							s += float64(w[((co*cin+ci)*3+ky)*3+kx]) * float64(in[ci*laneChannel+padSquare(rr*8+ff)*lanes+p])
						}
					}
				}
				out[co*laneChannel+padSquare(sq)*lanes+p] = s
			}
		}
	}
	return out
}

// randomLanes returns channels planes in lane layout with random interior
// values and a zero border.
func randomLanes(rng *rand.Rand, channels int) []float32 {
	a := make([]float32, channels*laneChannel)
	for c := 0; c < channels; c++ {
		for sq := 0; sq < planeSquares; sq++ {
			for p := 0; p < lanes; p++ {
				a[c*laneChannel+padSquare(sq)*lanes+p] = rng.Float32()*2 - 1
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
	for _, name := range availableKernels() {
		k, err := kernelSet(name)
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
					l := newWinoLayer(cin, cout)
					l.setFilters(w, bias)
					want := refConvLanes(in, cin, w, bias, cout)
					// One spare channel and some slack after it: must stay untouched.
					const sentinel = 12345
					dst := randomLanes(rng, cout+1)
					for i := cout * laneChannel; i < len(dst); i++ {
						dst[i] = sentinel
					}
					old := append([]float32(nil), dst...)
					v := make([]float32, winoPoints*winoStride(cin)+7)
					m := make([]float32, winoPoints*winoStride(l.rows)+7)
					k.winoIn(in, cin, v)
					k.products(l, v, m)
					k.winoOut(m, l.rows, cout, l.bias, dst, mode.residual, mode.relu)
					for i, got := range dst {
						c, sq := i/laneChannel, i%laneChannel/lanes
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
							t.Fatalf("channel %d padded square %d lane %d: %v, want %v (|Δ| %.3g)", c, sq, i%lanes, got, exp, d)
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
	ref, err := kernelSet(kernelsPortable)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range availableKernels() {
		k, err := kernelSet(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range []int{1, 2, 7, 37} {
			in := randomLanes(rng, ch)
			n := winoPoints * winoStride(ch)
			v1, v2 := make([]float32, n), make([]float32, n)
			ref.winoIn(in, ch, v1)
			k.winoIn(in, ch, v2)
			for i := range v1 {
				if v1[i] != v2[i] {
					t.Fatalf("%s: input transform of %d channels differs at %d: %v, want %v", name, ch, i, v2[i], v1[i])
				}
			}
			rows := (ch + winoPadRows) / winoRowBlock * winoRowBlock
			m := make([]float32, winoPoints*winoStride(rows))
			for i := range m {
				m[i] = rng.Float32()*2 - 1
			}
			bias := make([]float32, ch)
			for i := range bias {
				bias[i] = rng.Float32() - 0.5
			}
			for _, flags := range [][2]bool{{false, false}, {true, true}, {true, false}, {false, true}} {
				d1, d2 := randomLanes(rng, ch), make([]float32, ch*laneChannel)
				copy(d2, d1)
				ref.winoOut(m, rows, ch, bias, d1, flags[0], flags[1])
				k.winoOut(m, rows, ch, bias, d2, flags[0], flags[1])
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
	for _, name := range availableKernels() {
		k, err := kernelSet(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range []int{1, 3, 37} {
			for s := 1; s <= lanes; s++ {
				src := make([]float32, s*ch*planeSquares)
				for i := range src {
					src[i] = rng.Float32() + 1
				}
				dst := make([]float32, ch*laneChannel)
				for i := range dst {
					dst[i] = 7
				}
				k.toLanes(src, ch, s, dst)
				for c := 0; c < ch; c++ {
					for ps := 0; ps < padSquares; ps++ {
						r, f := ps/padSide, ps%padSide
						for p := 0; p < lanes; p++ {
							got := dst[c*laneChannel+ps*lanes+p]
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
				k.fromLanes(dst, ch, s, back, stride)
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
