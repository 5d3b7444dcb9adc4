package training

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/internal/modeltest"
)

// randomTargets returns n legal masks (a few dozen random legal indices),
// n policy targets (sparse distributions over some legal indices, zeros
// elsewhere, as the search produces) and n one-hot WDL results.
func randomTargets(rng *rand.Rand, n int) (pol, mask, wdl []float32) {
	pol = make([]float32, n*env.PolicySize)
	mask = make([]float32, n*env.PolicySize)
	wdl = make([]float32, n*env.WDLSize)
	for b := 0; b < n; b++ {
		row, legal := pol[b*env.PolicySize:(b+1)*env.PolicySize], mask[b*env.PolicySize:(b+1)*env.PolicySize]
		idx := make([]int, 5+rng.IntN(40))
		for i := range idx {
			idx[i] = rng.IntN(env.PolicySize)
			legal[idx[i]] = 1
		}
		var sum float32
		for _, j := range idx[:1+rng.IntN(len(idx))] {
			v := rng.Float32() + 0.01
			row[j] += v
			sum += v
		}
		for j := range row {
			row[j] /= sum
		}
		wdl[b*env.WDLSize+rng.IntN(3)] = 1
	}
	return pol, mask, wdl
}

// refLoss is the training loss (L2 excluded) in float64 via refForward:
// the policy's cross-entropy over the softmax of the legal logits.
func refLoss(w *model.Weights, planes, pol, mask, wdl []float32, n int, valueWeight float64) float64 {
	var total float64
	for b := 0; b < n; b++ {
		logits, probs := modeltest.RefForward(w, planes[b*env.InputSize:])
		legal := mask[b*env.PolicySize : (b+1)*env.PolicySize]
		m := math.Inf(-1)
		for j, v := range logits {
			if legal[j] != 0 {
				m = math.Max(m, v)
			}
		}
		var s float64
		for j, v := range logits {
			if legal[j] != 0 {
				s += math.Exp(v - m)
			}
		}
		lse := m + math.Log(s)
		for j, v := range logits {
			if legal[j] != 0 {
				total -= float64(pol[b*env.PolicySize+j]) * (v - lse)
			}
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
	cfg := modeltest.MustPreset(t, "tiny")
	w := modeltest.MustWeights(t, cfg, 11)
	const n = 3
	tc := smallTrainConfig(n)
	tc.ValueWeight = 1.5
	tr, err := NewTrainer(w, tc)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	rng := rand.New(rand.NewPCG(12, 12))
	planes := modeltest.RandomPlanes(rng, n)
	pol, mask, wdl := randomTargets(rng, n)
	grads, losses, err := tr.Gradients(planes, pol, mask, wdl)
	if err != nil {
		t.Fatal(err)
	}
	ref := refLoss(w, planes, pol, mask, wdl, n, tc.ValueWeight)
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
			lp := refLoss(w, planes, pol, mask, wdl, n, tc.ValueWeight)
			p.Data[j] = orig - eps
			down := float64(p.Data[j])
			lm := refLoss(w, planes, pol, mask, wdl, n, tc.ValueWeight)
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
	w := modeltest.MustWeights(t, modeltest.MustPreset(t, "tiny"), 13)
	tr, err := NewTrainer(w, smallTrainConfig(4))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	rng := rand.New(rand.NewPCG(14, 14))
	planes := modeltest.RandomPlanes(rng, 4)
	pol, mask, wdl := randomTargets(rng, 4)
	before := w.Clone()
	g1, _, err := tr.Gradients(planes, pol, mask, wdl)
	if err != nil {
		t.Fatal(err)
	}
	// A different batch in between.
	p2 := modeltest.RandomPlanes(rng, 4)
	pol2, mask2, wdl2 := randomTargets(rng, 4)
	if _, _, err := tr.Gradients(p2, pol2, mask2, wdl2); err != nil {
		t.Fatal(err)
	}
	g2, _, err := tr.Gradients(planes, pol, mask, wdl)
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
	for _, opt := range []string{model.OptimizerSGD, model.OptimizerAdamW} {
		t.Run(opt, func(t *testing.T) {
			w, err := model.NewWeights(modeltest.MustPreset(t, "tiny"), 21)
			if err != nil {
				t.Fatal(err)
			}
			tc := smallTrainConfig(8)
			tc.Optimizer = opt
			if opt == model.OptimizerAdamW {
				tc.LR.Base = 3e-3
			}
			tr, err := NewTrainer(w, tc)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			rng := rand.New(rand.NewPCG(22, 22))
			planes := modeltest.RandomPlanes(rng, 8)
			pol, mask, wdl := randomTargets(rng, 8)
			var first, last Losses
			for i := 0; i < 80; i++ {
				l, err := tr.Step(planes, pol, mask, wdl)
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
			// The policy's KL from the target (loss minus the target's
			// entropy, which training cannot change) must fall.
			if klFirst, klLast := first.Policy-first.PolicyEntropy, last.Policy-last.PolicyEntropy; !(klLast < 0.5*klFirst) || !(last.Value < 0.5*first.Value) {
				t.Errorf("loss did not fall enough: policy KL %v → %v, value %v → %v", klFirst, klLast, first.Value, last.Value)
			}
			if first.PolicyEntropy != last.PolicyEntropy || first.PolicyEntropy <= 0 {
				t.Errorf("target entropy %v then %v: the same targets must give the same positive entropy", first.PolicyEntropy, last.PolicyEntropy)
			}
			if tr.Steps() != 80 {
				t.Errorf("Steps() = %d, want 80", tr.Steps())
			}
		})
	}
}

func TestTrainerRejectsBadInput(t *testing.T) {
	w, _ := model.NewWeights(modeltest.MustPreset(t, "tiny"), 1)
	tr, err := NewTrainer(w, smallTrainConfig(2))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	planes := modeltest.RandomPlanes(rng, 2)
	pol, mask, wdl := randomTargets(rng, 2)
	if _, err := tr.Step(planes[:env.InputSize], pol, mask, wdl); err == nil {
		t.Error("short batch accepted")
	}
	if _, err := tr.Step(planes, pol, mask[:env.PolicySize], wdl); err == nil {
		t.Error("short mask accepted")
	}
	before := w.Clone()
	illegal := slices.Index(mask, 0)
	for _, c := range []struct {
		name    string
		index   int
		p, m    float32
		wantErr string
	}{
		{"target on an illegal move", illegal, 0.25, 0, "legal mask excludes"},
		{"mask entry neither 0 nor 1", illegal, 0, 0.5, "want 0 or 1"},
		{"negative target", illegal, -0.25, 1, "policy target is -0.25"},
	} {
		p, m := slices.Clone(pol), slices.Clone(mask)
		p[c.index], m[c.index] = c.p, c.m
		if _, err := tr.Step(planes, p, m, wdl); err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s: got %v, want an error saying %q", c.name, err, c.wantErr)
		}
	}
	pol[slices.Index(mask, 1)] = float32(math.NaN())
	if _, err := tr.Step(planes, pol, mask, wdl); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN target: got %v, want ErrNonFinite", err)
	}
	if !w.Equal(before) {
		t.Error("a rejected step changed the weights")
	}
	tr.Close()
	if _, err := tr.Step(planes, pol, mask, wdl); !errors.Is(err, model.ErrClosed) {
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
		func(c *TrainConfig) { c.Optimizer = model.OptimizerAdamW; c.Beta2 = 1 },
		func(c *TrainConfig) { c.LR.Base = 0 },
	} {
		c := DefaultTrainConfig()
		mod(&c)
		if c.Validate() == nil {
			t.Errorf("invalid config accepted: %+v", c)
		}
	}
}

// TestPolicyLossIgnoresIllegalLogits drives one move-type plane's logits
// far up through its bias while every position's legal mask excludes that
// plane: the losses and every other gradient stay as they were, and the
// plane's parameters get no gradient. Without the mask the loss would grow
// by about the bias.
func TestPolicyLossIgnoresIllegalLogits(t *testing.T) {
	const n, plane = 4, 40
	w, tr := tinyTrainer(t, n, 17)
	rng := rand.New(rand.NewPCG(18, 18))
	planes := modeltest.RandomPlanes(rng, n)
	pol, mask, wdl := randomTargets(rng, n)
	for b := 0; b < n; b++ {
		row := pol[b*env.PolicySize : (b+1)*env.PolicySize]
		clear(row[plane*64 : (plane+1)*64])
		clear(mask[b*env.PolicySize+plane*64 : b*env.PolicySize+(plane+1)*64])
		j := slices.Index(mask[b*env.PolicySize:(b+1)*env.PolicySize], 1)
		row[j] += 0.1 // the row may have lost all its mass
		var sum float32
		for _, v := range row {
			sum += v
		}
		for i := range row {
			row[i] /= sum
		}
	}
	g0, l0, err := tr.Gradients(planes, pol, mask, wdl)
	if err != nil {
		t.Fatal(err)
	}
	w.Param("policy.logits.b").Data[plane] = 1e4
	g1, l1, err := tr.Gradients(planes, pol, mask, wdl)
	if err != nil {
		t.Fatal(err)
	}
	if l0.Policy != l1.Policy || l0.Value != l1.Value {
		t.Fatalf("illegal logits raised by 1e4 change the losses: %+v, then %+v", l0, l1)
	}
	for i, p := range w.Params() {
		for j := range g1[i] {
			onPlane := p.Name == "policy.logits.b" && j == plane ||
				p.Name == "policy.logits.w" && j/w.Config().PolicyChannels == plane
			if onPlane && g1[i][j] != 0 || g1[i][j] != g0[i][j] {
				t.Fatalf("%s[%d]: gradient %v, was %v (on the masked plane: %v)", p.Name, j, g1[i][j], g0[i][j], onPlane)
			}
		}
	}
}

// TestPolicyKL: the policy loss minus the target's entropy (the KL
// divergence) that Step reports is never negative, and it is zero when
// the target is the network's own softmax over the legal moves.
func TestPolicyKL(t *testing.T) {
	const n = 5
	w, tr := tinyTrainer(t, n, 19)
	rng := rand.New(rand.NewPCG(20, 20))
	for range 5 {
		planes := modeltest.RandomPlanes(rng, n)
		pol, mask, wdl := randomTargets(rng, n)
		l, err := tr.Step(planes, pol, mask, wdl)
		if err != nil {
			t.Fatal(err)
		}
		if kl := l.Policy - l.PolicyEntropy; kl < -1e-6 || l.PolicyEntropy < 0 {
			t.Errorf("policy loss %v, target entropy %v: KL %v", l.Policy, l.PolicyEntropy, kl)
		}
	}
	planes := modeltest.RandomPlanes(rng, n)
	_, mask, wdl := randomTargets(rng, n)
	logits, probs := make([]float32, n*env.PolicySize), make([]float32, n*env.WDLSize)
	ev, err := model.NewFastEvaluator(w, model.FastOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	if err := ev.Evaluate(planes, n, logits, probs); err != nil {
		t.Fatal(err)
	}
	pol := make([]float32, n*env.PolicySize)
	for b := 0; b < n; b++ {
		var sum float64
		for j := b * env.PolicySize; j < (b+1)*env.PolicySize; j++ {
			if mask[j] == 1 {
				sum += math.Exp(float64(logits[j]))
			}
		}
		for j := b * env.PolicySize; j < (b+1)*env.PolicySize; j++ {
			if mask[j] == 1 {
				pol[j] = float32(math.Exp(float64(logits[j])) / sum)
			}
		}
	}
	l, err := tr.Step(planes, pol, mask, wdl) // its losses are those of the weights before the step
	if err != nil {
		t.Fatal(err)
	}
	if kl := l.Policy - l.PolicyEntropy; math.Abs(kl) > 1e-5 {
		t.Errorf("target = the net's legal policy: loss %v, entropy %v, KL %v, want 0", l.Policy, l.PolicyEntropy, kl)
	}
}

// tinyTrainer returns fresh tiny weights and a trainer of batch n over
// them, closed when the test ends.
func tinyTrainer(t *testing.T, n int, seed uint64) (*model.Weights, *Trainer) {
	t.Helper()
	w := modeltest.MustWeights(t, modeltest.MustPreset(t, "tiny"), seed)
	tr, err := NewTrainer(w, smallTrainConfig(n))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return w, tr
}

// TestShardedStepMatchesOneGraph: a batch cut into shards (even and uneven
// ones) gives the losses, gradient and step of one graph over the whole
// batch, to float32 rounding, and the reference loss.
func TestShardedStepMatchesOneGraph(t *testing.T) {
	cfg := modeltest.MustPreset(t, "tiny")
	const n = 20
	rng := rand.New(rand.NewPCG(5, 9))
	planes := modeltest.RandomPlanes(rng, n)
	pol, mask, wdl := randomTargets(rng, n)
	tc := smallTrainConfig(n)
	tc.ValueWeight = 1.5
	trainer := func(shards int) (*Trainer, *model.Weights) {
		w := modeltest.MustWeights(t, cfg, 3)
		tr, err := newTrainer(w, tc, shards)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tr.Close() })
		return tr, w
	}
	whole, wWhole := trainer(1)
	refGrads, refLosses, err := whole.Gradients(planes, pol, mask, wdl)
	if err != nil {
		t.Fatal(err)
	}
	if ref := refLoss(wWhole, planes, pol, mask, wdl, n, tc.ValueWeight); math.Abs(ref-(refLosses.Total-refLosses.L2)) > 1e-4 {
		t.Fatalf("one graph's loss %v, reference %v", refLosses.Total-refLosses.L2, ref)
	}
	if _, err := whole.Step(planes, pol, mask, wdl); err != nil {
		t.Fatal(err)
	}
	near := func(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }
	for _, shards := range []int{2, 3, 20} {
		tr, w := trainer(shards)
		grads, losses, err := tr.Gradients(planes, pol, mask, wdl)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []struct {
			name     string
			got, ref float64
		}{{"policy", losses.Policy, refLosses.Policy}, {"value", losses.Value, refLosses.Value},
			{"entropy", losses.PolicyEntropy, refLosses.PolicyEntropy}, {"L2", losses.L2, refLosses.L2},
			{"total", losses.Total, refLosses.Total}, {"gradient norm", losses.GradNorm, refLosses.GradNorm}} {
			if !near(f.got, f.ref, 1e-5) {
				t.Errorf("%d shards: %s loss %v, one graph %v", shards, f.name, f.got, f.ref)
			}
		}
		for i, g := range grads {
			for j := range g {
				if !near(float64(g[j]), float64(refGrads[i][j]), 1e-4) {
					t.Fatalf("%d shards: gradient of %s[%d] %v, one graph %v", shards, w.Params()[i].Name, j, g[j], refGrads[i][j])
				}
			}
		}
		if _, err := tr.Step(planes, pol, mask, wdl); err != nil {
			t.Fatal(err)
		}
		for i, p := range w.Params() {
			for j, x := range p.Data {
				if !near(float64(x), float64(wWhole.Params()[i].Data[j]), 1e-5) {
					t.Fatalf("%d shards: %s[%d] %v after a step, one graph %v", shards, p.Name, j, x, wWhole.Params()[i].Data[j])
				}
			}
		}
	}
}

