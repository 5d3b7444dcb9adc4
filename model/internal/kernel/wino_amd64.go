//go:build amd64 && !purego

package kernel

import "golang.org/x/sys/cpu"

// HaveAVX512 is fixed at start-up from the CPU's (and OS's) features. The
// AVX-512 set also runs the AVX2 transforms and products.
var HaveAVX512 = HaveAVX2 && cpu.X86.HasAVX512F

// winoIn8 is winoInputGo for 8 lanes, in assembly (AVX2); see
// wino_amd64.s. ld and xiStride are in floats.
//
//go:noescape
func winoIn8(src, dst *float32, cin, ld, xiStride int)

// winoOut8 is winoOutputGo for 8 lanes, in assembly (AVX2); flags bit 0
// is residual, bit 1 relu.
//
//go:noescape
func winoOut8(m, dst, bias *float32, cout, xiStride, flags int)

// sgemmPacked8x32 computes C[0:8][0:n] = A·B with A packed as k groups of
// 8 (see Layer.packed), n a multiple of 32; strides in floats.
// AVX-512.
//
//go:noescape
func sgemmPacked8x32(k int, a, b *float32, ldb int, c *float32, ldc, n int)

// winoInputAVX2 is winoInputGo on the assembly kernel.
func winoInputAVX2(src []float32, cin int, v []float32, ld, xiStride int) {
	if cin < 1 {
		return
	}
	// The kernel trusts its pointers: check the extents once here (a
	// failure panics, which the evaluator turns into an error).
	if ld < Cols || xiStride < cin*ld || len(src) < cin*LaneChannel || len(v) < (Points-1)*xiStride+(cin-1)*ld+Cols {
		panic("model: winograd input transform: buffers too small")
	}
	winoIn8(&src[0], &v[0], cin, ld, xiStride)
}

// winoOutputAVX2 is winoOutputGo on the assembly kernel.
func winoOutputAVX2(m []float32, rows, cout int, bias, dst []float32, residual, relu bool) {
	if cout < 1 {
		return
	}
	if rows < cout || len(m) < Points*Stride(rows) || len(bias) < cout || len(dst) < cout*LaneChannel {
		panic("model: winograd output transform: buffers too small")
	}
	flags := 0
	if residual {
		flags |= 1
	}
	if relu {
		flags |= 2
	}
	winoOut8(&m[0], &dst[0], &bias[0], cout, Stride(rows), flags)
}

// productsAVX512 computes the Winograd products with the AVX-512 kernel on
// the packed filters, a block of 8 output rows at a time.
func productsAVX512(l *Layer, v, m []float32) {
	if len(l.packed) < Points*l.Rows*l.Cin || len(v) < Points*Stride(l.Cin) || len(m) < Points*Stride(l.Rows) {
		panic("model: winograd products: buffers too small")
	}
	for xi := 0; xi < Points; xi++ {
		vx := &v[xi*Stride(l.Cin)]
		for r := 0; r < l.Rows; r += RowBlock {
			sgemmPacked8x32(l.Cin, &l.packed[(xi*l.Rows+r)*l.Cin], vx, Cols, &m[xi*Stride(l.Rows)+r*Cols], Cols, Cols)
		}
	}
}

// transpose8x8 transposes count 8×8 blocks (strides and steps in floats);
// see wino_amd64.s.
//
//go:noescape
func transpose8x8(src *float32, srcStride, srcStep int, dst *float32, dstStride, dstStep, count int)

// toLanesAVX2 is toLanes with full groups transposed 8×8 in assembly.
func toLanesAVX2(src []float32, channels, s int, dst []float32) {
	if s < Lanes || channels < 1 {
		toLanes(src, channels, s, dst)
		return
	}
	if len(src) < Lanes*channels*planeSquares || len(dst) < channels*LaneChannel {
		panic("model: lane layout: buffers too small")
	}
	// Rank r of position p (8 floats) becomes lane p of the rank's 8
	// consecutive padded squares (64 floats).
	for c := 0; c < channels; c++ {
		transpose8x8(&src[c*planeSquares], channels*planeSquares, 8, &dst[c*LaneChannel+padLaneFirst], Lanes, laneRow, 8)
	}
}

