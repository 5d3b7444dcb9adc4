package training

import (
	"math/rand/v2"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model/internal/modeltest"
)

// The gorgonia graph computes the reference's function.

func TestGraphMatchesReference(t *testing.T) {
	for _, preset := range []string{"tiny", "small"} {
		t.Run(preset, func(t *testing.T) {
			w := modeltest.MustWeights(t, modeltest.MustPreset(t, preset), 1)
			ev, err := NewGraphEvaluator(w, 1, 4)
			if err != nil {
				t.Fatal(err)
			}
			defer ev.Close()
			rng := rand.New(rand.NewPCG(2, 2))
			for _, n := range []int{1, 3, 4, 6} {
				planes := modeltest.RandomPlanes(rng, n)
				pol := make([]float32, n*env.PolicySize)
				wdl := make([]float32, n*env.WDLSize)
				if err := ev.Evaluate(planes, n, pol, wdl); err != nil {
					t.Fatal(err)
				}
				for b := 0; b < n; b++ {
					rp, rw := modeltest.RefForward(w, planes[b*env.InputSize:])
					if d := modeltest.MaxAbsDiff64(pol[b*env.PolicySize:], rp); d > 1e-4 {
						t.Errorf("n=%d row %d: policy differs from reference by %g", n, b, d)
					}
					if d := modeltest.MaxAbsDiff64(wdl[b*env.WDLSize:], rw); d > 1e-5 {
						t.Errorf("n=%d row %d: wdl differs from reference by %g (%v vs %v)", n, b, d, wdl[b*3:b*3+3], rw)
					}
				}
			}
		})
	}
}
