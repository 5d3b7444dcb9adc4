package env

import "math/bits"

// Square indexes the 64 squares: a1 = 0, b1 = 1, …, h8 = 63.
type Square int8

// NoSquare marks an absent square (no en-passant target, say).
const NoSquare Square = -1

// File and Rank return the square's file (0 = a) and rank (0 = 1).
func (s Square) File() int { return int(s) & 7 }
func (s Square) Rank() int { return int(s) >> 3 }

// String names the square in algebraic notation ("e4"), or "-" for NoSquare.
func (s Square) String() string {
	if s < 0 || s > 63 {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// SquareAt returns the square on the given file and rank (both 0–7).
func SquareAt(file, rank int) Square { return Square(rank*8 + file) }

// ParseSquare reads an algebraic square name such as "e4".
func ParseSquare(s string) (Square, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, false
	}
	return SquareAt(int(s[0]-'a'), int(s[1]-'1')), true
}

func bit(s Square) uint64 { return 1 << uint(s) }

func popLSB(b *uint64) Square {
	s := Square(bits.TrailingZeros64(*b))
	*b &= *b - 1
	return s
}

func lsb(b uint64) Square { return Square(bits.TrailingZeros64(b)) }

const (
	fileA uint64 = 0x0101010101010101
	fileH        = fileA << 7
	rank1 uint64 = 0xff
	rank2        = rank1 << 8
	rank7        = rank1 << 48
	rank8        = rank1 << 56
)

// Attack tables, filled once at package initialisation and read-only after.
// Filling them costs a fraction of a millisecond (BenchmarkFillAttackTables):
// the magic numbers are fixed constants (magic.go), so nothing is searched
// for at start-up, and every process — a one-line perft, an engine a GUI
// launches — starts at once.
var (
	knightAttacks [64]uint64
	kingAttacks   [64]uint64
	pawnAttacks   [2][64]uint64
	between       [64][64]uint64 // squares strictly between two aligned squares
	rookMagics    [64]magic
	bishopMagics  [64]magic
	rookTable     [rookTableSize]uint64
	bishopTable   [bishopTableSize]uint64
)

// Every square's magic has 64 − n bits of shift for a mask of n squares, so
// a slider's table holds 2^n entries per square: these are the sums.
const (
	rookTableSize   = 102400
	bishopTableSize = 5248
)

type magic struct {
	mask   uint64
	number uint64
	shift  uint8
	offset uint32
}

func (m *magic) index(occ uint64) uint32 {
	return m.offset + uint32(((occ&m.mask)*m.number)>>m.shift)
}

func rookAttacks(s Square, occ uint64) uint64 {
	m := &rookMagics[s]
	return rookTable[m.index(occ)]
}

func bishopAttacks(s Square, occ uint64) uint64 {
	m := &bishopMagics[s]
	return bishopTable[m.index(occ)]
}

func queenAttacks(s Square, occ uint64) uint64 {
	return rookAttacks(s, occ) | bishopAttacks(s, occ)
}

// A direction is a step of (file, rank).
var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// rays holds, per direction and square, the squares a slider reaches from
// the square on an empty board, the edge included.
type rays [4][64]uint64

func raysOf(dirs [4][2]int) *rays {
	var r rays
	for d, dir := range dirs {
		for s := Square(0); s < 64; s++ {
			for f, rk := s.File()+dir[0], s.Rank()+dir[1]; f >= 0 && f < 8 && rk >= 0 && rk < 8; f, rk = f+dir[0], rk+dir[1] {
				r[d][s] |= bit(SquareAt(f, rk))
			}
		}
	}
	return &r
}

// ascending reports whether direction dir climbs the square numbering, so
// that the square nearest s on a ray is its lowest bit.
func ascending(dir [2]int) bool { return dir[0]+8*dir[1] > 0 }

// relevant is ray d (direction dir) from s without its edge square: the squares whose
// occupancy decides how far the ray reaches.
func (r *rays) relevant(dir [2]int, d int, s Square) uint64 {
	ray := r[d][s]
	if ray == 0 {
		return 0
	}
	if ascending(dir) {
		return ray &^ bit(Square(63-bits.LeadingZeros64(ray)))
	}
	return ray &^ bit(Square(bits.TrailingZeros64(ray)))
}

// reach is ray d from s up to and including its first square in occ.
func (r *rays) reach(dir [2]int, d int, s Square, occ uint64) uint64 {
	ray := r[d][s]
	blockers := ray & occ
	if blockers == 0 {
		return ray
	}
	if ascending(dir) {
		return ray ^ r[d][bits.TrailingZeros64(blockers)]
	}
	return ray ^ r[d][63-bits.LeadingZeros64(blockers)]
}

// rayPart is one occupancy of one ray's relevant squares, as the magic
// product it adds to the index and the attacks it contributes.
type rayPart struct{ product, attacks uint64 }

// fillMagics sets each square's magic from its fixed number and writes the
// attacks for every occupancy of its mask into table. The rays' occupancies
// are independent, and their bits disjoint, so an index is the sum of one
// product per ray and an entry the union of one attack set per ray: four
// nested loops over at most 2^6 parts each fill the table with an add, a
// shift and a store per slot, cheap enough for package initialisation.
func fillMagics(magics *[64]magic, numbers *[64]uint64, table []uint64, dirs [4][2]int) {
	r := raysOf(dirs)
	var parts [4][]rayPart
	for d := range parts {
		parts[d] = make([]rayPart, 0, 64)
	}
	offset := 0
	for s := Square(0); s < 64; s++ {
		num := numbers[s]
		var mask uint64
		for d, dir := range dirs {
			rel := r.relevant(dir, d, s)
			mask |= rel
			parts[d] = parts[d][:0]
			// Enumerate every subset of rel (carry-rippler).
			for sub := uint64(0); ; {
				parts[d] = append(parts[d], rayPart{sub * num, r.reach(dir, d, s, sub)})
				if sub = (sub - rel) & rel; sub == 0 {
					break
				}
			}
		}
		n := bits.OnesCount64(mask)
		shift := uint8(64 - n)
		magics[s] = magic{mask: mask, number: num, shift: shift, offset: uint32(offset)}
		slots := table[offset : offset+1<<n]
		for _, p0 := range parts[0] {
			for _, p1 := range parts[1] {
				for _, p2 := range parts[2] {
					prod, att := p0.product+p1.product+p2.product, p0.attacks|p1.attacks|p2.attacks
					for _, p3 := range parts[3] {
						slots[(prod+p3.product)>>shift] = att | p3.attacks
					}
				}
			}
		}
		offset += 1 << n
	}
}

func fillAttackTables() {
	for s := Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank()
		for _, d := range knightJumps {
			if nf, nr := f+d[0], r+d[1]; nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
				knightAttacks[s] |= bit(SquareAt(nf, nr))
			}
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				if nf, nr := f+df, r+dr; (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
					kingAttacks[s] |= bit(SquareAt(nf, nr))
				}
			}
		}
		for _, df := range [2]int{-1, 1} {
			if nf := f + df; nf >= 0 && nf < 8 {
				if r < 7 {
					pawnAttacks[White][s] |= bit(SquareAt(nf, r+1))
				}
				if r > 0 {
					pawnAttacks[Black][s] |= bit(SquareAt(nf, r-1))
				}
			}
		}
	}
	fillMagics(&rookMagics, &rookMagicNumbers, rookTable[:], rookDirs)
	fillMagics(&bishopMagics, &bishopMagicNumbers, bishopTable[:], bishopDirs)
	// Between a and b on a common ray: a's ray up to b, less b.
	for _, dirs := range [2][4][2]int{rookDirs, bishopDirs} {
		r := raysOf(dirs)
		for d := range dirs {
			for a := Square(0); a < 64; a++ {
				for ray := r[d][a]; ray != 0; {
					b := popLSB(&ray)
					between[a][b] = r[d][a] &^ r[d][b] &^ bit(b)
				}
			}
		}
	}
}

// The policy map (policy.go) is built from these tables in a later init,
// so they are filled in init, not on first use.
func init() { fillAttackTables() }
