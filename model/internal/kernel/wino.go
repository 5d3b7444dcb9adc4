package kernel

import "github.com/alicezero/alicezero/env"

// The fast path computes every 3×3 convolution with Winograd's minimal
// filtering algorithm F(2×2, 3×3) (Lavin & Gray, 2015): the 8×8 board is
// cut into 16 tiles of 2×2 outputs, each read from a 4×4 patch of the
// zero-padded 10×10 input, and a tile's 36 multiply-adds per channel pair
// become 16 element-wise products in the transformed domain:
//
//	Y = Aᵀ [ (G g Gᵀ) ⊙ (Bᵀ d B) ] A
//
// for a 3×3 filter g and a 4×4 patch d. Summed over the input channels the
// products are 16 matrix products, one per transformed point ξ:
// M_ξ[cout][tile] = U_ξ[cout][cin] · V_ξ[cin][tile], which do 2.25× fewer
// multiply-adds than the direct convolution. The transforms' coefficients
// are 0, ±1 and ±½, so the results differ from a direct convolution by
// float32 rounding only.
//
// Activations use a lane layout that makes the transforms plain vector
// arithmetic: lanes positions side by side, innermost, for every square of
// the padded 10×10 board, channel by channel:
//
//	a[c][square][lane], square = (rank+1)·10 + (file+1)
//
// so one (channel, square) is lanes consecutive floats (one AVX register),
// and every transform is the same sequence of vector additions whatever
// the position. The border squares are zero and are never written, which
// is the convolution's zero padding. Transformed data is laid out
// V[ξ][channel][tile][lane], so that V_ξ is a row-major [channels][128]
// matrix (a row stride of Cols, a point stride of Stride).
const (
	Lanes        = 8                   // positions in one lane group
	padSide      = 10                  // the board with its zero border
	padSquares   = padSide * padSide   // squares of a padded plane
	LaneChannel  = padSquares * Lanes  // floats of one channel in lane layout
	winoTiles    = 16                  // 2×2-output tiles of the board
	Points       = 16                  // ξ: the 4×4 transformed points
	Cols         = winoTiles * Lanes   // columns of a transformed matrix
	RowBlock     = 8                   // rows of a packed filter block (see Layer.packed)
	interiorOff  = padSide + 1         // padded square of rank 0, file 0
	planeSquares = env.PlaneSize       // 64
	laneTileRow  = 2 * padSide * Lanes // floats between tile rows in lane layout
	laneRow      = padSide * Lanes     // floats between ranks in lane layout
	laneTileCol  = 2 * Lanes           // floats between tile columns
	PadRows      = RowBlock - 1        // rows added to round up to a block
	winoHalf     = float64(0.5)        // G's non-unit coefficient
	padLaneFirst = interiorOff * Lanes // first interior float of a channel
)

// Stride returns the distance in floats between consecutive points ξ
// of a transformed array with rows rows (V: the input channels; M: the
// output rows): rows·Cols plus one cache line, so that the 16 points of
// a tile, which the transforms store or load together, do not fall into
// the same cache set (at 32 rows the plain stride is 16 KiB, and the
// transforms ran 3× slower).
func Stride(rows int) int { return rows*Cols + 16 }

// padSquare returns the padded square of board square sq.
func padSquare(sq int) int { return (sq/8+1)*padSide + sq%8 + 1 }

// Layer is one 3×3 convolution's filters in the transformed domain.
type Layer struct {
	Cin, Cout int
	// rows is cout rounded up to a multiple of RowBlock: the row count
	// of the products' outputs M_ξ (rows beyond cout are computed from zero
	// filters and never read).
	Rows int
	// u holds U_ξ = G g Gᵀ as 16 row-major [cout][cin] matrices.
	u []float32
	// packed holds the same filters for the AVX-512 product: for each ξ and
	// block of RowBlock output rows, cin groups of RowBlock floats
	// (the block's rows side by side for one input channel), zero-padded
	// to rows.
	packed []float32
	// w and bias are the filters as given ([cout][cin·9], row-major, and
	// [cout]), for a direct convolution (the fast path's few-position path).
	W, Bias []float32
}

func NewLayer(cin, cout int) *Layer {
	rows := (cout + PadRows) / RowBlock * RowBlock
	return &Layer{
		Cin: cin, Cout: cout, Rows: rows,
		u:      make([]float32, Points*cout*cin),
		packed: make([]float32, Points*rows*cin),
		W:      make([]float32, cout*cin*9),
		Bias:   make([]float32, cout),
	}
}

