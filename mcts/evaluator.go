package mcts

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// Evaluator runs the network. Evaluate reads n positions laid out back to
// back in planes (n·v.InputSize() floats, each encoded by
// env.Position.Encode, v being the positions' variant) and writes
// n·v.PolicySize() policy logits to policy and n*env.WDLSize
// win/draw/loss probabilities (side to move's view) to wdl. The search
// sends positions of one variant per call; an evaluator built for one
// variant's encoding (a network) must only be given trees of that variant. It must be safe for concurrent use if the search calls it
// concurrently (Config.Workers > 1).
type Evaluator interface {
	Evaluate(planes []float32, n int, policy, wdl []float32) error
}

// Sentinel errors. Returned errors wrap them; test with errors.Is.
var (
	// ErrGameOver: the tree's root position is already decided; there is
	// nothing to search.
	ErrGameOver = errors.New("mcts: game is over at the root")
	// ErrTreeBusy: the tree is being searched by another call.
	ErrTreeBusy = errors.New("mcts: tree is already being searched")
	// ErrForeignTree: the tree was made by a different Searcher.
	ErrForeignTree = errors.New("mcts: tree belongs to another searcher")
	// ErrIllegalMove: Advance was given a move that is not legal at the root.
	ErrIllegalMove = errors.New("mcts: illegal move")
	// ErrEvaluator: the evaluator failed, panicked or returned non-finite
	// values.
	ErrEvaluator = errors.New("mcts: evaluator failed")
	// ErrNoResult: the search was stopped before the root was evaluated.
	ErrNoResult = errors.New("mcts: search stopped before any result")
)

// callEvaluator calls e, turning a panic into an error so that none
// crosses the package boundary.
func callEvaluator(e Evaluator, planes []float32, n int, policy, wdl []float32) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: panic: %v\n%s", ErrEvaluator, r, debug.Stack())
		}
	}()
	if err := e.Evaluate(planes, n, policy, wdl); err != nil {
		return fmt.Errorf("%w: %w", ErrEvaluator, err)
	}
	return nil
}
