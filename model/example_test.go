package model_test

import (
	"fmt"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
)

// One position through the fast evaluator: the package documentation's
// snippet, on the tiny network of the tests. The search (package mcts)
// fills planes with many positions at once.
func ExampleNewFastEvaluator() {
	arch, err := model.Preset("tiny")
	if err != nil {
		panic(err)
	}
	w, err := model.NewWeights(arch, 1) // or LoadWeights(path, w)
	if err != nil {
		panic(err)
	}
	fast, err := model.NewFastEvaluator(w, model.FastOptions{Workers: 1})
	if err != nil {
		panic(err)
	}
	defer fast.Close()

	planes := make([]float32, env.InputSize)
	env.NewPosition(env.Alice).Encode(planes)
	policy, wdl := make([]float32, env.PolicySize), make([]float32, 3)
	if err := fast.Evaluate(planes, 1, policy, wdl); err != nil {
		panic(err)
	}
	fmt.Printf("%d policy logits; win+draw+loss = %.3f\n", len(policy), wdl[0]+wdl[1]+wdl[2])
	// Output:
	// 4672 policy logits; win+draw+loss = 1.000
}