// SetFilters transforms w ([cout][cin][3][3], row-major) and copies bias.
func (l *Layer) SetFilters(w, bias []float32) {
	l.SetFilterRange(w, bias, 0, l.Cout)
}

// SetFilterRange is SetFilters for output channels [co0, co1) only (which
// goroutines can share out).
func (l *Layer) SetFilterRange(w, bias []float32, co0, co1 int) {
	cin := l.Cin
	uStep, pStep := l.Cout*cin, l.Rows*cin // between points ξ
	// Sixteen filters of one output channel at a time, transformed into
	// us, then stored point by point: the points are 4 KiB apart at 32
	// channels, and storing each filter's 16 points at once thrashed one
	// cache set.
	const chunk = 16
	var us [Points][chunk]float32
	for co := co0; co < co1; co++ {
		pb := co/RowBlock*RowBlock*cin + co%RowBlock // packed place of U_ξ[co][0] at ξ = 0
		for c0 := 0; c0 < cin; c0 += chunk {
			c1 := min(c0+chunk, cin)
			for ci := c0; ci < c1; ci++ {
				u := transformFilter(w[(co*cin+ci)*9:])
				for xi, v := range u {
					us[xi][ci-c0] = v
				}
			}
			for xi := range us {
				src := us[xi][:c1-c0]
				copy(l.u[xi*uStep+co*cin+c0:][:len(src)], src)
				pp := l.packed[xi*pStep+pb+c0*RowBlock:][:(len(src)-1)*RowBlock+1]
				for i, v := range src {
					pp[i*RowBlock] = v
				}
			}
		}
	}
	n := l.Cin * 9
	copy(l.W[co0*n:co1*n], w[co0*n:co1*n])
	copy(l.Bias[co0:co1], bias[co0:co1])
}

// SetTransposeOf makes l (built as NewLayer(src.Cout, src.Cin)) hold
// the transposes U_ξᵀ of src's transformed filters, which map a
// convolution's output gradient back to its input, for src's output
// channels [co0, co1) (which goroutines can share out). No bias.
func (l *Layer) SetTransposeOf(src *Layer, co0, co1 int) {
	// l's rows are src's columns ci, its columns src's rows co: a block of
	// RowBlock rows of l's packed filters holds, for each co, src's
	// row co at columns [blk, blk+RowBlock) side by side.
	for xi := 0; xi < Points; xi++ {
		ut := l.u[xi*l.Cout*l.Cin : (xi+1)*l.Cout*l.Cin]
		pt := l.packed[xi*l.Rows*l.Cin : (xi+1)*l.Rows*l.Cin]
		for co := co0; co < co1; co++ {
			row := src.u[(xi*src.Cout+co)*src.Cin:][:src.Cin]
			for ci, v := range row {
				ut[ci*l.Cin+co] = v
			}
			for blk := 0; blk < src.Cin; blk += RowBlock {
				copy(pt[blk*l.Cin+co*RowBlock:][:RowBlock], row[blk:min(blk+RowBlock, src.Cin)])
			}
		}
	}
}

// transformFilter returns U = G f Gᵀ of a 3×3 filter f (its first 9
// floats, row-major), point ξ = 4·row + column, computed in float64 and
// rounded once. G = [[1, 0, 0], [½, ½, ½], [½, −½, ½], [0, 0, 1]]; its
// products are written out (halving is exact), in the order of the sums
// G·f·Gᵀ spells out, so the values are those of the plain matrix products.
func transformFilter(f []float32) [Points]float32 {
	f = f[:9:9]
	var t [4][3]float64 // G·f
	for c := 0; c < 3; c++ {
		f0, f1, f2 := float64(f[c]), float64(f[3+c]), float64(f[6+c])
		t[0][c] = f0
		t[1][c] = (f0 + f1 + f2) * winoHalf
		t[2][c] = (f0 - f1 + f2) * winoHalf
		t[3][c] = f2
	}
	var u [Points]float32
	for r := 0; r < 4; r++ { // (G·f)·Gᵀ
		t0, t1, t2 := t[r][0], t[r][1], t[r][2]
		u[r*4] = float32(t0)
		u[r*4+1] = float32((t0 + t1 + t2) * winoHalf)
		u[r*4+2] = float32((t0 - t1 + t2) * winoHalf)
		u[r*4+3] = float32(t2)
	}
	return u
}

