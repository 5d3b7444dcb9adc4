package env

import (
	"strings"
	"testing"
)

func TestMakePass(t *testing.T) {
	for _, v := range []Variant{Alice, AliceEP, Alice3, AliceStone} {
		p := NewPosition(v)
		var ml MoveList
		for range 2 {
			p.LegalMoves(&ml)
			p.MakeMove(ml.Moves[ml.N/2])
		}
		before := p.FEN()
		hash := p.Hash()
		p.MakePass()
		if p.SideToMove() != Black {
			t.Errorf("%s: after a pass %s is to move", v.Name, p.SideToMove())
		}
		// The hash is the one of the same men with the other side to move.
		q, err := ParseFEN(p.FEN(), v)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if q.Hash() != p.Hash() {
			t.Errorf("%s: hash after a pass %x, the position's own %x", v.Name, p.Hash(), q.Hash())
		}
		p.LegalMoves(&ml)
		if ml.N == 0 {
			t.Errorf("%s: no legal move after a pass", v.Name)
		}
		p.UnmakeMove()
		if p.FEN() != before || p.Hash() != hash {
			t.Errorf("%s: unmake of a pass gave %s", v.Name, p.FEN())
		}
	}
}

// A pass and back (two passes) returns to the same position, which is no
// repetition: a game never passes.
func TestPassIsNoRepetition(t *testing.T) {
	p := NewPosition(Alice)
	if _, err := p.PlayUCI(strings.Fields("g1f3 g8f6 f3g1 f6g8")); err != nil {
		t.Fatal(err)
	}
	if got := p.Repetitions(); got != 1 {
		t.Fatalf("after a knight dance: %d repetitions, want 1", got)
	}
	p.MakePass()
	p.MakePass()
	if got := p.Repetitions(); got != 0 {
		t.Errorf("two passes count %d repetitions, want 0", got)
	}
	if _, err := p.PlayUCI(strings.Fields("g1f3 g8f6 f3g1 f6g8")); err != nil {
		t.Fatal(err)
	}
	if got := p.Repetitions(); got != 1 {
		t.Errorf("a knight dance after the passes: %d repetitions, want 1 (none before the pass)", got)
	}
}
