package model

import (
	"fmt"

	"github.com/alicezero/alicezero/env"
)

// CheckEvaluateArgs validates the buffers of an Evaluate call on a
// network of architecture c, for evaluators to call first: n positions
// laid out back to back in planes (n·c.InputSize() floats), room for
// n·c.PolicySize() policy logits in policy and n·env.WDLSize win/draw/loss
// probabilities in wdl.
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
