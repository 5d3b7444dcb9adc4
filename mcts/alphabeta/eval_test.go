package alphabeta

import (
	"math/rand/v2"
	"testing"

	"github.com/alicezero/alicezero/env"
)

// The evaluation reads the board as the rules do: the colour flip and the
// permutations of the boards map a position to one of the same value,
// since every term is relative to its side and to the kings' boards.
func TestEvaluationKeepsTheRulesSymmetries(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := newSearcher(t, Config{HashMB: 1})
	var ml env.MoveList
	checked := 0
	for _, v := range env.Variants() {
		for game := range 4 {
			pos := env.NewPosition(v)
			for ply := range 60 {
				pos.LegalMoves(&ml)
				if ml.N == 0 || pos.Status().IsOver() {
					break
				}
				if ply%5 == 4 {
					s.pos.CopyFrom(pos)
					want := s.evaluate(ml.N, 20)
					for _, y := range v.Symmetries() {
						s.pos.CopyFrom(y.Position(pos))
						if got := s.evaluate(ml.N, 20); got != want {
							t.Fatalf("%s game %d: %s scores %d, its image under %v %s scores %d",
								v.Name, game, pos.FEN(), want, y, s.pos.FEN(), got)
						}
					}
					checked++
				}
				pos.MakeMove(ml.Moves[rng.IntN(ml.N)])
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// A side a queen up scores far above level, and the side to move's view
// is the other side's negated (up to the tempo term, which favours the
// side to move).
func TestEvaluationCountsMaterial(t *testing.T) {
	s := newSearcher(t, Config{HashMB: 1})
	for _, tc := range []struct {
		fen      string
		min, max int32
	}{
		{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 600, 2000},
		{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", -2000, -600},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", -60, 60},
	} {
		s.pos.CopyFrom(mustFEN(t, tc.fen, env.Alice))
		if v := s.evaluate(20, 20); v < tc.min || v > tc.max {
			t.Errorf("%s scores %d, want %d..%d", tc.fen, v, tc.min, tc.max)
		}
	}
}
