package kernel

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Set is one implementation of the fast path's inner loops. The
// sets differ in speed only: each computes the same sums, to float32
// rounding (fused multiply-adds and summation order aside).
type Set struct {
	// Name is the set's name: AVX512, AVX2 or Portable.
	Name string
	// WinoIn and WinoOut are the Winograd transforms (see winoInputGo and
	// winoOutputGo for the contract).
	WinoIn  func(src []float32, cin int, v []float32, ld, xiStride int)
	WinoOut func(m []float32, rows, cout int, bias, dst []float32, residual, relu bool)
	// ToLanes and FromLanes convert between position-major planes and
	// the lane layout (see the functions of those names).
	ToLanes   func(src []float32, channels, s int, dst []float32)
	FromLanes func(src []float32, channels, s int, dst []float32, posStride int)
	// ToLanesMasked is toLanes through the ReLU's gradient mask, and
	// LaneSums sums each channel of a lane layout (see the functions of
	// those names).
	ToLanesMasked     func(src, mask []float32, channels, s int, dst []float32)
	ToLanesMaskedKeep func(src, mask, keep []float32, channels, s int, dst []float32)
	LaneSums          func(src []float32, channels int, sums []float32)
	// Products computes M_ξ = U_ξ·V_ξ for every ξ (see Layer).
	Products func(l *Layer, v, m []float32)
	// WinoOutAdj and WinoInAdj are the transforms' adjoints, for training
	// (see winoOutAdjointGo and winoInAdjointGo); GemmNT is C = A·Bᵀ, or
	// C += A·Bᵀ with acc (see gemmNTGo), for the filters' gradient.
	WinoOutAdj func(dy []float32, cout int, dm []float32, ld, xiStride int)
	WinoInAdj  func(dv []float32, cin, xiStride int, dx []float32)
	GemmNT     func(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, acc bool)
	// ReluGrad and ChannelSums are the ReLU's and the bias's gradients
	// (see reluGradGo and channelSumsGo).
	ReluGrad    func(dy, y, d []float32)
	ChannelSums func(x []float32, batch, channels, lo, hi int, sums []float32)
	// Gemm is the general product, C += A·B, for the 1×1 convolutions and
	// the value head's fully connected layers; GemmTo is C = A·B (C is
	// only written).
	Gemm, GemmTo GemmFunc
}

// Kernel set names, fastest first.
const (
	AVX512   = "avx512"   // AVX-512 products, AVX2 transforms
	AVX2     = "avx2"     // AVX2/FMA products and transforms
	Portable = "portable" // pure Go (gonum's Sgemm)
)

// Available lists the kernel sets this CPU and build can run,
// fastest first; the portable set is always last.
func Available() []string {
	var names []string
	if HaveAVX512 {
		names = append(names, AVX512)
	}
	if HaveAVX2 {
		names = append(names, AVX2)
	}
	return append(names, Portable)
}

// ByName returns the named kernel set, or an error if this CPU or build
// cannot run it.
func ByName(name string) (*Set, error) {
	avail := Available()
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
	case AVX512:
		return &Set{Name: name, WinoIn: winoInputAVX2, WinoOut: winoOutputAVX2, ToLanes: toLanesAVX512, FromLanes: fromLanesAVX2,
			WinoOutAdj: winoOutAdjointAVX2, WinoInAdj: winoInAdjointAVX2, GemmNT: gemmNTAVX512, ReluGrad: reluGradAVX2, ChannelSums: channelSumsAVX2, Products: productsAVX512, Gemm: gemmAccAVX2, GemmTo: gemmToAVX2,
			ToLanesMasked: toLanesMaskedAVX512, ToLanesMaskedKeep: toLanesMaskedKeepAVX512, LaneSums: laneSumsAVX2}, nil
	case AVX2:
		return &Set{Name: name, WinoIn: winoInputAVX2, WinoOut: winoOutputAVX2, ToLanes: toLanesAVX2, FromLanes: fromLanesAVX2,
			WinoOutAdj: winoOutAdjointAVX2, WinoInAdj: winoInAdjointAVX2, GemmNT: gemmNTAVX2, ReluGrad: reluGradAVX2, ChannelSums: channelSumsAVX2, Products: productsAVX2, Gemm: gemmAccAVX2, GemmTo: gemmToAVX2,
			ToLanesMasked: toLanesMaskedAVX2, ToLanesMaskedKeep: toLanesMaskedKeepAVX2, LaneSums: laneSumsAVX2}, nil
	default:
		return &Set{Name: name, WinoIn: winoInputGo, WinoOut: winoOutputGo, ToLanes: toLanes, FromLanes: fromLanes,
			WinoOutAdj: winoOutAdjointGo, WinoInAdj: winoInAdjointGo, GemmNT: gemmNTGo, ReluGrad: reluGradGo, ChannelSums: channelSumsGo, Products: productsGo, Gemm: gemmAccGonum, GemmTo: gemmToGonum,
			ToLanesMasked: toLanesMasked, ToLanesMaskedKeep: toLanesMaskedKeep, LaneSums: laneSums}, nil
	}
}

// productsGo computes the Winograd products with gonum's pure-Go Sgemm.
func productsGo(l *Layer, v, m []float32) {
	var impl gonum.Implementation
	for xi := 0; xi < Points; xi++ {
		impl.Sgemm(blas.NoTrans, blas.NoTrans, l.Cout, Cols, l.Cin, 1,
			l.u[xi*l.Cout*l.Cin:], l.Cin, v[xi*Stride(l.Cin):], Cols, 0, m[xi*Stride(l.Rows):], Cols)
	}
}

// productsAVX2 computes the Winograd products with the AVX2 kernel.
func productsAVX2(l *Layer, v, m []float32) {
	for xi := 0; xi < Points; xi++ {
		GemmAVX2(l.Cout, Cols, l.Cin, l.u[xi*l.Cout*l.Cin:], l.Cin, v[xi*Stride(l.Cin):], Cols, m[xi*Stride(l.Rows):], Cols, false, false)
	}
}

// gemmToGonum is gemmAccGonum overwriting C.
func gemmToGonum(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, relu bool) {
	clearMatrix(m, n, c, ldc)
	gemmAccGonum(m, n, k, a, lda, b, ldb, c, ldc, relu)
}

// gemmToAVX2 is gemmAccAVX2 overwriting C (never reading it).
func gemmToAVX2(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, relu bool) {
	GemmAVX2(m, n, k, a, lda, b, ldb, c, ldc, relu, false)
}
