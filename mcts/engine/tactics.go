package engine

import (
	"context"
	"slices"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/reference"
)

// The tactical guard: an exact alpha-beta beside the tree search, for the
// short forced mates a network of a few thousand visits a second misses
// or walks into (Alice games mostly end in mate after forty-odd plies).
// Before the tree search it looks for a forced mate at the root; after it,
// it checks that the move chosen does not allow one, taking the next move
// by visits when it does. A material alpha-beta's mate scores are exact
// (quiescence lets the defender stand pat, so a mate is only claimed when
// every defence was searched), so the guard overrules the tree only on
// proofs. It runs when Options.Tactics asks for it, and only in searches with a time budget: node-budget
// searches stay the tree search alone, comparable visit for visit.
const (
	// guardMateShare is the share of the move's budget the mate search at
	// the root gets; guardCheckShare the share kept for checking the
	// tree's choice.
	guardMateShare  = 0.2
	guardCheckShare = 0.15
	// guardCandidates bounds the moves checked, most visited first.
	guardCandidates = 4
	// mateBound: an alpha-beta score beyond it is a forced mate.
	mateBound = reference.MateScore - 200
)

// guard is the engine's tactical alpha-beta.
type guard struct {
	ab  *reference.AlphaBeta
	pos *env.Position
}

func newGuard() (*guard, error) {
	ab, err := reference.NewAlphaBeta("guard", reference.AlphaBetaConfig{Depth: reference.MaxDepth, Quiescence: true, QDepth: 8})
	if err != nil {
		return nil, err
	}
	return &guard{ab: ab}, nil
}

// findMate searches root for at most d; it returns the mating move and the
// mate's length in moves, or ok false.
func (g *guard) findMate(ctx context.Context, root *env.Position, d time.Duration) (m env.Move, mateIn int, ok bool) {
	r, err := g.ab.Search(ctx, root, clock.Limits{MoveTime: d})
	if err != nil || r.Depth == 0 || r.Score < mateBound {
		return env.NoMove, 0, false
	}
	return r.Move, (reference.MateScore - r.Score + 1) / 2, true
}

// check returns the first of the tree's candidate moves, most visited
// first, after which the alpha-beta finds no forced mate for the opponent
// within the time left until deadline (shared among the candidates). When
// every candidate checked is mated, or time runs out, it keeps res's
// choice.
func (g *guard) check(ctx context.Context, root *env.Position, res mcts.Result, deadline time.Time) env.Move {
	if res.Proven || len(res.Children) < 2 {
		return res.BestMove
	}
	cands := slices.Clone(res.Children)
	slices.SortStableFunc(cands, func(a, b mcts.ChildStat) int {
		if a.Move == res.BestMove {
			return -1
		}
		if b.Move == res.BestMove {
			return 1
		}
		return b.Visits - a.Visits
	})
	cands = cands[:min(len(cands), guardCandidates)]
	if g.pos == nil {
		g.pos = root.Clone()
	} else {
		g.pos.CopyFrom(root)
	}
	for i, c := range cands {
		if c.MateIn < 0 {
			continue // the tree already proved it loses
		}
		left := time.Until(deadline)
		if left <= time.Millisecond {
			break
		}
		g.pos.MakeMove(c.Move)
		if st := g.pos.Status(); st.IsOver() {
			g.pos.UnmakeMove()
			return c.Move // the game ends here: nothing to refute
		}
		r, err := g.ab.Search(ctx, g.pos, clock.Limits{MoveTime: left / time.Duration(len(cands)-i)})
		g.pos.UnmakeMove()
		if err != nil || r.Depth == 0 || r.Score < mateBound {
			return c.Move
		}
	}
	return res.BestMove
}
