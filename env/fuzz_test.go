package env

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// fuzzFENs are positions the fuzzers start from: the start, the rule
// book's positions, and ones with castling, promotion and en passant close.
var fuzzFENs = []string{
	StartFEN,
	"rnbqkbnr/ppp1pppp/8/8/4|p3/8/PPPPBPPP/RNBQK1NR w KQkq - 0 3",
	"8/2p2p2/4|p3/3pP|k2/8/2|P1|P2p/4K1|p1/r3N3 b - - 1 59",
	"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
	"n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
	"4k3/8/8/8/8/|Q7/8/Q1|Q3K1 w - - 0 1",
	"4k3/8/8/8/8/3|P4/3P4/4K3 w - - 0 1",
	"4k3/8/8/3p|P3/8/8/8/4K3 w - d6 0 1",
	StartFENBlackB,
	StartFENMini,
	"4k3/8/8/3[Q|p]4/8/8/8/K2[R|R]4 w - - 0 1",
	"r3k2r/ppp2ppp/8/3[p|P||n]4/8/8/PPP2PPP/R3K2R w KQkq - 0 8",
	"|r3|k2|r/|p|p|p2|p|p|p/8/3[N|q]4/8/8/PPP2PPP/R3K2R w KQkq - 0 9",
	"7|k/8/6|Q1/8/8/8/8/K6|R b - - 0 1",
	"2k1/P|b2/4/2|p1/4/|N3/1p1|K/4 w - - 0 30",
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range fuzzFENs {
		f.Add(s)
	}
	for _, s := range []string{
		"", "8/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
		"|k6|K/8/8/8/8/8/8/8 b - - 5 9", "k7/||K7/8/8/8/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/4K2R w Kk - 0 1",
		"4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "4k3/8/8/8/8/8/8/4K3 w - - -1 0",
		"4k3/8/8/3[|N||b]4/8/8/8/4K3 w - - 0 1", "4k3/8/8/3[]4/8/8/8/4K3 w - - 0 1", "4k3/8/8/3[Q|p4/8/8/8/4K3 w - - 0 1",
		"4k3/8/8/3|||Q4/8/8/8/4K3 w - - 0 1", "rqkr/nbbn/pppp/4/4/PPPP/NBBN/RQKR w - - 0 1", "4[K|r]3/8/8/8/8/8/8/4|k3 w - - 0 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		for _, v := range Variants() {
			p, err := ParseFEN(fen, v)
			if err != nil {
				var fe *FENError
				if !errors.As(err, &fe) {
					t.Fatalf("ParseFEN(%q) error %v is not a *FENError", fen, err)
				}
				continue
			}
			out := p.FEN()
			q, err := ParseFEN(out, v)
			if err != nil {
				t.Fatalf("%s: ParseFEN(%q) accepted, but its FEN %q does not parse: %v", v.Name, fen, out, err)
			}
			if q.FEN() != out || q.Hash() != p.Hash() {
				t.Fatalf("%s: %q → %q (hash %x) → %q (hash %x)", v.Name, fen, out, p.Hash(), q.FEN(), q.Hash())
			}
			// Every accepted position must be one the generator can work
			// in: generating moves must not panic, and must agree with the
			// reference generator.
			checkAgainstReference(t, p)
		}
	})
}

// checkAgainstReference compares the generator with the naive reference
// one of reference_test.go.
func checkAgainstReference(t *testing.T, p *Position) {
	t.Helper()
	if got, want := engineLegalKeys(p), refLegalKeys(p); !slices.Equal(got, want) {
		t.Fatalf("%s (%s): generator %v, reference %v", p.FEN(), p.variant.Name, got, want)
	}
}

// fuzzPositions returns the positions of fuzzFENs in every variant that
// reads them.
func fuzzPositions() []*Position {
	var positions []*Position
	for _, v := range Variants() {
		for _, fen := range fuzzFENs {
			if p, err := ParseFEN(fen, v); err == nil {
				positions = append(positions, p)
			}
		}
	}
	return positions
}

