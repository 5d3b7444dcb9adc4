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

// TestEncodePiecesAndAttacksMatchReference checks the piece and attack
// planes square by square, board by board, against the deliberately naive
// reference's boards (another implementation: one square at a time, from
// the square's side), on random positions of every variant: the fast
// path's two-board encoding and the general path's one block per board.
func TestEncodePiecesAndAttacksMatchReference(t *testing.T) {
	checked := 0
	for _, v := range Variants() {
		x := make([]float32, v.InputSize())
		l := v.Planes()
		for _, p := range randomPositions(t, v, 20, 5, 13) {
			p.Encode(x)
			q := refFromPosition(p)
			us := p.SideToMove()
			for b := range Board(v.Boards()) {
				for _, c := range [2]Colour{us, us.Other()} {
					for sq := Square(0); sq < 64; sq++ {
						view := int(sq)
						if us == Black {
							view ^= 56
						}
						s := refSq{sq.File(), sq.Rank()}
						// Off the variant's boards (alice-mini's files
						// e–h) nothing is shown.
						want := v.onBoard(sq) && refAttackedBy(q, int(b), s, c)
						if got := x[l.Attack(b, c == us)*PlaneSize+view] == 1; got != want {
							t.Fatalf("%s: %s attacks on board %s at %s: plane says %v, reference %v", p.FEN(), c, b, sq, got, want)
						}
						for k := Pawn; k <= King; k++ {
							want := v.onBoard(sq) && q.at(int(b), s) == MakePiece(c, k)
							if got := x[l.Piece(b, c == us, k)*PlaneSize+view] == 1; got != want {
								t.Fatalf("%s: %s kind %d on board %s at %s: plane says %v, reference %v", p.FEN(), c, k, b, sq, got, want)
							}
						}
						checked++
					}
				}
			}
		}
	}
	if checked < 100000 {
		t.Fatalf("only %d squares checked", checked)
	}
}

// refAttackedBy reports whether a man of colour by on board b of the
// reference position attacks square s in the ordinary chess sense.
func refAttackedBy(q *refPos, b int, s refSq, by Colour) bool {
	for r := 0; r < 8; r++ {
		for f := 0; f < q.rules.files; f++ {
			if pc := q.men[b][r][f]; pc != NoPiece && pc.Colour() == by && q.couldCapture(b, refSq{f, r}, s) {
				return true
			}
		}
	}
	return false
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

// BenchmarkEncodeVariants encodes a position 20 plies into a random game
// of each variant, with its legal mask: what the search pays per leaf.
func BenchmarkEncodeVariants(b *testing.B) {
	for _, v := range Variants() {
		b.Run(v.Name, func(b *testing.B) {
			p := randomPositions(b, v, 1, 20, 5)[1]
			x, mask := make([]float32, v.InputSize()), make([]float32, v.PolicySize())
			b.ReportAllocs()
			for b.Loop() {
				p.Encode(x)
				p.LegalMask(mask)
			}
		})
	}
}
