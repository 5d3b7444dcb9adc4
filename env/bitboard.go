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
var (
	knightAttacks [64]uint64
	kingAttacks   [64]uint64
	pawnAttacks   [2][64]uint64
	between       [64][64]uint64 // squares strictly between two aligned squares
	line          [64][64]uint64 // the whole line through two aligned squares
	rookMagics    [64]magic
	bishopMagics  [64]magic
	rookTable     []uint64
	bishopTable   []uint64
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

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

// slidingAttacks computes slider attacks the slow way; it seeds the magic
// tables and serves as their reference in tests.
func slidingAttacks(s Square, occ uint64, dirs [4][2]int) uint64 {
	var a uint64
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			sq := SquareAt(f, r)
			a |= bit(sq)
			if occ&bit(sq) != 0 {
				break
			}
			f += d[0]
			r += d[1]
		}
	}
	return a
}

// relevantMask is the set of squares whose occupancy changes a slider's
// attacks from s: its rays without their last square.
func relevantMask(s Square, dirs [4][2]int) uint64 {
	var m uint64
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for {
			nf, nr := f+d[0], r+d[1]
			if nf < 0 || nf > 7 || nr < 0 || nr > 7 {
				break
			}
			m |= bit(SquareAt(f, r))
			f, r = nf, nr
		}
	}
	return m
}

// splitmix64 is the deterministic generator behind magic numbers and
// Zobrist keys: the same tables on every run and every machine.
type splitmix64 uint64

func (x *splitmix64) next() uint64 {
	*x += 0x9e3779b97f4a7c15
	z := uint64(*x)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func initMagics(magics *[64]magic, dirs [4][2]int, rng *splitmix64) []uint64 {
	var table []uint64
	var occs, atts [4096]uint64
	var epoch [4096]uint32
	var used [4096]uint64
	cur := uint32(0)
	for s := Square(0); s < 64; s++ {
		mask := relevantMask(s, dirs)
		n := bits.OnesCount64(mask)
		size := 1 << n
		// Enumerate every subset of the mask (carry-rippler).
		var sub uint64
		for i := 0; i < size; i++ {
			occs[i] = sub
			atts[i] = slidingAttacks(s, sub, dirs)
			sub = (sub - mask) & mask
		}
		m := &magics[s]
		m.mask = mask
		m.shift = uint8(64 - n)
		m.offset = uint32(len(table))
		for {
			num := rng.next() & rng.next() & rng.next()
			if bits.OnesCount64((mask*num)>>56) < 6 {
				continue
			}
			cur++
			ok := true
			for i := 0; i < size; i++ {
				idx := ((occs[i] & mask) * num) >> m.shift
				if epoch[idx] != cur {
					epoch[idx] = cur
					used[idx] = atts[i]
				} else if used[idx] != atts[i] {
					ok = false
					break
				}
			}
			if ok {
				m.number = num
				break
			}
		}
		table = append(table, make([]uint64, size)...)
		for i := 0; i < size; i++ {
			table[m.index(occs[i])] = atts[i]
		}
	}
	return table
}

func init() {
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
	rng := splitmix64(0x416c696365) // "Alice"
	rookTable = initMagics(&rookMagics, rookDirs, &rng)
	bishopTable = initMagics(&bishopMagics, bishopDirs, &rng)
	for a := Square(0); a < 64; a++ {
		for _, dirs := range [2][4][2]int{rookDirs, bishopDirs} {
			ray := slidingAttacks(a, 0, dirs)
			for b := Square(0); b < 64; b++ {
				if ray&bit(b) == 0 {
					continue
				}
				between[a][b] = slidingAttacks(a, bit(b), dirs) & slidingAttacks(b, bit(a), dirs)
				line[a][b] = (ray & slidingAttacks(b, 0, dirs)) | bit(a) | bit(b)
			}
		}
	}
}