// checkMoveRead checks what a parser made of text s in p (ml holds p's
// legal moves): an error must be a *MoveError naming s, a move read must
// be legal. It reports whether a move was read.
func checkMoveRead(t *testing.T, p *Position, ml *MoveList, s string, m Move, err error) bool {
	t.Helper()
	if err != nil {
		var me *MoveError
		if !errors.As(err, &me) || me.Move != s {
			t.Fatalf("%s: %q: error %v does not name the move", p.FEN(), s, err)
		}
		return false
	}
	if !ml.Contains(m) {
		t.Fatalf("%s (%s): %q read as %s, which is not legal", p.FEN(), p.Variant().Name, s, m)
	}
	return true
}

func FuzzParseSAN(f *testing.F) {
	for _, s := range []string{
		"e4", "Nf3", "Ngf3", "Ng1f3", "Nf3/B", "exd5", "O-O", "0-0-0", "b8=Q", "bxa8Q", "Qa1b2",
		"2d4", "Nd2/A", "Bb5#", "Kxf7", "e4!?", "Nf3+/A", "d4/C", "=Q", "x", "/A", "Ka", "P", "e2e4",
		"exd6", "Rbg8/A", "e8=K", "Ne4=Q", "O-O-O-O", "e4:d5", "--",
		"a:Rd5", "b:Rd5/A", "c:e4", "Nxd7/B", "Qd1/B", "e4/C", "O-O/C", "a:", "d:Rd5", "a8=Q/B",
	} {
		f.Add(s)
	}
	positions := fuzzPositions()
	f.Fuzz(func(t *testing.T, s string) {
		var ml MoveList
		for _, p := range positions {
			fen := p.FEN()
			p.LegalMoves(&ml)
			for _, parse := range []func(string) (Move, error){p.ParseSAN, p.ParseMove} {
				m, err := parse(s)
				if !checkMoveRead(t, p, &ml, s, m, err) {
					continue
				}
				// What was read is what SAN writes, give or take the
				// spelling.
				if again, err := p.ParseSAN(p.SAN(m)); err != nil || again != m {
					t.Fatalf("%s: %q read as %s, written %q, read back as %v, %v", fen, s, m, p.SAN(m), again, err)
				}
			}
			if p.FEN() != fen {
				t.Fatalf("parsing %q changed the position %s to %s", s, fen, p.FEN())
			}
		}
	})
}

// FuzzParseUCI reads arbitrary text as a UCI move in positions of every
// variant: an error names the move, and a move read is legal, and reads
// back from both ways of writing it.
func FuzzParseUCI(f *testing.F) {
	for _, s := range []string{
		"e2e4", "e7e8q", "e1g1", "a:d1d5", "b:d1d5/a", "e2e4/b", "e2e4/c", "e4e4", "d1d1", "a:e2e4/b",
		"e7e8q/c", "0000", "a:", "/b", "e2e4/", "c:e2e4/d", "a1a1", "h7h8n/a", "d:e2e4", "e2e4q", "a3a4",
	} {
		f.Add(s)
	}
	positions := fuzzPositions()
	f.Fuzz(func(t *testing.T, s string) {
		var ml MoveList
		for _, p := range positions {
			fen := p.FEN()
			p.LegalMoves(&ml)
			m, err := p.ParseUCI(s)
			if !checkMoveRead(t, p, &ml, s, m, err) {
				continue
			}
			for _, w := range []string{p.UCI(m), m.UCI()} {
				if back, err := p.ParseUCI(w); err != nil || back != m {
					t.Fatalf("%s (%s): %q read as %s, written %q, read back as %v, %v", fen, p.Variant().Name, s, m, w, back, err)
				}
			}
			if p.FEN() != fen {
				t.Fatalf("parsing %q changed the position %s to %s", s, fen, p.FEN())
			}
		}
	})
}

