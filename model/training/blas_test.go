package training

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/alicezero/alicezero/model/internal/kernel"
	"github.com/alicezero/alicezero/model/internal/modeltest"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// sgemmCase is one Sgemm call with padded strides.
type sgemmCase struct {
	tA, tB      blas.Transpose
	m, n, k     int
	alpha, beta float32
	pad         int // extra columns in every leading dimension
}

func (sc sgemmCase) String() string {
	return fmt.Sprintf("%c%c m=%d n=%d k=%d α=%v β=%v pad=%d", sc.tA, sc.tB, sc.m, sc.n, sc.k, sc.alpha, sc.beta, sc.pad)
}

// operands returns random A, B, C for sc, with leading dimensions.
func (sc sgemmCase) operands(rng *rand.Rand) (a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	ra, ca := sc.m, sc.k
	if sc.tA != blas.NoTrans {
		ra, ca = sc.k, sc.m
	}
	rb, cb := sc.k, sc.n
	if sc.tB != blas.NoTrans {
		rb, cb = sc.n, sc.k
	}
	lda, ldb, ldc = max(ca+sc.pad, 1), max(cb+sc.pad, 1), max(sc.n+sc.pad, 1)
	fill := func(n int, lo, hi float32) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = lo + (hi-lo)*rng.Float32()
		}
		return s
	}
	return fill(max(ra*lda, 1), -1, 1), lda, fill(max(rb*ldb, 1), -1, 1), ldb, fill(max(sc.m*ldc, 1), -1, 1), ldc
}

// refSgemm is C = α·op(A)·op(B) + β·C in float64 (β = 0 ignores C).
func refSgemm(sc sgemmCase, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) []float64 {
	out := make([]float64, len(c))
	for i := range c {
		out[i] = float64(c[i])
	}
	at := func(i, l int) float64 {
		if sc.tA != blas.NoTrans {
			return float64(a[l*lda+i])
		}
		return float64(a[i*lda+l])
	}
	bt := func(l, j int) float64 {
		if sc.tB != blas.NoTrans {
			return float64(b[j*ldb+l])
		}
		return float64(b[l*ldb+j])
	}
	for i := 0; i < sc.m; i++ {
		for j := 0; j < sc.n; j++ {
			var s float64
			for l := 0; l < sc.k; l++ {
				s += at(i, l) * bt(l, j)
			}
			v := float64(sc.alpha) * s
			if sc.beta != 0 {
				v += float64(sc.beta) * float64(c[i*ldc+j])
			}
			out[i*ldc+j] = v
		}
	}
	return out
}

// TestKernelBLASSgemm checks kernelBLAS.Sgemm against a float64 reference
// for every transpose combination, padded leading dimensions, β = 0 with
// NaN in C, other α and β, the kernel's row and column remainders, k-blocks
// and the parallel split; and that nothing outside C's m×n is written.
func TestKernelBLASSgemm(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	trans := []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}
	sizes := [][3]int{
		{1, 16, 1}, {4, 16, 2}, {5, 17, 3}, {3, 33, 7}, {7, 15, 9}, {2, 1, 5}, {0, 20, 3}, {6, 20, 0},
		{37, 50, 300}, {130, 47, 513}, // several k-blocks and row blocks
		{515, 35, 70}, // split by rows, m%4 = 3
		{6, 290, 600}, // split by columns, n%16 = 2
		{64, 1858 % 100, 256},
	}
	var cases []sgemmCase
	for _, sz := range sizes {
		for _, tA := range trans {
			for _, tB := range trans {
				for _, pad := range []int{0, 3} {
					cases = append(cases, sgemmCase{tA, tB, sz[0], sz[1], sz[2], 1, 0, pad})
				}
			}
		}
	}
	for _, ab := range [][2]float32{{1, 1}, {1, 0.5}, {1, -2}, {0.5, 0}, {-1.5, 1}, {0, 0.5}} {
		cases = append(cases, sgemmCase{blas.Trans, blas.NoTrans, 9, 40, 33, ab[0], ab[1], 2}, sgemmCase{blas.NoTrans, blas.Trans, 70, 48, 300, ab[0], ab[1], 1})
	}
	for _, sc := range cases {
		a, lda, b, ldb, c0, ldc := sc.operands(rng)
		if sc.beta == 0 {
			for i := range c0 {
				c0[i] = float32(math.NaN()) // β = 0: C must not be read
			}
		}
		want := refSgemm(sc, a, lda, b, ldb, c0, ldc)
		c := append([]float32(nil), c0...)
		kernelBLAS{}.Sgemm(sc.tA, sc.tB, sc.m, sc.n, sc.k, sc.alpha, a, lda, b, ldb, sc.beta, c, ldc)
		tol := 1e-5 * float64(sc.k+4)
		for i := 0; i < sc.m; i++ {
			for j := 0; j < ldc; j++ {
				idx := i*ldc + j
				if j >= sc.n {
					if !(c[idx] == c0[idx] || math.IsNaN(float64(c0[idx])) && math.IsNaN(float64(c[idx]))) {
						t.Fatalf("%v: wrote outside C at [%d][%d]", sc, i, j)
					}
					continue
				}
				if d := math.Abs(float64(c[idx]) - want[idx]); !(d <= tol) {
					t.Fatalf("%v: C[%d][%d] = %v, want %v", sc, i, j, c[idx], want[idx])
				}
			}
		}
	}
	t.Logf("%d cases; AVX2 kernel: %v", len(cases), kernel.HaveAVX2)
}

