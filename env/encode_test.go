package env

import (
	"strings"
	"testing"
)

func planeSum(x []float32, plane int) float32 {
	var s float32
	for _, v := range x[plane*PlaneSize : (plane+1)*PlaneSize] {
		s += v
	}
	return s
}

func TestEncodeStartAndAfterE4(t *testing.T) {
	x := make([]float32, InputSize)
	p := NewPosition(Alice)
	p.Encode(x)
	// White attacks 22 squares of board A at the start (the third rank
	// and 14 squares behind it), as does Black; nothing stands on B.
	wantSums := map[int]float32{
		0: 8, 1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 8, 11: 1, 12: 0,
		24: 22, 25: 22, 26: 0, 27: 0,
		PlaneCastling: 64, PlaneCastling + 1: 64, PlaneCastling + 2: 64, PlaneCastling + 3: 64,
		PlaneHalfmove: 0, PlaneOnes: 64,
	}
	for plane, want := range wantSums {
		if got := planeSum(x, plane); got != want {
			t.Errorf("start: plane %d sums to %v, want %v", plane, got, want)
		}
	}
	if x[0*PlaneSize+int(SquareAt(4, 1))] != 1 || x[5*PlaneSize+4] != 1 {
		t.Error("start: our e2 pawn or e1 king is missing")
	}

	// After 1.e4 Black moves: the perspective flips, the pawn is on B.
	if _, err := p.PlayUCI([]string{"e2e4"}); err != nil {
		t.Fatal(err)
	}
	p.Encode(x)
	e4mirror := int(SquareAt(4, 3) ^ 56)
	if x[PiecePlane(BoardB, false, Pawn)*PlaneSize+e4mirror] != 1 {
		t.Error("after e4: their pawn on board B, mirrored, is missing")
	}
	if got := planeSum(x, 0); got != 8 {
		t.Errorf("after e4: our (black) pawns on A sum to %v, want 8", got)
	}
	if x[(0)*PlaneSize+int(SquareAt(4, 1))] != 1 {
		t.Error("after e4: black's e7 pawn should be at e2 from black's view")
	}
	// Their pawn on B attacks d5 and f5 there: d4 and f4 from Black's view.
	if got := planeSum(x, AttackPlane(BoardB, false)); got != 2 ||
		x[AttackPlane(BoardB, false)*PlaneSize+int(SquareAt(3, 3))] != 1 || x[AttackPlane(BoardB, false)*PlaneSize+int(SquareAt(5, 3))] != 1 {
		t.Errorf("after e4: their attacks on B sum to %v, want d4 and f4", got)
	}
	if planeSum(x, PlaneHalfmove) != 0 {
		t.Errorf("after e4: halfmove plane %v", planeSum(x, PlaneHalfmove))
	}
	// A knight move starts the halfmove clock.
	if _, err := p.PlayUCI([]string{"g8f6"}); err != nil {
		t.Fatal(err)
	}
	p.Encode(x)
	if got := x[PlaneHalfmove*PlaneSize+17]; got != 0.01 {
		t.Errorf("after Nf6: halfmove plane holds %v, want 0.01", got)
	}
}

// TestEncodeAttackPlanesMatchAttackTest checks the attack planes square by
// square against the generator's own attack test (another implementation:
// one square at a time, from the square's side), on random positions of
// every variant the network covers.
func TestEncodeAttackPlanesMatchAttackTest(t *testing.T) {
	x := make([]float32, InputSize)
	checked := 0
	for _, v := range networkVariants() {
		for _, p := range randomPositions(t, v, 20, 5, 13) {
			p.Encode(x)
			us := p.SideToMove()
			for b := BoardA; b <= BoardB; b++ {
				mask := p.boardMask(b)
				occ := (p.colours[White] | p.colours[Black]) & mask
				for _, c := range [2]Colour{us, us.Other()} {
					plane := AttackPlane(b, c == us)
					for sq := Square(0); sq < 64; sq++ {
						view := sq
						if us == Black {
							view ^= 56
						}
						// Off the variant's boards (alice-mini's files
						// e–h) no square is shown attacked.
						want := v.onBoard(sq) && p.attacked(sq, occ, p.colours[c]&mask, c)
						if got := x[plane*PlaneSize+int(view)] == 1; got != want {
							t.Fatalf("%s: %s attacks on board %s at %s: plane says %v, attack test %v", p.FEN(), c, b, sq, got, want)
						}
						checked++
					}
				}
			}
		}
	}
	if checked < 50000 {
		t.Fatalf("only %d squares checked", checked)
	}
}

func TestEncodeRepetitionPlanes(t *testing.T) {
	p := NewPosition(Alice)
	x := make([]float32, InputSize)
	shuffle := strings.Fields("g1f3 g8f6 f3g1 f6g8")
	for round := 0; round <= 2; round++ {
		p.Encode(x)
		want1, want2 := float32(0), float32(0)
		if round >= 1 {
			want1 = 64
		}
		if round >= 2 {
			want2 = 64
		}
		if planeSum(x, PlaneRepetitions) != want1 || planeSum(x, PlaneRepetitions+1) != want2 {
			t.Fatalf("round %d: repetition planes %v %v", round, planeSum(x, 24), planeSum(x, 25))
		}
		if round < 2 {
			if _, err := p.PlayUCI(shuffle); err != nil {
				t.Fatal(err)
			}
		}
	}
	if p.Status() != Threefold {
		t.Fatalf("status %s, want threefold", p.Status())
	}
}

func BenchmarkEncode(b *testing.B) {
	p := NewPosition(Alice)
	if _, err := p.PlayUCI(strings.Fields("e2e4 d7d5 f1e2 d5e4")); err != nil {
		b.Fatal(err)
	}
	x := make([]float32, InputSize)
	b.ReportAllocs()
	for b.Loop() {
		p.Encode(x)
	}
}
