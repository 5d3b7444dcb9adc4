//go:build amd64 && !purego

package model

import "golang.org/x/sys/cpu"

// haveAVX512 is fixed at start-up from the CPU's (and OS's) features. The
// AVX-512 set also runs the AVX2 transforms and products.
var haveAVX512 = haveAVX2 && cpu.X86.HasAVX512F

// winoIn8 is winoInputGo for 8 lanes, in assembly (AVX2); see
// wino_amd64.s. xiStride is in floats.
//
//go:noescape
func winoIn8(src, dst *float32, cin, xiStride int)

// winoOut8 is winoOutputGo for 8 lanes, in assembly (AVX2); flags bit 0
// is residual, bit 1 relu.
//
//go:noescape
func winoOut8(m, dst, bias *float32, cout, xiStride, flags int)

// sgemmPacked8x32 computes C[0:8][0:n] = A·B with A packed as k groups of
// 8 (see winoLayer.packed), n a multiple of 32; strides in floats.
// AVX-512.
//
//go:noescape
func sgemmPacked8x32(k int, a, b *float32, ldb int, c *float32, ldc, n int)

// winoInputAVX2 is winoInputGo on the assembly kernel.
func winoInputAVX2(src []float32, cin int, v []float32) {
	if cin < 1 {
		return
	}
	// The kernel trusts its pointers: check the extents once here (a
	// failure panics, which the evaluator turns into an error).
	if len(src) < cin*laneChannel || len(v) < winoPoints*winoStride(cin) {
		panic("model: winograd input transform: buffers too small")
	}
	winoIn8(&src[0], &v[0], cin, winoStride(cin))
}

// winoOutputAVX2 is winoOutputGo on the assembly kernel.
func winoOutputAVX2(m []float32, rows, cout int, bias, dst []float32, residual, relu bool) {
	if cout < 1 {
		return
	}
	if rows < cout || len(m) < winoPoints*winoStride(rows) || len(bias) < cout || len(dst) < cout*laneChannel {
		panic("model: winograd output transform: buffers too small")
	}
	flags := 0
	if residual {
		flags |= 1
	}
	if relu {
		flags |= 2
	}
	winoOut8(&m[0], &dst[0], &bias[0], cout, winoStride(rows), flags)
}

// productsAVX512 computes the Winograd products with the AVX-512 kernel on
// the packed filters, a block of 8 output rows at a time.
func productsAVX512(l *winoLayer, v, m []float32) {
	if len(l.packed) < winoPoints*l.rows*l.cin || len(v) < winoPoints*winoStride(l.cin) || len(m) < winoPoints*winoStride(l.rows) {
		panic("model: winograd products: buffers too small")
	}
	for xi := 0; xi < winoPoints; xi++ {
		vx := &v[xi*winoStride(l.cin)]
		for r := 0; r < l.rows; r += winoRowBlock {
			sgemmPacked8x32(l.cin, &l.packed[(xi*l.rows+r)*l.cin], vx, winoCols, &m[xi*winoStride(l.rows)+r*winoCols], winoCols, winoCols)
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
	if s < lanes || channels < 1 {
		toLanes(src, channels, s, dst)
		return
	}
	if len(src) < lanes*channels*planeSquares || len(dst) < channels*laneChannel {
		panic("model: lane layout: buffers too small")
	}
	// Rank r of position p (8 floats) becomes lane p of the rank's 8
	// consecutive padded squares (64 floats).
	for c := 0; c < channels; c++ {
		transpose8x8(&src[c*planeSquares], channels*planeSquares, 8, &dst[c*laneChannel+padLaneFirst], lanes, laneRow, 8)
	}
}

// fromLanesAVX2 is fromLanes with full groups transposed 8×8 in assembly.
func fromLanesAVX2(src []float32, channels, s int, dst []float32, posStride int) {
	if s < lanes || channels < 1 {
		fromLanes(src, channels, s, dst, posStride)
		return
	}
	if posStride < channels*planeSquares || len(src) < channels*laneChannel || len(dst) < (lanes-1)*posStride+channels*planeSquares {
		panic("model: lane layout: buffers too small")
	}
	for c := 0; c < channels; c++ {
		transpose8x8(&src[c*laneChannel+padLaneFirst], lanes, laneRow, &dst[c*planeSquares], posStride, 8, 8)
	}
}
