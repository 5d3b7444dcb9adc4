package builtin

import (
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
)

// The embedded file is a whole, current checkpoint of a network that plays
// Variant, and each call returns weights of its own.
func TestBuiltinNetwork(t *testing.T) {
	a, err := Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	if a.Optimizer != nil {
		t.Error("the built-in network carries an optimiser state: ship weights only")
	}
	if v := a.Meta["variant"]; v != Variant {
		t.Errorf("trained for %q, want %q", v, Variant)
	}
	for _, key := range []string{"trained_by", "iterations"} {
		if a.Meta[key] == "" {
			t.Errorf("metadata lacks %q (docs/TRAINING.md and the engine's description read it)", key)
		}
	}
	if d := Describe(a); !strings.Contains(d, "built-in") {
		t.Errorf("Describe: %q", d)
	}
	b, err := Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	if a.Weights == b.Weights || !a.Weights.Equal(b.Weights) {
		t.Error("two calls share weights, or decode different ones")
	}
	// It evaluates the start position to a legal policy and a WDL.
	ev, err := model.NewFastEvaluator(a.Weights, model.FastOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	planes := make([]float32, env.InputSize)
	env.NewPosition(env.Alice).Encode(planes)
	pol, wdl := make([]float32, env.PolicySize), make([]float32, env.WDLSize)
	if err := ev.Evaluate(planes, 1, pol, wdl); err != nil {
		t.Fatal(err)
	}
	if s := wdl[0] + wdl[1] + wdl[2]; s < 0.99 || s > 1.01 {
		t.Errorf("WDL %v", wdl)
	}
}
