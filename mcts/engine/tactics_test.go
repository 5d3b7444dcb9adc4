package engine

import (
	"context"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
)

// Positions with a forced mate in two (from mcts's solver tests).
var mateInTwo = []string{
	"rn2k2r/ppp|Q|qppp/7|n/1|B2p|b|B|R/1|b6/3|P|P2|P/PPP2PP1/RN2K1N1 b Qkq - 1 7",
	"rn1B1|knr/pppb1ppp/8/1|B2p2|R/1|b5P/3|Pq|N2/PPP2PP1/RN3|K2 b - - 3 11",
	"rn1qkb2/p4p2/|B|p1|p|b1|p1/2|p1|p|QBp/2|P1n1|r1/1|P1|P1|N2/P4PPP/RN2K2R w KQq - 0 14",
}

// A timed search plays a forced mate the guard proves, reporting it, even
// where the tree search alone, held to a handful of visits, cannot see it;
// without Tactics the same search reports no mate.
func TestGuardFindsForcedMates(t *testing.T) {
	for _, fen := range mateInTwo {
		for _, tactics := range []bool{true, false} {
			e := newEngine(t, Options{Weights: NoWeights, Search: SearchMCTS, Tactics: tactics})
			pos := at(t, e, fen)
			var final mcts.Info
			// Nodes 4 keeps the tree from proving the mate itself; the
			// move time turns the guard on, and is long so that a loaded
			// machine still gives the guard's share (a fifth) time to
			// prove it (the alpha-beta stops at a proven mate).
			res, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{MoveTime: 20 * time.Second, Nodes: 4}, mcts.Progress{Report: func(in mcts.Info) {
				if in.Final {
					final = in
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			if !tactics {
				if res.MateIn != 0 {
					t.Errorf("%s without the guard: mate in %d after %d playouts; the test needs a tree that cannot see it", fen, res.MateIn, res.Nodes)
				}
				continue
			}
			if res.MateIn != 2 || final.MateIn != 2 || !final.Final {
				t.Errorf("%s: mate in %d (reported %d), want 2", fen, res.MateIn, final.MateIn)
			}
			pos.MakeMove(res.BestMove)
			if _, n, ok := mustGuard(t).findMate(context.Background(), pos, time.Second); ok {
				t.Errorf("%s: after %v the opponent mates in %d", fen, res.BestMove, n)
			}
		}
	}
}

func mustGuard(t *testing.T) *guard {
	t.Helper()
	g, err := newGuard()
	if err != nil {
		t.Fatal(err)
	}
	return g
}
