package env

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// playSAN plays SAN moves from a FEN, failing the test on any error.
func playSAN(t testing.TB, fen string, v Variant, moves string) *Position {
	t.Helper()
	p, err := ParseFEN(fen, v)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range strings.Fields(moves) {
		m, err := p.ParseSAN(s)
		if err != nil {
			t.Fatalf("playing %q: %v", moves, err)
		}
		p.MakeMove(m)
	}
	return p
}

// TestSANRoundTripRandomGames checks, in every position of many random
// games of each variant, that every legal move's SAN (plain and with the
// board suffix) reads back as the same move, that the SANs of a position
// are distinct, that lenient spellings read back too, and that the check
// and mate marks agree with the generator.
func TestSANRoundTripRandomGames(t *testing.T) {
	for _, v := range Variants() {
		games, plies := 120, 160
		if v.SharedSquares() {
			games = 30 // positions with twice the moves, each on the general path
		}
		if testing.Short() {
			games /= 3
			if v.Policy() != Alice.Policy() {
				games /= 2 // the variants added later: fewer in the quick run
			}
		}
		rng := rand.New(rand.NewPCG(7, uint64(len(v.Name))))
		positions := 0
		for g := 0; g < games; g++ {
			p := NewPosition(v)
			for ply := 0; ply < plies; ply++ {
				var ml MoveList
				p.LegalMoves(&ml)
				if ml.N == 0 || p.Status().IsOver() {
					break
				}
				checkAllSAN(t, p, &ml)
				if t.Failed() {
					return
				}
				positions++
				p.MakeMove(ml.Moves[rng.IntN(ml.N)])
			}
		}
		t.Logf("%s: %d positions", v.Name, positions)
	}
}

func checkAllSAN(t *testing.T, p *Position, ml *MoveList) {
	t.Helper()
	fen := p.FEN()
	seen := make(map[string]Move, ml.N)
	for _, m := range ml.Slice() {
		san := p.SAN(m)
		if prev, dup := seen[san]; dup {
			t.Errorf("%s: %s and %s both written %q", fen, prev, m, san)
		}
		seen[san] = m
		withBoard := p.SANWithBoard(m)
		_, lands := p.MoveBoards(m)
		if want := "/" + lands.String(); !strings.HasSuffix(withBoard, want) {
			t.Errorf("%s: SANWithBoard(%s) = %q, want suffix %q", fen, m, withBoard, want)
		}
		spellings := []string{san, withBoard, san + "!?", m.UCI()}
		if full := fullSquareSAN(p, m); full != "" {
			spellings = append(spellings, full, strings.Replace(full, "x", "", 1))
		}
		for _, s := range spellings {
			got, err := p.ParseSAN(s)
			if s == m.UCI() {
				got, err = p.ParseMove(s)
			}
			if err != nil || got != m {
				t.Errorf("%s: %s written %q reads back as %v, %v", fen, m, s, got, err)
			}
		}
		if got, err := p.ParseMove(san); err != nil || got != m {
			t.Errorf("%s: ParseMove(%q) = %v, %v; want %s", fen, san, got, err, m)
		}
		// The check and mate marks, from the generator.
		p.MakeMove(m)
		mark := ""
		if p.InCheck() {
			mark = "+"
			if p.CountLegalMoves() == 0 {
				mark = "#"
			}
		}
		p.UnmakeMove()
		plain := san
		if n := len(plain); n > 2 && plain[n-2] == '/' {
			plain = plain[:n-2] // the board suffix, where the move needs it
		}
		if got := strings.TrimLeft(plain[max(len(plain)-1, 0):], "abcdefgh12345678QRBNKO-"); got != mark {
			t.Errorf("%s: SAN(%s) = %q, want check mark %q", fen, m, san, mark)
		}
	}
	if p.FEN() != fen {
		t.Fatalf("SAN changed the position: %s became %s", fen, p.FEN())
	}
}

// fullSquareSAN writes m with a redundant full from-square ("Ng1f3",
// "Ng1xf3"), or "" for castling and pawn moves.
func fullSquareSAN(p *Position, m Move) string {
	x, _ := p.MoveBoards(m)
	pc := p.PieceOn(m.From(), x)
	if m.IsCastling() || pc.Kind() == Pawn || m.IsNull() || p.variant.SharedSquares() {
		return ""
	}
	s := string(pieceLetters[pc.Kind()]) + m.From().String()
	if p.Captured(m) != NoPiece {
		s += "x"
	}
	return s + m.To().String()
}

