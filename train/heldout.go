package train

import (
	"context"
	"math"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/train/replay"
)

// heldout is how well a network predicts positions it has not trained on:
// each iteration's new positions, scored by the network that played them
// before it learns from them. Training loss alone cannot tell learning from
// memorising.
type heldout struct {
	// ValueLoss is the mean cross-entropy of the WDL head against the value
	// targets; Baseline that of the best constant guess (the entropy of the
	// targets' own win/draw/loss frequencies). A value head that has learnt
	// anything general scores below it.
	ValueLoss, Baseline float64
	// PolicyKL is the mean KL divergence from the search's policy target to
	// the network's policy over the legal moves.
	PolicyKL float64
	// Positions counts those with a value target (ValueLoss) and with a
	// policy target (PolicyKL).
	ValuePositions, PolicyPositions int
}

// heldoutBatch is how many positions go to the network at once.
const heldoutBatch = 64

// measureHeldout scores samples with eval.
func measureHeldout(ctx context.Context, eval mcts.Evaluator, variant env.Variant, samples []replay.Sample) (heldout, error) {
	var h heldout
	in, size := variant.InputSize(), variant.PolicySize()
	planes := make([]float32, heldoutBatch*in)
	policy := make([]float32, heldoutBatch*size)
	wdl := make([]float32, heldoutBatch*env.WDLSize)
	var freq [3]float64
	var vSum, kSum float64
	legal := make([]float32, size)
	for start := 0; start < len(samples); start += heldoutBatch {
		if err := ctx.Err(); err != nil {
			return h, err
		}
		batch := samples[start:min(start+heldoutBatch, len(samples))]
		for i := range batch {
			batch[i].Position.Encode(planes[i*in : (i+1)*in])
		}
		if err := eval.Evaluate(planes, len(batch), policy, wdl); err != nil {
			return h, err
		}
		for i := range batch {
			s := &batch[i]
			if t := s.WDL(); t != ([3]float32{}) {
				for j, tj := range t {
					if tj > 0 {
						vSum -= float64(tj) * math.Log(max(float64(wdl[i*env.WDLSize+j]), 1e-7))
						freq[j] += float64(tj)
					}
				}
				h.ValuePositions++
			}
			if len(s.Policy) > 0 {
				s.Position.LegalMask(variant, legal)
				kSum += policyKL(policy[i*size:(i+1)*size], legal, s.Policy)
				h.PolicyPositions++
			}
		}
	}
	if n := float64(h.ValuePositions); n > 0 {
		h.ValueLoss = vSum / n
		for _, f := range freq {
			if f > 0 {
				h.Baseline -= f / n * math.Log(f/n)
			}
		}
	}
	if h.PolicyPositions > 0 {
		h.PolicyKL = kSum / float64(h.PolicyPositions)
	}
	return h, nil
}

// policyKL is KL(target ‖ softmax of the legal logits).
func policyKL(logits, legal []float32, target []replay.PolicyEntry) float64 {
	mx := math.Inf(-1)
	for i, ok := range legal {
		if ok != 0 {
			mx = max(mx, float64(logits[i]))
		}
	}
	var z float64
	for i, ok := range legal {
		if ok != 0 {
			z += math.Exp(float64(logits[i]) - mx)
		}
	}
	logZ := mx + math.Log(z)
	var kl float64
	for _, e := range target {
		if p := float64(e.Prob); p > 0 {
			kl += p * (math.Log(p) - (float64(logits[e.Index]) - logZ))
		}
	}
	return kl
}