func FuzzReadPGN(f *testing.F) {
	for _, s := range []string{
		"1. e4 d5 2. Be2 dxe4 3. Bb5# 1-0",
		"[Event \"x\"]\n[Variant \"Alice\"]\n\n1.Nf3 e6 2.Ne5 Bc5 3.Nxf7 Bg1/A *\n",
		"[FEN \"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 20\"]\n\n20... O-O-O 21. 0-0 *",
		"1. e4 {c} (1. d4 (1. c4) ; x\n) $1 d5 1/2-1/2\n\n1. d4",
		"%esc\n[A \"\\\"\\\\\"]\n1. e4 ) ( { ",
		"[Variant \"Alice EP\"]\n1. e4 d5 2. e5 f5 3. exf6 e.p. *",
		"[Variant \"Chess\"]\n1. e4",
		"\xEF\xBB\xBF[Event \"bom\"] 1. e4 *",
		"[Variant \"Alice 3\"]\n1. e4/C e5/B 2. Nf3/B a:Nc6 *",
		"[Variant \"alice-stone\"]\n1. e4/A e5 2. Qd1/B *",
		"[Variant \"Alice Mini\"]\n[FEN \"rqkr/nbbn/pppp/4/4/PPPP/NBBN/RQKR w - - 0 1\"]\n1. a4 *",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		pr := NewPGNReader(strings.NewReader(text), Alice)
		// Every call consumes input or ends it, so a game per byte bounds
		// the loop; the bound only guards against a reader that stalls.
		for range len(text) + 2 {
			g, err := pr.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var pe *PGNError
				if !errors.As(err, &pe) || pe.Game < 1 {
					t.Fatalf("error %v is not a *PGNError naming its game", err)
				}
				continue
			}
			// A game read cleanly writes and reads back the same.
			var buf bytes.Buffer
			if err := WritePGN(&buf, g); err != nil {
				if errors.As(err, new(*PGNError)) && strings.Contains(err.Error(), "tag name") {
					continue // the reader takes tag names WritePGN will not write
				}
				t.Fatalf("writing a game read cleanly: %v", err)
			}
			back, err := ReadPGN(&buf, Alice)
			if err != nil || len(back) != 1 || !slices.Equal(back[0].Moves, g.Moves) ||
				back[0].Result != g.Result || back[0].Variant != g.Variant {
				t.Fatalf("game %s did not survive a round trip: %v, %v\n%s", ucis(g.Moves), back, err, buf.String())
			}
		}
		t.Fatalf("reader did not reach the end of %d bytes", len(text))
	})
}

// FuzzMakeUnmake drives a walk through the game tree: each byte makes the
// legal move it selects, or takes the last one back (0xff). After every
// step the incremental hash must equal one computed from scratch (by
// re-reading the position's FEN), the FEN must read back unchanged, the
// generator must agree with the reference one, and each unmake must restore
// the FEN and hash exactly.
func FuzzMakeUnmake(f *testing.F) {
	for i, fen := range fuzzFENs {
		f.Add(fen, []byte{byte(i), 3, 200, 0xff, 17, 5, 9, 0xff, 0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	}
	f.Add("", []byte("a walk from the start position"))
	f.Add("4k3/8/8/8/8/8/4p3/4K3 b - - 0 1", []byte{0, 1, 2, 3})
	f.Fuzz(func(t *testing.T, fen string, walk []byte) {
		if len(walk) > 400 {
			walk = walk[:400]
		}
		v := Variants()[len(fen)%len(Variants())]
		p, err := ParseFEN(fen, v)
		if err != nil {
			p = NewPosition(v)
		}
		type snap struct {
			fen  string
			hash uint64
		}
		var stack []snap
		var ml MoveList
		check := func() {
			f := p.FEN()
			q, err := ParseFEN(f, v)
			if err != nil {
				t.Fatalf("after %d plies the position's FEN %q does not parse: %v", p.Ply(), f, err)
			}
			if q.Hash() != p.Hash() {
				t.Fatalf("%s: incremental hash %x, from scratch %x", f, p.Hash(), q.Hash())
			}
			if q.FEN() != f {
				t.Fatalf("FEN %q reads back as %q", f, q.FEN())
			}
			checkAgainstReference(t, p)
		}
		check()
		for _, b := range walk {
			if b == 0xff {
				if len(stack) == 0 {
					continue
				}
				p.UnmakeMove()
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if got := p.FEN(); got != top.fen || p.Hash() != top.hash {
					t.Fatalf("unmake restored %q (hash %x), want %q (hash %x)", got, p.Hash(), top.fen, top.hash)
				}
				continue
			}
			p.LegalMoves(&ml)
			if ml.N == 0 {
				continue
			}
			stack = append(stack, snap{p.FEN(), p.Hash()})
			p.MakeMove(ml.Moves[int(b)%ml.N])
			check()
		}
		for len(stack) > 0 {
			p.UnmakeMove()
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if got := p.FEN(); got != top.fen || p.Hash() != top.hash {
				t.Fatalf("unmake restored %q (hash %x), want %q (hash %x)", got, p.Hash(), top.fen, top.hash)
			}
		}
	})
}
