package kernel

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// gemmAccGonum computes C += A·B for row-major A (m×k, stride lda), B (k×n,
// stride ldb) and C (m×n, stride ldc), on the calling goroutine only; then,
// if relu, C = max(C, 0).
//
// It uses gonum's pure-Go Sgemm (whose inner loop is an SSE axpy) on tiles
// small enough that gonum stays serial: on larger matrices gonum spawns a
// goroutine per 64×64 block, which allocates and would fight the
// evaluator's own per-core parallelism.
func gemmAccGonum(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, relu bool) {
	if m == 0 || n == 0 {
		return
	}
	if relu {
		defer reluMatrix(m, n, c, ldc)
	}
	if k == 0 {
		return
	}
	var impl gonum.Implementation
	const tm, tn = 64, 3 * 64 // 1×3 blocks: below gonum's parallel threshold of 4
	for i := 0; i < m; i += tm {
		mm := min(tm, m-i)
		for j := 0; j < n; j += tn {
			nn := min(tn, n-j)
			impl.Sgemm(blas.NoTrans, blas.NoTrans, mm, nn, k, 1, a[i*lda:], lda, b[j:], ldb, 1, c[i*ldc+j:], ldc)
		}
	}
}

// GemmFunc computes C += A·B (see gemmAccGonum for the layout).
type GemmFunc func(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, relu bool)

// bestGemm returns the fastest product this CPU supports.
func bestGemm() GemmFunc {
	if HaveAVX2 {
		return gemmAccAVX2
	}
	return gemmAccGonum
}

// gemmAccNaive is the plain triple loop, for edges the kernels skip.
func gemmAccNaive(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, relu bool) {
	for i := 0; i < m; i++ {
		cr := c[i*ldc : i*ldc+n]
		for l, av := range a[i*lda : i*lda+k] {
			br := b[l*ldb : l*ldb+n]
			for j := range cr {
				cr[j] += av * br[j]
			}
		}
		if relu {
			reluInPlace(cr)
		}
	}
}

func reluMatrix(m, n int, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		reluInPlace(c[i*ldc : i*ldc+n])
	}
}

func clearMatrix(m, n int, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		clear(c[i*ldc : i*ldc+n])
	}
}

func Fill(s []float32, v float32) {
	for i := range s {
		s[i] = v
	}
}

func reluInPlace(s []float32) {
	for i, v := range s {
		if v < 0 {
			s[i] = 0
		}
	}
}
