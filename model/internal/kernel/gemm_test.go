package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestGemmKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 71))
	kernels := map[string]GemmFunc{"gonum": gemmAccGonum, "best": bestGemm(), "avx2": gemmAccAVX2}
	for _, sz := range [][3]int{{1, 1, 1}, {2, 3, 0}, {4, 16, 1}, {4, 16, 2}, {5, 17, 3}, {3, 33, 7}, {32, 1024, 288}, {7, 1858, 256}, {13, 64, 129}, {64, 80, 576}} {
		m, n, k := sz[0], sz[1], sz[2]
		// Padded strides to catch stride bugs.
		lda, ldb, ldc := k+3, n+5, n+1
		a := make([]float32, m*lda)
		b := make([]float32, k*ldb)
		c0 := make([]float32, m*ldc)
		for i := range a {
			a[i] = rng.Float32()*2 - 1
		}
		for i := range b {
			b[i] = rng.Float32()*2 - 1
		}
		for i := range c0 {
			c0[i] = rng.Float32()
		}
		want := make([]float64, len(c0))
		for i := range want {
			want[i] = float64(c0[i])
		}
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				for l := 0; l < k; l++ {
					want[i*ldc+j] += float64(a[i*lda+l]) * float64(b[l*ldb+j])
				}
			}
		}
		for name, f := range kernels {
			for _, relu := range []bool{false, true} {
				c := append([]float32(nil), c0...)
				f(m, n, k, a, lda, b, ldb, c, ldc, relu)
				for i := 0; i < m; i++ {
					for j := 0; j < ldc; j++ {
						idx := i*ldc + j
						if j >= n {
							if c[idx] != c0[idx] {
								t.Fatalf("%s %v: wrote outside C at [%d][%d]", name, sz, i, j)
							}
							continue
						}
						w := want[idx]
						if relu {
							w = math.Max(w, 0)
						}
						if d := math.Abs(float64(c[idx]) - w); d > 1e-4*math.Sqrt(float64(k))+1e-5 {
							t.Fatalf("%s relu=%v %v: C[%d][%d] = %v, want %v", name, relu, sz, i, j, c[idx], w)
						}
					}
				}
			}
		}
	}
	t.Logf("AVX2 kernel available: %v", HaveAVX2)
}

func BenchmarkGemm(b *testing.B) {
	for _, sz := range [][3]int{{32, 1024, 288}, {64, 1024, 576}, {16, 1858, 256}} {
		m, n, k := sz[0], sz[1], sz[2]
		a, bb, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
		for i := range a { // non-zero: gonum skips zero multipliers
			a[i] = 0.5
		}
		for i := range bb {
			bb[i] = 0.25
		}
		for name, f := range map[string]GemmFunc{"gonum": gemmAccGonum, "avx2": gemmAccAVX2} {
			b.Run(fmt.Sprintf("%s/%dx%dx%d", name, m, n, k), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					f(m, n, k, a, k, bb, n, c, n, false)
				}
				b.ReportMetric(float64(2*m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
