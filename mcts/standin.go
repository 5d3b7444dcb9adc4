package mcts

import (
	"fmt"
	"math"

	"github.com/alicezero/alicezero/env"
)

// Stand-in evaluators for tests and benchmarks (of this package and of
// others): they need no network. Both are safe for concurrent use.

// UniformEvaluator returns uniform policy logits (all zero) and the fixed
// value Value (W-L from the side to move's view, in [-1, 1]) as
// W = (1+Value)/2, D = 0, L = (1-Value)/2. It does no other work: a
// zero-cost evaluator for measuring the search itself.
type UniformEvaluator struct {
	Value float32
}

// Evaluate implements Evaluator.
func (u UniformEvaluator) Evaluate(planes []float32, n int, policy, wdl []float32) error {
	if err := checkEvalArgs(planes, n, policy, wdl); err != nil {
		return err
	}
	clear(policy[:n*env.PolicySize])
	w, l := (1+u.Value)/2, (1-u.Value)/2
	for i := range n {
		wdl[3*i], wdl[3*i+1], wdl[3*i+2] = w, 0, l
	}
	return nil
}

// MaterialEvaluator returns uniform policy logits and a value from the
// material balance read off the input planes (pawn 1, knight 3, bishop 3,
// rook 5, queen 9, both boards): v = tanh(Scale·(ours − theirs)), reported
// as W = (1+v)/2, D = 0, L = (1-v)/2. Scale 0 means 0.2.
type MaterialEvaluator struct {
	Scale float32
}

var pieceValues = [6]float32{1, 3, 3, 5, 9, 0}

// Evaluate implements Evaluator.
func (m MaterialEvaluator) Evaluate(planes []float32, n int, policy, wdl []float32) error {
	if err := checkEvalArgs(planes, n, policy, wdl); err != nil {
		return err
	}
	scale := m.Scale
	if scale == 0 {
		scale = 0.2
	}
	clear(policy[:n*env.PolicySize])
	for i := range n {
		x := planes[i*env.InputSize : (i+1)*env.InputSize]
		var bal float32
		for b := env.BoardA; b <= env.BoardB; b++ {
			for k := env.Pawn; k < env.King; k++ {
				op, tp := env.PiecePlane(b, true, k), env.PiecePlane(b, false, k)
				ours := x[op*env.PlaneSize : (op+1)*env.PlaneSize]
				theirs := x[tp*env.PlaneSize : (tp+1)*env.PlaneSize]
				var cnt float32
				for sq := range env.PlaneSize {
					cnt += ours[sq] - theirs[sq]
				}
				bal += cnt * pieceValues[k]
			}
		}
		v := float32(math.Tanh(float64(scale * bal)))
		wdl[3*i], wdl[3*i+1], wdl[3*i+2] = (1+v)/2, 0, (1-v)/2
	}
	return nil
}

func checkEvalArgs(planes []float32, n int, policy, wdl []float32) error {
	if n < 0 || len(planes) < n*env.InputSize || len(policy) < n*env.PolicySize || len(wdl) < n*env.WDLSize {
		return fmt.Errorf("mcts: evaluate: buffers too short for %d positions (planes %d, policy %d, wdl %d)",
			n, len(planes), len(policy), len(wdl))
	}
	return nil
}
