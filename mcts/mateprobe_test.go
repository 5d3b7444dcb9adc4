package mcts

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts/reference"
)

// Positions before a move that allowed a mate in two (from the tactics
// suite: games of the built-in network against ab:depth=32), and the move.
var allowsMateInTwo = []struct{ fen, move string }{
	{"2b1kb1|R/4ppp1/|n2|p3|p/|pqpN4/2|Q1|P1n1/3|P1r1|P/1|KP5/r|R6 w - - 0 27", "Qc3"},
	{"1nb1k3/1pp1ppr|R/3|p|Q3/|p3N3/7r/2|P|P|P1B|P/PP4P1/R2|qK3 w Q - 1 17", "Bxh4"},
	{"rnk2b2/ppp1ppp1/3|p3|p/1Q6/4n3/|N2|P1|P2/1PP2P1|r/1qBK1B|R1 w - - 0 14", "Qc6"},
	{"rnb1kbnr/p5pp/2|p2|p2/1|p1Q|p3/|P2|P|P3/3|q4/1PP1|BPPP/RNB1K1NR b KQkq - 1 6", "Qxd4"},
}

// The mate-in-two probe finds the opponent's mate after each of those
// moves, only with MateProbe 2, and every mate it claims, in those and in
// random positions, is one the reference alpha-beta proves.
func TestMateProbeInTwo(t *testing.T) {
	ctx := context.Background()
	finder := reference.NewMateFinder()
	trees := map[int]*Tree{}
	for _, depth := range []int{1, 2} {
		cfg := testConfig(false, 10)
		cfg.MateProbe = depth
		trees[depth] = newTree(t, newSearcher(t, UniformEvaluator{}, cfg), env.NewPosition(env.Alice), 1)
	}
	probe := func(depth int, p *env.Position) int {
		var ml env.MoveList
		p.LegalMoves(&ml)
		return trees[depth].probeMate(p, &ml, 1) // as at a new leaf
	}
	for _, tc := range allowsMateInTwo {
		p := mustFEN(t, tc.fen)
		m, err := p.ParseSAN(tc.move)
		if err != nil {
			t.Fatal(err)
		}
		p.MakeMove(m)
		if got := probe(1, p); got != 0 {
			t.Errorf("%s %s: MateProbe 1 finds a mate in %d plies, want none (the mate takes two moves)", tc.fen, tc.move, got)
		}
		if got := probe(2, p); got != 3 {
			t.Errorf("%s %s: MateProbe 2 = %d plies, want 3", tc.fen, tc.move, got)
		}
	}
	rng := rand.New(rand.NewPCG(5, 5))
	claimed := 0
	for game := 0; game < 40; game++ {
		p := env.NewPosition(env.Alice)
		for ply := 0; ply < 120 && !p.Status().IsOver(); ply++ {
			if got := probe(2, p); got > 0 {
				claimed++
				n, _, err := finder.MateIn(ctx, p, 2)
				if err != nil || n == 0 || 2*n-1 > got {
					t.Fatalf("%s: the probe claims a mate in %d plies, the alpha-beta finds mate in %d moves (%v)", p.FEN(), got, n, err)
				}
			}
			var ml env.MoveList
			p.LegalMoves(&ml)
			p.MakeMove(ml.Moves[rng.IntN(ml.N)])
		}
	}
	if claimed == 0 {
		t.Error("the probe found no mate in 40 random games: the cross-check checked nothing")
	}
}

// With MateProbe 2 a short search does not play a move that allows a mate
// in two, and proves the move lost once it visits it.
func TestMateProbeAvoidsMateInTwo(t *testing.T) {
	for _, tc := range allowsMateInTwo {
		p := mustFEN(t, tc.fen)
		am, err := p.ParseSAN(tc.move)
		if err != nil {
			t.Fatal(err)
		}
		cfg := testConfig(false, 400)
		cfg.MateProbe = 2
		s := newSearcher(t, MaterialEvaluator{}, cfg)
		res, err := s.Search(context.Background(), newTree(t, s, p, 1), clock.Limits{Nodes: 400}, Progress{})
		if err != nil {
			t.Fatal(err)
		}
		if res.BestMove == am {
			t.Errorf("%s: plays %s, which allows a mate in two", tc.fen, tc.move)
		}
		for _, c := range res.Children {
			if c.Move == am && c.Visits > 0 && c.MateIn >= 0 {
				t.Errorf("%s: %s visited %d times, not proven lost (MateIn %d)", tc.fen, tc.move, c.Visits, c.MateIn)
			}
		}
	}
}
