package env

// Move packs a move into 32 bits: from-square (bits 0–5), to-square
// (6–11), promotion kind (12–14, 0 for none) and flags. The board is implied
// by the from-square, so from, to and promotion name a move completely; the
// flags only save the generator's work on make.
type Move uint32

// NoMove is the zero Move; it is never legal (a1 to a1).
const NoMove Move = 0

const (
	flagCastle Move = 1 << (15 + iota)
	flagEnPassant
	flagDouble
)

func newMove(from, to Square) Move { return Move(from) | Move(to)<<6 }

func newPromotion(from, to Square, k Kind) Move { return newMove(from, to) | Move(k)<<12 }

// From and To return the move's squares.
func (m Move) From() Square { return Square(m & 63) }
func (m Move) To() Square   { return Square(m >> 6 & 63) }

// Promotion returns the kind promoted to, or NoKind.
func (m Move) Promotion() Kind {
	if k := Kind(m >> 12 & 7); k != 0 {
		return k
	}
	return NoKind
}

// IsCastling and IsEnPassant report the move's special kind.
func (m Move) IsCastling() bool  { return m&flagCastle != 0 }
func (m Move) IsEnPassant() bool { return m&flagEnPassant != 0 }

// UCI writes the move in UCI notation: "e2e4", "e1g1", "e7e8q".
func (m Move) UCI() string {
	if m == NoMove {
		return "0000"
	}
	s := m.From().String() + m.To().String()
	if k := m.Promotion(); k != NoKind {
		s += string(k.Letter())
	}
	return s
}

func (m Move) String() string { return m.UCI() }

// MaxMoves bounds the legal moves of any position ParseFEN accepts (at most
// 16 men a side).
const MaxMoves = 336

// MoveList is a fixed-capacity list of moves that the generator fills
// without allocating.
type MoveList struct {
	Moves [MaxMoves]Move
	N     int
}

// Slice returns the moves as a slice backed by the list.
func (ml *MoveList) Slice() []Move { return ml.Moves[:ml.N] }

// Contains reports whether m is in the list.
func (ml *MoveList) Contains(m Move) bool {
	for _, x := range ml.Moves[:ml.N] {
		if x == m {
			return true
		}
	}
	return false
}

func (ml *MoveList) add(m Move) {
	ml.Moves[ml.N] = m
	ml.N++
}

// castleRightsKept[s] is the set of castling rights that survive a move
// from or to square s.
var castleRightsKept = func() (t [64]uint8) {
	for i := range t {
		t[i] = 15
	}
	t[SquareAt(4, 0)] &^= CastleWK | CastleWQ
	t[SquareAt(7, 0)] &^= CastleWK
	t[SquareAt(0, 0)] &^= CastleWQ
	t[SquareAt(4, 7)] &^= CastleBK | CastleBQ
	t[SquareAt(7, 7)] &^= CastleBK
	t[SquareAt(0, 7)] &^= CastleBQ
	return t
}()

// MakeMove plays m, which must be legal in p (from LegalMoves, ParseUCI or
// ParseSAN). UnmakeMove takes it back.
func (p *Position) MakeMove(m Move) {
	p.history = append(p.history, p.state)
	p.variant.apply(&p.state, m)
}

// UnmakeMove takes back the last move made.
func (p *Position) UnmakeMove() {
	n := len(p.history) - 1
	p.state = p.history[n]
	p.history = p.history[:n]
}

// apply plays m on s: the move on the first board, then the transfer.
func (v Variant) apply(s *state, m Move) {
	from, to := m.From(), m.To()
	pc := s.mailbox[from]
	us := s.side
	x := s.boardOf(from)
	y := x.Other()

	if s.ep != NoSquare {
		s.hash ^= zobristEP[s.ep]
		s.ep = NoSquare
	}
	s.halfmove++
	switch {
	case m&flagEnPassant != 0:
		victim := to - 8
		if us == Black {
			victim = to + 8
		}
		s.remove(victim)
		s.halfmove = 0
	case s.mailbox[to] != NoPiece:
		s.remove(to)
		s.halfmove = 0
	}
	s.remove(from)
	if k := m.Promotion(); k != NoKind {
		s.put(MakePiece(us, k), to, y)
	} else {
		s.put(pc, to, y)
	}
	if pc.Kind() == Pawn {
		s.halfmove = 0
	}
	if m&flagCastle != 0 {
		rookFrom, rookTo := castlingRookSquares(to)
		s.remove(rookFrom)
		s.put(MakePiece(us, Rook), rookTo, y)
	}
	if kept := castleRightsKept[from] & castleRightsKept[to]; s.castling&kept != s.castling {
		s.hash ^= zobristCastling[s.castling]
		s.castling &= kept
		s.hash ^= zobristCastling[s.castling]
	}
	if m&flagDouble != 0 && v.EnPassant {
		passed := (from + to) / 2
		// Record the target only when an enemy pawn on the first board could
		// take: equal positions then hash equal, as repetition needs.
		takers := s.pieces[us.Other()][Pawn] & s.boardMask(x) & pawnAttacks[us][passed]
		occ := s.colours[White] | s.colours[Black]
		if takers != 0 && occ&bit(passed) == 0 {
			s.ep = passed
			s.hash ^= zobristEP[passed]
		}
	}
	if us == Black {
		s.fullmove++
	}
	s.side = us.Other()
	s.hash ^= zobristSide
	s.lastMove = m
}

// castlingRookSquares returns the rook's squares for the king's castling
// destination.
func castlingRookSquares(kingTo Square) (from, to Square) {
	r := kingTo.Rank() * 8
	if kingTo.File() == 6 {
		return Square(r + 7), Square(r + 5)
	}
	return Square(r), Square(r + 3)
}
