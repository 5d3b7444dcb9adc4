package training

import (
	"math/rand/v2"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/internal/modeltest"
)

// The fast evaluator and the gorgonia graph compute the same function.
func TestFastMatchesGraph(t *testing.T) {
	for _, preset := range []string{"tiny", "small"} {
		t.Run(preset, func(t *testing.T) {
			w := modeltest.MustWeights(t, modeltest.MustPreset(t, preset), 3)
			gev, err := NewGraphEvaluator(w, 1, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			defer gev.Close()
			// Each kernel set is checked against the reference in model;
			// here the fastest and the portable one.
			options := []model.FastOptions{{Workers: 1}, {Workers: 3}, {Workers: 2, Portable: true}}
			for _, opts := range options {
				fev, err := model.NewFastEvaluator(w, opts)
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(4, 4))
				for _, n := range []int{1, 2, 7, 16, 33, 70} {
					planes := modeltest.RandomPlanes(rng, n)
					gp, gw := make([]float32, n*env.PolicySize), make([]float32, n*env.WDLSize)
					fp, fw := make([]float32, n*env.PolicySize), make([]float32, n*env.WDLSize)
					if err := gev.Evaluate(planes, n, gp, gw); err != nil {
						t.Fatal(err)
					}
					if err := fev.Evaluate(planes, n, fp, fw); err != nil {
						t.Fatal(err)
					}
					if d := modeltest.MaxAbsDiff(gp, fp); d > 1e-4 {
						t.Errorf("%+v n=%d: policy logits differ by %g", opts, n, d)
					}
					if d := modeltest.MaxAbsDiff(gw, fw); d > 1e-4 {
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