// TestKernelBLASDeterministic: the result does not depend on GOMAXPROCS
// (the parallel split never changes how an element is computed).
func TestKernelBLASDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for _, sc := range []sgemmCase{
		{blas.NoTrans, blas.Trans, 1027, 32, 288, 1, 0, 0},
		{blas.Trans, blas.NoTrans, 32, 290, 2100, 1, 0, 0},
		{blas.Trans, blas.NoTrans, 37, 50, 8200, 1, 0, 0}, // A too big to re-read per chunk
		{blas.NoTrans, blas.NoTrans, 259, 1858, 256, 1, 0, 1},
	} {
		a, lda, b, ldb, c0, ldc := sc.operands(rng)
		var results [][]float32
		for _, procs := range []int{1, 2, 3, 8} {
			old := runtime.GOMAXPROCS(procs)
			c := append([]float32(nil), c0...)
			kernelBLAS{}.Sgemm(sc.tA, sc.tB, sc.m, sc.n, sc.k, 1, a, lda, b, ldb, 0, c, ldc)
			runtime.GOMAXPROCS(old)
			results = append(results, c)
		}
		for i := 1; i < len(results); i++ {
			for j := range results[0] {
				if math.Float32bits(results[i][j]) != math.Float32bits(results[0][j]) {
					t.Fatalf("%v: element %d differs between GOMAXPROCS settings: %v vs %v", sc, j, results[i][j], results[0][j])
				}
			}
		}
	}
}

