package env

import (
	"slices"
	"testing"
)

func TestPolicyMapCoversEveryLegalMoveOnce(t *testing.T) {
	seen := 0
	for _, v := range Variants() {
		l := v.Policy()
		mask := make([]float32, v.PolicySize())
		snapMask := make([]float32, v.PolicySize())
		for _, p := range randomPositions(t, v, 60, 3, 7) {
			var ml MoveList
			p.LegalMoves(&ml)
			used := map[int]Move{}
			for _, m := range ml.Slice() {
				i := p.PolicyIndex(m)
				if i < 0 || i >= l.Size() {
					t.Fatalf("%s: move %s has index %d", p.FEN(), m, i)
				}
				if prev, dup := used[i]; dup {
					t.Fatalf("%s: moves %s and %s share index %d", p.FEN(), prev, m, i)
				}
				used[i] = m
				d, ok := l.Decode(i)
				if p.SideToMove() == Black {
					d.From, d.To = d.From^56, d.To^56
				}
				wantPromo := m.Promotion()
				if wantPromo == Queen {
					wantPromo = NoKind
				}
				x, y := p.MoveBoards(m)
				if !ok || d.From != m.From() || d.To != m.To() || d.Promotion != wantPromo || d.Null != m.IsNull() ||
					d.FromBoard >= 0 && d.FromBoard != int(x) || d.ToBoard >= 0 && d.ToBoard != int(y) {
					t.Fatalf("%s: index %d of %s (boards %s, %s) decodes to %+v", p.FEN(), i, m, x, y, d)
				}
				seen++
			}
			if n := p.LegalMask(mask); n != ml.N {
				t.Fatalf("LegalMask counted %d moves, want %d", n, ml.N)
			}
			for i, x := range mask {
				if _, legal := used[i]; x != 0 && (x != 1 || !legal) || x == 0 && legal {
					t.Fatalf("%s: mask[%d] = %v, legal %v", p.FEN(), i, x, legal)
				}
			}
			sn := p.Snapshot()
			if n := sn.LegalMask(p.Variant(), snapMask); n != ml.N || !slices.Equal(mask, snapMask) {
				t.Fatalf("%s: the snapshot's mask (%d moves) differs from the position's", p.FEN(), n)
			}
		}
	}
	if seen < 30000 {
		t.Fatalf("only %d moves checked", seen)
	}
}

// TestPolicyLayoutsOfVariants pins each variant's layout (policy.go) and
// checks that every index of it that names a move maps back to itself, for
// White and (mirrored) for Black, with its boards where it fixes them.
func TestPolicyLayoutsOfVariants(t *testing.T) {
	cases := []struct {
		v                                  Variant
		name                               string
		planes, movement, fromBoards, cans int
		moves                              int // indices naming a move
	}{
		{Alice, "move-planes-73x8x8", 73, 73, 1, 1, 1858},
		{AliceMini, "move-planes-73x8x8", 73, 73, 1, 1, 1858},
		{AliceNull, "move-planes-74x8x8", 74, 74, 1, 1, 1858 + 64},
		{AliceOptionalTransfer, "move-planes-2x73x8x8", 146, 73, 2, 1, 2 * 1858},
		{AliceStone, "move-planes-2x2x74x8x8", 296, 74, 2, 2, 2*2*1858 + 2*64},
		{Alice3, "move-planes-3x2x73x8x8", 438, 73, 3, 2, 3 * 2 * 1858},
	}
	for _, c := range cases {
		l := c.v.Policy()
		if l.Name() != c.name || l.Planes() != c.planes || l.MovementPlanes() != c.movement || l.FromBoards() != c.fromBoards || l.Choices() != c.cans || c.v.PolicySize() != c.planes*64 {
			t.Errorf("%s: layout %s of %d planes (%d movement, %d from-boards, %d choices)", c.v.Name, l.Name(), l.Planes(), l.MovementPlanes(), l.FromBoards(), l.Choices())
			continue
		}
		names := map[string]int{}
		for i := range l.Size() {
			d, ok := l.Decode(i)
			s := l.UCI(i)
			if !ok {
				if s != "" {
					t.Fatalf("%s: index %d names no move but is written %q", c.v.Name, i, s)
				}
				continue
			}
			if prev, dup := names[s]; dup {
				t.Fatalf("%s: indices %d and %d are both %s", c.v.Name, prev, i, s)
			}
			names[s] = i
			m := newMove(d.From, d.To)
			if d.Promotion != NoKind {
				m = newPromotion(d.From, d.To, d.Promotion)
			}
			if d.Null {
				m |= flagNull
			}
			if d.FromBoard >= 0 {
				to := d.ToBoard
				if to < 0 { // optional transfer: either landing
					to = 1 - d.FromBoard
				}
				m = m.withBoards(Board(d.FromBoard), Board(to))
			}
			if got := l.Index(m, White); got != i {
				t.Fatalf("%s: index %d (%s) maps back to %d", c.v.Name, i, s, got)
			}
			if got := l.Index(ColourFlip.Move(m), Black); got != i {
				t.Fatalf("%s: index %d (%s) for Black maps back to %d", c.v.Name, i, s, got)
			}
		}
		if len(names) != c.moves {
			t.Errorf("%s: %d indices name moves, want %d", c.v.Name, len(names), c.moves)
		}
	}
}