// winoInputGo writes the transformed input V = Bᵀ d B of every tile of
// channels [0, cin) of src (lane layout) to v: point ξ of channel c's tile
// t, lane p, at v[ξ·xiStride + c·ld + t·lanes + p] (the fast path's
// layout has ld = Cols, xiStride = Stride(cin); training puts
// several groups side by side in wider rows). Bᵀ = [[1, 0, −1, 0],
// [0, 1, 1, 0], [0, −1, 1, 0], [0, 1, 0, −1]]. The portable kernel, and
// the reference for the assembly ones.
func winoInputGo(src []float32, cin int, v []float32, ld, xiStride int) {
	for ci := 0; ci < cin; ci++ {
		a := src[ci*LaneChannel : (ci+1)*LaneChannel]
		for t := 0; t < winoTiles; t++ {
			base := (t/4)*laneTileRow + (t%4)*laneTileCol
			dst := ci*ld + t*Lanes
			for p := 0; p < Lanes; p++ {
				var d, bd [4][4]float32
				for i := 0; i < 4; i++ {
					for j := 0; j < 4; j++ {
						d[i][j] = a[base+i*laneRow+j*Lanes+p]
					}
				}
				for j := 0; j < 4; j++ { // Bᵀ·d
					bd[0][j] = d[0][j] - d[2][j]
					bd[1][j] = d[1][j] + d[2][j]
					bd[2][j] = d[2][j] - d[1][j]
					bd[3][j] = d[1][j] - d[3][j]
				}
				for i := 0; i < 4; i++ { // (Bᵀ·d)·B
					r := bd[i]
					o := dst + 4*i*xiStride + p
					v[o] = r[0] - r[2]
					v[o+xiStride] = r[1] + r[2]
					v[o+2*xiStride] = r[2] - r[1]
					v[o+3*xiStride] = r[1] - r[3]
				}
			}
		}
	}
}

// winoOutputGo writes the convolution's output Y = Aᵀ M A of every tile
// of channels [0, cout) from m (M[ξ][row][tile][lane], rows rows per ξ) to
// dst (lane layout, interior squares only), adding bias; with residual it
// adds dst's old values too (out = dst + conv), and with relu it clamps at
// zero. Aᵀ = [[1, 1, 1, 0], [0, 1, −1, −1]]. The portable kernel, and the
// reference for the assembly ones.
func winoOutputGo(m []float32, rows, cout int, bias, dst []float32, residual, relu bool) {
	xiStride := Stride(rows)
	for co := 0; co < cout; co++ {
		out := dst[co*LaneChannel : (co+1)*LaneChannel]
		for t := 0; t < winoTiles; t++ {
			src := co*Cols + t*Lanes
			o := (t/4)*laneTileRow + (t%4)*laneTileCol + padLaneFirst
			for p := 0; p < Lanes; p++ {
				var s [2][4]float32 // Aᵀ·M
				for j := 0; j < 4; j++ {
					m0 := m[src+j*xiStride+p]
					m1 := m[src+(4+j)*xiStride+p]
					m2 := m[src+(8+j)*xiStride+p]
					m3 := m[src+(12+j)*xiStride+p]
					s[0][j] = m0 + m1 + m2
					s[1][j] = m1 - m2 - m3
				}
				for i := 0; i < 2; i++ { // (Aᵀ·M)·A
					y0 := s[i][0] + s[i][1] + s[i][2] + bias[co]
					y1 := s[i][1] - s[i][2] - s[i][3] + bias[co]
					q := o + i*laneRow + p
					if residual {
						y0 += out[q]
						y1 += out[q+Lanes]
					}
					if relu {
						y0, y1 = max(y0, 0), max(y1, 0)
					}
					out[q], out[q+Lanes] = y0, y1
				}
			}
		}
	}
}

// winoOutAdjointGo is the adjoint (transpose) of the output transform,
// for back-propagation: from the gradient dY of channels [0, cout) of a
// convolution's output (lane layout, interior) it writes every tile's
// dM = A dY Aᵀ to dm, point ξ of channel c's tile t, lane p, at
// dm[ξ·xiStride + c·ld + t·lanes + p].
func winoOutAdjointGo(dy []float32, cout int, dm []float32, ld, xiStride int) {
	for co := 0; co < cout; co++ {
		g := dy[co*LaneChannel : (co+1)*LaneChannel]
		for t := 0; t < winoTiles; t++ {
			q0 := (t/4)*laneTileRow + (t%4)*laneTileCol + padLaneFirst
			dst := co*ld + t*Lanes
			for p := 0; p < Lanes; p++ {
				q := q0 + p
				var u [4][2]float32 // A·dY
				for b := 0; b < 2; b++ {
					y0, y1 := g[q+b*Lanes], g[q+laneRow+b*Lanes]
					u[0][b], u[1][b], u[2][b], u[3][b] = y0, y0+y1, y0-y1, -y1
				}
				for i := 0; i < 4; i++ { // (A·dY)·Aᵀ
					o := dst + 4*i*xiStride + p
					dm[o] = u[i][0]
					dm[o+xiStride] = u[i][0] + u[i][1]
					dm[o+2*xiStride] = u[i][0] - u[i][1]
					dm[o+3*xiStride] = -u[i][1]
				}
			}
		}
	}
}

