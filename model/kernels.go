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
	winoIn  func(src []float32, cin int, v []float32)
	winoOut func(m []float32, rows, cout int, bias, dst []float32, residual, relu bool)
	// products computes M_ξ = U_ξ·V_ξ for every ξ (see winoLayer).
	products func(l *winoLayer, v, m []float32)
	// gemm is the general product, for the 1×1 convolutions and the
	// value head's fully connected layers.
	gemm gemmFunc
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
		return &fastKernels{name: name, winoIn: winoInputAVX2, winoOut: winoOutputAVX2, products: productsAVX512, gemm: gemmAccAVX2}, nil
	case kernelsAVX2:
		return &fastKernels{name: name, winoIn: winoInputAVX2, winoOut: winoOutputAVX2, products: productsAVX2, gemm: gemmAccAVX2}, nil
	default:
		return &fastKernels{name: name, winoIn: winoInputGo, winoOut: winoOutputGo, products: productsGo, gemm: gemmAccGonum}, nil
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
