package env

// Move packs a move into 32 bits: from-square (bits 0–5), to-square
// (6–11), promotion kind (12–14, 0 for none), flags (15–18) and the boards
// (19–22). In the variants where a square holds at most one man, the board
// is implied by the from-square and the landing board is the other one, so
// from, to and promotion name a move completely and the board fields are 0.
// Where a square may hold men on several boards (Variant.SharedSquares),
// the generator also records the board the man stands on and the board it
// ends on (the same one for a move that stays on its board). A null move
// has from = to and the null flag. The castling, en-passant and
// double-step flags only save the generator's work on make.
type Move uint32

// NoMove is the zero Move; it is never legal (a1 to a1 without the null
// flag).
const NoMove Move = 0

const (
	flagCastle Move = 1 << (15 + iota)
	flagEnPassant
	flagDouble
	// flagNull marks a null move: the man passes to the same square of
	// another board without moving on its own.
	flagNull
)

const (
	fromBoardShift = 19 // 2 bits: the from-board + 1, or 0 when implied
	toBoardShift   = 21 // 2 bits: the landing board + 1, or 0 when implied
	boardFields    = Move(15) << fromBoardShift
)

// moveIdentity masks the bits that name a move (from, to, promotion, null
// flag, boards); the other flags only cache the generator's work.
const moveIdentity = Move(1<<15-1) | flagNull | boardFields

func newMove(from, to Square) Move { return Move(from) | Move(to)<<6 }

func newPromotion(from, to Square, k Kind) Move { return newMove(from, to) | Move(k)<<12 }

// withBoards records the from-board x and landing board t in m.
func (m Move) withBoards(x, t Board) Move {
	return m&^boardFields | Move(x+1)<<fromBoardShift | Move(t+1)<<toBoardShift
}

// boards returns the recorded from-board and landing board; ok is false
// when the move does not record them (the board is then implied by the
// from-square).
func (m Move) boards() (x, t Board, ok bool) {
	xb, tb := m>>fromBoardShift&3, m>>toBoardShift&3
	if xb == 0 || tb == 0 {
		return 0, 0, false
	}
	return Board(xb - 1), Board(tb - 1), true
}

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

// IsCastling, IsEnPassant and IsNull report the move's special kind.
func (m Move) IsCastling() bool  { return m&flagCastle != 0 }
func (m Move) IsEnPassant() bool { return m&flagEnPassant != 0 }
func (m Move) IsNull() bool      { return m&flagNull != 0 }

// UCI writes the move in UCI notation without looking at a position:
// "e2e4", "e1g1", "e7e8q", "e4e4" for a null move. A move that records its
// boards is written with both, "a:e2e4/b", which every variant reads back;
// Position.UCI writes the rule book's shorter form, which needs the
// position.
func (m Move) UCI() string {
	if m == NoMove {
		return "0000"
	}
	var b [12]byte
	return string(m.appendUCI(b[:0], true, true))
}

// appendUCI appends the move's squares and promotion, with the from-board
// prefix and the landing-board suffix when asked for and recorded.
func (m Move) appendUCI(b []byte, prefix, suffix bool) []byte {
	x, t, ok := m.boards()
	if ok && prefix {
		b = append(b, x.letter(), ':')
	}
	from, to := m.From(), m.To()
	b = append(b, byte('a'+from.File()), byte('1'+from.Rank()), byte('a'+to.File()), byte('1'+to.Rank()))
	if k := m.Promotion(); k != NoKind {
		b = append(b, k.Letter())
	}
	if ok && suffix {
		b = append(b, '/', t.letter())
	}
	return b
}

func (m Move) String() string { return m.UCI() }

// MaxMoves bounds the legal moves of any position ParseFEN accepts, in
// every variant. With at most 16 men a side, a side has at most 321
// movements (nine queens of 27 moves, two rooks of 14, two bishops of 13,
// two knights of 8, a king of 8) and two castlings; each may land on at most
// two boards (alice-3's choice of board, alice-stone's stay or transfer),
// and each man may add a null move (alice-null, alice-stone).
const MaxMoves = 2*(321+2) + 16

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

// Find returns the move of the list that names the same move as m, flags
// and all: the same squares, promotion, null flag and recorded boards (a
// move of a variant where a square may hold men on several boards is not
// the move of another board between the same squares). A move built from
// its squares alone (decoded from a policy index, say) lacks the flags
// MakeMove relies on; the one found has them.
func (ml *MoveList) Find(m Move) (Move, bool) {
	for _, x := range ml.Slice() {
		if x&moveIdentity == m&moveIdentity {
			return x, true
		}
	}
	return NoMove, false
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
	p.apply(m)
}

// MakePass hands the move to the other side without moving a man: the
// null move of a search's null-move pruning, which no rule set allows in a
// game (alice-null's null moves are moves of a man; see Move). UnmakeMove
// takes it back. No position before a pass counts as a repetition of one
// after it (see Repetitions), and the halfmove clock goes on.
func (p *Position) MakePass() {
	p.history = append(p.history, p.state)
	if p.wide != nil {
		p.wide.history = append(p.wide.history, p.wide.wideBoards)
	}
	s := &p.state
	if s.ep != NoSquare {
		s.hash ^= zobristEP[s.ep]
		s.ep = NoSquare
	}
	s.side = s.side.Other()
	s.hash ^= zobristSide
	s.lastMove = NoMove
}

// UnmakeMove takes back the last move made.
func (p *Position) UnmakeMove() {
	n := len(p.history) - 1
	p.state = p.history[n]
	p.history = p.history[:n]
	if p.wide != nil {
		p.wide.unmake()
	}
}

// apply plays m: on the fast path (one man per square) the move on the
// first board, then the transfer (a null move is only the transfer); the
// general path has its own (applyWide).
func (p *Position) apply(m Move) {
	if p.wide != nil {
		p.applyWide(m)
		return
	}
	s := &p.state
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
	case s.mailbox[to] != NoPiece && m&flagNull == 0:
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
	if m&flagDouble != 0 && p.variant.EnPassant {
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
