package env

import (
	"slices"
	"strings"
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

// TestSymmetriesPreserveLegalPlay checks the rule book's claim exactly: the
// image of every legal move is legal in the image position and nothing
// else is, the perft counts agree, and the policy index of each move is the
// index of its image.
func TestSymmetriesPreserveLegalPlay(t *testing.T) {
	positions := append(randomPositions(t, Alice, 20, 7, 3), randomPositions(t, AliceEP, 20, 7, 4)...)
	for _, p := range positions {
		for _, y := range Symmetries {
			q := y.Position(p)
			if got, want := legalSet(q, Identity), legalSet(p, y); !slices.Equal(got, want) {
				t.Fatalf("%s of %s:\n image moves %v\n mapped moves %v", y, p.FEN(), got, want)
			}
			if p.Status() != q.Status() || p.InCheck() != q.InCheck() || p.Repetitions() != q.Repetitions() {
				t.Fatalf("%s of %s changes the status", y, p.FEN())
			}
			var ml MoveList
			p.LegalMoves(&ml)
			for _, m := range ml.Slice() {
				if got, want := q.PolicyIndex(y.Move(m)), y.PolicyIndex(p.PolicyIndex(m)); got != want {
					t.Fatalf("%s: index of image of %s is %d, want %d", y, m, got, want)
				}
			}
			if y.Position(q).FEN() != p.FEN() {
				t.Fatalf("%s applied twice does not restore %s", y, p.FEN())
			}
		}
	}
}

func TestSymmetriesPreservePerft(t *testing.T) {
	start := NewPosition(Alice)
	if _, err := start.PlayUCI(strings.Fields("e2e4 d7d5 f1e2 d5e4")); err != nil {
		t.Fatal(err)
	}
	positions := []*Position{NewPosition(Alice), start}
	positions = append(positions, randomPositions(t, Alice, 4, 23, 5)...)
	depth := 3
	if testing.Short() {
		depth = 2
	}
	for _, p := range positions {
		want := p.Perft(depth)
		for _, y := range Symmetries[1:] {
			if got := y.Position(p).Perft(depth); got != want {
				t.Errorf("%s of %s: perft(%d) = %d, want %d", y, p.FEN(), depth, got, want)
			}
		}
	}
}

func TestEncodeUnderSymmetries(t *testing.T) {
	a := make([]float32, InputSize)
	b := make([]float32, InputSize)
	for _, p := range randomPositions(t, Alice, 10, 5, 11) {
		p.Encode(a)
		// The board swap exchanges the A and B piece and attack planes,
		// nothing else.
		BoardSwap.Position(p).Encode(b)
		swapped := map[int]int{}
		for _, ours := range [2]bool{true, false} {
			for k := Pawn; k <= King; k++ {
				swapped[PiecePlane(BoardA, ours, k)] = PiecePlane(BoardB, ours, k)
				swapped[PiecePlane(BoardB, ours, k)] = PiecePlane(BoardA, ours, k)
			}
			swapped[AttackPlane(BoardA, ours)] = AttackPlane(BoardB, ours)
			swapped[AttackPlane(BoardB, ours)] = AttackPlane(BoardA, ours)
		}
		for i := 0; i < InputSize; i++ {
			j := i
			if plane, ok := swapped[i/PlaneSize]; ok {
				j = plane*PlaneSize + i%PlaneSize
			}
			if a[i] != b[j] {
				t.Fatalf("board swap of %s: plane value %d differs", p.FEN(), i)
			}
		}
		// The colour flip changes nothing: the planes show the position
		// from the mover's side, whichever colour it has.
		ColourFlip.Position(p).Encode(b)
		if !slices.Equal(a, b) {
			t.Fatalf("colour flip of %s changes the encoding", p.FEN())
		}
	}
}
