package env

import (
	"slices"
	"strings"
	"testing"
)

// The rule book's §8 entries, one test each: every verdict (legal,
// illegal, check, where a man lands) comes from the generator, never from
// a special case.

// mustFEN parses fen in variant v or fails the test.
func mustFEN(t testing.TB, fen string, v Variant) *Position {
	t.Helper()
	p, err := ParseFEN(fen, v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// legalUCI reports whether the UCI text names a legal move of p, and
// plays it when asked.
func legalUCI(t *testing.T, p *Position, uci string, play bool) bool {
	t.Helper()
	m, err := p.ParseUCI(uci)
	if err == nil && play {
		p.MakeMove(m)
	}
	return err == nil
}

// wantMen checks the men on squares of boards: "e4:B" → piece letter.
func wantMen(t *testing.T, p *Position, want map[string]byte) {
	t.Helper()
	for where, letter := range want {
		sq, _ := ParseSquare(where[:2])
		b := Board(where[3] - 'A')
		if got := p.PieceOn(sq, b).Letter(); got != letter {
			t.Errorf("%s: %s of board %s holds %c, want %c", p.FEN(), where[:2], b, got, letter)
		}
	}
}

func TestVariantBlackB(t *testing.T) {
	p := NewPosition(AliceBlackB)
	if p.FEN() != StartFENBlackB || p.KingBoard(Black) != BoardB || p.KingBoard(White) != BoardA {
		t.Fatalf("start: %s", p.FEN())
	}
	// Black's double step is made on B and lands on A.
	if !legalUCI(t, p, "e2e4", true) || !legalUCI(t, p, "e7e5", true) {
		t.Fatal("1. e4 e5 refused")
	}
	wantMen(t, p, map[string]byte{"e4:B": 'P', "e5:A": 'p', "e7:B": '.'})
	// Black castles on B, where its unmoved king and rook stand, and both
	// land on A.
	p = mustFEN(t, "|r3|k2|r/8/8/8/8/8/8/4K3 b kq - 0 1", AliceBlackB)
	if !legalUCI(t, p, "e8g8", true) {
		t.Fatal("0-0 on B refused")
	}
	wantMen(t, p, map[string]byte{"g8:A": 'k', "f8:A": 'r', "a8:B": 'r'})
	if p.Castling() != 0 {
		t.Errorf("castling rights %b after Black castled", p.Castling())
	}
}

func TestVariantNull(t *testing.T) {
	t.Run("no escape from check by the king's own null move", func(t *testing.T) {
		// The rook on a1 checks the king along the first rank of A.
		p := mustFEN(t, "4k3/8/8/8/8/8/8/r1|N1K3 w - - 0 1", AliceNull)
		if !p.InCheck() {
			t.Fatal("not in check")
		}
		if legalUCI(t, p, "e1e1", false) {
			t.Error("e1e1: the king's null move out of check accepted (it is still in check on A before it passes)")
		}
		// A man from B may pass to A and block.
		if !legalUCI(t, p, "c1c1", true) {
			t.Fatal("c1c1: the knight's null move that blocks refused")
		}
		wantMen(t, p, map[string]byte{"c1:A": 'N', "c1:B": '.'})
		if p.kingInCheck(White) {
			t.Error("still in check after the block")
		}
	})
	t.Run("no null move that uncovers a check", func(t *testing.T) {
		p := mustFEN(t, "4k3/8/8/8/8/8/8/r2BK3 w - - 0 1", AliceNull)
		if legalUCI(t, p, "d1d1", false) {
			t.Error("d1d1: the shielding bishop's null move accepted")
		}
		if !legalUCI(t, p, "e1e1", false) {
			t.Error("e1e1: the king's null move (no check on A or on e1 of B) refused")
		}
	})
	t.Run("a null move loses the castling right", func(t *testing.T) {
		p := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", AliceNull)
		legalUCI(t, p, "h1h1", true)
		if got := p.Castling(); got != CastleWQ|CastleBK|CastleBQ {
			t.Errorf("after h1h1 castling rights %04b, want Q k q", got)
		}
		legalUCI(t, p, "e8e8", true)
		if got := p.Castling(); got != CastleWQ {
			t.Errorf("after e8e8 castling rights %04b, want Q", got)
		}
	})
	t.Run("a pawn double-steps on the board it stands on", func(t *testing.T) {
		p := mustFEN(t, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", AliceNull)
		for _, uci := range []string{"e2e2", "e8d8", "e2e4"} {
			if !legalUCI(t, p, uci, true) {
				t.Fatalf("%s refused", uci)
			}
		}
		wantMen(t, p, map[string]byte{"e4:A": 'P', "e2:A": '.', "e2:B": '.'})
	})
	t.Run("a pawn's null move never promotes", func(t *testing.T) {
		p := mustFEN(t, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", AliceNull)
		if legalUCI(t, p, "a7a7q", false) || !legalUCI(t, p, "a7a7", true) {
			t.Fatal("a7a7 should be the only null move of the pawn, without promotion")
		}
		wantMen(t, p, map[string]byte{"a7:B": 'P'})
	})
	t.Run("notation", func(t *testing.T) {
		p := playSAN(t, StartFEN, AliceNull, "e4 d5")
		m, err := p.ParseUCI("e4e4")
		if err != nil {
			t.Fatal(err)
		}
		if !m.IsNull() || p.UCI(m) != "e4e4" || p.SAN(m) != "e4/A" {
			t.Errorf("the pawn's null move: null %v, UCI %q, SAN %q; want e4e4 and e4/A", m.IsNull(), p.UCI(m), p.SAN(m))
		}
		if back, err := p.ParseSAN("e4/A"); err != nil || back != m {
			t.Errorf("e4/A reads as %v, %v", back, err)
		}
	})
}

func TestVariantOptionalTransfer(t *testing.T) {
	// The landing square f3 of board B holds a black knight.
	fen := "4k3/8/8/8/8/5|n2/8/4K1N1 w - - 0 1"
	if legalUCI(t, mustFEN(t, fen, Alice), "g1f3", false) {
		t.Fatal("alice: Nf3 onto an occupied landing square accepted")
	}
	p := mustFEN(t, fen, AliceOptionalTransfer)
	m, err := p.ParseUCI("g1f3")
	if err != nil {
		t.Fatalf("the move whose landing square is occupied refused: %v", err)
	}
	if x, to := p.MoveBoards(m); x != BoardA || to != BoardA || p.UCI(m) != "g1f3" || p.SAN(m) != "Nf3" {
		t.Errorf("Nf3 goes from %s to %s, UCI %q, SAN %q; want A to A, g1f3, Nf3", x, to, p.UCI(m), p.SAN(m))
	}
	p.MakeMove(m)
	wantMen(t, p, map[string]byte{"f3:A": 'N', "f3:B": 'n'})
	if !strings.HasPrefix(p.FEN(), "4k3/8/8/8/8/5[N|n]2/8/4K3 b") {
		t.Errorf("FEN %s, want the bracket group [N|n] on f3", p.FEN())
	}
	// With the landing square empty the transfer is compulsory.
	p = mustFEN(t, "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", AliceOptionalTransfer)
	m, _ = p.ParseUCI("g1f3")
	if _, to := p.MoveBoards(m); to != BoardB {
		t.Errorf("Nf3 to an empty landing square stays on A")
	}
	if legalUCI(t, p, "g1f3/a", false) {
		t.Error("g1f3/a: staying on A accepted although f3 of B is empty")
	}
	// Castling: both transfer when both landing squares are empty, neither
	// when one is occupied (here f1 of B).
	p = mustFEN(t, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", AliceOptionalTransfer)
	legalUCI(t, p, "e1g1", true)
	wantMen(t, p, map[string]byte{"g1:B": 'K', "f1:B": 'R'})
	p = mustFEN(t, "4k3/8/8/8/8/8/8/4K|n1R w K - 0 1", AliceOptionalTransfer)
	legalUCI(t, p, "e1g1", true)
	wantMen(t, p, map[string]byte{"g1:A": 'K', "f1:A": 'R', "f1:B": 'n'})
}

func TestVariantStone(t *testing.T) {
	t.Run("start and stay or transfer", func(t *testing.T) {
		p := NewPosition(AliceStone)
		if p.FEN() != StartFENBlackB {
			t.Fatalf("start %s", p.FEN())
		}
		stay, err1 := p.ParseUCI("e2e4/a")
		pass, err2 := p.ParseUCI("e2e4")
		if err1 != nil || err2 != nil {
			t.Fatalf("e2e4/a: %v; e2e4: %v", err1, err2)
		}
		if _, to := p.MoveBoards(stay); to != BoardA || p.UCI(stay) != "e2e4/a" || p.SAN(stay) != "e4/A" {
			t.Errorf("staying pawn move: lands on %s, UCI %q, SAN %q", to, p.UCI(stay), p.SAN(stay))
		}
		if _, to := p.MoveBoards(pass); to != BoardB || p.UCI(pass) != "e2e4" || p.SAN(pass) != "e4/B" {
			t.Errorf("transferring pawn move: lands on %s, UCI %q, SAN %q", to, p.UCI(pass), p.SAN(pass))
		}
	})
	t.Run("null capture of the king's neighbour", func(t *testing.T) {
		// Black: king e8 and pawn d7 on B; White's knight on d7 of A takes
		// the pawn by passing to d7 of B.
		p := mustFEN(t, "4|k3/3[N|p]4/8/8/8/8/8/4K3 w - - 3 1", AliceStone)
		m, err := p.ParseUCI("d7d7")
		if err != nil {
			t.Fatal(err)
		}
		if got := p.SAN(m); got != "Nxd7/B" {
			t.Errorf("the null capture is written %q, want Nxd7/B", got)
		}
		p.MakeMove(m)
		wantMen(t, p, map[string]byte{"d7:B": 'N', "d7:A": '.', "e8:B": 'k'})
		if p.HalfmoveClock() != 0 || p.Material(Black) != 0 {
			t.Errorf("after the null capture: halfmove clock %d, black material %d", p.HalfmoveClock(), p.Material(Black))
		}
		// The king may take the knight next to it on B.
		if !legalUCI(t, p, "e8d7", false) {
			t.Error("Kxd7 refused")
		}
	})
	t.Run("check through the king's square of the other board", func(t *testing.T) {
		// The rook goes to e8 of A and stays there: the black king on e8 of
		// B is in check (the rook could take it by a null move).
		p := mustFEN(t, "4|k3/8/8/8/8/8/8/K3R3 w - - 0 1", AliceStone)
		if !legalUCI(t, p, "e1e8/a", true) {
			t.Fatal("e1e8/a refused")
		}
		if !p.InCheck() {
			t.Fatalf("%s: the king facing the rook on its square of A is not in check", p.FEN())
		}
		// The king may escape by its own null move — judged only on its
		// landing square, where it takes the rook.
		m, err := p.ParseUCI("e8e8")
		if err != nil {
			t.Fatalf("the king's null escape refused: %v", err)
		}
		p.MakeMove(m)
		wantMen(t, p, map[string]byte{"e8:A": 'k', "e8:B": '.'})
		if p.Material(White) != 0 {
			t.Error("the rook survived the king's null capture")
		}
	})
	t.Run("a mate must cover the null escape", func(t *testing.T) {
		// Black's king on h8 of B: the rook on h1 of B checks it, the queen
		// on g6 of B covers g7, g8 and h7. On A, h8 is empty and safe: the
		// king's null move escapes.
		p := mustFEN(t, "7|k/8/6|Q1/8/8/8/8/K6|R b - - 0 1", AliceStone)
		if !p.InCheck() {
			t.Fatal("not in check")
		}
		var ml MoveList
		p.LegalMoves(&ml)
		var got []string
		for _, m := range ml.Slice() {
			got = append(got, p.UCI(m))
		}
		if !slices.Equal(got, []string{"h8h8"}) {
			t.Errorf("legal moves %v, want only the null escape h8h8", got)
		}
		// With a white bishop on A covering h8 it is mate.
		p = mustFEN(t, "7|k/8/6|Q1/8/8/8/1B6/K6|R b - - 0 1", AliceStone)
		if p.Status() != Checkmate {
			t.Errorf("%s: status %s, want checkmate", p.FEN(), p.Status())
		}
	})
	t.Run("castling passes no square a null capture reaches", func(t *testing.T) {
		p := mustFEN(t, "|r3|k2|r/8/8/8/8/8/8/4K2N b kq - 0 1", AliceStone)
		if !legalUCI(t, p, "e8g8", false) || !legalUCI(t, p, "e8g8/b", false) {
			t.Fatal("0-0 on B (with or without the transfer) refused")
		}
		// A white knight on f8 of A: the king would pass over it.
		p = mustFEN(t, "|r3|kN1|r/8/8/8/8/8/8/4K3 b kq - 0 1", AliceStone)
		if legalUCI(t, p, "e8g8", false) || legalUCI(t, p, "e8g8/b", false) {
			t.Error("0-0 across a square facing a white knight on A accepted")
		}
		if !legalUCI(t, p, "e8c8", false) {
			t.Error("0-0-0, which crosses no such square, refused")
		}
	})
}

func TestVariantMini(t *testing.T) {
	p := NewPosition(AliceMini)
	if p.FEN() != StartFENMini {
		t.Fatalf("start %s", p.FEN())
	}
	if legalUCI(t, p, "a3a5", false) {
		t.Error("a double step accepted")
	}
	for _, parse := range []func(string) (Move, error){p.ParseUCI, p.ParseSAN} {
		if _, err := parse("e2e4"); err == nil || !strings.Contains(err.Error(), "not a square") {
			t.Errorf("e2e4 on the 4-file boards: %v", err)
		}
	}
	if _, err := p.ParseSAN("Nf3"); err == nil || !strings.Contains(err.Error(), "f3 is not a square") {
		t.Errorf("Nf3 on the 4-file boards: %v", err)
	}
	// Promotion on the last rank.
	p = mustFEN(t, "2k1/P3/4/4/4/4/4/1K2 w - - 0 1", AliceMini)
	if !legalUCI(t, p, "a7a8n", true) {
		t.Fatal("a7a8n refused")
	}
	wantMen(t, p, map[string]byte{"a8:B": 'N'})
	for _, bad := range []string{
		"rqkr/nbbn/pppp/4/4/PPPP/NBBN/RQKR w KQ - 0 1", // no castling
		"rqkr/nbbn/pppp/4/4/PPPP/NBBN/RQKRN w - - 0 1", // five files
		"rqkr/nbbn/4/pppp/4/4/PPPP/RQKR w - - 0 1",     // a white pawn behind its third rank
	} {
		if _, err := ParseFEN(bad, AliceMini); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestVariantThreeBoards(t *testing.T) {
	p := NewPosition(Alice3)
	b, err1 := p.ParseUCI("e2e4/b")
	c, err2 := p.ParseUCI("e2e4/c")
	if err1 != nil || err2 != nil {
		t.Fatalf("e2e4/b: %v; e2e4/c: %v", err1, err2)
	}
	if _, err := p.ParseUCI("e2e4"); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf("e2e4 without a board: %v, want ambiguous", err)
	}
	if p.UCI(b) != "e2e4/b" || p.SAN(b) != "e4/B" || p.SAN(c) != "e4/C" {
		t.Errorf("UCI %q, SAN %q and %q", p.UCI(b), p.SAN(b), p.SAN(c))
	}
	p.MakeMove(c)
	wantMen(t, p, map[string]byte{"e4:C": 'P', "e4:B": '.'})
	if !strings.HasPrefix(p.FEN(), "rnbqkbnr/pppppppp/8/8/4||P3/8/PPPP1PPP/RNBQKBNR b") {
		t.Errorf("FEN %s, want the pawn written ||P", p.FEN())
	}
	// Check comes only from the king's own board: the rook on e4 of C does
	// not check the king on e1 of A, and a man on B shields nothing.
	p = mustFEN(t, "4k3/8/8/8/4||r3/8/8/4K3 w - - 0 1", Alice3)
	if p.InCheck() {
		t.Error("a rook on C checks a king on A")
	}
	// Castling: king and rook go together to the board chosen.
	p = mustFEN(t, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", Alice3)
	legalUCI(t, p, "e1g1/c", true)
	wantMen(t, p, map[string]byte{"g1:C": 'K', "f1:C": 'R', "h1:A": '.'})
	// A blocked landing square on one board leaves the other.
	p = mustFEN(t, "4k3/8/8/8/8/8/8/4K|n1R w K - 0 1", Alice3)
	if legalUCI(t, p, "e1g1/b", false) || !legalUCI(t, p, "e1g1/c", false) {
		t.Error("castling: f1 of B is occupied, so only C should be open")
	}
}

// TestEnPassantPerftAgainstReference is the rule book's check of alice-ep:
// two independent implementations agree on perft(4) of positions where an
// en-passant capture is legal, and where it is blocked.
func TestEnPassantPerftAgainstReference(t *testing.T) {
	depth := 4
	if testing.Short() {
		depth = 3
	}
	for _, c := range []struct{ name, fen, moves string }{
		{"legal", "4k3/2p5/8/3P|pP2/8/8/8/4K3 w - e6 0 2", ""},
		// After ...e5 the landing square e6 of board B is taken: the
		// capture onto e6 is blocked there.
		{"blocked on the landing board", "4k3/4p3/4|n3/3P1P2/8/8/8/4K3 b - - 0 1", "e7e5"},
	} {
		p := mustFEN(t, c.fen, AliceEP)
		if c.moves != "" {
			if _, err := p.PlayUCI(strings.Fields(c.moves)); err != nil {
				t.Fatal(err)
			}
		}
		if got, want := p.Perft(depth), refFromPosition(p).perft(depth); got != want {
			t.Errorf("%s: perft(%d) = %d, reference %d", c.name, depth, got, want)
		}
	}
}
