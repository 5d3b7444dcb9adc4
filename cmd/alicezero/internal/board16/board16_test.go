package board16

import (
	"fmt"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
)

const startFEN16 = "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1"

func position(t *testing.T, fen string) *env.Position {
	t.Helper()
	if fen == "" {
		fen = env.StartFEN
	}
	p, err := env.ParseFEN(fen, env.Alice)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Every legal move of a few positions survives a round trip through both
// notations, and every position through the 16-file FEN.
func TestRoundTrips(t *testing.T) {
	for _, fen := range []string{
		env.StartFEN,
		"rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		"8/2p2p2/4|p3/3pP|k2/8/2|P1|P2p/4K1|p1/r3N3 b - - 1 59",
		"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
		"4k3/1P6/8/8/8/8/6|p1/4K3 w - - 0 1",
	} {
		p := position(t, fen)
		f16 := FEN(p)
		back, err := ParseFEN(f16, env.Alice)
		if err != nil || back != fen {
			t.Fatalf("FEN %s → %s → %s (%v)", fen, f16, back, err)
		}
		if same, err := ParseFEN(fen, env.Alice); err != nil || same != fen {
			t.Fatalf("the project's FEN %s read as %s (%v)", fen, same, err)
		}
		var ml env.MoveList
		p.LegalMoves(&ml)
		for _, m := range ml.Slice() {
			legs := MoveLegs(p, m)
			got, err := ParseMove(p, strings.Join(legs, ""))
			if err != nil || got != m {
				t.Fatalf("%s: %v as %v reads back as %v (%v)", fen, m, legs, got, err)
			}
			got, err = ParseMove(p, Move(p, m))
			if err != nil || got != m {
				t.Fatalf("%s: %v as %s reads back as %v (%v)", fen, m, Move(p, m), got, err)
			}
			if len(legs) == 2 != TwoLegs(p, m) {
				t.Fatalf("%s: %v in %d legs", fen, m, len(legs))
			}
		}
	}
	if got := FEN(position(t, "")); got != startFEN16 {
		t.Fatalf("start position as %s", got)
	}
}

func TestParseFENRejects(t *testing.T) {
	for _, bad := range []string{"", "x", "16/16", "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR9 w - - 0 1",
		"P7P7/16/16/16/16/16/16/16 w - - 0 1", "rnbqkbnr99/8/8/8/8/8/8/8 w - - 0 1", "zz/16/16/16/16/16/16/16 w - - 0 1",
		"ppppppppppppppppp/16/16/16/16/16/16/16 w - - 0 1"} {
		if f, err := ParseFEN(bad, env.Alice); err == nil {
			t.Errorf("ParseFEN(%q) = %q", bad, f)
		}
	}
	// Shredder castling letters and a board-B en-passant file are mapped.
	got, err := ParseFEN("r3k2r8/16/16/16/16/16/16/R3K2R8 w HAha m3 0 1", env.Alice)
	if err != nil || got != "r3k2r/8/8/8/8/8/8/R3K2R w KQkq e3 0 1" {
		t.Errorf("ParseFEN with Shredder castling = %q, %v", got, err)
	}
}

func TestParseMoveRejects(t *testing.T) {
	p := position(t, "")
	for _, bad := range []string{"e2e4", "m2m4", "e2m4,m4e4", "e2m4x", "e9m4", "q2a4", "e2", "e2m4,a1a2,a2a3", "e2m4,e4m4"} {
		if m, err := ParseMove(p, bad); err == nil {
			t.Errorf("ParseMove(%q) = %v", bad, m)
		}
	}
	// Castling is the king's move to its landing square on B, in one leg.
	pc := position(t, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
	m, err := pc.ParseUCI("e1g1")
	if err != nil {
		t.Fatal(err)
	}
	if legs := MoveLegs(pc, m); len(legs) != 1 || legs[0] != "e1o1" {
		t.Fatalf("castling as %v", legs)
	}
}

func TestLine(t *testing.T) {
	p := position(t, "")
	var pv []env.Move
	q := p.Clone()
	for _, s := range []string{"e2e4", "d7d5", "f1e2"} {
		m, err := q.ParseUCI(s)
		if err != nil {
			t.Fatal(err)
		}
		pv = append(pv, m)
		q.MakeMove(m)
	}
	before := p.FEN()
	if got := Line(p, append(pv, pv[0])); got != "e2m4 d7l5 f1m2" {
		t.Errorf("Line = %q (stops at the first illegal move)", got)
	}
	if p.FEN() != before {
		t.Error("Line changed the position")
	}
}

func Example() {
	pos := env.NewPosition(env.Alice)
	m, err := ParseMove(pos, "e2m4") // 1. e4: the pawn lands on e4 of board B
	if err != nil {
		panic(err)
	}
	pos.MakeMove(m)
	fmt.Println(m.UCI())
	fmt.Println(FEN(pos))
	// Output:
	// e2e4
	// rnbqkbnr8/pppppppp8/16/16/12P3/16/PPPP1PPP8/RNBQKBNR8 b KQkq - 0 1
}
