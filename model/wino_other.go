//go:build !amd64 || purego

package model

// No assembly kernels on this platform or with the purego tag; these are
// never selected (see availableKernels) but keep the kernel table uniform.
const haveAVX512 = false

func winoInputAVX2(src []float32, cin int, v []float32) { winoInputGo(src, cin, v) }

func winoOutputAVX2(m []float32, rows, cout int, bias, dst []float32, residual, relu bool) {
	winoOutputGo(m, rows, cout, bias, dst, residual, relu)
}

func productsAVX512(l *winoLayer, v, m []float32) { productsGo(l, v, m) }

func toLanesAVX2(src []float32, channels, s int, dst []float32) { toLanes(src, channels, s, dst) }

func fromLanesAVX2(src []float32, channels, s int, dst []float32, posStride int) {
	fromLanes(src, channels, s, dst, posStride)
}
