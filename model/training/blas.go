package training

import (
	"runtime"
	"sync"

	"github.com/alicezero/alicezero/model/internal/kernel"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	G "gorgonia.org/gorgonia"
)

// kernelBLAS is the BLAS that gorgonia's matrix products run on: gonum's
// pure-Go implementation with Sgemm replaced by the package's AVX2/FMA
// kernel (gemmAVX2) wherever that kernel covers the call.
//
// In gorgonia v0.9.18 every float32 product of our graphs (the im2col
// product of Conv2d, Mul, and their gradients) is tensor.MatMul, which
// calls the BLAS of package gorgonia.org/tensor (tensor.WhichBLAS) with
// α = 1, β = 0 and row-major operands, transposed by flags; gorgonia.Use
// sets both gorgonia's and tensor's BLAS. No Sgemv, Sger or Sdot is called
// by our graphs, so only Sgemm is overridden.
//
// Sgemm falls back to gonum for α ≠ 1, for fewer than 16 output columns
// (the kernel's panel width), for empty products and for invalid arguments
// (which gonum then reports by panicking, as the BLAS interface demands).
// Otherwise a transposed operand is first copied untransposed into a pooled
// buffer and the product is computed in k-blocks, split over GOMAXPROCS
// goroutines by rows (multiples of 4) or columns (multiples of 16). The
// split never changes which kernel computes an element of C nor the order
// in which its terms are summed, so results do not depend on GOMAXPROCS:
// training stays bit-reproducible on one machine. They differ from gonum's
// by float32 rounding only (fused multiply-adds, another summation order).
type kernelBLAS struct {
	gonum.Implementation
}

var installBLASOnce sync.Once

// installKernelBLAS makes gorgonia use kernelBLAS, if this CPU has the
// AVX2 kernel (never with the purego build tag, which keeps training pure
// Go on gonum). gorgonia.Use sets process-wide state (gorgonia's and
// tensor's package-level BLAS, read without synchronisation by every
// matrix product), so it is done exactly once, when the first Trainer or
// GraphEvaluator is created and before it builds or runs a graph: every
// graph run happens after some creator's call returned, so no product can
// race with the assignment. (The package's only other gorgonia user is
// itself; nothing else in the program calls gorgonia.Use.)
func installKernelBLAS() {
	installBLASOnce.Do(func() {
		if kernel.HaveAVX2 {
			G.Use(kernelBLAS{})
		}
	})
}

// Blocking and threading parameters of kernelBLAS.Sgemm.
const (
	// gemmKC is the depth of a k-block: a 16-column panel of B (kc×16
	// floats, 16 KiB) stays in L1 while the kernel sweeps rows of A.
	gemmKC = 256
	// gemmMC rows of A per block (a multiple of 4): gemmMC×gemmKC floats
	// (64 KiB) stay in L2 across all the panels of B.
	gemmMC = 64
	// gemmParallelFlops is the smallest product (2mnk) split across
	// goroutines.
	gemmParallelFlops = 1 << 21
	// gemmSharedMax is the largest operand (in floats, 1 MiB) that every
	// chunk of a parallel product may read again (see gemmParallel).
	gemmSharedMax = 1 << 18
)

