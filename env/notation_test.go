package env

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFENVariants reads and writes positions in every variant's notation:
// bracket groups for shared squares, '||' for board C, boards of 4 files.
func TestFENVariants(t *testing.T) {
	for _, c := range []struct {
		v        Variant
		in, want string // want "" when in is written back as it is
	}{
		{AliceOptionalTransfer, "4k3/8/8/3[Q|p]4/8/8/8/4K3 w - - 0 1", ""},
		{AliceStone, "4|k3/8/8/3[|Qp]4/8/8/8/4K3 w - - 0 1", "4|k3/8/8/3[p|Q]4/8/8/8/4K3 w - - 0 1"},
		{Alice3, "4k3/8/8/3[|N||b]4/8/8/8/4K3 w - - 0 1", ""},
		{Alice3, "4k3/8/8/3[||b|N]4/8/8/8/4K3 w - - 0 1", "4k3/8/8/3[|N||b]4/8/8/8/4K3 w - - 0 1"},
		{Alice3, "4k3/8/8/2[p||P|n]||q4/8/8/8/4K3 w - - 0 1", "4k3/8/8/2[p|n||P]||q4/8/8/8/4K3 w - - 0 1"},
		// A group of one man is read, and written without brackets.
		{Alice3, "4k3/8/8/3[||b]4/8/8/8/4K3 w - - 0 1", "4k3/8/8/3||b4/8/8/8/4K3 w - - 0 1"},
		{AliceMini, StartFENMini, ""},
		{AliceMini, "rqkr/nbbn/pppp/4/2|P1/PP1P/NBBN/RQKR b - - 0 1", ""},
		{AliceBlackB, StartFENBlackB, ""},
	} {
		in := c.in
		p, err := ParseFEN(in, c.v)
		if err != nil {
			t.Errorf("%s: %q: %v", c.v.Name, in, err)
			continue
		}
		want := c.want
		if want == "" {
			want = in
		}
		if got := p.FEN(); got != want {
			t.Errorf("%s: %q written %q, want %q", c.v.Name, in, got, want)
		}
	}
}

func TestFENVariantErrors(t *testing.T) {
	for _, c := range []struct {
		v      Variant
		fen    string
		reason string
	}{
		{Alice, "4k3/8/8/3[Q|p]4/8/8/8/4K3 w - - 0 1", "one man per square"},
		{AliceNull, "4k3/8/8/3[Q|p]4/8/8/8/4K3 w - - 0 1", "one man per square"},
		{AliceStone, "4k3/8/8/3[Qp]4/8/8/8/4K3 w - - 0 1", "two men on d5 of board A"},
		{AliceStone, "4k3/8/8/3[]4/8/8/8/4K3 w - - 0 1", "empty bracket group"},
		{AliceStone, "4k3/8/8/3[Q|p4/8/8/8/4K3 w - - 0 1", "without its ']'"},
		{AliceStone, "4k3/8/8/3[Q||p]4/8/8/8/4K3 w - - 0 1", "has 2 boards"},
		{Alice, "4k3/8/8/3||Q4/8/8/8/4K3 w - - 0 1", "has 2 boards"},
		{Alice3, "4k3/8/8/3|||Q4/8/8/8/4K3 w - - 0 1", "has 3 boards"},
		{Alice3, "4k3/8/8/3[Q|]4/8/8/8/4K3 w - - 0 1", "must be followed by a piece"},
		{Alice3, "4k3/8/8/3[Q|x]4/8/8/8/4K3 w - - 0 1", "must be followed by a piece"},
		{Alice3, "4k3/8/8/3[Q|p]5/8/8/8/4K3 w - - 0 1", "more than 8 squares"},
		{AliceMini, "rqkr/nbbn/pppp/8/4/PPPP/NBBN/RQKR w - - 0 1", "more than 4 squares"},
		{AliceMini, "rqkr/nbbn/pppp/3/4/PPPP/NBBN/RQKR w - - 0 1", "3 squares, want 4"},
		{AliceMini, "rqkr/nbbn/pppp/4/4/PPPP/NBBN/RQKR w K - 0 1", "no castling"},
		// The rook with the right stands on B, the king on A.
		{AliceStone, "4|k3/8/8/8/8/8/8/4K2[|R] w K - 0 1", "different boards"},
		// Stone: the white king faces a black rook on its square of B.
		{AliceStone, "4|k3/8/8/8/8/8/8/4[K|r]3 b - - 0 1", "white, not to move, is in check"},
		{AliceEP, "4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "is not on rank 6"},
		{AliceStone, "4|k3/8/8/8/8/8/8/4K3 w - e6 0 1", "no en passant"},
	} {
		_, err := ParseFEN(c.fen, c.v)
		var fe *FENError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%s: %q: error %v, want a *FENError saying %q", c.v.Name, c.fen, err, c.reason)
		}
	}
	if _, err := ParseFEN(StartFEN, Variant{Name: "alice"}); err == nil {
		t.Error("a Variant not from VariantByName accepted")
	}
}