// TestPolicyLayoutIsABijection checks that every index naming a move maps
// back to itself, for White and (mirrored) for Black, that no two name the
// same move, and that exactly the 1858 moves a queen, a knight or an
// under-promoting pawn can make on an empty board have indices.
func TestPolicyLayoutIsABijection(t *testing.T) {
	l := Alice.Policy()
	if l.Size() != PolicySize || l.Planes() != PolicyPlanes || l.Height()*l.Width() != PlaneSize {
		t.Fatalf("layout %s: %d planes of %d×%d, size %d", l.Name(), l.Planes(), l.Height(), l.Width(), l.Size())
	}
	planeNames := map[string]bool{}
	for p := range l.Planes() {
		s := l.MoveType(p).String()
		if planeNames[s] {
			t.Fatalf("two planes are described as %q", s)
		}
		planeNames[s] = true
	}
	names := map[string]int{}
	for i := 0; i < PolicySize; i++ {
		s := l.UCI(i)
		from, to, promo, ok := l.Move(i)
		if !ok {
			if s != "" {
				t.Fatalf("index %d names no move but is written %q", i, s)
			}
			continue
		}
		if prev, dup := names[s]; dup {
			t.Fatalf("indices %d and %d are both %s", prev, i, s)
		}
		names[s] = i
		m := newMove(from, to)
		if promo != NoKind {
			m = newPromotion(from, to, promo)
		}
		if got := l.Index(m, White); got != i {
			t.Fatalf("index %d (%s) maps back to %d", i, s, got)
		}
		if got := l.Index(ColourFlip.Move(m), Black); got != i {
			t.Fatalf("index %d (%s) for Black maps back to %d", i, s, got)
		}
	}
	if len(names) != 1858 {
		t.Fatalf("%d indices name moves, want 1858", len(names))
	}
	for _, i := range []int{-1, PolicySize} {
		if _, _, _, ok := l.Move(i); ok || l.UCI(i) != "" {
			t.Fatalf("index %d out of range was accepted", i)
		}
	}
}