// winoInAdjointGo is the adjoint of the input transform: from the
// gradient dV of every tile's transformed input (point ξ of channel c's
// tile t, lane p, at dv[ξ·xiStride + c·Cols + t·lanes + p]) it writes
// the gradient of channels [0, cin) of the convolution's input to dx (lane
// layout): the sum over the tiles whose patch covers a square of
// B dV Bᵀ. The border squares receive the padding's gradient, which
// callers ignore.
func winoInAdjointGo(dv []float32, cin, xiStride int, dx []float32) {
	clear(dx[:cin*LaneChannel])
	for ci := 0; ci < cin; ci++ {
		g := dx[ci*LaneChannel : (ci+1)*LaneChannel]
		for t := 0; t < winoTiles; t++ {
			base := (t/4)*laneTileRow + (t%4)*laneTileCol
			src := ci*Cols + t*Lanes
			for p := 0; p < Lanes; p++ {
				var w [4][4]float32 // B·dV
				for j := 0; j < 4; j++ {
					v0 := dv[src+j*xiStride+p]
					v1 := dv[src+(4+j)*xiStride+p]
					v2 := dv[src+(8+j)*xiStride+p]
					v3 := dv[src+(12+j)*xiStride+p]
					w[0][j], w[1][j], w[2][j], w[3][j] = v0, v1-v2+v3, v1+v2-v0, -v3
				}
				for a := 0; a < 4; a++ { // (B·dV)·Bᵀ, added onto the patch
					r := w[a]
					q := base + a*laneRow + p
					g[q] += r[0]
					g[q+Lanes] += r[1] - r[2] + r[3]
					g[q+2*Lanes] += r[1] + r[2] - r[0]
					g[q+3*Lanes] -= r[3]
				}
			}
		}
	}
}

// FilterGradient turns the gradient dU of the transformed filters (point
// ξ of filter pair (co, ci) at du[(co·16 + ξ)·cin + ci]) into the gradient
// of the 3×3 filters, dw [cout][cin][3][3]: the adjoint Gᵀ dU G of the
// filter transform, in float64, G's products written out (halving is
// exact) in the order of the plain matrix products' sums.
func FilterGradient(du []float64, cin, cout int, dw []float32) {
	const h = winoHalf
	for co := 0; co < cout; co++ {
		d := du[co*Points*cin : (co+1)*Points*cin]
		for ci := 0; ci < cin; ci++ {
			var t [3][4]float64 // Gᵀ·dU
			for j := 0; j < 4; j++ {
				u0, u1, u2, u3 := d[j*cin+ci], d[(4+j)*cin+ci], d[(8+j)*cin+ci], d[(12+j)*cin+ci]
				t[0][j] = u0 + h*u1 + h*u2
				t[1][j] = h*u1 - h*u2
				t[2][j] = h*u1 + h*u2 + u3
			}
			out := dw[(co*cin+ci)*9 : (co*cin+ci)*9+9]
			for a := 0; a < 3; a++ {
				t0, t1, t2, t3 := t[a][0], t[a][1], t[a][2], t[a][3]
				out[a*3] = float32(t0 + h*t1 + h*t2)
				out[a*3+1] = float32(h*t1 - h*t2)
				out[a*3+2] = float32(h*t1 + h*t2 + t3)
			}
		}
	}
}

// gemmNTGo computes C = A·Bᵀ (C += A·Bᵀ if acc) for row-major A (m×k)
// and B (n×k): every element a dot product of two rows. The portable
// kernel.
func gemmNTGo(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	for i := 0; i < m; i++ {
		ar := a[i*lda : i*lda+k]
		for j := 0; j < n; j++ {
			br := b[j*ldb : j*ldb+k]
			var s float32
			for l, v := range ar {
				s += v * br[l]
			}
			if acc {
				s += c[i*ldc+j]
			}
			c[i*ldc+j] = s
		}
	}
}

// toLanes writes s ≤ lanes positions' planes (position-major, channels
// planes of 64 squares each, as env encodes them) into dst's interior in
// lane layout; lanes s.. are zeroed.
func toLanes(src []float32, channels, s int, dst []float32) {
	for c := 0; c < channels; c++ {
		ch := dst[c*LaneChannel : (c+1)*LaneChannel]
		for sq := 0; sq < planeSquares; sq++ {
			d := ch[padSquare(sq)*Lanes : padSquare(sq)*Lanes+Lanes : padSquare(sq)*Lanes+Lanes]
			for p := 0; p < s; p++ {
				d[p] = src[(p*channels+c)*planeSquares+sq]
			}
			clear(d[s:])
		}
	}
}