// fromLanesAVX2 is fromLanes with full groups transposed 8×8 in assembly.
func fromLanesAVX2(src []float32, channels, s int, dst []float32, posStride int) {
	if s < Lanes || channels < 1 {
		fromLanes(src, channels, s, dst, posStride)
		return
	}
	if posStride < channels*planeSquares || len(src) < channels*LaneChannel || len(dst) < (Lanes-1)*posStride+channels*planeSquares {
		panic("model: lane layout: buffers too small")
	}
	for c := 0; c < channels; c++ {
		transpose8x8(&src[c*LaneChannel+padLaneFirst], Lanes, laneRow, &dst[c*planeSquares], posStride, 8, 8)
	}
}

// gemmNT4x4AVX512 and gemmNT4x4AVX2 compute the 4×4 block C = A·Bᵀ of
// rows of A and B (k a multiple of 16, resp. 8; strides in floats), or
// C += A·Bᵀ if acc is not 0; see wino_amd64.s.
//
//go:noescape
func gemmNT4x4AVX512(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc, acc int)

//go:noescape
func gemmNT4x4AVX2(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc, acc int)

// gemmNTAVX512 is gemmNTGo on the AVX-512 block kernel where m and n are
// multiples of 4 and k of 16 (as the filter gradient's products are), on
// gemmNTGo otherwise.
func gemmNTAVX512(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	gemmNTBlocks(m, n, k, 16, a, lda, b, ldb, c, ldc, acc, gemmNT4x4AVX512)
}

// gemmNTAVX2 is gemmNTAVX512 on the AVX2 block kernel (k a multiple of 8).
func gemmNTAVX2(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	gemmNTBlocks(m, n, k, 8, a, lda, b, ldb, c, ldc, acc, gemmNT4x4AVX2)
}

func gemmNTBlocks(m, n, k, kUnit int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, acc bool,
	kernel func(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc, acc int)) {
	if m == 0 || n == 0 {
		return
	}
	if m%4 != 0 || n%4 != 0 || k == 0 || k%kUnit != 0 {
		gemmNTGo(m, n, k, a, lda, b, ldb, c, ldc, acc)
		return
	}
	if lda < k || ldb < k || ldc < n || len(a) < (m-1)*lda+k || len(b) < (n-1)*ldb+k || len(c) < (m-1)*ldc+n {
		panic("model: gemmNT: matrix extents out of range")
	}
	ac := 0
	if acc {
		ac = 1
	}
	for i := 0; i < m; i += 4 {
		for j := 0; j < n; j += 4 {
			kernel(k, &a[i*lda], lda, &b[j*ldb], ldb, &c[i*ldc+j], ldc, ac)
		}
	}
}

// winoOutAdj8 and winoInAdj8 are the adjoint transforms for 8 lanes, in
// assembly (AVX2); see wino_amd64.s. Strides in floats.
//
//go:noescape
func winoOutAdj8(dy, dm *float32, cout, ld, xiStride int)

//go:noescape
func winoInAdj8(dv *float32, cin, xiStride int, dx *float32)

// winoOutAdjointAVX2 is winoOutAdjointGo on the assembly kernel.
func winoOutAdjointAVX2(dy []float32, cout int, dm []float32, ld, xiStride int) {
	if cout < 1 {
		return
	}
	if ld < Cols || xiStride < cout*ld || len(dy) < cout*LaneChannel || len(dm) < (Points-1)*xiStride+(cout-1)*ld+Cols {
		panic("model: winograd output adjoint: buffers too small")
	}
	winoOutAdj8(&dy[0], &dm[0], cout, ld, xiStride)
}

// winoInAdjointAVX2 is winoInAdjointGo on the assembly kernel.
func winoInAdjointAVX2(dv []float32, cin, xiStride int, dx []float32) {
	if cin < 1 {
		return
	}
	if xiStride < cin*Cols || len(dv) < (Points-1)*xiStride+cin*Cols || len(dx) < cin*LaneChannel {
		panic("model: winograd input adjoint: buffers too small")
	}
	clear(dx[:cin*LaneChannel])
	winoInAdj8(&dv[0], cin, xiStride, &dx[0])
}

