//go:build amd64 && !purego

package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The AVX-512 packed product matches a plain product for depths that are
// odd or short, several panels and padded strides.
func TestPackedProduct(t *testing.T) {
	if !HaveAVX512 {
		t.Skip("no AVX-512 on this CPU")
	}
	rng := rand.New(rand.NewPCG(18, 18))
	for _, sz := range [][2]int{{1, 32}, {2, 32}, {3, 64}, {37, 128}, {32, 96}, {130, 32}} {
		k, n := sz[0], sz[1]
		ldb, ldc := n+5, n+11
		a := make([]float32, k*RowBlock)
		b := make([]float32, k*ldb)
		c := make([]float32, RowBlock*ldc)
		for i := range a {
			a[i] = rng.Float32()*2 - 1
		}
		for i := range b {
			b[i] = rng.Float32()*2 - 1
		}
		for i := range c {
			c[i] = float32(math.NaN()) // overwritten, never read
		}
		sgemmPacked8x32(k, &a[0], &b[0], ldb, &c[0], ldc, n)
		for r := 0; r < RowBlock; r++ {
			for j := 0; j < ldc; j++ {
				got := c[r*ldc+j]
				if j >= n {
					if !math.IsNaN(float64(got)) {
						t.Fatalf("k=%d n=%d: wrote C[%d][%d] past n", k, n, r, j)
					}
					continue
				}
				var want float64
				for l := 0; l < k; l++ {
					want += float64(a[l*RowBlock+r]) * float64(b[l*ldb+j])
				}
				if d := math.Abs(float64(got) - want); d > 1e-5*math.Sqrt(float64(k)) {
					t.Fatalf("k=%d n=%d: C[%d][%d] = %v, want %v", k, n, r, j, got, want)
				}
			}
		}
	}
}

// The packed product with bias adds each row's bias and, with relu, clamps
// at zero but keeps NaNs.
func TestPackedProductBias(t *testing.T) {
	if !HaveAVX512 {
		t.Skip("no AVX-512 on this CPU")
	}
	rng := rand.New(rand.NewPCG(28, 28))
	for _, relu := range []bool{false, true} {
		for _, sz := range [][2]int{{1, 32}, {5, 64}, {73, 64}} {
			k, n := sz[0], sz[1]
			ldb, ldc := n+3, n+7
			a, b, c := randomNormal(rng, k*RowBlock, 1), randomNormal(rng, k*ldb, 1), make([]float32, RowBlock*ldc)
			bias := randomNormal(rng, RowBlock, 1)
			b[0] = float32(math.NaN()) // column 0 of every row is NaN
			for i := range c {
				c[i] = -7
			}
			PackedProductBias(k, a, b, ldb, c, ldc, n, bias, relu)
			for r := 0; r < RowBlock; r++ {
				for j := 0; j < ldc; j++ {
					got := c[r*ldc+j]
					if j >= n {
						if got != -7 {
							t.Fatalf("wrote C[%d][%d] past n", r, j)
						}
						continue
					}
					want := float64(bias[r])
					for l := 0; l < k; l++ {
						want += float64(a[l*RowBlock+r]) * float64(b[l*ldb+j])
					}
					if relu {
						want = math.Max(want, 0)
					}
					if j == 0 {
						if !math.IsNaN(float64(got)) {
							t.Fatalf("relu=%v k=%d: C[%d][0] = %v, want NaN", relu, k, r, got)
						}
						continue
					}
					if d := math.Abs(float64(got) - want); d > 1e-5*math.Sqrt(float64(k))*(1+math.Abs(want)) {
						t.Fatalf("relu=%v k=%d n=%d: C[%d][%d] = %v, want %v", relu, k, n, r, j, got, want)
					}
				}
			}
		}
	}
}