// toLanesMasked is toLanes of src with every float zeroed where mask (of
// src's layout) is not > 0: the ReLU's gradient mask, applied on the way
// into the lane layout.
func toLanesMasked(src, mask []float32, channels, s int, dst []float32) {
	for c := 0; c < channels; c++ {
		ch := dst[c*LaneChannel : (c+1)*LaneChannel]
		for sq := 0; sq < planeSquares; sq++ {
			d := ch[padSquare(sq)*Lanes : padSquare(sq)*Lanes+Lanes : padSquare(sq)*Lanes+Lanes]
			for p := 0; p < s; p++ {
				i := (p*channels+c)*planeSquares + sq
				if mask[i] > 0 {
					d[p] = src[i]
				} else {
					d[p] = 0
				}
			}
			clear(d[s:])
		}
	}
}

// toLanesMaskedKeep is toLanesMasked that also writes the masked values,
// in src's layout, to keep.
func toLanesMaskedKeep(src, mask, keep []float32, channels, s int, dst []float32) {
	n := s * channels * planeSquares
	reluGradGo(src[:n], mask[:n], keep[:n])
	toLanes(keep, channels, s, dst)
}

// laneSums writes the sum of the interior of each of channels channels of
// src (lane layout) to sums: eight rows of 64 floats each, summed in the
// order of sumBlocks64 (eight interleaved sums, combined pairwise).
func laneSums(src []float32, channels int, sums []float32) {
	for c := 0; c < channels; c++ {
		var acc [8][8]float32
		for r := 0; r < 8; r++ {
			blk := src[c*LaneChannel+padLaneFirst+r*laneRow:][:planeSquares]
			for v := 0; v < 8; v++ {
				for l := 0; l < 8; l++ {
					acc[v][l] += blk[v*8+l]
				}
			}
		}
		sums[c] = sum64(&acc)
	}
}

// sum64 adds 8×8 partial sums in the order the vector kernels do: the
// eight rows pairwise for each lane, then the lanes' halves, then two
// rounds of pairs, so that every path gives the same bits.
func sum64(acc *[8][8]float32) float32 {
	var lane [8]float32
	for l := 0; l < 8; l++ {
		lane[l] = ((acc[0][l] + acc[1][l]) + (acc[2][l] + acc[3][l])) + ((acc[4][l] + acc[5][l]) + (acc[6][l] + acc[7][l]))
	}
	h := [4]float32{lane[0] + lane[4], lane[1] + lane[5], lane[2] + lane[6], lane[3] + lane[7]}
	return (h[0] + h[1]) + (h[2] + h[3])
}

// fromLanes writes the interior of channels [0, channels) of src (lane
// layout) for lanes [0, s) to dst, position-major: dst[p·posStride +
// c·64 + square].
func fromLanes(src []float32, channels, s int, dst []float32, posStride int) {
	for c := 0; c < channels; c++ {
		ch := src[c*LaneChannel : (c+1)*LaneChannel]
		for sq := 0; sq < planeSquares; sq++ {
			d := ch[padSquare(sq)*Lanes : padSquare(sq)*Lanes+Lanes : padSquare(sq)*Lanes+Lanes]
			for p := 0; p < s; p++ {
				dst[p*posStride+c*planeSquares+sq] = d[p]
			}
		}
	}
}

// reluGradGo writes d[i] = dy[i] if y[i] > 0, else 0. The portable kernel.
func reluGradGo(dy, y, d []float32) {
	for i := range d {
		if y[i] > 0 {
			d[i] = dy[i]
		} else {
			d[i] = 0
		}
	}
}

// channelSumsGo writes the sum of channels [lo, hi) of x
// [batch][channels][64] to sums[lo:hi], in float32 (eight interleaved sums
// per channel, combined in a fixed order, as the assembly kernel does).
// The portable kernel.
func channelSumsGo(x []float32, batch, channels, lo, hi int, sums []float32) {
	for c := lo; c < hi; c++ {
		var acc [8][8]float32
		for b := 0; b < batch; b++ {
			blk := x[(b*channels+c)*planeSquares : (b*channels+c+1)*planeSquares]
			for v := 0; v < 8; v++ {
				for l := 0; l < 8; l++ {
					acc[v][l] += blk[v*8+l]
				}
			}
		}
		sums[c] = sum64(&acc)
	}
}