// TestAutoShards: one shard per core, each of at least trainShardMin
// positions.
func TestAutoShards(t *testing.T) {
	for _, c := range []struct{ procs, batch, want int }{
		{1, 256, 1}, {2, 256, 2}, {2, 128, 2}, {2, 127, 1}, {2, 8, 1}, {4, 128, 2}, {4, 512, 4}, {7, 448, 7},
	} {
		old := runtime.GOMAXPROCS(c.procs)
		got := autoShards(c.batch)
		runtime.GOMAXPROCS(old)
		if got != c.want {
			t.Errorf("%d cores, batch %d: %d shards, want %d", c.procs, c.batch, got, c.want)
		}
	}
}

// TestStepNamesFirstBadRow: the targets are checked in pieces across the
// cores, but a step reports the first bad position of the batch, and a
// good step after a rejected one goes through.
func TestStepNamesFirstBadRow(t *testing.T) {
	const n = 40
	w := modeltest.MustWeights(t, modeltest.MustPreset(t, "tiny"), 2)
	tr, err := NewTrainer(w, smallTrainConfig(n))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	planes := modeltest.RandomPlanes(rng, n)
	pol, mask, wdl := randomTargets(rng, n)
	k := len(mask) / n
	illegal := func(row int) int { return row*k + slices.Index(mask[row*k:(row+1)*k], 0) }
	for _, rows := range [][]int{{37}, {20, 37}, {3, 20}} {
		p := slices.Clone(pol)
		for _, r := range rows {
			p[illegal(r)] = 0.5
		}
		want := fmt.Sprintf("position %d's policy target", rows[0])
		if _, err := tr.Step(planes, p, mask, wdl); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad rows %v: got %v, want an error naming %q", rows, err, want)
		}
	}
	if _, err := tr.Step(planes, pol, mask, wdl); err != nil {
		t.Fatalf("good step after rejected ones: %v", err)
	}
}
