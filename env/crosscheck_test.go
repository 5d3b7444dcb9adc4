package env

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// compareWithReference walks the game tree to the given depth and fails on
// the first position where the engine and the naive reference generator
// (reference_test.go) disagree.
func compareWithReference(t *testing.T, p *Position, depth int, path []string) bool {
	t.Helper()
	if fast, ref := engineLegalKeys(p), refLegalKeys(p); !slices.Equal(fast, ref) {
		t.Errorf("%s after %q (%s):\n engine: %v\n    ref: %v", p.Variant().Name, strings.Join(path, " "), p.FEN(), fast, ref)
		return false
	}
	if depth == 0 {
		return true
	}
	var ml MoveList
	p.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		path := append(path, p.UCI(m))
		p.MakeMove(m)
		ok := compareWithReference(t, p, depth-1, path)
		p.UnmakeMove()
		if !ok {
			return false
		}
	}
	return true
}

func TestGeneratorMatchesReferenceTree(t *testing.T) {
	p := NewPosition(Alice)
	if _, err := p.PlayUCI(strings.Fields("e2e4 d7d5 f1e2 d5e4")); err != nil {
		t.Fatal(err)
	}
	depth := 3
	if testing.Short() {
		depth = 2
	}
	compareWithReference(t, p, depth, nil)
	for _, v := range Variants() {
		compareWithReference(t, NewPosition(v), depth, nil)
	}
}

// TestGeneratorMatchesReferenceRandomGames compares the generators along
// random games of every variant, which reach odd positions a shallow tree
// never does: 10⁴ positions a variant, 2,000 with -short.
func TestGeneratorMatchesReferenceRandomGames(t *testing.T) {
	want := 10_000
	if testing.Short() {
		want = 2_000
	}
	for _, v := range Variants() {
		t.Run(v.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(v.code)))
			n := 0
			for n < want {
				p := NewPosition(v)
				var path []string
				for ply := 0; ply < 200 && n < want; ply++ {
					if !compareWithReference(t, p, 0, path) {
						return
					}
					n++
					var ml MoveList
					p.LegalMoves(&ml)
					if ml.N == 0 {
						break
					}
					m := ml.Moves[rng.IntN(ml.N)]
					path = append(path, p.UCI(m))
					p.MakeMove(m)
				}
			}
			t.Logf("%d positions agree", n)
		})
	}
}

// toGeneral returns p on the general path (wide.go, widegen.go), whatever
// its variant: for the variants of the fast path, a third implementation to
// hold against the fast one.
func toGeneral(t testing.TB, p *Position) *Position {
	t.Helper()
	q := &Position{variant: p.variant, state: p.state, wide: newWideGame()}
	q.pieces, q.colours, q.onB = [2][6]uint64{}, [2]uint64{}, 0
	for i := range q.mailbox {
		q.mailbox[i] = NoPiece
	}
	for b := BoardA; int(b) < p.variant.Boards(); b++ {
		for sq := Square(0); sq < 64; sq++ {
			if pc := p.PieceOn(sq, b); pc != NoPiece {
				var h uint64
				q.wide.put(pc, sq, b, &h)
			}
		}
	}
	if q.computeHash() != p.Hash() {
		t.Fatalf("%s: the general path's hash %x differs from %x", p.FEN(), q.computeHash(), p.Hash())
	}
	return q
}

// TestGeneralPathMatchesFastPath holds the general path against the fast
// one on the variants both can play, along random games: the same legal
// moves, the same position (FEN and hash) after each of them, and the same
// perft below.
func TestGeneralPathMatchesFastPath(t *testing.T) {
	games, depth := 40, 3
	if testing.Short() {
		games, depth = 10, 2
	}
	for _, v := range Variants() {
		if v.SharedSquares() {
			continue
		}
		for i, p := range randomPositions(t, v, games, 9, uint64(v.code)) {
			q := toGeneral(t, p)
			if a, b := engineLegalKeys(p), engineLegalKeys(q); !slices.Equal(a, b) {
				t.Fatalf("%s %s:\n fast: %v\n general: %v", v.Name, p.FEN(), a, b)
			}
			var ml MoveList
			p.LegalMoves(&ml)
			var gl MoveList
			q.LegalMoves(&gl)
			for _, m := range ml.Slice() {
				var g Move
				for _, o := range gl.Slice() {
					if engineKey(q, o) == engineKey(p, m) {
						g = o
					}
				}
				p.MakeMove(m)
				q.MakeMove(g)
				if p.FEN() != q.FEN() || p.Hash() != q.Hash() || p.InCheck() != q.InCheck() {
					t.Fatalf("%s: after %s: fast %s (%x), general %s (%x)", v.Name, m, p.FEN(), p.Hash(), q.FEN(), q.Hash())
				}
				p.UnmakeMove()
				q.UnmakeMove()
			}
			if i%10 == 0 {
				if a, b := p.Perft(depth), q.Perft(depth); a != b {
					t.Fatalf("%s %s: perft(%d) fast %d, general %d", v.Name, p.FEN(), depth, a, b)
				}
			}
		}
	}
}

// variantPositions are positions per variant where its special rules are
// at work (the perft table of docs/RULES.md counts from them too).
var variantPositions = []struct {
	variant Variant
	name    string
	fen     string
}{
	{AliceEP, "en passant from two sides, another double step to come", "4k3/2p5/8/3P|pP2/8/8/8/4K3 w - e6 0 2"},
	{AliceBlackB, "castling on both boards", "|r3|k2|r/|p|p|p2|p|p|p/8/8/8/8/PPP2PPP/R3K2R w KQkq - 0 10"},
	{AliceNull, "null moves of king, rook and pawns near castling", "r3k2r/pp3ppp/8/3|Q4/8/8/PP3PPP/R3K2R w KQkq - 0 12"},
	{AliceOptionalTransfer, "blocked landing squares, shared squares", "r3k2r/ppp2ppp/8/3[p|P]4/8/3|p4/PPP2PPP/R3K2R w KQkq - 0 8"},
	{AliceStone, "null captures and a king's null escape", "|r3|k2|r/|p|p|p2|p|p|p/8/3[N|q]4/8/8/PPP2PPP/R3K2R w KQkq - 0 9"},
	{AliceMini, "promotion on the 4-file boards", "2k1/P|b2/4/2|p1/4/|N3/1p1|K/4 w - - 0 30"},
	{Alice3, "men on three boards, castling to a chosen board", "r3k2r/ppp2ppp/8/3[p|P||n]4/8/8/PPP2PPP/R3K2R w KQkq - 0 8"},
}

// TestPerftMatchesReference counts perft from each variant's start and
// special position with the engine and with the reference generator, which
// plays its own moves on its own boards.
func TestPerftMatchesReference(t *testing.T) {
	depth := 3
	if testing.Short() {
		depth = 2
	}
	check := func(p *Position) {
		ref := refFromPosition(p)
		for d := 1; d <= depth; d++ {
			if got, want := p.Perft(d), ref.perft(d); got != want {
				t.Errorf("%s %s: perft(%d) = %d, reference %d", p.Variant().Name, p.FEN(), d, got, want)
			}
		}
	}
	for _, v := range Variants() {
		check(NewPosition(v))
	}
	for _, c := range variantPositions {
		p, err := ParseFEN(c.fen, c.variant)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		check(p)
	}
}
