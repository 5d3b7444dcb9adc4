package env

// The policy map names every move any position can have, from the side to
// move's point of view (Black's squares mirrored top to bottom, as in the
// input planes), with one index each:
//
//   - 0–1791: a from-square and a to-square a queen or a knight could
//     travel between on an empty board, ordered by from-square, then
//     to-square. Castling is the king's two-square move, a queen promotion
//     the pawn's plain move.
//   - 1792–1857: under-promotions, ordered by from-file (a–h), then
//     direction (capture towards a, straight, capture towards h; edge files
//     lack one), then piece (knight, bishop, rook).
//
// Because a move's board is implied by its from-square, the A↔B board swap
// leaves every index unchanged; because indices are taken from the side to
// move's view, so does the colour flip. The network therefore sees one
// policy for a position and both its mirror images.

const numMoveIndices = 1792

// policyTables holds the index maps, built once at initialisation.
type policyTables struct {
	index [64][64]int16 // from, to (perspective) → index, or -1
	moves [PolicySize]struct {
		from, to Square
		promo    Kind // NoKind, or the under-promotion piece
	}
	underIndex [8][3][3]int16 // from-file, direction (-1,0,+1)+1, piece (N,B,R) → index, or -1
}

// policy is filled by init, after the attack tables it is built from.
var policy *policyTables

func init() { policy = buildPolicyTables() }

func buildPolicyTables() *policyTables {
	t := &policyTables{}
	n := 0
	for from := Square(0); from < 64; from++ {
		reach := queenAttacks(from, 0) | knightAttacks[from]
		for to := Square(0); to < 64; to++ {
			t.index[from][to] = -1
			if reach&bit(to) != 0 {
				t.index[from][to] = int16(n)
				t.moves[n].from, t.moves[n].to, t.moves[n].promo = from, to, NoKind
				n++
			}
		}
	}
	if n != numMoveIndices {
		panic("env: policy map has the wrong number of plain moves")
	}
	for file := 0; file < 8; file++ {
		for d := -1; d <= 1; d++ {
			for pi, k := range [3]Kind{Knight, Bishop, Rook} {
				t.underIndex[file][d+1][pi] = -1
				if file+d < 0 || file+d > 7 {
					continue
				}
				t.underIndex[file][d+1][pi] = int16(n)
				t.moves[n].from, t.moves[n].to, t.moves[n].promo = SquareAt(file, 6), SquareAt(file+d, 7), k
				n++
			}
		}
	}
	if n != PolicySize {
		panic("env: policy map size differs from PolicySize")
	}
	return t
}

// PolicyIndex returns the policy index of move m played by colour side, or
// -1 if m is no move any position could have.
func PolicyIndex(m Move, side Colour) int {
	from, to := m.From(), m.To()
	if side == Black {
		from ^= 56
		to ^= 56
	}
	switch k := m.Promotion(); k {
	case Knight, Bishop, Rook:
		d := to.File() - from.File()
		if from.Rank() != 6 || to.Rank() != 7 || d < -1 || d > 1 {
			return -1
		}
		return int(policy.underIndex[from.File()][d+1][k-Knight])
	}
	return int(policy.index[from][to])
}

// PolicyIndex returns the policy index of a move of the side to move.
func (p *Position) PolicyIndex(m Move) int { return PolicyIndex(m, p.side) }

// PolicyMove returns the from- and to-squares and the promotion (NoKind for
// none or a queen promotion) of policy index i, as played by White; for
// Black, mirror both squares (sq^56). ok is false outside [0, PolicySize).
func PolicyMove(i int) (from, to Square, promo Kind, ok bool) {
	if i < 0 || i >= PolicySize {
		return NoSquare, NoSquare, NoKind, false
	}
	m := policy.moves[i]
	return m.from, m.to, m.promo, true
}

// PolicyUCI names policy index i in UCI notation from White's view, with
// the implied queen promotion left out ("e7e8" covers "e7e8q"): the table an
// exported model documents.
func PolicyUCI(i int) string {
	from, to, promo, ok := PolicyMove(i)
	if !ok {
		return ""
	}
	s := from.String() + to.String()
	if promo != NoKind {
		s += string(promo.Letter())
	}
	return s
}

// LegalMask sets mask[i] to true for the policy index of every legal move
// and false elsewhere; mask must hold PolicySize entries. It returns the
// number of legal moves.
func (p *Position) LegalMask(mask []bool) int {
	clear(mask[:PolicySize])
	var ml MoveList
	p.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		mask[p.PolicyIndex(m)] = true
	}
	return ml.N
}
