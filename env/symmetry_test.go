package env

import (
	"slices"
	"testing"
)

func TestBoardSwapOfStartPutsArmyOnB(t *testing.T) {
	got := BoardSwap.Position(NewPosition(Alice)).FEN()
	want := "|r|n|b|q|k|b|n|r/|p|p|p|p|p|p|p|p/8/8/8/8/|P|P|P|P|P|P|P|P/|R|N|B|Q|K|B|N|R w KQkq - 0 1"
	if got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}

func legalSet(p *Position, y Symmetry) []string {
	var ml MoveList
	p.LegalMoves(&ml)
	var out []string
	for _, m := range ml.Slice() {
		out = append(out, y.Move(m).UCI())
	}
	slices.Sort(out)
	return out
}

// TestSymmetriesPreserveLegalPlay checks the rule book's claim exactly, in
// every variant and for every symmetry of its rules (the colour flip, the
// permutations of its boards), castling rights and all: the image of every
// legal move is legal in the image position and nothing else is, status,
// check and repetitions agree, and where the network's policy covers the
// variant the policy index of each move is the index of its image.
func TestSymmetriesPreserveLegalPlay(t *testing.T) {
	for _, v := range Variants() {
		castled := 0
		for _, p := range randomPositions(t, v, 12, 5, uint64(3+v.code)) {
			if p.Castling() != 0 {
				castled++
			}
			for _, y := range v.Symmetries() {
				q := y.Position(p)
				if got, want := legalSet(q, Identity), legalSet(p, y); !slices.Equal(got, want) {
					t.Fatalf("%s: %s of %s:\n image moves %v\n mapped moves %v", v.Name, y, p.FEN(), got, want)
				}
				if p.Status() != q.Status() || p.InCheck() != q.InCheck() || p.Repetitions() != q.Repetitions() || q.Hash() != q.computeHash() {
					t.Fatalf("%s: %s of %s changes the status or breaks the hash", v.Name, y, p.FEN())
				}
				{
					var ml MoveList
					p.LegalMoves(&ml)
					for _, m := range ml.Slice() {
						if got, want := q.PolicyIndex(y.Move(m)), y.PolicyIndex(v.Policy(), p.PolicyIndex(m)); got != want {
							t.Fatalf("%s: index of image of %s is %d, want %d", y, m, got, want)
						}
					}
				}
				if inv := inverse(y); inv.Position(q).FEN() != p.FEN() {
					t.Fatalf("%s: %s then %s does not restore %s", v.Name, y, inv, p.FEN())
				}
			}
		}
		if castled == 0 && v.canCastle() {
			t.Errorf("%s: no position with castling rights was tried", v.Name)
		}
	}
}

func TestSymmetriesPreservePerft(t *testing.T) {
	depth := 3
	if testing.Short() {
		depth = 2
	}
	for _, v := range Variants() {
		positions := []*Position{NewPosition(v)}
		positions = append(positions, randomPositions(t, v, 2, 23, 5)...)
		for _, p := range positions {
			want := p.Perft(depth)
			for _, y := range v.Symmetries()[1:] {
				if got := y.Position(p).Perft(depth); got != want {
					t.Errorf("%s: %s of %s: perft(%d) = %d, want %d", v.Name, y, p.FEN(), depth, got, want)
				}
			}
		}
	}
}

// TestStartSymmetries checks which symmetries keep each variant's start
// position: the identity and the colour flip where both armies start on A,
// also B↔C (with and without the flip) in alice-3, and only the flip
// together with the board swap where Black starts on B.
func TestStartSymmetries(t *testing.T) {
	for _, c := range []struct {
		v    Variant
		want []Symmetry
	}{
		{Alice, []Symmetry{Identity, ColourFlip}},
		{AliceEP, []Symmetry{Identity, ColourFlip}},
		{AliceBlackB, []Symmetry{Identity, FlipAndSwap}},
		{AliceNull, []Symmetry{Identity, ColourFlip}},
		{AliceOptionalTransfer, []Symmetry{Identity, ColourFlip}},
		{AliceStone, []Symmetry{Identity, FlipAndSwap}},
		{AliceMini, []Symmetry{Identity, ColourFlip}},
		{Alice3, []Symmetry{Identity, ColourFlip, SwapBC, SwapBC | ColourFlip}},
	} {
		if got := c.v.StartSymmetries(); !slices.Equal(got, c.want) {
			t.Errorf("%s: start symmetries %v, want %v", c.v.Name, got, c.want)
		}
	}
	if n := len(Alice3.Symmetries()); n != 12 {
		t.Errorf("alice-3 has %d symmetries, want 12", n)
	}
}

// TestEncodeUnderSymmetries: on every variant, a board permutation moves
// each board's piece and attack planes to its image board's and changes
// nothing else; the colour flip changes nothing (the planes show the
// position from the mover's side, whichever colour it has).
func TestEncodeUnderSymmetries(t *testing.T) {
	for _, v := range Variants() {
		n, l := v.InputSize(), v.Planes()
		a, b := make([]float32, n), make([]float32, n)
		for _, p := range randomPositions(t, v, 6, 5, 11) {
			p.Encode(a)
			for _, y := range v.Symmetries() {
				y.Position(p).Encode(b)
				moved := map[int]int{}
				for x := range Board(v.Boards()) {
					for _, ours := range [2]bool{true, false} {
						for k := Pawn; k <= King; k++ {
							moved[l.Piece(x, ours, k)] = l.Piece(y.mapBoard(x), ours, k)
						}
						moved[l.Attack(x, ours)] = l.Attack(y.mapBoard(x), ours)
					}
				}
				for i := range n {
					j := i
					if plane, ok := moved[i/PlaneSize]; ok {
						j = plane*PlaneSize + i%PlaneSize
					}
					if a[i] != b[j] {
						t.Fatalf("%s: %s of %s: plane value %d differs", v.Name, y, p.FEN(), i)
					}
				}
			}
		}
	}
}

// inverse returns the symmetry that undoes y.
func inverse(y Symmetry) Symmetry {
	from := boardPerms[y.perm()]
	for j, to := range boardPerms {
		if to[from[BoardA]] == BoardA && to[from[BoardB]] == BoardB && to[from[BoardC]] == BoardC {
			return Symmetry(j<<1) | y&ColourFlip
		}
	}
	return y
}
