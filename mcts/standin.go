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
	// Variant is the rule set of the positions evaluated (the zero value:
	// alice), which fixes the sizes of the buffers.
	Variant env.Variant
}

// Evaluate implements Evaluator.
func (u UniformEvaluator) Evaluate(planes []float32, n int, policy, wdl []float32) error {
	v := variantOr(u.Variant)
	if err := checkEvalArgs(v, planes, n, policy, wdl); err != nil {
		return err
	}
	clear(policy[:n*v.PolicySize()])
	w, l := (1+u.Value)/2, (1-u.Value)/2
	for i := range n {
		wdl[3*i], wdl[3*i+1], wdl[3*i+2] = w, 0, l
	}
	return nil
}

// MaterialEvaluator returns uniform policy logits and a value from the
// material balance read off the input planes (pawn 1, knight 3, bishop 3,
// rook 5, queen 9, every board): v = tanh(Scale·(ours − theirs)), reported
// as W = (1+v)/2, D = 0, L = (1-v)/2. Scale 0 means 0.2.
type MaterialEvaluator struct {
	Scale float32
	// Variant is the rule set of the positions evaluated (the zero value:
	// alice), which fixes the planes' layout.
	Variant env.Variant
}

var pieceValues = [6]float32{1, 3, 3, 5, 9, 0}

// Evaluate implements Evaluator.
func (m MaterialEvaluator) Evaluate(planes []float32, n int, policy, wdl []float32) error {
	vr := variantOr(m.Variant)
	if err := checkEvalArgs(vr, planes, n, policy, wdl); err != nil {
		return err
	}
	l, in := vr.Planes(), vr.InputSize()
	scale := m.Scale
	if scale == 0 {
		scale = 0.2
	}
	clear(policy[:n*vr.PolicySize()])
	for i := range n {
		x := planes[i*in : (i+1)*in]
		var bal float32
		for b := range env.Board(l.Boards()) {
			for k := env.Pawn; k < env.King; k++ {
				op, tp := l.Piece(b, true, k), l.Piece(b, false, k)
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

// variantOr returns v, or alice for the zero Variant.
func variantOr(v env.Variant) env.Variant {
	if v == (env.Variant{}) {
		return env.Alice
	}
	return v
}

func checkEvalArgs(v env.Variant, planes []float32, n int, policy, wdl []float32) error {
	if n < 0 || len(planes) < n*v.InputSize() || len(policy) < n*v.PolicySize() || len(wdl) < n*env.WDLSize {
		return fmt.Errorf("mcts: evaluate: buffers too short for %d positions (planes %d, policy %d, wdl %d)",
			n, len(planes), len(policy), len(wdl))
	}
	return nil
}
