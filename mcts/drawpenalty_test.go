package mcts

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// TestDrawPenaltyAvoidsRepetition: a move into a threefold repetition is
// scored exactly 0 without a draw penalty and exactly minus the penalty
// with one, so it loses visits and is not played.
func TestDrawPenaltyAvoidsRepetition(t *testing.T) {
	pos := env.NewPosition(env.Alice)
	// Black's f6g8 now repeats the start position a third time.
	if _, err := pos.PlayUCI(strings.Fields("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1")); err != nil {
		t.Fatal(err)
	}
	repeat, err := pos.ParseUCI("f6g8")
	if err != nil {
		t.Fatal(err)
	}
	for _, gumbel := range []bool{false, true} {
		visits := map[float32]int{}
		for _, penalty := range []float32{0, 0.3} {
			cfg := DefaultPlayConfig()
			cfg.Simulations = 400
			cfg.Gumbel = gumbel
			cfg.GumbelK = 32
			cfg.DrawPenalty = penalty
			s, err := NewSearcher(UniformEvaluator{Value: 0.1}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			tree, err := s.NewTree(pos, 1)
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.Search(context.Background(), tree, clock.Limits{Nodes: 400}, Progress{})
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(res.Children, func(c ChildStat) bool { return c.Move == repeat })
			if i < 0 {
				t.Fatalf("gumbel %v, penalty %v: the repetition is not among the root's moves", gumbel, penalty)
			}
			c := res.Children[i]
			visits[penalty] = c.Visits
			if c.Q != -penalty {
				t.Errorf("gumbel %v, penalty %v: repetition scored %v", gumbel, penalty, c.Q)
			}
			if penalty > 0 && res.BestMove == repeat {
				t.Errorf("gumbel %v: played the repetition despite the penalty", gumbel)
			}
		}
		// Under Gumbel the halving schedule, not the value, sets the visits.
		if !gumbel && visits[0.3] >= visits[0] {
			t.Errorf("gumbel %v: repetition visited %d times with the penalty, %d without", gumbel, visits[0.3], visits[0])
		}
	}
	bad := DefaultConfig()
	bad.DrawPenalty = 1
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "DrawPenalty") {
		t.Fatalf("DrawPenalty 1 accepted: %v", err)
	}
}
