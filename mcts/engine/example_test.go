package engine_test

import (
	"context"
	"fmt"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// The quick mate of the rule book: after 1. e4 d5 2. Be2 dxe4 the bishop
// mates on b5. With no network named the engine plays the classical
// alpha-beta.
func Example() {
	e, err := engine.New(engine.Options{})
	if err != nil {
		panic(err)
	}
	defer e.Close()
	// The front end keeps the game; the engine searches it.
	pos := env.NewPosition(env.Alice)
	if _, err := pos.PlayUCI([]string{"e2e4", "d7d5", "f1e2", "d5e4"}); err != nil {
		panic(err)
	}
	res, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 2000}, mcts.Progress{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.BestMove, "mate in", res.MateIn)
	fmt.Println(e.Network())
	// Output:
	// e2b5 mate in 1
	// the classical alpha-beta, with its own evaluation
}