// TestSANWriter checks SAN against hand-made positions that need each kind
// of disambiguation, across the boards.
func TestSANWriter(t *testing.T) {
	for _, c := range []struct {
		name, fen, uci, san, withBoard string
	}{
		{"pawn push", StartFEN, "e2e4", "e4", "e4/B"},
		{"knight", StartFEN, "g1f3", "Nf3", "Nf3/B"},
		// Knights on b1 (board A) and f1 (board B) both reach d2.
		{"file across boards", "4k3/8/8/8/8/8/8/1N2K|N2 w - - 0 1", "b1d2", "Nbd2", "Nbd2/B"},
		{"file across boards 2", "4k3/8/8/8/8/8/8/1N2K|N2 w - - 0 1", "f1d2", "Nfd2", "Nfd2/A"},
		// Knights on g1 (A) and g5 (B) both reach f3.
		{"rank", "4k3/8/8/6|N1/8/8/8/4K1N1 w - - 0 1", "g1f3", "N1f3", "N1f3/B"},
		{"rank 2", "4k3/8/8/6|N1/8/8/8/4K1N1 w - - 0 1", "g5f3", "N5f3", "N5f3/A"},
		// Queens on a1 (A), a3 (B) and c1 (B) all reach b2.
		{"square", "4k3/8/8/8/8/|Q7/8/Q1|Q3K1 w - - 0 1", "a1b2", "Qa1b2", "Qa1b2/B"},
		{"rank among three", "4k3/8/8/8/8/|Q7/8/Q1|Q3K1 w - - 0 1", "a3b2", "Q3b2", "Q3b2/A"},
		{"file among three", "4k3/8/8/8/8/|Q7/8/Q1|Q3K1 w - - 0 1", "c1b2", "Qcb2", "Qcb2/A"},
		// A pawn on d3 of board B and one on d2 of board A both reach d4:
		// only an Alice position makes pawn pushes ambiguous.
		{"pawn double step", "4k3/8/8/8/8/3|P4/3P4/4K3 w - - 0 1", "d2d4", "2d4", "2d4/B"},
		{"pawn single step", "4k3/8/8/8/8/3|P4/3P4/4K3 w - - 0 1", "d3d4", "3d4", "3d4/A"},
		{"castle king side", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O", "O-O/B"},
		{"castle queen side", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "O-O-O", "O-O-O/B"},
		{"promotion", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q", "b8=Q/B"},
		{"under-promotion", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", "b8=N", "b8=N/B"},
		{"promotion capture", "n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8r", "bxa8=R", "bxa8=R/B"},
		// The rook lands on a8 of board B, where the black king stands.
		{"check on the landing board", "4|k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8+", "Ra8+/B"},
		// The same move gives no check when the king is on the other board.
		{"no check across boards", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8", "Ra8/B"},
		// The double step was made on board A, so the pawn that takes stands
		// on board B.
		{"en passant", "4k3/8/8/3p|P3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6", "exd6/A"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := Alice
			if strings.Contains(c.fen, " d6 ") {
				v = AliceEP
			}
			p, err := ParseFEN(c.fen, v)
			if err != nil {
				t.Fatal(err)
			}
			m, err := p.ParseUCI(c.uci)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.SAN(m); got != c.san {
				t.Errorf("SAN(%s) = %q, want %q", c.uci, got, c.san)
			}
			if got := p.SANWithBoard(m); got != c.withBoard {
				t.Errorf("SANWithBoard(%s) = %q, want %q", c.uci, got, c.withBoard)
			}
			if got, err := p.ParseSAN(c.san); err != nil || got != m {
				t.Errorf("ParseSAN(%q) = %v, %v; want %s", c.san, got, err, c.uci)
			}
		})
	}
}

// TestSANBySquares checks that SAN needs only a move's squares (a move
// decoded from a policy index has no flags) and writes an illegal move as
// UCI.
func TestSANBySquares(t *testing.T) {
	p, err := ParseFEN("r3k2r/8/8/8/8/8/4P3/R3K2R w KQkq - 0 1", Alice)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		from, to Square
		want     string
	}{
		{SquareAt(4, 0), SquareAt(6, 0), "O-O"},
		{SquareAt(4, 0), SquareAt(2, 0), "O-O-O"},
		{SquareAt(4, 1), SquareAt(4, 3), "e4"},
		{SquareAt(4, 1), SquareAt(4, 4), "e2e5"},
		{SquareAt(4, 6), SquareAt(4, 5), "e7e6"},
	} {
		if got := p.SAN(newMove(c.from, c.to)); got != c.want {
			t.Errorf("SAN(%s%s) = %q, want %q", c.from, c.to, got, c.want)
		}
	}
}

// TestParseSANLenient checks the spellings published games use, and the
// errors for text that names no legal move or more than one.
func TestParseSANLenient(t *testing.T) {
	const (
		twoKnights = "4k3/8/8/8/8/8/8/1N2K|N2 w - - 0 1"
		twoPawns   = "4k3/8/8/8/8/3|P4/3P4/4K3 w - - 0 1"
		promo      = "n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
		castle     = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
	)
	for _, c := range []struct {
		fen, san string
		want     string // UCI, or "" for an error
		errHas   string
	}{
		{StartFEN, "Nf3", "g1f3", ""},
		{StartFEN, "Ngf3", "g1f3", ""},
		{StartFEN, "N1f3", "g1f3", ""},
		{StartFEN, "Ng1f3", "g1f3", ""},
		{StartFEN, "Ng1-f3", "g1f3", ""},
		{StartFEN, "Nf3/B", "g1f3", ""},
		{StartFEN, "Nf3/b", "g1f3", ""},
		{StartFEN, "Nf3+", "g1f3", ""}, // a wrong check mark is the annotator's slip
		{StartFEN, "Nf3!", "g1f3", ""},
		{StartFEN, "Nf3!!", "g1f3", ""},
		{StartFEN, "Nf3?", "g1f3", ""},
		{StartFEN, "Nf3??", "g1f3", ""},
		{StartFEN, "Nf3?!", "g1f3", ""},
		{StartFEN, "Nf3/B!?", "g1f3", ""},
		{StartFEN, "Nf3!?/B", "g1f3", ""},
		{StartFEN, "e4", "e2e4", ""},
		{StartFEN, "Pe4", "e2e4", ""},
		{StartFEN, "e2e4", "e2e4", ""},
		{StartFEN, "e2-e4", "e2e4", ""},
		{StartFEN, "Nf3/A", "", "lands on board B, not A"},
		{StartFEN, "Nxf3", "", "marked as a capture"},
		{StartFEN, "Ke2", "", "illegal move"},
		{StartFEN, "Nf6", "", "illegal move"},
		{StartFEN, "exd5", "", "marked as a capture, but d5 is empty"},
		{StartFEN, "e5", "", "illegal move"},
		{StartFEN, "Zf3", "", "unknown piece letter"},
		{StartFEN, "", "", "empty move"},
		{StartFEN, "+", "", "empty move"},
		{StartFEN, "O-O", "", "castling is not legal"},
		{StartFEN, "Nf3/C", "", "board suffix"},
		{StartFEN, "Nf9", "", "not SAN"},
		{StartFEN, "hello", "", "not SAN"},
		{StartFEN, "Ne4=Q", "", "only a pawn"},
		{StartFEN, "e4=K", "", "promotion must be"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Nf3", "", "white has no knight"},
		{castle, "O-O", "e1g1", ""},
		{castle, "0-0", "e1g1", ""},
		{castle, "O-O+", "e1g1", ""},
		{castle, "O-O/B", "e1g1", ""},
		{castle, "O-O-O", "e1c1", ""},
		{castle, "0-0-0", "e1c1", ""},
		{castle, "O-O/A", "", "lands on board B"},
		{castle, "Kg1", "", "illegal move"}, // castling is written as castling
		{promo, "bxa8=Q", "b7a8q", ""},
		{promo, "bxa8Q", "b7a8q", ""},
		{promo, "bxa8q", "b7a8q", ""},
		{promo, "ba8=Q", "b7a8q", ""},
		{promo, "b:a8=Q", "b7a8q", ""},
		{promo, "b8=Q", "b7b8q", ""},
		{promo, "b8Q", "b7b8q", ""},
		{promo, "b8=q", "b7b8q", ""},
		{promo, "b8=N+", "b7b8n", ""},
		{promo, "b8", "", "promotion piece missing"},
		{twoKnights, "Nbd2", "b1d2", ""},
		{twoKnights, "Nfd2", "f1d2", ""},
		{twoKnights, "Nd2/A", "f1d2", ""}, // the suffix tells them apart
		{twoKnights, "Nd2/B", "b1d2", ""},
		{twoKnights, "Nd2", "", "ambiguous"},
		{twoKnights, "N1d2", "", "ambiguous"},
		{twoPawns, "2d4", "d2d4", ""},
		{twoPawns, "d2d4", "d2d4", ""},
		{twoPawns, "3d4", "d3d4", ""},
		{twoPawns, "d4", "", "ambiguous"},
		{twoPawns, "d3", "", "illegal move"},
	} {
		p, err := ParseFEN(c.fen, Alice)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseSAN(c.san)
		if c.want != "" {
			if err != nil || m.UCI() != c.want {
				t.Errorf("%s: ParseSAN(%q) = %v, %v; want %s", c.fen, c.san, m, err, c.want)
			}
			continue
		}
		var me *MoveError
		if !errors.As(err, &me) {
			t.Errorf("%s: ParseSAN(%q) = %v, %v; want a *MoveError", c.fen, c.san, m, err)
			continue
		}
		if me.Move != c.san || me.FEN != p.FEN() || !strings.Contains(me.Reason, c.errHas) {
			t.Errorf("%s: ParseSAN(%q) error %q; want it to name the move, the position and %q", c.fen, c.san, err, c.errHas)
		}
	}
}

func TestParseMove(t *testing.T) {
	p, err := ParseFEN("n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", Alice)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ text, want string }{
		{"b7a8q", "b7a8q"},
		{"bxa8=Q", "b7a8q"},
		{"Kd2", "e1d2"},
		{"e1d2", "e1d2"},
		{"e1e3", ""}, // UCI-shaped: judged as UCI
		{"b7b8", ""},
		{"xyz", ""},
	} {
		m, err := p.ParseMove(c.text)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("ParseMove(%q) = %s, want an error", c.text, m)
		case c.want != "" && (err != nil || m.UCI() != c.want):
			t.Errorf("ParseMove(%q) = %v, %v; want %s", c.text, m, err, c.want)
		}
	}
}

// TestRuleBookExamples plays the rule book's worked examples (section 7)
// and takes every verdict from the generator through ParseSAN.
func TestRuleBookExamples(t *testing.T) {
	t.Run("knight tour", func(t *testing.T) {
		p := playSAN(t, StartFEN, Alice, "Nf3 e6 Ne5 Bc5")
		for _, c := range []struct {
			sq    string
			piece Piece
			board Board
		}{
			{"e5", MakePiece(White, Knight), BoardA},
			{"c5", MakePiece(Black, Bishop), BoardB},
			{"e6", MakePiece(Black, Pawn), BoardB},
		} {
			sq, _ := ParseSquare(c.sq)
			if pc, b := p.PieceAt(sq); pc != c.piece || b != c.board {
				t.Errorf("%s holds %c on %s, want %c on %s", c.sq, pc.Letter(), b, c.piece.Letter(), c.board)
			}
		}
		m, err := p.ParseSAN("Nxf7")
		if err != nil {
			t.Fatal(err)
		}
		if got := p.SANWithBoard(m); got != "Nxf7/B" {
			t.Errorf("3. Nxf7 written %q, want Nxf7/B", got)
		}
		p.MakeMove(m)
		for _, c := range []struct {
			san   string
			legal bool
		}{
			{"Kxf7", false}, {"Bxf2+", false}, {"Qd4", false}, {"Bg1", true},
		} {
			m, err := p.ParseSAN(c.san)
			if c.legal != (err == nil) {
				t.Errorf("3...%s: legal = %v, want %v (%v)", c.san, err == nil, c.legal, err)
			}
			if c.legal {
				p.MakeMove(m)
				if pc, b := p.PieceAt(SquareAt(6, 0)); pc != MakePiece(Black, Bishop) || b != BoardA {
					t.Errorf("after 3...Bg1 g1 holds %c on %s, want b on A", pc.Letter(), b)
				}
				p.UnmakeMove()
			}
		}
	})
	t.Run("quick mate", func(t *testing.T) {
		p := playSAN(t, StartFEN, Alice, "e4 d5 Be2 dxe4")
		m, err := p.ParseSAN("Bb5#")
		if err != nil {
			t.Fatal(err)
		}
		if got := p.SAN(m); got != "Bb5#" {
			t.Errorf("3. Bb5 written %q, want Bb5#", got)
		}
		p.MakeMove(m)
		if !p.InCheck() || p.CountLegalMoves() != 0 || p.Status() != Checkmate || p.Outcome(p.Status()) != WhiteWins {
			t.Errorf("after 3. Bb5: in check %v, %d legal moves, status %s; want mate",
				p.InCheck(), p.CountLegalMoves(), p.Status())
		}
		if _, err := p.ParseSAN("Kd7"); err == nil {
			t.Error("3...Kd7 accepted after mate")
		}
	})
	t.Run("written back", func(t *testing.T) {
		// Each SAN of the published lines is what the writer produces.
		for _, line := range []string{"Nf3 e6 Ne5 Bc5 Nxf7 Bg1", "e4 d5 Be2 dxe4 Bb5#"} {
			p := NewPosition(Alice)
			for _, s := range strings.Fields(line) {
				m, err := p.ParseSAN(s)
				if err != nil {
					t.Fatal(err)
				}
				if got := p.SAN(m); got != s {
					t.Errorf("%s: written %q", s, got)
				}
				p.MakeMove(m)
			}
		}
	})
}

func BenchmarkSAN(b *testing.B) {
	p := playSAN(b, StartFEN, Alice, "e4 d5 Be2 dxe4")
	var ml MoveList
	p.LegalMoves(&ml)
	for b.Loop() {
		for _, m := range ml.Slice() {
			_ = p.SAN(m)
		}
	}
}

func BenchmarkParseSAN(b *testing.B) {
	p := playSAN(b, StartFEN, Alice, "e4 d5 Be2 dxe4")
	for b.Loop() {
		if _, err := p.ParseSAN("Bb5#"); err != nil {
			b.Fatal(err)
		}
	}
}
