package model_test

import (
	"math/rand/v2"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/internal/kernel"
	"github.com/alicezero/alicezero/model/internal/modeltest"
)

// Every kernel set, with one worker or several, computes the reference's
// function, on batches that take the direct path (≤ 3 positions), whole
// lane groups and both.
func TestFastMatchesReference(t *testing.T) {
	w := modeltest.MustWeights(t, modeltest.MustPreset(t, "tiny"), 5)
	var options []model.FastOptions
	for _, k := range kernel.Available() {
		for _, workers := range []int{1, 2, 3} {
			options = append(options, model.WithKernels(model.FastOptions{Workers: workers}, k))
		}
	}
	options = append(options, model.FastOptions{Workers: 2, Portable: true})
	rng := rand.New(rand.NewPCG(6, 6))
	for _, opts := range options {
		fev, err := model.NewFastEvaluator(w, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{2, 9, 19} {
			planes := modeltest.RandomPlanes(rng, n)
			fp, fw := make([]float32, n*env.PolicySize), make([]float32, n*env.WDLSize)
			if err := fev.Evaluate(planes, n, fp, fw); err != nil {
				t.Fatal(err)
			}
			for b := 0; b < n; b++ {
				rp, rw := modeltest.RefForward(w, planes[b*env.InputSize:])
				if d := modeltest.MaxAbsDiff64(fp[b*env.PolicySize:], rp); d > 1e-4 {
					t.Errorf("%+v n=%d row %d: policy differs from reference by %g", opts, n, b, d)
				}
				if d := modeltest.MaxAbsDiff64(fw[b*env.WDLSize:], rw); d > 1e-5 {
					t.Errorf("%+v n=%d row %d: wdl differs from reference by %g", opts, n, b, d)
				}
			}
		}
		if err := fev.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// The fast path must not allocate per call once running (the search calls
// it hundreds of times a second; garbage would cost GC time on 2 cores).
func TestFastZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	w := modeltest.MustWeights(t, modeltest.MustPreset(t, "tiny"), 7)
	for _, workers := range []int{1, 2} {
		fev, err := model.NewFastEvaluator(w, model.FastOptions{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		n := 9
		planes := modeltest.RandomPlanes(rand.New(rand.NewPCG(8, 8)), n)
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
