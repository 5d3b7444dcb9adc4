package model_test

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/internal/modeltest"
)

func TestPresetsAndInit(t *testing.T) {
	for _, name := range model.PresetNames() {
		cfg, err := model.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.PresetName() != name {
			t.Errorf("PresetName of %s = %q", name, cfg.PresetName())
		}
		t.Logf("%-6s %v: %d parameters, %.1f MFLOP per position", name, cfg, cfg.NumParams(), float64(cfg.FLOPsPerPosition())/1e6)
	}
	if _, err := model.Preset("huge"); err == nil {
		t.Error("unknown preset accepted")
	}
	if _, err := model.Preset(model.DefaultPreset); err != nil {
		t.Error(err)
	}
	if _, err := model.NewWeights(model.Config{Blocks: 1, Channels: 0, PolicyChannels: 1, ValueChannels: 1, ValueHidden: 1}, 1); err == nil {
		t.Error("zero channels accepted")
	}
	cfg := modeltest.MustPreset(t, "small")
	a, _ := model.NewWeights(cfg, 5)
	b, _ := model.NewWeights(cfg, 5)
	c, _ := model.NewWeights(cfg, 6)
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
	if err := a.CheckFinite(); err != nil {
		t.Error(err)
	}
}

// Callers evaluating at once, each on a worker of its own or splitting with
// idle ones, get what a lone caller gets.
func TestConcurrentCallers(t *testing.T) {
	cfg := modeltest.MustPreset(t, "tiny")
	w := modeltest.MustWeights(t, cfg, 82)
	const n = 19 // three lane groups, the last partly filled
	ref, err := model.NewFastEvaluator(w, model.FastOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	batches := make([][]float32, 4)
	wantP, wantW := make([][]float32, len(batches)), make([][]float32, len(batches))
	for i := range batches {
		batches[i] = modeltest.RandomPlanes(rand.New(rand.NewPCG(uint64(i), 9)), n)
		wantP[i], wantW[i] = make([]float32, n*env.PolicySize), make([]float32, n*env.WDLSize)
		if err := ref.Evaluate(batches[i], n, wantP[i], wantW[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range []model.FastOptions{{Workers: 2, Callers: 2}, {Workers: 3, Callers: 1}, {Workers: 2, Callers: 4}} {
		fev, err := model.NewFastEvaluator(w, o)
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
					if d := modeltest.MaxAbsDiff(p, wantP[i]) + modeltest.MaxAbsDiff(v, wantW[i]); d != 0 {
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
		if err := fev.Evaluate(batches[0], n, wantP[0], wantW[0]); !errors.Is(err, model.ErrClosed) {
			t.Errorf("%+v: Evaluate after Close: %v, want ErrClosed", o, err)
		}
	}
}