// TestNotationRoundTripRandomGames checks along random games of every
// variant that the FEN reads back as the same position (hash included),
// and that every legal move, written as the rule book writes it
// (Position.UCI) and with both boards (Move.UCI), reads back as itself.
func TestNotationRoundTripRandomGames(t *testing.T) {
	games := 30
	if testing.Short() {
		games = 8
	}
	for _, v := range Variants() {
		rng := rand.New(rand.NewPCG(11, uint64(v.code)))
		prefixes := 0
		for g := 0; g < games; g++ {
			p := NewPosition(v)
			for ply := 0; ply < 160; ply++ {
				q, err := ParseFEN(p.FEN(), v)
				if err != nil || q.FEN() != p.FEN() || q.Hash() != p.Hash() {
					t.Fatalf("%s: %s reads back as %v, %v", v.Name, p.FEN(), q, err)
				}
				var ml MoveList
				p.LegalMoves(&ml)
				seen := map[string]bool{}
				for _, m := range ml.Slice() {
					uci := p.UCI(m)
					if seen[uci] {
						t.Fatalf("%s %s: two moves written %q", v.Name, p.FEN(), uci)
					}
					seen[uci] = true
					if strings.Contains(uci, ":") {
						prefixes++
					}
					for _, s := range []string{uci, m.UCI()} {
						if back, err := p.ParseUCI(s); err != nil || back != m {
							t.Fatalf("%s %s: %s written %q reads back as %v, %v", v.Name, p.FEN(), engineKey(p, m), s, back, err)
						}
					}
				}
				if ml.N == 0 {
					break
				}
				p.MakeMove(ml.Moves[rng.IntN(ml.N)])
			}
		}
		if v.SharedSquares() && prefixes == 0 {
			t.Errorf("%s: no move needed the from-board prefix", v.Name)
		}
	}
}

func TestUCIVariantForms(t *testing.T) {
	// Two white rooks share d1 (A and B): every move of either names its
	// board.
	p := mustFEN(t, "4k3/8/8/8/8/8/8/K2[R|R]4 w - - 0 1", AliceOptionalTransfer)
	a, err := p.ParseUCI("a:d1d5")
	if err != nil {
		t.Fatal(err)
	}
	if x, _ := p.MoveBoards(a); x != BoardA || p.UCI(a) != "a:d1d5" {
		t.Errorf("a:d1d5 moves from %s, written %q", x, p.UCI(a))
	}
	if _, err := p.ParseUCI("d1d5"); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf("d1d5 with rooks on d1 of both boards: %v", err)
	}
	for _, c := range []struct {
		v        Variant
		fen, uci string
		reason   string
	}{
		{Alice, StartFEN, "d:e2e4", "board prefix must be"},
		{Alice, StartFEN, "e2e4/d", "board suffix must be"},
		{Alice, StartFEN, "e2e4/c", "has 2 boards"},
		{Alice, StartFEN, "b:e2e4", "no piece on e2 of board B"},
		{Alice, StartFEN, "e2e4/a", "illegal move"},
		{Alice, StartFEN, "e2e4/b", ""},
		{Alice, StartFEN, "a:e2e4", ""},
		{AliceStone, StartFENBlackB, "e7e5", "not white's"},
		{Alice3, StartFEN, "e2e4", "ambiguous"},
		// In alice-stone a move without the suffix transfers; the pawn's
		// landing square e4 of B is taken, so only e2e4/a is legal.
		{AliceStone, "4|k3/8/8/8/4|p3/8/4P3/4K3 w - - 0 1", "e2e4", "e2e4/a"},
		{AliceMini, StartFENMini, "a3a4/c", "has 2 boards"},
	} {
		p := mustFEN(t, c.fen, c.v)
		_, err := p.ParseUCI(c.uci)
		switch {
		case c.reason == "" && err != nil:
			t.Errorf("%s %q: %v", c.v.Name, c.uci, err)
		case c.reason != "" && (err == nil || !strings.Contains(err.Error(), c.reason)):
			t.Errorf("%s %q: error %v, want one saying %q", c.v.Name, c.uci, err, c.reason)
		}
	}
}

// TestPGNVariants writes and reads back a random game of every variant,
// and reads each variant's tag in both spellings.
func TestPGNVariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, v := range Variants() {
		g := NewGame(v)
		p := NewPosition(v)
		for ply := 0; ply < 60; ply++ {
			var ml MoveList
			p.LegalMoves(&ml)
			if ml.N == 0 || p.Status().IsOver() {
				break
			}
			m := ml.Moves[rng.IntN(ml.N)]
			g.Moves = append(g.Moves, m)
			p.MakeMove(m)
		}
		var sb strings.Builder
		if err := WritePGN(&sb, g); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if !strings.Contains(sb.String(), `[Variant "`+v.title+`"]`) || strings.Contains(sb.String(), "[FEN") {
			t.Errorf("%s: tags of\n%s", v.Name, sb.String())
		}
		back, err := ReadPGN(strings.NewReader(sb.String()), Alice)
		if err != nil || len(back) != 1 || back[0].Variant != v || len(back[0].Moves) != len(g.Moves) {
			t.Fatalf("%s: read back %v, %v\n%s", v.Name, back, err, sb.String())
		}
		for i, m := range g.Moves {
			if back[0].Moves[i] != m {
				t.Fatalf("%s: move %d read back as %s, want %s", v.Name, i+1, back[0].Moves[i], m)
			}
		}
		for _, tag := range []string{v.title, v.Name, strings.ToUpper(v.Name)} {
			games, err := ReadPGN(strings.NewReader(`[Variant "`+tag+`"]`+"\n\n*\n"), Alice)
			if err != nil || len(games) != 1 || games[0].Variant != v || games[0].StartFEN != v.StartFEN() {
				t.Errorf("[Variant %q] reads as %v, %v", tag, games, err)
			}
		}
	}
}
