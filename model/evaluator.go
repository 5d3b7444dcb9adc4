package model

import (
	"fmt"

	"github.com/alicezero/alicezero/env"
)

// Evaluator runs the network on a batch of positions. The search package
// declares the same method set, so any Evaluator here satisfies it.
type Evaluator interface {
	// Evaluate runs the network on n positions laid out back to back in
	// planes (n·Config.InputSize floats) and writes n·Config.PolicySize
	// policy logits to policy and n*env.WDLSize win/draw/loss
	// probabilities to wdl.
	Evaluate(planes []float32, n int, policy, wdl []float32) error
}

// CheckEvaluateArgs validates the buffers of an Evaluate call on a
// network of architecture c (see Evaluator), for evaluators to call first.
func (c Config) CheckEvaluateArgs(planes []float32, n int, policy, wdl []float32) error {
	switch in, pol := c.InputSize(), c.PolicySize(); {
	case n < 0:
		return fmt.Errorf("model: evaluate: negative batch size %d", n)
	case len(planes) < n*in:
		return fmt.Errorf("model: evaluate: planes has %d floats, %d positions need %d", len(planes), n, n*in)
	case len(policy) < n*pol:
		return fmt.Errorf("model: evaluate: policy has room for %d floats, %d positions need %d", len(policy), n, n*pol)
	case len(wdl) < n*env.WDLSize:
		return fmt.Errorf("model: evaluate: wdl has room for %d floats, %d positions need %d", len(wdl), n, n*env.WDLSize)
	}
	return nil
}
