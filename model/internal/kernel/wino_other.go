//go:build !amd64 || purego

package kernel

// No assembly kernels on this platform or with the purego tag; these are
// never selected (see Available) but keep the kernel table uniform.
const HaveAVX512 = false

func winoInputAVX2(src []float32, cin int, v []float32, ld, xiStride int) {
	winoInputGo(src, cin, v, ld, xiStride)
}

func winoOutputAVX2(m []float32, rows, cout int, bias, dst []float32, residual, relu bool) {
	winoOutputGo(m, rows, cout, bias, dst, residual, relu)
}

func productsAVX512(l *Layer, v, m []float32) { productsGo(l, v, m) }

func toLanesAVX2(src []float32, channels, s int, dst []float32) { toLanes(src, channels, s, dst) }

func fromLanesAVX2(src []float32, channels, s int, dst []float32, posStride int) {
	fromLanes(src, channels, s, dst, posStride)
}

func gemmNTAVX512(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	gemmNTGo(m, n, k, a, lda, b, ldb, c, ldc, acc)
}

func gemmNTAVX2(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	gemmNTGo(m, n, k, a, lda, b, ldb, c, ldc, acc)
}

func winoOutAdjointAVX2(dy []float32, cout int, dm []float32, ld, xiStride int) {
	winoOutAdjointGo(dy, cout, dm, ld, xiStride)
}

func winoInAdjointAVX2(dv []float32, cin, xiStride int, dx []float32) {
	winoInAdjointGo(dv, cin, xiStride, dx)
}

func reluGradAVX2(dy, y, d []float32) { reluGradGo(dy, y, d) }

func channelSumsAVX2(x []float32, batch, channels, lo, hi int, sums []float32) {
	channelSumsGo(x, batch, channels, lo, hi, sums)
}

func NonzeroWords(src []float32, bits []uint16) int { return 0 }

func toLanesMaskedAVX2(src, mask []float32, channels, s int, dst []float32) {
	toLanesMasked(src, mask, channels, s, dst)
}

func laneSumsAVX2(src []float32, channels int, sums []float32) { laneSums(src, channels, sums) }

// PackedProductBias is never called without the AVX-512 kernel set.
func PackedProductBias(k int, a, b []float32, ldb int, c []float32, ldc, n int, bias []float32, relu bool) {
	panic("model: packed product: no AVX-512 kernels in this build")
}

func toLanesMaskedKeepAVX2(src, mask, keep []float32, channels, s int, dst []float32) {
	toLanesMaskedKeep(src, mask, keep, channels, s, dst)
}

func toLanesAVX512(src []float32, channels, s int, dst []float32) { toLanes(src, channels, s, dst) }

func toLanesMaskedAVX512(src, mask []float32, channels, s int, dst []float32) {
	toLanesMasked(src, mask, channels, s, dst)
}

func toLanesMaskedKeepAVX512(src, mask, keep []float32, channels, s int, dst []float32) {
	toLanesMaskedKeep(src, mask, keep, channels, s, dst)
}
