package training

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/internal/modeltest"
)

// Gorgonia machines of different graphs, and fast evaluators, running at
// the same time in different goroutines must not interfere (run with
// -race). Also builds graphs concurrently.
func TestConcurrentMachines(t *testing.T) {
	cfg := modeltest.MustPreset(t, "tiny")
	w := modeltest.MustWeights(t, cfg, 81)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			ev, err := NewGraphEvaluator(w, 2)
			if err != nil {
				errs <- err
				return
			}
			defer ev.Close()
			fev, err := model.NewFastEvaluator(w, model.FastOptions{Workers: 2})
			if err != nil {
				errs <- err
				return
			}
			defer fev.Close()
			rng := rand.New(rand.NewPCG(uint64(g), 3))
			for i := 0; i < 5; i++ {
				planes := modeltest.RandomPlanes(rng, 2)
				gp, gw := make([]float32, 2*env.PolicySize), make([]float32, 2*env.WDLSize)
				fp, fw := make([]float32, 2*env.PolicySize), make([]float32, 2*env.WDLSize)
				if err := ev.Evaluate(planes, 2, gp, gw); err != nil {
					errs <- err
					return
				}
				if err := fev.Evaluate(planes, 2, fp, fw); err != nil {
					errs <- err
					return
				}
				if d := modeltest.MaxAbsDiff(gp, fp) + modeltest.MaxAbsDiff(gw, fw); d > 1e-4 {
					t.Errorf("goroutine %d: graph and fast differ by %g under concurrency", g, d)
				}
			}
		}(g)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		w2 := w.Clone()
		tr, err := NewTrainer(w2, smallTrainConfig(2))
		if err != nil {
			errs <- err
			return
		}
		defer tr.Close()
		for i := 0; i < 5; i++ {
			if _, err := tr.Step(batchFor(i, 2)); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// SetWeights while another goroutine evaluates: no race, and afterwards the
// evaluator computes with the new weights.
func TestSetWeights(t *testing.T) {
	cfg := modeltest.MustPreset(t, "tiny")
	w1, w2 := modeltest.MustWeights(t, cfg, 91), modeltest.MustWeights(t, cfg, 92)
	fev, err := model.NewFastEvaluator(w1, model.FastOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer fev.Close()
	gev, err := NewGraphEvaluator(w1, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer gev.Close()
	rng := rand.New(rand.NewPCG(93, 93))
	planes := modeltest.RandomPlanes(rng, 3)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p, v := make([]float32, 3*env.PolicySize), make([]float32, 3*env.WDLSize)
		for i := 0; i < 20; i++ {
			if err := fev.Evaluate(planes, 3, p, v); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	if err := fev.SetWeights(w2); err != nil {
		t.Fatal(err)
	}
	if err := gev.SetWeights(w2); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	fp, fw := make([]float32, 3*env.PolicySize), make([]float32, 3*env.WDLSize)
	gp, gw := make([]float32, 3*env.PolicySize), make([]float32, 3*env.WDLSize)
	if err := fev.Evaluate(planes, 3, fp, fw); err != nil {
		t.Fatal(err)
	}
	if err := gev.Evaluate(planes, 3, gp, gw); err != nil {
		t.Fatal(err)
	}
	for b := 0; b < 3; b++ {
		rp, rw := modeltest.RefForward(w2, planes[b*env.InputSize:])
		if d := modeltest.MaxAbsDiff64(fp[b*env.PolicySize:], rp) + modeltest.MaxAbsDiff64(fw[b*env.WDLSize:], rw); d > 1e-4 {
			t.Errorf("fast evaluator after SetWeights differs from the new weights by %g", d)
		}
		if d := modeltest.MaxAbsDiff64(gp[b*env.PolicySize:], rp) + modeltest.MaxAbsDiff64(gw[b*env.WDLSize:], rw); d > 1e-4 {
			t.Errorf("graph evaluator after SetWeights differs from the new weights by %g", d)
		}
	}
	small := modeltest.MustWeights(t, modeltest.MustPreset(t, "small"), 1)
	if err := fev.SetWeights(small); err == nil {
		t.Error("SetWeights accepted another architecture")
	}
}

// evaluator is what the search asks of an evaluator (mcts.Evaluator),
// which both evaluators have, and Close.
type evaluator interface {
	Evaluate(planes []float32, n int, policy, wdl []float32) error
	Close() error
}

func TestEvaluateArgs(t *testing.T) {
	w := modeltest.MustWeights(t, modeltest.MustPreset(t, "tiny"), 1)
	fev, err := model.NewFastEvaluator(w, model.FastOptions{})
	if err != nil {
		t.Fatalf("NewFastEvaluator: %v", err)
	}
	gev, err := NewGraphEvaluator(w, 1)
	if err != nil {
		fev.Close()
		t.Fatalf("NewGraphEvaluator: %v", err)
	}
	for name, ev := range map[string]evaluator{"fast": fev, "graph": gev} {
		p, v := make([]float32, env.PolicySize), make([]float32, env.WDLSize)
		planes := make([]float32, env.InputSize)
		if err := ev.Evaluate(planes, 2, p, v); err == nil {
			t.Errorf("%s: short planes accepted", name)
		}
		if err := ev.Evaluate(planes, 1, p[:10], v); err == nil {
			t.Errorf("%s: short policy accepted", name)
		}
		if err := ev.Evaluate(planes, 1, p, v[:2]); err == nil {
			t.Errorf("%s: short wdl accepted", name)
		}
		if err := ev.Evaluate(planes, -1, p, v); err == nil {
			t.Errorf("%s: negative n accepted", name)
		}
		if err := ev.Evaluate(nil, 0, nil, nil); err != nil {
			t.Errorf("%s: empty batch: %v", name, err)
		}
		if err := ev.Evaluate(planes, 1, p, v); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		var s float32
		for _, x := range v {
			s += x
		}
		if s < 0.999 || s > 1.001 {
			t.Errorf("%s: wdl %v does not sum to 1", name, v)
		}
		ev.Close()
		if err := ev.Evaluate(planes, 1, p, v); err == nil {
			t.Errorf("%s: Evaluate after Close succeeded", name)
		}
		ev.Close()
	}
}
