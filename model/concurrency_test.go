package model

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/alicezero/alicezero/env"
)

// Gorgonia machines of different graphs, and fast evaluators, running at
// the same time in different goroutines must not interfere (run with
// -race). Also builds graphs concurrently.
func TestConcurrentMachines(t *testing.T) {
	cfg := mustPreset(t, "tiny")
	w := mustWeights(t, cfg, 81)
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
			fev, err := NewFastEvaluator(w, FastOptions{Workers: 2})
			if err != nil {
				errs <- err
				return
			}
			defer fev.Close()
			rng := rand.New(rand.NewPCG(uint64(g), 3))
			for i := 0; i < 5; i++ {
				planes := randomPlanes(rng, 2)
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
				if d := maxAbsDiff(gp, fp) + maxAbsDiff(gw, fw); d > 1e-4 {
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
	cfg := mustPreset(t, "tiny")
	w1, w2 := mustWeights(t, cfg, 91), mustWeights(t, cfg, 92)
	fev, err := NewFastEvaluator(w1, FastOptions{Workers: 2})
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
	planes := randomPlanes(rng, 3)
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
		rp, rw := refForward(w2, planes[b*env.InputSize:])
		if d := maxAbsDiff64(fp[b*env.PolicySize:], rp) + maxAbsDiff64(fw[b*env.WDLSize:], rw); d > 1e-4 {
			t.Errorf("fast evaluator after SetWeights differs from the new weights by %g", d)
		}
		if d := maxAbsDiff64(gp[b*env.PolicySize:], rp) + maxAbsDiff64(gw[b*env.WDLSize:], rw); d > 1e-4 {
			t.Errorf("graph evaluator after SetWeights differs from the new weights by %g", d)
		}
	}
	small := mustWeights(t, mustPreset(t, "small"), 1)
	if err := fev.SetWeights(small); err == nil {
		t.Error("SetWeights accepted another architecture")
	}
}

func TestEvaluateArgs(t *testing.T) {
	w := mustWeights(t, mustPreset(t, "tiny"), 1)
	fev, _ := NewFastEvaluator(w, FastOptions{})
	gev, _ := NewGraphEvaluator(w, 1)
	for name, ev := range map[string]interface {
		Evaluator
		Close() error
	}{"fast": fev, "graph": gev} {
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

func TestPresetsAndInit(t *testing.T) {
	for _, name := range PresetNames() {
		cfg, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.PresetName() != name {
			t.Errorf("PresetName of %s = %q", name, cfg.PresetName())
		}
		t.Logf("%-6s %v: %d parameters, %.1f MFLOP per position", name, cfg, cfg.NumParams(), float64(cfg.FLOPsPerPosition())/1e6)
	}
	if _, err := Preset("huge"); err == nil {
		t.Error("unknown preset accepted")
	}
	if _, err := Preset(DefaultPreset); err != nil {
		t.Error(err)
	}
	if _, err := NewWeights(Config{Blocks: 1, Channels: 0, PolicyChannels: 1, ValueChannels: 1, ValueHidden: 1}, 1); err == nil {
		t.Error("zero channels accepted")
	}
	cfg := mustPreset(t, "small")
	a, _ := NewWeights(cfg, 5)
	b, _ := NewWeights(cfg, 5)
	c, _ := NewWeights(cfg, 6)
	if !a.Equal(b) || a.Equal(c) {
		t.Error("initialisation is not a deterministic function of the seed")
	}
	// He initialisation: the stem's weights have variance 2/fan_in.
	stem := a.Param("stem.w")
	var ss float64
	for _, v := range stem.Data {
		ss += float64(v) * float64(v)
	}
	want := 2.0 / float64(env.NumPlanes*9)
	if got := ss / float64(len(stem.Data)); got < 0.9*want || got > 1.1*want {
		t.Errorf("stem weight variance %v, want about %v", got, want)
	}
	for _, p := range a.Params() {
		if !p.Decay {
			for _, v := range p.Data {
				if v != 0 {
					t.Fatalf("bias %s not zero-initialised", p.Name)
				}
			}
		}
	}
	if a.Param("policy.logits.b").Decay || !a.Param("policy.logits.w").Decay {
		t.Error("L2 must apply to weights and not to biases")
	}
	if err := a.checkFinite(); err != nil {
		t.Error(err)
	}
}

// Callers evaluating at once, each on a worker of its own or splitting with
// idle ones, get what a lone caller gets.
func TestConcurrentCallers(t *testing.T) {
	cfg := mustPreset(t, "tiny")
	w := mustWeights(t, cfg, 82)
	const n = 19 // three lane groups, the last partly filled
	ref, err := NewFastEvaluator(w, FastOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	batches := make([][]float32, 4)
	wantP, wantW := make([][]float32, len(batches)), make([][]float32, len(batches))
	for i := range batches {
		batches[i] = randomPlanes(rand.New(rand.NewPCG(uint64(i), 9)), n)
		wantP[i], wantW[i] = make([]float32, n*env.PolicySize), make([]float32, n*env.WDLSize)
		if err := ref.Evaluate(batches[i], n, wantP[i], wantW[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range []FastOptions{{Workers: 2, Callers: 2}, {Workers: 3, Callers: 1}, {Workers: 2, Callers: 4}} {
		fev, err := NewFastEvaluator(w, o)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p, v := make([]float32, n*env.PolicySize), make([]float32, n*env.WDLSize)
				for r := range 10 {
					i := (g + r) % len(batches)
					if err := fev.Evaluate(batches[i], n, p, v); err != nil {
						t.Error(err)
						return
					}
					if d := maxAbsDiff(p, wantP[i]) + maxAbsDiff(v, wantW[i]); d != 0 {
						t.Errorf("%+v: caller %d batch %d differs from a lone caller's by %g", o, g, i, d)
						return
					}
				}
			}()
		}
		wg.Wait()
		if err := fev.Close(); err != nil {
			t.Fatal(err)
		}
		if err := fev.Evaluate(batches[0], n, wantP[0], wantW[0]); !errors.Is(err, ErrClosed) {
			t.Errorf("%+v: Evaluate after Close: %v, want ErrClosed", o, err)
		}
	}
}