// TestPolicyIndicesAsDocumented pins the documented order of the planes
// (policy.go) on examples, so that exported models' users can rely on it.
func TestPolicyIndicesAsDocumented(t *testing.T) {
	cases := []struct {
		fen   string
		uci   string
		index int
		plane string
	}{
		{StartFEN, "e2e4", 1*64 + 12, "queen-like N 2"},
		{StartFEN, "g1f3", 63*64 + 6, "knight -1+2"},
		{StartFEN, "b1c3", 56*64 + 1, "knight +1+2"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "e7e5", 1*64 + 12, "queen-like N 2"},
		{"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 15*64 + 4, "queen-like E 2"},
		{"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", 43*64 + 4, "queen-like W 2"},
		{"4k3/8/8/8/8/8/8/4K2R w - - 0 1", "h1h8", 6*64 + 7, "queen-like N 7"},
		{"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "f1a6", 53*64 + 5, "queen-like NW 5"},
		{"1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", 0*64 + 48, "queen-like N 1"},
		{"1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q", 7*64 + 48, "queen-like NE 1"},
		{"1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n", 65*64 + 48, "under-promotion to knight, straight"},
		{"1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8r", 72*64 + 48, "under-promotion to rook, capture towards the h-file"},
		{"4k3/8/8/8/8/8/1p6/N3K3 b - - 0 1", "b2a1b", 67*64 + 49, "under-promotion to bishop, capture towards the a-file"},
		{"4k3/8/8/8/8/8/1p6/N3K3 b - - 0 1", "b2b1q", 0*64 + 49, "queen-like N 1"},
	}
	for _, c := range cases {
		i := policyIndexOf(t, Alice, c.fen, c.uci)
		if i != c.index {
			t.Errorf("%s in %s: index %d (plane %d, square %d), want %d", c.uci, c.fen, i, i/64, i%64, c.index)
			continue
		}
		if got := Alice.Policy().MoveType(i / 64).String(); got != c.plane {
			t.Errorf("%s: plane %d is %q, want %q", c.uci, i/64, got, c.plane)
		}
	}
}

// TestPolicyIndicesOfVariantsAsDocumented pins the new layouts' block
// order (policy.go) on examples: the null plane, the from-board blocks and
// the landing choices.
func TestPolicyIndicesOfVariantsAsDocumented(t *testing.T) {
	cases := []struct {
		v     Variant
		fen   string
		uci   string
		index int
	}{
		{AliceNull, StartFEN, "e2e4", 1*64 + 12},
		{AliceNull, StartFEN, "e2e2", 73*64 + 12},                                                     // the null plane
		{AliceNull, "rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "g8g8", 73*64 + 6}, // Black's view: g8 is g1
		{AliceOptionalTransfer, StartFEN, "e2e4", 1*64 + 12},                                          // board A, block 0
		{AliceOptionalTransfer, "4k3/8/8/8/8/8/8/|R3K3 w - - 0 1", "a1a5", (73+3)*64 + 0},             // board B, block 1
		{AliceStone, StartFENBlackB, "e2e4/b", 1*64 + 12},                                             // A, transfer
		{AliceStone, StartFENBlackB, "e2e4/a", (74+1)*64 + 12},                                        // A, stay
		{Alice3, StartFEN, "e2e4/b", 1*64 + 12},                                                       // A to B: the next board
		{Alice3, StartFEN, "e2e4/c", (73+1)*64 + 12},                                                  // A to C: the board after
	}
	for _, c := range cases {
		if i := policyIndexOf(t, c.v, c.fen, c.uci); i != c.index {
			t.Errorf("%s: %s in %s: index %d (plane %d, square %d), want %d", c.v.Name, c.uci, c.fen, i, i/64, i%64, c.index)
		}
	}
}

// policyIndexOf returns the policy index of the move uci in the position
// fen of variant v.
func policyIndexOf(t *testing.T, v Variant, fen, uci string) int {
	t.Helper()
	p, err := ParseFEN(fen, v)
	if err != nil {
		t.Fatalf("%s: %v", v.Name, err)
	}
	m, err := p.ParseUCI(uci)
	if err != nil {
		t.Fatalf("%s: %s in %s: %v", v.Name, uci, fen, err)
	}
	return p.PolicyIndex(m)
}

func TestLegalMaskAllocatesNothing(t *testing.T) {
	p := randomPositions(t, AliceEP, 1, 17, 3)[2]
	sn := p.Snapshot()
	mask := make([]float32, PolicySize)
	if a := testing.AllocsPerRun(50, func() { p.LegalMask(mask) }); a != 0 {
		t.Errorf("Position.LegalMask: %v allocations", a)
	}
	if a := testing.AllocsPerRun(50, func() { sn.LegalMask(AliceEP, mask) }); a != 0 {
		t.Errorf("Snapshot.LegalMask: %v allocations", a)
	}
}
