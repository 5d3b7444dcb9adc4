//go:build amd64 && !purego

package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The AVX-512 packed product matches a plain product for depths that are
// odd or short, several panels and padded strides.
func TestPackedProduct(t *testing.T) {
	if !haveAVX512 {
		t.Skip("no AVX-512 on this CPU")
	}
	rng := rand.New(rand.NewPCG(18, 18))
	for _, sz := range [][2]int{{1, 32}, {2, 32}, {3, 64}, {37, 128}, {32, 96}, {130, 32}} {
		k, n := sz[0], sz[1]
		ldb, ldc := n+5, n+11
		a := make([]float32, k*winoRowBlock)
		b := make([]float32, k*ldb)
		c := make([]float32, winoRowBlock*ldc)
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
		for r := 0; r < winoRowBlock; r++ {
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
					want += float64(a[l*winoRowBlock+r]) * float64(b[l*ldb+j])
				}
				if d := math.Abs(float64(got) - want); d > 1e-5*math.Sqrt(float64(k)) {
					t.Fatalf("k=%d n=%d: C[%d][%d] = %v, want %v", k, n, r, j, got, want)
				}
			}
		}
	}
}
