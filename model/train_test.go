package model

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/alicezero/alicezero/env"
)

// randomTargets returns n policy targets (sparse distributions, zeros
// elsewhere, as the search produces) and n one-hot WDL results.
func randomTargets(rng *rand.Rand, n int) (pol, wdl []float32) {
	pol = make([]float32, n*env.PolicySize)
	wdl = make([]float32, n*env.WDLSize)
	for b := 0; b < n; b++ {
		row := pol[b*env.PolicySize : (b+1)*env.PolicySize]
		k := 1 + rng.IntN(20)
		var sum float32
		idx := make([]int, k)
		for i := range idx {
			idx[i] = rng.IntN(env.PolicySize)
			v := rng.Float32() + 0.01
			row[idx[i]] += v
			sum += v
		}
		for _, j := range idx {
			row[j] = row[j] / sum
		}
		// Renormalise exactly (duplicates were divided twice).
		sum = 0
		for _, v := range row {
			sum += v
		}
		for j := range row {
			row[j] /= sum
		}
		wdl[b*env.WDLSize+rng.IntN(3)] = 1
	}
	return pol, wdl
}

// refLoss is the training loss (L2 excluded) in float64 via refForward.
func refLoss(w *Weights, planes, pol, wdl []float32, n int, valueWeight float64) float64 {
	var total float64
	for b := 0; b < n; b++ {
		logits, probs := refForward(w, planes[b*env.InputSize:])
		m := logits[0]
		for _, v := range logits {
			m = math.Max(m, v)
		}
		var s float64
		for _, v := range logits {
			s += math.Exp(v - m)
		}
		lse := m + math.Log(s)
		for j, v := range logits {
			total -= float64(pol[b*env.PolicySize+j]) * (v - lse)
		}
		for j, p := range probs {
			total -= valueWeight * float64(wdl[b*env.WDLSize+j]) * math.Log(p)
		}
	}
	return total / float64(n)
}

func smallTrainConfig(batch int) TrainConfig {
	tc := DefaultTrainConfig()
	tc.BatchSize = batch
	tc.LR = LRSchedule{Kind: "constant", Base: 0.05}
	return tc
}

// TestGradientCheck compares gorgonia's analytic gradients with central
// finite differences of an independent float64 implementation of the loss,
// for a few entries of every parameter of the tiny net.
func TestGradientCheck(t *testing.T) {
	cfg := mustPreset(t, "tiny")
	w := mustWeights(t, cfg, 11)
	const n = 3
	tc := smallTrainConfig(n)
	tc.ValueWeight = 1.5
	tr, err := NewTrainer(w, tc)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	rng := rand.New(rand.NewPCG(12, 12))
	planes := randomPlanes(rng, n)
	pol, wdl := randomTargets(rng, n)
	grads, losses, err := tr.Gradients(planes, pol, wdl)
	if err != nil {
		t.Fatal(err)
	}
	ref := refLoss(w, planes, pol, wdl, n, tc.ValueWeight)
	if d := math.Abs(ref - (losses.Policy + tc.ValueWeight*losses.Value)); d > 1e-4 {
		t.Fatalf("loss %v (policy %v value %v) differs from reference %v", losses.Policy+tc.ValueWeight*losses.Value, losses.Policy, losses.Value, ref)
	}
	checked := 0
	for i, p := range w.Params() {
		// The entry with the largest gradient plus a few random ones.
		top := 0
		for j, g := range grads[i] {
			if math.Abs(float64(g)) > math.Abs(float64(grads[i][top])) {
				top = j
			}
		}
		for k := 0; k < 4; k++ {
			j := top
			if k > 0 {
				j = rng.IntN(len(p.Data))
			}
			orig := p.Data[j]
			const eps = 1e-4
			p.Data[j] = orig + eps
			up := float64(p.Data[j])
			lp := refLoss(w, planes, pol, wdl, n, tc.ValueWeight)
			p.Data[j] = orig - eps
			down := float64(p.Data[j])
			lm := refLoss(w, planes, pol, wdl, n, tc.ValueWeight)
			p.Data[j] = orig
			num := (lp - lm) / (up - down)
			ana := float64(grads[i][j])
			if math.Abs(num-ana) > 2e-5+1e-2*math.Abs(num) {
				t.Errorf("%s[%d]: analytic gradient %g, numerical %g", p.Name, j, ana, num)
			}
			if k == 0 {
				t.Logf("%-18s largest gradient [%d]: analytic %.6g numerical %.6g", p.Name, j, ana, num)
			}
			checked++
		}
	}
	t.Logf("checked %d gradient entries over %d parameters; loss %v", checked, len(w.Params()), losses)
}

// TestGradientsFreshEachRun guards against gorgonia accumulating gradients
// across runs: the same batch twice must give the same gradient.
func TestGradientsFreshEachRun(t *testing.T) {
	w := mustWeights(t, mustPreset(t, "tiny"), 13)
	tr, err := NewTrainer(w, smallTrainConfig(4))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	rng := rand.New(rand.NewPCG(14, 14))
	planes := randomPlanes(rng, 4)
	pol, wdl := randomTargets(rng, 4)
	before := w.Clone()
	g1, _, err := tr.Gradients(planes, pol, wdl)
	if err != nil {
		t.Fatal(err)
	}
	// A different batch in between.
	p2 := randomPlanes(rng, 4)
	pol2, wdl2 := randomTargets(rng, 4)
	if _, _, err := tr.Gradients(p2, pol2, wdl2); err != nil {
		t.Fatal(err)
	}
	g2, _, err := tr.Gradients(planes, pol, wdl)
	if err != nil {
		t.Fatal(err)
	}
	for i := range g1 {
		for j := range g1[i] {
			if g1[i][j] != g2[i][j] {
				t.Fatalf("%s[%d]: gradient %v then %v on the same batch", w.Params()[i].Name, j, g1[i][j], g2[i][j])
			}
		}
	}
	if !w.Equal(before) {
		t.Fatal("computing gradients changed the weights")
	}
}