// TestKernelBLASBadArgs: invalid calls panic like gonum's (the BLAS
// contract) instead of reaching the unchecked kernel.
func TestKernelBLASBadArgs(t *testing.T) {
	a, b, c := make([]float32, 64*64), make([]float32, 64*64), make([]float32, 64*64)
	for name, f := range map[string]func(){
		"lda":     func() { kernelBLAS{}.Sgemm(blas.NoTrans, blas.NoTrans, 32, 32, 32, 1, a, 31, b, 32, 0, c, 32) },
		"ldb":     func() { kernelBLAS{}.Sgemm(blas.NoTrans, blas.Trans, 32, 32, 40, 1, a, 40, b, 39, 0, c, 32) },
		"short c": func() { kernelBLAS{}.Sgemm(blas.NoTrans, blas.NoTrans, 64, 64, 8, 1, a, 8, b, 64, 0, c[:64*63], 64) },
		"short a": func() { kernelBLAS{}.Sgemm(blas.Trans, blas.NoTrans, 64, 64, 64, 1, a[:100], 64, b, 64, 0, c, 64) },
		"trans":   func() { kernelBLAS{}.Sgemm('x', blas.NoTrans, 8, 16, 8, 1, a, 8, b, 16, 0, c, 16) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestKernelBLASInstalled: creating a trainer makes gorgonia's matrix
// products (tensor's BLAS) use the kernel where the CPU has it.
func TestKernelBLASInstalled(t *testing.T) {
	tr, err := NewTrainer(modeltest.MustWeights(t, modeltest.MustPreset(t, "tiny"), 1), smallTrainConfig(2))
	if err != nil {
		t.Fatal(err)
	}
	tr.Close()
	_, gk := G.WhichBLAS().(kernelBLAS)
	_, tk := tensor.WhichBLAS().(kernelBLAS)
	if gk != kernel.HaveAVX2 || tk != kernel.HaveAVX2 {
		t.Fatalf("gorgonia BLAS %T, tensor BLAS %T; AVX2 kernel available: %v", G.WhichBLAS(), tensor.WhichBLAS(), kernel.HaveAVX2)
	}
}

func BenchmarkSgemmShapes(b *testing.B) {
	// The products of one training step of preset small at batch 256.
	for _, sc := range []sgemmCase{
		{blas.NoTrans, blas.Trans, 16384, 32, 288, 1, 0, 0},
		{blas.NoTrans, blas.NoTrans, 16384, 288, 32, 1, 0, 0},
		{blas.Trans, blas.NoTrans, 32, 288, 16384, 1, 0, 0},
		{blas.NoTrans, blas.NoTrans, 256, 1858, 256, 1, 0, 0},
		{blas.NoTrans, blas.Trans, 256, 256, 1858, 1, 0, 0},
		{blas.Trans, blas.NoTrans, 256, 1858, 256, 1, 0, 0},
	} {
		a, lda, bb, ldb, c, ldc := sc.operands(rand.New(rand.NewPCG(1, 1)))
		for _, impl := range []struct {
			name string
			blas.Float32
		}{{"gonum", gonum.Implementation{}}, {"kernel", kernelBLAS{}}} {
			b.Run(fmt.Sprintf("%s/%c%c_%dx%dx%d", impl.name, sc.tA, sc.tB, sc.m, sc.n, sc.k), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					impl.Sgemm(sc.tA, sc.tB, sc.m, sc.n, sc.k, 1, a, lda, bb, ldb, 0, c, ldc)
				}
				b.ReportMetric(float64(2*sc.m*sc.n*sc.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

// TestKernelBLASMatchesGonum: a training graph's losses and gradients with
// the kernel BLAS equal those with gonum's (the BLAS before this package
// installed its own) to float32 rounding.
func TestKernelBLASMatchesGonum(t *testing.T) {
	w := modeltest.MustWeights(t, modeltest.MustPreset(t, "small"), 3)
	tr, err := NewTrainer(w, smallTrainConfig(32)) // installs the kernel BLAS
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	rng := rand.New(rand.NewPCG(4, 4))
	planes := modeltest.RandomPlanes(rng, 32)
	pol, mask, wdl := randomTargets(rng, 32)
	gk, lk, err := tr.Gradients(planes, pol, mask, wdl)
	if err != nil {
		t.Fatal(err)
	}
	old := G.WhichBLAS()
	G.Use(gonum.Implementation{})
	gg, lg, err := tr.Gradients(planes, pol, mask, wdl)
	G.Use(old)
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(lk.Total - lg.Total); d > 1e-5*math.Abs(lg.Total) {
		t.Errorf("loss %v with the kernel, %v with gonum", lk.Total, lg.Total)
	}
	worst := 0.0
	for i, p := range w.Params() {
		var scale float64
		for _, v := range gg[i] {
			scale = math.Max(scale, math.Abs(float64(v)))
		}
		d := modeltest.MaxAbsDiff(gk[i], gg[i]) / math.Max(scale, 1e-12)
		worst = math.Max(worst, d)
		if d > 1e-4 {
			t.Errorf("%s: gradients differ by %g of their largest entry", p.Name, d)
		}
	}
	t.Logf("largest gradient difference: %g of the parameter's largest entry (AVX2 kernel: %v)", worst, kernel.HaveAVX2)
}
