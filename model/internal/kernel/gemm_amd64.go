//go:build amd64 && !purego

package kernel

import "golang.org/x/sys/cpu"

// HaveAVX2 is fixed at start-up from the CPU's (and OS's) features; the
// "purego" build tag compiles the assembly out entirely.
var HaveAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// sgemm4x16 computes C[0:4][0:16] += A[0:4][0:k] · B[0:k][0:16] (if acc;
// C = A·B, without reading C, otherwise), strides in elements, then if relu
// replaces C by max(C, 0). Implemented in gemm_amd64.s with AVX2 FMA.
//
//go:noescape
func sgemm4x16(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int, relu, acc bool)

// sgemm1x16 is sgemm4x16 for a single row.
//
//go:noescape
func sgemm1x16(k int, a *float32, b *float32, ldb int, c *float32, relu, acc bool)

// gemmAccAVX2 is gemmAcc with the AVX2 kernels.
func gemmAccAVX2(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, relu bool) {
	GemmAVX2(m, n, k, a, lda, b, ldb, c, ldc, relu, true)
}

// GemmAVX2 computes C += A·B if acc, else C = A·B without reading C (so
// that stale or NaN contents do not matter), then applies the ReLU if relu;
// layout as in gemmAccGonum. 16-column panels of B are each swept by 4-row
// blocks of A, so that the panel (k×16 floats) stays in L1 while every block
// of rows uses it: callers keep k moderate (training's BLAS cuts k into blocks). Each element
// of C is computed by the 4-row kernel unless its row is among the last m%4,
// and by the naive loop if its column is among the last n%16.
func GemmAVX2(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, relu, acc bool) {
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		if !acc {
			clearMatrix(m, n, c, ldc)
		}
		if relu {
			reluMatrix(m, n, c, ldc)
		}
		return
	}
	// The kernels trust their pointers: check the extents once here (a
	// failure panics, which the evaluator turns into an error).
	if lda < k || ldb < n || ldc < n || len(a) < (m-1)*lda+k || len(b) < (k-1)*ldb+n || len(c) < (m-1)*ldc+n {
		panic("model: gemm: matrix extents out of range")
	}
	n16 := n &^ 15
	for j := 0; j < n16; j += 16 {
		i := 0
		for ; i+4 <= m; i += 4 {
			sgemm4x16(k, &a[i*lda], lda, &b[j], ldb, &c[i*ldc+j], ldc, relu, acc)
		}
		for ; i < m; i++ {
			sgemm1x16(k, &a[i*lda], &b[j], ldb, &c[i*ldc+j], relu, acc)
		}
	}
	if n16 < n {
		if !acc {
			clearMatrix(m, n-n16, c[n16:], ldc)
		}
		gemmAccNaive(m, n-n16, k, a, lda, b[n16:], ldb, c[n16:], ldc, relu)
	}
}
