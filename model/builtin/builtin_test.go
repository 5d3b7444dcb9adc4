package builtin

import (
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
)

// Every rule set has a network, and no file is named after anything else
// (TestBuiltinNetworks checks that each plays its variant).
func TestEveryVariantHasANetwork(t *testing.T) {
	var names []string
	for _, v := range env.Variants() {
		names = append(names, v.Name)
		if !Has(v.Name) {
			t.Errorf("no built-in network for %s: the built-in networks are %v", v.Name, Variants())
		}
	}
	if len(Variants()) != len(names) {
		t.Errorf("the built-in networks are %v, the rule sets %v", Variants(), names)
	}
}

// Every embedded file is a whole, current, weights-only checkpoint of a
// network that plays the variant it is named after, and each call returns
// weights of its own.
func TestBuiltinNetworks(t *testing.T) {
	for _, name := range Variants() {
		t.Run(name, func(t *testing.T) {
			v, err := env.VariantByName(name)
			if err != nil {
				t.Fatalf("%s.azck is named after no variant: %v", name, err)
			}
			a, err := Checkpoint(name)
			if err != nil {
				t.Fatal(err)
			}
			if a.Optimizer != nil {
				t.Error("the built-in network carries an optimiser state: ship weights only")
			}
			if got := a.Meta["variant"]; got != name {
				t.Errorf("trained for %q, want %q", got, name)
			}
			for _, key := range []string{"trained_by", "iterations"} {
				if a.Meta[key] == "" {
					t.Errorf("metadata lacks %q (docs/TRAINING.md and the engine's description read it)", key)
				}
			}
			if err := a.Weights.Config().Fits(v); err != nil {
				t.Error(err)
			}
			d := Describe(a)
			if !strings.HasPrefix(d, "the built-in network (") || name != "alice" && !strings.Contains(d, name) {
				t.Errorf("Describe: %q", d)
			}
			b, err := Checkpoint(name)
			if err != nil {
				t.Fatal(err)
			}
			if a.Weights == b.Weights || !a.Weights.Equal(b.Weights) {
				t.Error("two calls share weights, or decode different ones")
			}
			// It evaluates the variant's start position to a WDL.
			ev, err := model.NewFastEvaluator(a.Weights, model.FastOptions{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer ev.Close()
			planes := make([]float32, v.InputSize())
			env.NewPosition(v).Encode(planes)
			pol, wdl := make([]float32, v.PolicySize()), make([]float32, env.WDLSize)
			if err := ev.Evaluate(planes, 1, pol, wdl); err != nil {
				t.Fatal(err)
			}
			if s := wdl[0] + wdl[1] + wdl[2]; s < 0.99 || s > 1.01 {
				t.Errorf("WDL %v", wdl)
			}
		})
	}
}

// A name that is no rule set's is an error that says so and lists the
// networks there are.
func TestNoNetwork(t *testing.T) {
	_, err := Checkpoint("chess")
	if err == nil || !strings.Contains(err.Error(), `no built-in network for "chess"`) || !strings.Contains(err.Error(), "alice-mini") {
		t.Errorf("Checkpoint(chess): %v, want an error naming the variants with a network", err)
	}
}
