package model

import (
	"github.com/alicezero/alicezero/model/internal/kernel"
	"math/rand/v2"
	"testing"

	"github.com/alicezero/alicezero/env"
)

func TestFastMatchesGraph(t *testing.T) {
	for _, preset := range []string{"tiny", "small"} {
		t.Run(preset, func(t *testing.T) {
			w := mustWeights(t, mustPreset(t, preset), 3)
			gev, err := NewGraphEvaluator(w, 1, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			defer gev.Close()
			var options []FastOptions
			for _, k := range kernel.Available() {
				for _, workers := range []int{1, 2, 3} {
					options = append(options, FastOptions{Workers: workers, kernels: k})
				}
			}
			options = append(options, FastOptions{Workers: 2, Portable: true})
			for _, opts := range options {
				fev, err := NewFastEvaluator(w, opts)
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(4, 4))
				for _, n := range []int{1, 2, 7, 16, 33, 70} {
					planes := randomPlanes(rng, n)
					gp, gw := make([]float32, n*env.PolicySize), make([]float32, n*env.WDLSize)
					fp, fw := make([]float32, n*env.PolicySize), make([]float32, n*env.WDLSize)
					if err := gev.Evaluate(planes, n, gp, gw); err != nil {
						t.Fatal(err)
					}
					if err := fev.Evaluate(planes, n, fp, fw); err != nil {
						t.Fatal(err)
					}
					if d := maxAbsDiff(gp, fp); d > 1e-4 {
						t.Errorf("%+v n=%d: policy logits differ by %g", opts, n, d)
					}
					if d := maxAbsDiff(gw, fw); d > 1e-4 {
						t.Errorf("%+v n=%d: wdl differs by %g", opts, n, d)
					}
				}
				if err := fev.Close(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestFastMatchesReference(t *testing.T) {
	w := mustWeights(t, mustPreset(t, "tiny"), 5)
	fev, err := NewFastEvaluator(w, FastOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer fev.Close()
	rng := rand.New(rand.NewPCG(6, 6))
	n := 9
	planes := randomPlanes(rng, n)
	fp, fw := make([]float32, n*env.PolicySize), make([]float32, n*env.WDLSize)
	if err := fev.Evaluate(planes, n, fp, fw); err != nil {
		t.Fatal(err)
	}
	for b := 0; b < n; b++ {
		rp, rw := refForward(w, planes[b*env.InputSize:])
		if d := maxAbsDiff64(fp[b*env.PolicySize:], rp); d > 1e-4 {
			t.Errorf("row %d: policy differs from reference by %g", b, d)
		}
		if d := maxAbsDiff64(fw[b*env.WDLSize:], rw); d > 1e-5 {
			t.Errorf("row %d: wdl differs from reference by %g", b, d)
		}
	}
}

// The fast path must not allocate per call once running (the search calls
// it hundreds of times a second; garbage would cost GC time on 2 cores).
func TestFastZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	w := mustWeights(t, mustPreset(t, "tiny"), 7)
	for _, workers := range []int{1, 2} {
		fev, err := NewFastEvaluator(w, FastOptions{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		n := 9
		planes := randomPlanes(rand.New(rand.NewPCG(8, 8)), n)
		p, v := make([]float32, n*env.PolicySize), make([]float32, n*env.WDLSize)
		allocs := testing.AllocsPerRun(20, func() {
			if err := fev.Evaluate(planes, n, p, v); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("workers=%d: %v allocations per Evaluate, want 0", workers, allocs)
		}
		fev.Close()
	}
}
