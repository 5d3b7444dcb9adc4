package engine_test

import (
	"context"
	"fmt"

	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// The quick mate of the rule book: after 1. e4 d5 2. Be2 dxe4 the bishop
// mates on b5.
func Example() {
	e, err := engine.New(engine.Options{Weights: engine.NoWeights})
	if err != nil {
		panic(err)
	}
	defer e.Close()
	if err := e.SetPosition("", []string{"e2e4", "d7d5", "f1e2", "d5e4"}); err != nil {
		panic(err)
	}
	var last mcts.Info
	res, err := e.Go(context.Background(), clock.Limits{Nodes: 200},
		mcts.Progress{Report: func(in mcts.Info) { last = in }})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.BestMove, "mate in", res.MateIn)
	fmt.Println(len(last.Children), "root moves reported")
	// Output:
	// e2b5 mate in 1
	// 30 root moves reported
}