// reluGrad8 masks dy by y > 0 into d, n a multiple of 8 (AVX2); see
// wino_amd64.s.
//
//go:noescape
func reluGrad8(dy, y, d *float32, n int)

// sumBlocks64 sums blocks blocks of 64 floats, stride floats apart (AVX2).
//
//go:noescape
func sumBlocks64(x *float32, blocks, stride int) float32

// reluGradAVX2 is reluGradGo on the assembly kernel.
func reluGradAVX2(dy, y, d []float32) {
	n := len(d) &^ 7
	if len(dy) < len(d) || len(y) < len(d) {
		panic("model: relu gradient: buffers too small")
	}
	if n > 0 {
		reluGrad8(&dy[0], &y[0], &d[0], n)
	}
	reluGradGo(dy[n:len(d)], y[n:len(d)], d[n:])
}

// channelSumsAVX2 is channelSumsGo on the assembly kernel.
func channelSumsAVX2(x []float32, batch, channels, lo, hi int, sums []float32) {
	if batch < 1 {
		clear(sums[lo:hi])
		return
	}
	if lo < 0 || hi > channels || len(x) < batch*channels*planeSquares || len(sums) < hi {
		panic("model: channel sums: buffers too small")
	}
	for c := lo; c < hi; c++ {
		sums[c] = sumBlocks64(&x[c*planeSquares], batch, channels*planeSquares)
	}
}

// nonzeroBits16 writes, for each of blocks blocks of 16 floats from src, a
// word of bits[i] set where a float is not ±0 (AVX-512); see wino_amd64.s.
//
//go:noescape
func nonzeroBits16(src *float32, blocks int, bits *uint16)

// NonzeroWords is nonzeroBits16 on slices where the CPU has AVX-512: it
// fills bits[:len(src)/16] and returns how many it filled (0 without
// AVX-512).
func NonzeroWords(src []float32, bits []uint16) int {
	n := min(len(src)/16, len(bits))
	if !HaveAVX512 || n == 0 {
		return 0
	}
	nonzeroBits16(&src[0], n, &bits[0])
	return n
}

// transpose8x8Masked is transpose8x8 of src masked by mask > 0; see
// wino_amd64.s.
//
//go:noescape
func transpose8x8Masked(src, mask *float32, srcStride, srcStep int, dst *float32, dstStride, dstStep, count int)

// toLanesMaskedAVX2 is toLanesMasked with full groups transposed and
// masked 8×8 in assembly.
func toLanesMaskedAVX2(src, mask []float32, channels, s int, dst []float32) {
	if s < Lanes || channels < 1 {
		toLanesMasked(src, mask, channels, s, dst)
		return
	}
	if len(src) < Lanes*channels*planeSquares || len(mask) < Lanes*channels*planeSquares || len(dst) < channels*LaneChannel {
		panic("model: lane layout: buffers too small")
	}
	for c := 0; c < channels; c++ {
		transpose8x8Masked(&src[c*planeSquares], &mask[c*planeSquares], channels*planeSquares, 8, &dst[c*LaneChannel+padLaneFirst], Lanes, laneRow, 8)
	}
}

// laneSumsAVX2 is laneSums on the assembly kernel.
func laneSumsAVX2(src []float32, channels int, sums []float32) {
	if len(src) < channels*LaneChannel || len(sums) < channels {
		panic("model: lane sums: buffers too small")
	}
	for c := 0; c < channels; c++ {
		sums[c] = sumBlocks64(&src[c*LaneChannel+padLaneFirst], 8, laneRow)
	}
}

// sgemmPacked8x32Bias is sgemmPacked8x32 with each row's sums started
// from its bias and, if relu is not 0, clamped at zero (NaNs kept); see
// wino_amd64.s.
//
//go:noescape
func sgemmPacked8x32Bias(k int, a, b *float32, ldb int, c *float32, ldc, n int, bias *float32, relu int)

