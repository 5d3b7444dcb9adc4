//go:build !amd64 || purego

package kernel

// No assembly kernels on this platform or with the purego tag.
const HaveAVX2 = false

func gemmAccAVX2(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, relu bool) {
	gemmAccGonum(m, n, k, a, lda, b, ldb, c, ldc, relu)
}

func GemmAVX2(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, relu, acc bool) {
	if !acc {
		clearMatrix(m, n, c, ldc)
	}
	gemmAccGonum(m, n, k, a, lda, b, ldb, c, ldc, relu)
}
