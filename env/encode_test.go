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
	wantSums := map[int]float32{0: 8, 1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 8, 11: 1, 12: 0, 26: 0, 27: 64, 28: 64, 29: 64, 30: 64, 31: 0, 33: 64}
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
	if x[(12+6+0)*PlaneSize+e4mirror] != 1 {
		t.Error("after e4: their pawn on board B, mirrored, is missing")
	}
	if got := planeSum(x, 0); got != 8 {
		t.Errorf("after e4: our (black) pawns on A sum to %v, want 8", got)
	}
	if x[(0)*PlaneSize+int(SquareAt(4, 1))] != 1 {
		t.Error("after e4: black's e7 pawn should be at e2 from black's view")
	}
	if planeSum(x, 26) != 64 || planeSum(x, 31) != 0 {
		t.Errorf("after e4: colour plane %v, halfmove plane %v", planeSum(x, 26), planeSum(x, 31))
	}
	// A knight move starts the halfmove clock.
	if _, err := p.PlayUCI([]string{"g8f6"}); err != nil {
		t.Fatal(err)
	}
	p.Encode(x)
	if got := x[31*PlaneSize+17]; got != 0.01 {
		t.Errorf("after Nf6: halfmove plane holds %v, want 0.01", got)
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
		if planeSum(x, 24) != want1 || planeSum(x, 25) != want2 {
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
