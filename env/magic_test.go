package env

import (
	"math/bits"
	"testing"
)

// slidingAttacks computes slider attacks the slow way, square by square: the
// reference the magic tables are checked against.
func slidingAttacks(s Square, occ uint64, dirs [4][2]int) uint64 {
	var a uint64
	for _, d := range dirs {
		for f, r := s.File()+d[0], s.Rank()+d[1]; f >= 0 && f < 8 && r >= 0 && r < 8; f, r = f+d[0], r+d[1] {
			a |= bit(SquareAt(f, r))
			if occ&bit(SquareAt(f, r)) != 0 {
				break
			}
		}
	}
	return a
}

// referenceMask is the squares whose occupancy matters to a slider on s,
// walked square by square: each ray without its edge square.
func referenceMask(s Square, dirs [4][2]int) uint64 {
	var m uint64
	for _, d := range dirs {
		for f, r := s.File()+d[0], s.Rank()+d[1]; ; f, r = f+d[0], r+d[1] {
			if nf, nr := f+d[0], r+d[1]; nf < 0 || nf > 7 || nr < 0 || nr > 7 {
				break
			}
			m |= bit(SquareAt(f, r))
		}
	}
	return m
}

// subsets returns every subset of mask (carry-rippler enumeration).
func subsets(mask uint64) []uint64 {
	out := make([]uint64, 0, 1<<bits.OnesCount64(mask))
	for sub := uint64(0); ; {
		out = append(out, sub)
		if sub = (sub - mask) & mask; sub == 0 {
			return out
		}
	}
}

// collision returns two occupancies of mask that number sends to one slot
// of 2^n but that give a slider on s different attacks, or ok = true if
// there are none: number is a valid magic for s.
func collision(s Square, mask, number uint64, dirs [4][2]int) (occA, occB uint64, ok bool) {
	shift := 64 - bits.OnesCount64(mask)
	seen := make(map[uint64]uint64)
	for _, occ := range subsets(mask) {
		idx := (occ * number) >> shift
		if prev, taken := seen[idx]; taken && slidingAttacks(s, prev, dirs) != slidingAttacks(s, occ, dirs) {
			return prev, occ, false
		}
		seen[idx] = occ
	}
	return 0, 0, true
}

// findMagic searches a magic number for s by trial over sparse random
// candidates, as the fixed numbers in magic.go were found.
func findMagic(s Square, dirs [4][2]int, rng *splitmix64) uint64 {
	mask := referenceMask(s, dirs)
	for {
		num := rng.next() & rng.next() & rng.next()
		if bits.OnesCount64((mask*num)>>56) < 6 {
			continue
		}
		if _, _, ok := collision(s, mask, num, dirs); ok {
			return num
		}
	}
}

var sliders = []struct {
	name    string
	dirs    [4][2]int
	numbers *[64]uint64
	magics  *[64]magic
	size    int
	lookup  func(Square, uint64) uint64
}{
	{"rook", rookDirs, &rookMagicNumbers, &rookMagics, rookTableSize, rookAttacks},
	{"bishop", bishopDirs, &bishopMagicNumbers, &bishopMagics, bishopTableSize, bishopAttacks},
}

// TestMagicNumbers checks that every fixed magic number separates every
// pair of occupancies with different attacks, and that the tables are laid
// out square after square with 2^n slots each.
func TestMagicNumbers(t *testing.T) {
	for _, sl := range sliders {
		offset := 0
		for s := Square(0); s < 64; s++ {
			mask := referenceMask(s, sl.dirs)
			m := sl.magics[s]
			n := bits.OnesCount64(mask)
			if m.mask != mask || m.number != sl.numbers[s] || int(m.shift) != 64-n || int(m.offset) != offset {
				t.Errorf("%s %v: magic %+v, want mask %#x, number %#x, shift %d, offset %d",
					sl.name, s, m, mask, sl.numbers[s], 64-n, offset)
			}
			offset += 1 << n
			if a, b, ok := collision(s, mask, sl.numbers[s], sl.dirs); !ok {
				rng := splitmix64(0x416c696365 + uint64(s))
				t.Errorf("%s %v: magic %#016x sends occupancies %#x and %#x, whose attacks differ, to one slot; %#016x would do",
					sl.name, s, sl.numbers[s], a, b, findMagic(s, sl.dirs, &rng))
			}
		}
		if offset != sl.size {
			t.Errorf("%s tables need %d slots, the table has %d", sl.name, offset, sl.size)
		}
	}
}

// TestSliderAttacks looks up every occupancy of every square's mask, with
// pieces outside the mask added, and compares it with the slow reference.
func TestSliderAttacks(t *testing.T) {
	rng := splitmix64(7)
	for _, sl := range sliders {
		for s := Square(0); s < 64; s++ {
			mask := referenceMask(s, sl.dirs)
			for _, occ := range subsets(mask) {
				occ |= rng.next() &^ mask
				if got, want := sl.lookup(s, occ), slidingAttacks(s, occ, sl.dirs); got != want {
					t.Fatalf("%s on %v, occupancy %#x: attacks %#x, want %#x", sl.name, s, occ, got, want)
				}
			}
		}
	}
}

func TestBetween(t *testing.T) {
	for a := Square(0); a < 64; a++ {
		for b := Square(0); b < 64; b++ {
			var want uint64
			for _, dirs := range [2][4][2]int{rookDirs, bishopDirs} {
				if slidingAttacks(a, 0, dirs)&bit(b) != 0 {
					want = slidingAttacks(a, bit(b), dirs) & slidingAttacks(b, bit(a), dirs)
				}
			}
			if between[a][b] != want {
				t.Errorf("between(%v, %v) = %#x, want %#x", a, b, between[a][b], want)
			}
		}
	}
}

func TestLeaperAttacks(t *testing.T) {
	tests := []struct {
		name string
		got  uint64
		want []string
	}{
		{"knight a1", knightAttacks[SquareAt(0, 0)], []string{"b3", "c2"}},
		{"knight e4", knightAttacks[SquareAt(4, 3)], []string{"d2", "f2", "c3", "g3", "c5", "g5", "d6", "f6"}},
		{"king h8", kingAttacks[SquareAt(7, 7)], []string{"g7", "h7", "g8"}},
		{"white pawn a2", pawnAttacks[White][SquareAt(0, 1)], []string{"b3"}},
		{"black pawn e7", pawnAttacks[Black][SquareAt(4, 6)], []string{"d6", "f6"}},
		{"white pawn c8", pawnAttacks[White][SquareAt(2, 7)], nil},
	}
	for _, tt := range tests {
		var want uint64
		for _, name := range tt.want {
			sq, _ := ParseSquare(name)
			want |= bit(sq)
		}
		if tt.got != want {
			t.Errorf("%s: attacks %#x, want %#x", tt.name, tt.got, want)
		}
	}
}

// BenchmarkFillAttackTables measures what package initialisation pays for
// the attack tables.
func BenchmarkFillAttackTables(b *testing.B) {
	for b.Loop() {
		fillAttackTables()
	}
}