// TestOverfit: the loss must fall when training repeatedly on a handful of
// positions.
func TestOverfit(t *testing.T) {
	for _, opt := range []string{OptimizerSGD, OptimizerAdamW} {
		t.Run(opt, func(t *testing.T) {
			w, err := NewWeights(mustPreset(t, "tiny"), 21)
			if err != nil {
				t.Fatal(err)
			}
			tc := smallTrainConfig(8)
			tc.Optimizer = opt
			if opt == OptimizerAdamW {
				tc.LR.Base = 3e-3
			}
			tr, err := NewTrainer(w, tc)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			rng := rand.New(rand.NewPCG(22, 22))
			planes := randomPlanes(rng, 8)
			pol, wdl := randomTargets(rng, 8)
			var first, last Losses
			for i := 0; i < 80; i++ {
				l, err := tr.Step(planes, pol, wdl)
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					first = l
				}
				last = l
			}
			t.Logf("first %+v", first)
			t.Logf("last  %+v", last)
			if !(last.Policy < 0.8*first.Policy) || !(last.Value < 0.5*first.Value) {
				t.Errorf("loss did not fall enough: policy %v → %v, value %v → %v", first.Policy, last.Policy, first.Value, last.Value)
			}
			if tr.Steps() != 80 {
				t.Errorf("Steps() = %d, want 80", tr.Steps())
			}
		})
	}
}

func TestTrainerRejectsBadInput(t *testing.T) {
	w, _ := NewWeights(mustPreset(t, "tiny"), 1)
	tr, err := NewTrainer(w, smallTrainConfig(2))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	planes := randomPlanes(rng, 2)
	pol, wdl := randomTargets(rng, 2)
	if _, err := tr.Step(planes[:env.InputSize], pol, wdl); err == nil {
		t.Error("short batch accepted")
	}
	before := w.Clone()
	pol[5] = float32(math.NaN())
	if _, err := tr.Step(planes, pol, wdl); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN target: got %v, want ErrNonFinite", err)
	}
	if !w.Equal(before) {
		t.Error("a non-finite step changed the weights")
	}
	tr.Close()
	if _, err := tr.Step(planes, pol, wdl); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: got %v, want ErrClosed", err)
	}
	bad := DefaultTrainConfig()
	bad.Optimizer = "rmsprop"
	if _, err := NewTrainer(w, bad); err == nil {
		t.Error("unknown optimizer accepted")
	}
}

func TestLRSchedule(t *testing.T) {
	c := LRSchedule{Kind: "constant", Base: 0.1, WarmupSteps: 4}
	for step, want := range map[int64]float64{0: 0.025, 3: 0.1, 100: 0.1} {
		if got := c.At(step); math.Abs(got-want) > 1e-12 {
			t.Errorf("constant.At(%d) = %v, want %v", step, got, want)
		}
	}
	s := LRSchedule{Kind: "step", Base: 1, Milestones: []int64{10, 20}, Gamma: 0.5}
	for step, want := range map[int64]float64{0: 1, 9: 1, 10: 0.5, 19: 0.5, 20: 0.25, 1000: 0.25} {
		if got := s.At(step); math.Abs(got-want) > 1e-12 {
			t.Errorf("step.At(%d) = %v, want %v", step, got, want)
		}
	}
	cs := LRSchedule{Kind: "cosine", Base: 1, Min: 0.1, TotalSteps: 100}
	for step, want := range map[int64]float64{0: 1, 50: 0.55, 100: 0.1, 200: 0.1} {
		if got := cs.At(step); math.Abs(got-want) > 1e-12 {
			t.Errorf("cosine.At(%d) = %v, want %v", step, got, want)
		}
	}
	for _, bad := range []LRSchedule{{Base: 0}, {Kind: "step", Base: 1}, {Kind: "cosine", Base: 1}, {Kind: "linear", Base: 1}, {Kind: "step", Base: 1, Gamma: 0.1, Milestones: []int64{5, 2}}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestTrainConfigJSON(t *testing.T) {
	tc := DefaultTrainConfig()
	tc.LR = LRSchedule{Kind: "step", Base: 0.1, Milestones: []int64{100, 200}, Gamma: 0.1}
	b, err := json.Marshal(tc)
	if err != nil {
		t.Fatal(err)
	}
	got := DefaultTrainConfig()
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, tc) {
		t.Errorf("round trip: %+v != %+v", got, tc)
	}
	if err := tc.Validate(); err != nil {
		t.Error(err)
	}
	for _, mod := range []func(*TrainConfig){
		func(c *TrainConfig) { c.BatchSize = 0 },
		func(c *TrainConfig) { c.Momentum = 1 },
		func(c *TrainConfig) { c.L2 = -1 },
		func(c *TrainConfig) { c.L2 = math.NaN() },
		func(c *TrainConfig) { c.Optimizer = OptimizerAdamW; c.Beta2 = 1 },
		func(c *TrainConfig) { c.LR.Base = 0 },
	} {
		c := DefaultTrainConfig()
		mod(&c)
		if c.Validate() == nil {
			t.Errorf("invalid config accepted: %+v", c)
		}
	}
}
