package training

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/internal/modeltest"
)

// variantPositions returns n positions of variant v along random games,
// encoded, with their legal masks and a target on one legal move each.
func variantPositions(t *testing.T, v env.Variant, n int, seed uint64) (planes, policy, mask, wdl []float32) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	in, size := v.InputSize(), v.PolicySize()
	planes, policy, mask = make([]float32, n*in), make([]float32, n*size), make([]float32, n*size)
	wdl = make([]float32, n*env.WDLSize)
	p := env.NewPosition(v)
	for i := 0; i < n; {
		var ml env.MoveList
		p.LegalMoves(&ml)
		if ml.N == 0 || p.Ply() > 60 {
			p = env.NewPosition(v)
			continue
		}
		p.Encode(planes[i*in : (i+1)*in])
		p.LegalMask(mask[i*size : (i+1)*size])
		m := ml.Moves[rng.IntN(ml.N)]
		policy[i*size+p.PolicyIndex(m)] = 1
		wdl[i*env.WDLSize+rng.IntN(env.WDLSize)] = 1
		p.MakeMove(m)
		i++
	}
	return planes, policy, mask, wdl
}

// TestVariantEncodingsThroughTheNetwork: for every variant's encoding
// (input planes and policy layout), a network built for it evaluates real
// positions of the variant alike on the fast path, the gorgonia graph and
// the float64 reference; trains on them; and keeps its encoding through
// a checkpoint, which refuses the other encodings.
func TestVariantEncodingsThroughTheNetwork(t *testing.T) {
	for _, v := range []env.Variant{env.Alice, env.AliceNull, env.AliceOptionalTransfer, env.AliceStone, env.Alice3} {
		t.Run(v.Name, func(t *testing.T) {
			cfg := modeltest.MustPreset(t, "tiny").ForVariant(v)
			if err := cfg.Fits(v); err != nil {
				t.Fatal(err)
			}
			if cfg.NumInputPlanes() != v.NumPlanes() || cfg.PolicySize() != v.PolicySize() || cfg.PresetName() != "tiny" {
				t.Fatalf("config %s: %d planes, %d logits, preset %q", cfg, cfg.NumInputPlanes(), cfg.PolicySize(), cfg.PresetName())
			}
			w := modeltest.MustWeights(t, cfg, 9)
			const n = 20
			planes, policy, mask, wdl := variantPositions(t, v, n, 5)
			fev, err := model.NewFastEvaluator(w, model.FastOptions{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			defer fev.Close()
			gev, err := NewGraphEvaluator(w, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			defer gev.Close()
			size := v.PolicySize()
			fp, fw := make([]float32, n*size), make([]float32, n*env.WDLSize)
			gp, gw := make([]float32, n*size), make([]float32, n*env.WDLSize)
			if err := fev.Evaluate(planes, n, fp, fw); err != nil {
				t.Fatal(err)
			}
			if err := gev.Evaluate(planes, n, gp, gw); err != nil {
				t.Fatal(err)
			}
			if d := max(modeltest.MaxAbsDiff(fp, gp), modeltest.MaxAbsDiff(fw, gw)); d > 1e-4 {
				t.Errorf("fast path and graph differ by %g", d)
			}
			for b := range 3 {
				rp, rw := modeltest.RefForward(w, planes[b*v.InputSize():])
				if d := max(modeltest.MaxAbsDiff64(fp[b*size:(b+1)*size], rp), modeltest.MaxAbsDiff64(fw[b*env.WDLSize:(b+1)*env.WDLSize], rw)); d > 1e-4 {
					t.Errorf("row %d: fast path and reference differ by %g", b, d)
				}
			}
			// Buffers of the default encoding are too short for the others.
			if v.PolicySize() > env.PolicySize {
				if err := fev.Evaluate(planes, n, make([]float32, n*env.PolicySize), fw); err == nil {
					t.Error("a policy buffer of alice's size was accepted")
				}
			}

			tr, err := NewTrainer(w, smallTrainConfig(n))
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			first, err := tr.Step(planes, policy, mask, wdl)
			if err != nil {
				t.Fatal(err)
			}
			var last Losses
			for range 30 {
				if last, err = tr.Step(planes, policy, mask, wdl); err != nil {
					t.Fatal(err)
				}
			}
			if !(last.Policy < first.Policy) || math.IsNaN(last.Policy) {
				t.Errorf("policy loss %v after 30 steps on one batch, %v at first", last.Policy, first.Policy)
			}

			var buf bytes.Buffer
			if err := model.WriteCheckpoint(&buf, &model.Checkpoint{Weights: tr.Weights()}); err != nil {
				t.Fatal(err)
			}
			c, err := model.ReadCheckpoint(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if c.Config() != cfg {
				t.Fatalf("checkpoint config %s, want %s", c.Config(), cfg)
			}
			for _, o := range env.Variants() {
				sameEncoding := o.NumPlanes() == v.NumPlanes() && o.Policy() == v.Policy()
				if err := c.Config().Fits(o); (err == nil) != sameEncoding || err != nil && !errors.Is(err, model.ErrEncoding) {
					t.Errorf("network of %s for %s: Fits says %v", v.Name, o.Name, err)
				}
			}
		})
	}
}