// Sgemm computes C = α·op(A)·op(B) + β·C for row-major matrices, op(A)
// m×k, op(B) k×n, C m×n (see blas.Float32).
func (kernelBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !kernel.HaveAVX2 || !sgemmCovered(tA, tB, m, n, k, alpha, a, lda, b, ldb, c, ldc) {
		gonum.Implementation{}.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	acc := true
	switch beta {
	case 0:
		acc = false // C is overwritten, never read (BLAS semantics for β = 0)
	case 1:
	default:
		for i := 0; i < m; i++ {
			row := c[i*ldc : i*ldc+n]
			for j := range row {
				row[j] *= beta
			}
		}
	}
	if tA != blas.NoTrans {
		ld := paddedStride(k)
		buf := getGemmBuf(m * ld)
		defer putGemmBuf(buf)
		transposeInto(k, m, a, lda, *buf, ld)
		a, lda = *buf, ld
	}
	if tB != blas.NoTrans {
		ld := paddedStride(n)
		buf := getGemmBuf(k * ld)
		defer putGemmBuf(buf)
		transposeInto(n, k, b, ldb, *buf, ld)
		b, ldb = *buf, ld
	}
	gemmParallel(m, n, k, a, lda, b, ldb, c, ldc, acc)
}

// sgemmCovered reports whether kernelBLAS handles the call itself: valid
// arguments (checked here because the kernel trusts its pointers), α = 1,
// a non-empty product and at least one full 16-column panel.
func sgemmCovered(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) bool {
	validT := func(t blas.Transpose) bool { return t == blas.NoTrans || t == blas.Trans || t == blas.ConjTrans }
	if !validT(tA) || !validT(tB) || alpha != 1 || m < 1 || n < 16 || k < 1 {
		return false
	}
	// Stored shapes: A is m×k, or k×m if transposed; B is k×n, or n×k.
	ra, ca := m, k
	if tA != blas.NoTrans {
		ra, ca = k, m
	}
	rb, cb := k, n
	if tB != blas.NoTrans {
		rb, cb = n, k
	}
	return lda >= ca && ldb >= cb && ldc >= n &&
		len(a) >= (ra-1)*lda+ca && len(b) >= (rb-1)*ldb+cb && len(c) >= (m-1)*ldc+n
}

// paddedStride returns a row stride of at least n floats that is not a
// multiple of 256 (1 KiB): rows a power-of-two apart map to the same cache
// sets, which makes column-wise writes (the transpose) and the kernel's
// 4-row reads thrash.
func paddedStride(n int) int {
	if n >= 256 && n%256 == 0 {
		return n + 16
	}
	return n
}

// transposeInto writes the transpose of the r×c matrix src (stride lds)
// into dst (c×r, stride ldd), in square tiles that stay in cache.
func transposeInto(r, c int, src []float32, lds int, dst []float32, ldd int) {
	const t = 16
	for i0 := 0; i0 < r; i0 += t {
		i1 := min(i0+t, r)
		for j0 := 0; j0 < c; j0 += t {
			j1 := min(j0+t, c)
			for i := i0; i < i1; i++ {
				row := src[i*lds+j0 : i*lds+j1]
				for j, v := range row {
					dst[(j0+j)*ldd+i] = v
				}
			}
		}
	}
}

// gemmBufs recycles the buffers of transposed operands (no allocation per
// product once warm).
var gemmBufs sync.Pool

func getGemmBuf(n int) *[]float32 {
	if p, ok := gemmBufs.Get().(*[]float32); ok {
		if cap(*p) >= n {
			*p = (*p)[:n]
			return p
		}
	}
	s := make([]float32, n)
	return &s
}

func putGemmBuf(p *[]float32) { gemmBufs.Put(p) }

// gemmBlocked computes C = A·B (C += A·B if acc) for untransposed row-major
// operands, in k-blocks of gemmKC and row blocks of gemmMC (a multiple of
// 4, so that the kernel's 4-row blocks stay aligned to the matrix's rows).
func gemmBlocked(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	for p := 0; p < k; p += gemmKC {
		kb := min(gemmKC, k-p)
		for i := 0; i < m; i += gemmMC {
			mb := min(gemmMC, m-i)
			kernel.GemmAVX2(mb, n, kb, a[i*lda+p:], lda, b[p*ldb:], ldb, c[i*ldc:], ldc, false, acc || p > 0)
		}
	}
}

// gemmParallel is gemmBlocked split across up to GOMAXPROCS goroutines
// (the caller's included) by rows in multiples of 4 or by columns in
// multiples of 16, whichever gives more pieces; the last piece takes the
// m%4 rows or n%16 columns. Every element of C is thus computed exactly as
// by a serial gemmBlocked, whatever the number of goroutines. Chunks are
// handed out dynamically, so a core slowed by other work does less; but
// every chunk reads all of the operand that is not split (B for a split by
// rows, A by columns), so if that one is large there is one chunk per
// goroutine only.
func gemmParallel(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	workers := runtime.GOMAXPROCS(0)
	rowUnits, colUnits := m/4, n/16
	byRows := rowUnits >= colUnits
	units, shared := colUnits, m*k
	if byRows {
		units, shared = rowUnits, k*n
	}
	if workers < 2 || units < 2 || 2*m*n*k < gemmParallelFlops {
		gemmBlocked(m, n, k, a, lda, b, ldb, c, ldc, acc)
		return
	}
	chunks := min(units, 4*workers)
	if shared > gemmSharedMax {
		chunks = min(units, workers)
	}
	(*workspace)(nil).each(chunks, func(t, _ int) {
		lo, hi := t*units/chunks, (t+1)*units/chunks
		if byRows {
			r0, r1 := 4*lo, 4*hi
			if t == chunks-1 {
				r1 = m
			}
			gemmBlocked(r1-r0, n, k, a[r0*lda:], lda, b, ldb, c[r0*ldc:], ldc, acc)
		} else {
			c0, c1 := 16*lo, 16*hi
			if t == chunks-1 {
				c1 = n
			}
			gemmBlocked(m, c1-c0, k, a, lda, b[c0:], ldb, c[c0:], ldc, acc)
		}
	})
}
