package env

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// orderedGame plays a random game of variant v whose moves are drawn from
// the legal moves sorted by their UCI names, so that the positions depend
// on the rules and the seed only, not on the generator's move order. It
// returns the positions along it (clones, with history), the final one
// included.
func orderedGame(v Variant, plies int, seed uint64) []*Position {
	rng := rand.New(rand.NewPCG(seed, 7))
	p := NewPosition(v)
	out := []*Position{p.Clone()}
	for range plies {
		var ml MoveList
		p.LegalMoves(&ml)
		if ml.N == 0 {
			break
		}
		moves := slices.Clone(ml.Slice())
		slices.SortFunc(moves, func(a, b Move) int {
			switch ua, ub := a.UCI(), b.UCI(); {
			case ua < ub:
				return -1
			case ua > ub:
				return 1
			}
			return 0
		})
		p.MakeMove(moves[rng.IntN(len(moves))])
		out = append(out, p.Clone())
	}
	return out
}

// encodingDigest hashes the input planes and legal masks of positions.
func encodingDigest(positions []*Position) uint64 {
	h := fnv.New64a()
	var x, mask []float32
	var b [4]byte
	put := func(f float32) {
		u := math.Float32bits(f)
		b[0], b[1], b[2], b[3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
		h.Write(b[:])
	}
	for _, p := range positions {
		x, mask = make([]float32, p.Variant().InputSize()), make([]float32, p.Variant().PolicySize())
		p.Encode(x)
		p.LegalMask(mask)
		for _, f := range x {
			put(f)
		}
		for _, f := range mask {
			put(f)
		}
	}
	return h.Sum64()
}

// digestPositions are the positions a digest covers: six ordered random
// games of v, a knight shuffle from the start (repetitions), and fens.
func digestPositions(t *testing.T, v Variant, shuffle string, fens ...string) []*Position {
	t.Helper()
	var out []*Position
	for g := range uint64(6) {
		out = append(out, orderedGame(v, 120, 40+g)...)
	}
	p := NewPosition(v)
	for range 2 {
		for _, m := range strings.Fields(shuffle) {
			if _, err := p.PlayUCI([]string{m}); err != nil {
				t.Fatal(err)
			}
			out = append(out, p.Clone())
		}
	}
	if p.Repetitions() != 2 {
		t.Fatalf("%s: the shuffle repeats the start %d times, want 2", v.Name, p.Repetitions())
	}
	for _, fen := range fens {
		out = append(out, mustFEN(t, fen, v))
	}
	return out
}

// TestAliceEncodingUnchanged pins the input planes and legal masks of
// alice and alice-ep, bit for bit: the shipped built-in network (and every
// checkpoint trained so far) reads exactly these, so admitting other
// variants to the network must not move a single value.
func TestAliceEncodingUnchanged(t *testing.T) {
	for _, c := range []struct {
		v    Variant
		fens []string
		want uint64
	}{
		{Alice, []string{"r3k2r/pppq1ppp/2n|b1n2/3p|p3/3|P|P3/2N1|BN2/PPPQ1PPP/R3K2R b Qk - 7 12"}, 0xf61b0ab65dfdc735},
		{AliceEP, []string{"4k3/2p5/8/3P|pP2/8/8/8/4K3 w - e6 0 2"}, 0x47e0dcfa06f26f8},
	} {
		if got := encodingDigest(digestPositions(t, c.v, "g1f3 g8f6 f3g1 f6g8", c.fens...)); got != c.want {
			t.Errorf("%s: encoding digest %#x, want %#x", c.v.Name, got, c.want)
		}
	}
}

// TestPlaneLayoutsOfVariants pins the input planes' layout of every
// variant (planes.go): the table of two boards for all but alice-3, whose
// third board's planes come after board B's.
func TestPlaneLayoutsOfVariants(t *testing.T) {
	for _, v := range Variants() {
		l := v.Planes()
		type offsets struct{ num, attack, reps, castle, half, ep, ones int }
		want := offsets{NumPlanes, PlaneAttacks, PlaneRepetitions, PlaneCastling, PlaneHalfmove, PlaneEnPassant, PlaneOnes}
		if v == Alice3 {
			want = offsets{51, 36, 42, 44, 48, 49, 50}
		}
		got := offsets{l.Num(), l.Attack(BoardA, true), l.Repetitions(), l.Castling(), l.Halfmove(), l.EnPassant(), l.Ones()}
		if got != want || v.NumPlanes() != want.num || v.InputSize() != want.num*PlaneSize {
			t.Errorf("%s: plane offsets %+v, want %+v", v.Name, got, want)
		}
		// Every plane has one meaning: pieces and attacks of each board,
		// then the shared planes, with no gap.
		seen := map[int]bool{}
		mark := func(plane int) {
			if seen[plane] || plane < 0 || plane >= l.Num() {
				t.Fatalf("%s: plane %d used twice or out of range", v.Name, plane)
			}
			seen[plane] = true
		}
		for b := range Board(v.Boards()) {
			for _, ours := range []bool{true, false} {
				for k := Pawn; k <= King; k++ {
					mark(l.Piece(b, ours, k))
				}
				mark(l.Attack(b, ours))
			}
		}
		for i := range 2 {
			mark(l.Repetitions() + i)
		}
		for i := range 4 {
			mark(l.Castling() + i)
		}
		mark(l.Halfmove())
		mark(l.EnPassant())
		mark(l.Ones())
		if len(seen) != l.Num() {
			t.Errorf("%s: %d of %d planes have a meaning", v.Name, len(seen), l.Num())
		}
	}
}

// offBoardValues returns the first plane and square off v's boards whose
// value is not 0, or -1.
func offBoardValues(v Variant, x []float32) (plane, sq int) {
	for plane := range NumPlanes {
		for sq := range PlaneSize {
			if !v.onBoard(Square(sq)) && x[plane*PlaneSize+sq] != 0 {
				return plane, sq
			}
		}
	}
	return -1, -1
}

// TestEncodeMiniStart pins alice-mini's start: the army of 4 files on A,
// the constant plane of ones on files a–d only, no castling planes.
func TestEncodeMiniStart(t *testing.T) {
	x := make([]float32, InputSize)
	p := NewPosition(AliceMini)
	p.Encode(x)
	// White attacks all 16 squares of ranks 1–4 of board A (the pawns
	// a4–d4, the pieces their own ranks and the third).
	wantSums := map[int]float32{
		PiecePlane(BoardA, true, Pawn): 4, PiecePlane(BoardA, true, Knight): 2, PiecePlane(BoardA, true, Bishop): 2,
		PiecePlane(BoardA, true, Rook): 2, PiecePlane(BoardA, true, Queen): 1, PiecePlane(BoardA, true, King): 1,
		PiecePlane(BoardA, false, Pawn): 4, PiecePlane(BoardA, false, King): 1, PiecePlane(BoardB, true, Pawn): 0,
		AttackPlane(BoardA, true): 16, AttackPlane(BoardA, false): 16, AttackPlane(BoardB, true): 0, AttackPlane(BoardB, false): 0,
		PlaneRepetitions: 0, PlaneCastling: 0, PlaneCastling + 1: 0, PlaneCastling + 2: 0, PlaneCastling + 3: 0,
		PlaneHalfmove: 0, PlaneEnPassant: 0, PlaneOnes: 32,
	}
	for plane, want := range wantSums {
		if got := planeSum(x, plane); got != want {
			t.Errorf("mini start: plane %d sums to %v, want %v", plane, got, want)
		}
	}
	if x[PiecePlane(BoardA, true, King)*PlaneSize+int(SquareAt(2, 0))] != 1 {
		t.Error("mini start: our king is not on c1")
	}
	for sq := range PlaneSize {
		want := float32(0)
		if sq%8 < 4 {
			want = 1
		}
		if x[PlaneOnes*PlaneSize+sq] != want {
			t.Fatalf("mini start: the plane of ones holds %v at %s", x[PlaneOnes*PlaneSize+sq], Square(sq))
		}
	}
	// After a knight move Black is to move: its own army is "ours", still
	// in files a–d (the mirror keeps files), and the halfmove plane holds
	// 0.01 on the board only.
	if _, err := p.PlayUCI([]string{"a2b4"}); err != nil {
		t.Fatal(err)
	}
	p.Encode(x)
	if planeSum(x, PiecePlane(BoardA, true, Pawn)) != 4 || x[PiecePlane(BoardB, false, Knight)*PlaneSize+int(SquareAt(1, 3)^56)] != 1 {
		t.Error("after Nb4: the planes do not show Black's view")
	}
	if got := planeSum(x, PlaneHalfmove); math.Abs(float64(got)-0.32) > 1e-5 {
		t.Errorf("after Nb4: halfmove plane sums to %v, want 32 × 0.01", got)
	}
	if plane, sq := offBoardValues(AliceMini, x); plane >= 0 {
		t.Errorf("after Nb4: plane %d is not 0 at %s, off the board", plane, Square(sq))
	}
}

// TestEncodeBlackBStart: alice-black-b's start shows Black's army on board
// B, and from Black's side (after White's first move) its own army on B.
func TestEncodeBlackBStart(t *testing.T) {
	x := make([]float32, InputSize)
	p := NewPosition(AliceBlackB)
	p.Encode(x)
	for plane, want := range map[int]float32{
		PiecePlane(BoardA, true, Pawn): 8, PiecePlane(BoardA, false, Pawn): 0,
		PiecePlane(BoardB, false, Pawn): 8, PiecePlane(BoardB, false, King): 1, PiecePlane(BoardB, true, Pawn): 0,
		AttackPlane(BoardA, true): 22, AttackPlane(BoardB, false): 22, AttackPlane(BoardA, false): 0, AttackPlane(BoardB, true): 0,
		PlaneCastling: 64, PlaneCastling + 3: 64, PlaneOnes: 64,
	} {
		if got := planeSum(x, plane); got != want {
			t.Errorf("black-b start: plane %d sums to %v, want %v", plane, got, want)
		}
	}
	if _, err := p.PlayUCI([]string{"e2e4"}); err != nil {
		t.Fatal(err)
	}
	p.Encode(x)
	if planeSum(x, PiecePlane(BoardB, true, Pawn)) != 8 || planeSum(x, PiecePlane(BoardA, false, Pawn)) != 7 || planeSum(x, PiecePlane(BoardB, false, Pawn)) != 1 {
		t.Error("black-b after e4: Black's pawns should be ours on B, White's 7 on A and 1 on B")
	}
}

// TestEncodeMiniOffBoardIsZero: along random alice-mini games (with
// repetitions and a running halfmove clock), every plane is 0 on files
// e–h, the constant planes are 1 (or the clock) on all 32 squares of the
// board or 0 on all, and a snapshot encodes as its position does.
func TestEncodeMiniOffBoardIsZero(t *testing.T) {
	x := make([]float32, InputSize)
	y := make([]float32, InputSize)
	positions := randomPositions(t, AliceMini, 30, 2, 21)
	p := NewPosition(AliceMini)
	for range 2 {
		for _, m := range strings.Fields("a2b4 a7b5 b4a2 b5a7") {
			if _, err := p.PlayUCI([]string{m}); err != nil {
				t.Fatal(err)
			}
			positions = append(positions, p.Clone())
		}
	}
	reps, clocks := 0, 0
	for _, p := range positions {
		p.Encode(x)
		if plane, sq := offBoardValues(AliceMini, x); plane >= 0 {
			t.Fatalf("%s: plane %d is %v at %s, off the board", p.FEN(), plane, x[plane*PlaneSize+sq], Square(sq))
		}
		for plane := PlaneRepetitions; plane < NumPlanes; plane++ {
			if plane == PlaneEnPassant {
				continue
			}
			on := x[plane*PlaneSize]
			for sq := range PlaneSize {
				if AliceMini.onBoard(Square(sq)) && x[plane*PlaneSize+sq] != on {
					t.Fatalf("%s: constant plane %d is not constant on the board", p.FEN(), plane)
				}
			}
		}
		if x[PlaneRepetitions*PlaneSize] != 0 {
			reps++
		}
		if x[PlaneHalfmove*PlaneSize] != 0 {
			clocks++
		}
		sn := p.Snapshot()
		sn.Encode(y)
		if !slices.Equal(x, y) {
			t.Fatalf("%s: the snapshot encodes differently", p.FEN())
		}
	}
	if reps == 0 || clocks == 0 {
		t.Errorf("%d positions with repetitions, %d with a halfmove clock: the test saw too few", reps, clocks)
	}
}

// TestLegalMaskNamesTheLegalMovesMiniBlackB: in random games of
// alice-mini and alice-black-b the legal mask holds exactly the legal
// moves, each index decodes (PolicyLayout.Move, mirrored for Black) to its
// move and reads back as it with ParseUCI, and alice-mini's indices never
// leave files a–d.
func TestLegalMaskNamesTheLegalMovesMiniBlackB(t *testing.T) {
	mask := make([]float32, PolicySize)
	for _, v := range []Variant{AliceMini, AliceBlackB} {
		l := v.Policy()
		moves := 0
		for _, p := range randomPositions(t, v, 40, 1, 31) {
			var ml MoveList
			p.LegalMoves(&ml)
			if n := p.LegalMask(mask); n != ml.N {
				t.Fatalf("%s: LegalMask counted %d moves, want %d", p.FEN(), n, ml.N)
			}
			want := map[int]bool{}
			for _, m := range ml.Slice() {
				i := p.PolicyIndex(m)
				if i < 0 || want[i] {
					t.Fatalf("%s: move %s has index %d (or shares it)", p.FEN(), m.UCI(), i)
				}
				want[i] = true
				from, to, promo, ok := l.Move(i)
				if p.SideToMove() == Black {
					from, to = from^56, to^56
				}
				if !ok || !v.onBoard(from) || !v.onBoard(to) {
					t.Fatalf("%s: index %d of %s decodes to %s%s (ok %v)", p.FEN(), i, m.UCI(), from, to, ok)
				}
				uci := from.String() + to.String()
				if promo != NoKind {
					uci += string(promo.Letter())
				} else if m.Promotion() == Queen {
					uci += "q"
				}
				back, err := p.ParseUCI(uci)
				if err != nil || back != m {
					t.Fatalf("%s: index %d reads back as %s (%v), want %s", p.FEN(), i, uci, err, m.UCI())
				}
				moves++
			}
			for i, x := range mask {
				if (x == 1) != want[i] || x != 0 && x != 1 {
					t.Fatalf("%s: mask[%d] = %v, legal %v", p.FEN(), i, x, want[i])
				}
			}
		}
		if moves < 20000 {
			t.Errorf("%s: only %d moves checked", v.Name, moves)
		}
	}
}

// gameValue is the exact value (1 win, 0 draw, -1 loss for the side to
// move) of p searched to depth plies, 0 at the horizon: a function of the
// rules alone, which a symmetry of the rules must keep.
func gameValue(p *Position, depth int) int {
	if st := p.Status(); st.IsOver() {
		if st == Checkmate {
			return -1
		}
		return 0
	}
	if depth == 0 {
		return 0
	}
	var ml MoveList
	p.LegalMoves(&ml)
	best := -1
	for _, m := range ml.Slice() {
		p.MakeMove(m)
		best = max(best, -gameValue(p, depth-1))
		p.UnmakeMove()
		if best == 1 {
			break
		}
	}
	return best
}

// TestAugmentationKeepsValueMiniBlackB checks the board swap that training
// draws samples under (train/replay), and the flip with the swap, on
// alice-mini and alice-black-b. What makes an augmentation valid is that
// it is a symmetry of the rules (TestSymmetriesPreserveLegalPlay: every
// variant's rules keep every board permutation), not of the start
// position: alice-black-b's start is kept only by the flip with the swap,
// yet the swap alone maps each of its positions to one with the same
// value, move for move. So the image's value is the original's, its legal
// mask is the original's mask with each index mapped (the identity,
// Symmetry.PolicyIndex), its planes are the original's with boards A and B
// exchanged, and a snapshot transforms as its position does.
func TestAugmentationKeepsValueMiniBlackB(t *testing.T) {
	x := make([]float32, InputSize)
	y := make([]float32, InputSize)
	mask := make([]float32, PolicySize)
	imgMask := make([]float32, PolicySize)
	imgPlanes := make([]float32, InputSize)
	swapped := func(plane int) int {
		switch {
		case plane < PlaneAttacks:
			return (plane + 12) % 24
		case plane < PlaneRepetitions:
			return PlaneAttacks + (plane-PlaneAttacks+2)%4
		}
		return plane
	}
	for _, v := range []Variant{AliceMini, AliceBlackB} {
		decided := 0
		for i, p := range randomPositions(t, v, 16, 4, 41) {
			p.Encode(x)
			n := p.LegalMask(mask)
			value := 0
			if i%4 == 0 {
				value = gameValue(p, 2)
			}
			for _, s := range []Symmetry{BoardSwap, FlipAndSwap} {
				q := s.Position(p)
				if m := q.LegalMask(imgMask); m != n {
					t.Fatalf("%s: %s of %s has %d legal moves, want %d", v.Name, s, p.FEN(), m, n)
				}
				for j := range mask {
					if imgMask[s.PolicyIndex(v.Policy(), j)] != mask[j] {
						t.Fatalf("%s: %s of %s: mask index %d not mapped", v.Name, s, p.FEN(), j)
					}
				}
				q.Encode(y)
				for j := range InputSize {
					if x[j] != y[swapped(j/PlaneSize)*PlaneSize+j%PlaneSize] {
						t.Fatalf("%s: %s of %s: planes are not the board swap's (value %d)", v.Name, s, p.FEN(), j)
					}
				}
				sn := p.Snapshot()
				img := sn.Transform(s)
				img.Encode(imgPlanes)
				if !slices.Equal(imgPlanes, y) {
					t.Fatalf("%s: %s of the snapshot of %s encodes unlike the image position", v.Name, s, p.FEN())
				}
				if img.LegalMask(v, imgMask); !slices.Equal(imgMask, mask) {
					t.Fatalf("%s: %s of the snapshot of %s: another legal mask", v.Name, s, p.FEN())
				}
				if i%4 == 0 {
					if got := gameValue(q, 2); got != value {
						t.Fatalf("%s: %s of %s has value %d, want %d", v.Name, s, p.FEN(), got, value)
					}
					if value != 0 {
						decided++
					}
				}
			}
		}
		if decided == 0 {
			t.Logf("%s: no position with a decided depth-2 value was tried", v.Name)
		}
	}
}

// TestEncodeAllocatesNothing: encoding stays free of allocations on every
// variant the network covers, the region-limited planes included.
func TestEncodeAllocatesNothing(t *testing.T) {
	for _, v := range Variants() {
		x := make([]float32, v.InputSize())
		p := randomPositions(t, v, 1, 9, 3)[2]
		sn := p.Snapshot()
		if a := testing.AllocsPerRun(50, func() { p.Encode(x) }); a != 0 {
			t.Errorf("%s: Position.Encode: %v allocations", v.Name, a)
		}
		if a := testing.AllocsPerRun(50, func() { sn.Encode(x) }); a != 0 {
			t.Errorf("%s: Snapshot.Encode: %v allocations", v.Name, a)
		}
	}
}
