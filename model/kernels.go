package model

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// fastKernels is one implementation of the fast path's inner loops. The
// sets differ in speed only: each computes the same sums, to float32
// rounding (fused multiply-adds and summation order aside).
type fastKernels struct {
	name string
	// winoIn and winoOut are the Winograd transforms (see winoInputGo and
	// winoOutputGo for the contract).
	winoIn  func(src []float32, cin int, v []float32, ld, xiStride int)
	winoOut func(m []float32, rows, cout int, bias, dst []float32, residual, relu bool)
	// toLanes and fromLanes convert between position-major planes and
	// the lane layout (see the functions of those names).
	toLanes   func(src []float32, channels, s int, dst []float32)
	fromLanes func(src []float32, channels, s int, dst []float32, posStride int)
	// toLanesMasked is toLanes through the ReLU's gradient mask, and
	// laneSums sums each channel of a lane layout (see the functions of
	// those names).
	toLanesMasked     func(src, mask []float32, channels, s int, dst []float32)
	toLanesMaskedKeep func(src, mask, keep []float32, channels, s int, dst []float32)
	laneSums          func(src []float32, channels int, sums []float32)
	// products computes M_ξ = U_ξ·V_ξ for every ξ (see winoLayer).
	products func(l *winoLayer, v, m []float32)
	// winoOutAdj and winoInAdj are the transforms' adjoints, for training
	// (see winoOutAdjointGo and winoInAdjointGo); gemmNT is C = A·Bᵀ, or
	// C += A·Bᵀ with acc (see gemmNTGo), for the filters' gradient.
	winoOutAdj func(dy []float32, cout int, dm []float32, ld, xiStride int)
	winoInAdj  func(dv []float32, cin, xiStride int, dx []float32)
	gemmNT     func(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, acc bool)
	// reluGrad and channelSums are the ReLU's and the bias's gradients
	// (see reluGradGo and channelSumsGo).
	reluGrad    func(dy, y, d []float32)
	channelSums func(x []float32, batch, channels, lo, hi int, sums []float32)
	// gemm is the general product, C += A·B, for the 1×1 convolutions and
	// the value head's fully connected layers; gemmTo is C = A·B (C is
	// only written).
	gemm, gemmTo gemmFunc
}

// Kernel set names, fastest first.
const (
	kernelsAVX512   = "avx512"   // AVX-512 products, AVX2 transforms
	kernelsAVX2     = "avx2"     // AVX2/FMA products and transforms
	kernelsPortable = "portable" // pure Go (gonum's Sgemm)
)

// availableKernels lists the kernel sets this CPU and build can run,
// fastest first; the portable set is always last.
func availableKernels() []string {
	var names []string
	if haveAVX512 {
		names = append(names, kernelsAVX512)
	}
	if haveAVX2 {
		names = append(names, kernelsAVX2)
	}
	return append(names, kernelsPortable)
}

// kernelSet returns the named kernel set, or an error if this CPU or build
// cannot run it.
func kernelSet(name string) (*fastKernels, error) {
	avail := availableKernels()
	if name == "" {
		name = avail[0]
	}
	ok := false
	for _, a := range avail {
		ok = ok || a == name
	}
	if !ok {
		return nil, fmt.Errorf("model: kernel set %q is not available on this CPU or build (available: %v)", name, avail)
	}
	switch name {
	case kernelsAVX512:
		return &fastKernels{name: name, winoIn: winoInputAVX2, winoOut: winoOutputAVX2, toLanes: toLanesAVX512, fromLanes: fromLanesAVX2,
			winoOutAdj: winoOutAdjointAVX2, winoInAdj: winoInAdjointAVX2, gemmNT: gemmNTAVX512, reluGrad: reluGradAVX2, channelSums: channelSumsAVX2, products: productsAVX512, gemm: gemmAccAVX2, gemmTo: gemmToAVX2,
			toLanesMasked: toLanesMaskedAVX512, toLanesMaskedKeep: toLanesMaskedKeepAVX512, laneSums: laneSumsAVX2}, nil
	case kernelsAVX2:
		return &fastKernels{name: name, winoIn: winoInputAVX2, winoOut: winoOutputAVX2, toLanes: toLanesAVX2, fromLanes: fromLanesAVX2,
			winoOutAdj: winoOutAdjointAVX2, winoInAdj: winoInAdjointAVX2, gemmNT: gemmNTAVX2, reluGrad: reluGradAVX2, channelSums: channelSumsAVX2, products: productsAVX2, gemm: gemmAccAVX2, gemmTo: gemmToAVX2,
			toLanesMasked: toLanesMaskedAVX2, toLanesMaskedKeep: toLanesMaskedKeepAVX2, laneSums: laneSumsAVX2}, nil
	default:
		return &fastKernels{name: name, winoIn: winoInputGo, winoOut: winoOutputGo, toLanes: toLanes, fromLanes: fromLanes,
			winoOutAdj: winoOutAdjointGo, winoInAdj: winoInAdjointGo, gemmNT: gemmNTGo, reluGrad: reluGradGo, channelSums: channelSumsGo, products: productsGo, gemm: gemmAccGonum, gemmTo: gemmToGonum,
			toLanesMasked: toLanesMasked, toLanesMaskedKeep: toLanesMaskedKeep, laneSums: laneSums}, nil
	}
}

// productsGo computes the Winograd products with gonum's pure-Go Sgemm.
func productsGo(l *winoLayer, v, m []float32) {
	var impl gonum.Implementation
	for xi := 0; xi < winoPoints; xi++ {
		impl.Sgemm(blas.NoTrans, blas.NoTrans, l.cout, winoCols, l.cin, 1,
			l.u[xi*l.cout*l.cin:], l.cin, v[xi*winoStride(l.cin):], winoCols, 0, m[xi*winoStride(l.rows):], winoCols)
	}
}

// productsAVX2 computes the Winograd products with the AVX2 kernel.
func productsAVX2(l *winoLayer, v, m []float32) {
	for xi := 0; xi < winoPoints; xi++ {
		gemmAVX2(l.cout, winoCols, l.cin, l.u[xi*l.cout*l.cin:], l.cin, v[xi*winoStride(l.cin):], winoCols, m[xi*winoStride(l.rows):], winoCols, false, false)
	}
}

// gemmToGonum is gemmAccGonum overwriting C.
func gemmToGonum(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, relu bool) {
	clearMatrix(m, n, c, ldc)
	gemmAccGonum(m, n, k, a, lda, b, ldb, c, ldc, relu)
}

// gemmToAVX2 is gemmAccAVX2 overwriting C (never reading it).
func gemmToAVX2(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, relu bool) {
	gemmAVX2(m, n, k, a, lda, b, ldb, c, ldc, relu, false)
}