// PackedProductBias computes C[0:8][0:n] = A·B + bias, clamped at zero if
// relu, for A packed as k groups of 8 floats (8 rows side by side), B
// row-major k×n (stride ldb), n a multiple of 32, on the AVX-512 kernel.
func PackedProductBias(k int, a, b []float32, ldb int, c []float32, ldc, n int, bias []float32, relu bool) {
	if k < 1 || n < 32 || n%32 != 0 || ldb < n || ldc < n || len(a) < 8*k || len(b) < (k-1)*ldb+n || len(c) < 7*ldc+n || len(bias) < 8 {
		panic("model: packed product: matrix extents out of range")
	}
	r := 0
	if relu {
		r = 1
	}
	sgemmPacked8x32Bias(k, &a[0], &b[0], ldb, &c[0], ldc, n, &bias[0], r)
}

// transpose8x8MaskedKeep is transpose8x8Masked that also stores the
// masked rows at keep; see wino_amd64.s.
//
//go:noescape
func transpose8x8MaskedKeep(src, mask, keep *float32, srcStride, srcStep int, dst *float32, dstStride, dstStep, count int)

// toLanesMaskedKeepAVX2 is toLanesMaskedKeep with full groups in assembly.
func toLanesMaskedKeepAVX2(src, mask, keep []float32, channels, s int, dst []float32) {
	if s < Lanes || channels < 1 {
		toLanesMaskedKeep(src, mask, keep, channels, s, dst)
		return
	}
	n := Lanes * channels * planeSquares
	if len(src) < n || len(mask) < n || len(keep) < n || len(dst) < channels*LaneChannel {
		panic("model: lane layout: buffers too small")
	}
	for c := 0; c < channels; c++ {
		transpose8x8MaskedKeep(&src[c*planeSquares], &mask[c*planeSquares], &keep[c*planeSquares], channels*planeSquares, 8, &dst[c*LaneChannel+padLaneFirst], Lanes, laneRow, 8)
	}
}

// toLanes512 is toLanes for full groups, transposing two 8×8 blocks per
// ZMM register, and toLanesMasked512 the same through the ReLU's gradient
// mask, keeping the masked values if keep is not nil (AVX-512); see
// wino_amd64.s.
//
//go:noescape
func toLanes512(src, dst *float32, channels, posStride int)

//go:noescape
func toLanesMasked512(src, mask, keep, dst *float32, channels, posStride int)

// toLanesAVX512 is toLanes on toLanes512 for full groups.
func toLanesAVX512(src []float32, channels, s int, dst []float32) {
	if s < Lanes || channels < 1 {
		toLanes(src, channels, s, dst)
		return
	}
	if len(src) < Lanes*channels*planeSquares || len(dst) < channels*LaneChannel {
		panic("model: lane layout: buffers too small")
	}
	toLanes512(&src[0], &dst[0], channels, channels*planeSquares)
}

// toLanesMaskedAVX512 is toLanesMasked on toLanesMasked512 for full groups.
func toLanesMaskedAVX512(src, mask []float32, channels, s int, dst []float32) {
	if s < Lanes || channels < 1 {
		toLanesMasked(src, mask, channels, s, dst)
		return
	}
	n := Lanes * channels * planeSquares
	if len(src) < n || len(mask) < n || len(dst) < channels*LaneChannel {
		panic("model: lane layout: buffers too small")
	}
	toLanesMasked512(&src[0], &mask[0], nil, &dst[0], channels, channels*planeSquares)
}

// toLanesMaskedKeepAVX512 is toLanesMaskedKeep on toLanesMasked512 for
// full groups.
func toLanesMaskedKeepAVX512(src, mask, keep []float32, channels, s int, dst []float32) {
	if s < Lanes || channels < 1 {
		toLanesMaskedKeep(src, mask, keep, channels, s, dst)
		return
	}
	n := Lanes * channels * planeSquares
	if len(src) < n || len(mask) < n || len(keep) < n || len(dst) < channels*LaneChannel {
		panic("model: lane layout: buffers too small")
	}
	toLanesMasked512(&src[0], &mask[0], &keep[0], &dst[0], channels, channels*planeSquares)
}
