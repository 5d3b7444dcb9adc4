package env

import "math/bits"

// Castling rights as bits of state.castling.
const (
	CastleWK uint8 = 1 << iota
	CastleWQ
	CastleBK
	CastleBQ
)

// state is everything a move changes: copied whole on make, restored on
// unmake, so make/unmake never allocates once the history has grown.
type state struct {
	pieces   [2][6]uint64 // by colour and kind, over both boards
	colours  [2]uint64
	onB      uint64 // squares whose piece stands on board B
	mailbox  [64]Piece
	hash     uint64
	ep       Square // en-passant target (the passed square), alice-ep only
	side     Colour
	castling uint8
	halfmove int32
	fullmove int32
	lastMove Move
}

// Position is a game position with the history needed to unmake moves and
// to detect repetitions. The zero value is not usable: build one with
// NewPosition or ParseFEN.
//
// The men are held in one of two representations. Where a square holds at
// most one man (alice, alice-ep, alice-black-b, alice-null, alice-mini),
// state's bitboards cover both boards at once and a board bit per square
// says where each man stands: the generator's fast path (movegen.go). Where
// a square may hold men on several boards (alice-optional-transfer,
// alice-stone, alice-3), wide holds each board's men on its own and the
// general path (widegen.go) generates the moves. Either way state carries
// what every variant shares: side to move, castling rights, clocks,
// en-passant square, hash and last move.
type Position struct {
	state
	variant Variant
	history []state
	wide    *wideGame // the men, for the general path; nil on the fast path
}

// NewPosition returns the start position of the variant.
func NewPosition(v Variant) *Position {
	p, err := ParseFEN(v.StartFEN(), v)
	if err != nil {
		// The start positions are constants that the tests parse: this
		// cannot happen.
		panic("env: start position of " + v.Name + " does not parse: " + err.Error())
	}
	return p
}

// Variant returns the position's rule set.
func (p *Position) Variant() Variant { return p.variant }

// SideToMove returns the colour to move.
func (p *Position) SideToMove() Colour { return p.side }

// Castling returns the castling rights as CastleWK|CastleWQ|… bits.
func (p *Position) Castling() uint8 { return p.castling }

// EnPassant returns the en-passant target square, or NoSquare.
func (p *Position) EnPassant() Square { return p.ep }

// HalfmoveClock is the number of plies since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return int(p.halfmove) }

// FullmoveNumber is the FEN move number.
func (p *Position) FullmoveNumber() int { return int(p.fullmove) }

// Hash is the position's Zobrist key: men with their boards, side to move,
// castling rights and en-passant square.
func (p *Position) Hash() uint64 { return p.hash }

// Ply is the number of moves made since the position was set up.
func (p *Position) Ply() int { return len(p.history) }

// LastMove returns the last move made, or NoMove.
func (p *Position) LastMove() Move {
	if len(p.history) == 0 {
		return NoMove
	}
	return p.lastMove
}

// PieceOn returns the man on square s of board b, or NoPiece.
func (p *Position) PieceOn(s Square, b Board) Piece {
	if s < 0 || s > 63 || int(b) >= p.variant.Boards() {
		return NoPiece
	}
	if p.wide != nil {
		return p.wide.mailbox[b][s]
	}
	if p.boardOf(s) != b {
		return NoPiece
	}
	return p.mailbox[s]
}

// PieceAt returns the man on square s and the board it stands on; NoPiece
// for an empty square. Where a square may hold men on several boards
// (Variant.SharedSquares), it returns the one on the first board in the
// order A, B, C: use PieceOn there.
func (p *Position) PieceAt(s Square) (Piece, Board) {
	if p.wide != nil {
		for b := BoardA; int(b) < p.variant.Boards(); b++ {
			if pc := p.wide.mailbox[b][s]; pc != NoPiece {
				return pc, b
			}
		}
		return NoPiece, BoardA
	}
	pc := p.mailbox[s]
	if p.onB&bit(s) != 0 {
		return pc, BoardB
	}
	return pc, BoardA
}

// Occupied returns the squares occupied on board b.
func (p *Position) Occupied(b Board) uint64 {
	if p.wide != nil {
		if int(b) >= p.variant.Boards() {
			return 0
		}
		return p.wide.occ[b][White] | p.wide.occ[b][Black]
	}
	occ := p.colours[White] | p.colours[Black]
	switch b {
	case BoardA:
		return occ &^ p.onB
	case BoardB:
		return occ & p.onB
	}
	return 0
}

// Pieces returns the squares of colour c's men of kind k, over all boards.
func (p *Position) Pieces(c Colour, k Kind) uint64 {
	if p.wide != nil {
		var bb uint64
		for b := range p.wide.men {
			bb |= p.wide.men[b][c][k]
		}
		return bb
	}
	return p.pieces[c][k]
}

// count returns the number of colour c's men of kind k, over all boards.
func (p *Position) count(c Colour, k Kind) int {
	if p.wide != nil {
		n := 0
		for b := range p.wide.men {
			n += bits.OnesCount64(p.wide.men[b][c][k])
		}
		return n
	}
	return bits.OnesCount64(p.pieces[c][k])
}

// menCount returns the number of colour c's men, over all boards.
func (p *Position) menCount(c Colour) int {
	n := 0
	for k := Pawn; k <= King; k++ {
		n += p.count(c, k)
	}
	return n
}

// men returns the squares of colour c's men, over all boards.
func (p *Position) men(c Colour) uint64 {
	if p.wide != nil {
		return p.wide.occ[BoardA][c] | p.wide.occ[BoardB][c] | p.wide.occ[BoardC][c]
	}
	return p.colours[c]
}

// KingBoard returns the board colour c's king stands on.
func (p *Position) KingBoard(c Colour) Board {
	if p.wide != nil {
		return p.wide.kingBoard(c)
	}
	return p.boardOf(lsb(p.pieces[c][King]))
}

// MoveBoards returns the board the man that makes m stands on and the
// board it ends on (the same one when it stays on its board). m must be a
// move of p's side to move.
func (p *Position) MoveBoards(m Move) (from, to Board) {
	if x, t, ok := m.boards(); ok {
		return x, t
	}
	x := p.boardOf(m.From())
	return x, x.Other()
}

// Captured returns the man m takes, or NoPiece: the man on its to-square
// on the from-board, the en-passant victim, or for a null move (alice-stone)
// the man on the landing square. m must be a move of p's side to move.
func (p *Position) Captured(m Move) Piece {
	x, t := p.MoveBoards(m)
	switch {
	case m.IsCastling():
		return NoPiece
	case m.IsNull():
		return p.PieceOn(m.To(), t)
	case m.IsEnPassant():
		return MakePiece(p.side.Other(), Pawn)
	}
	if pc := p.PieceOn(m.To(), x); pc != NoPiece && pc.Colour() != p.side {
		return pc
	}
	return NoPiece
}

// boardMask returns the squares of board b among occ.
func (s *state) boardMask(b Board) uint64 {
	if b == BoardB {
		return s.onB
	}
	return ^s.onB
}

func (s *state) boardOf(sq Square) Board {
	return Board(s.onB >> uint(sq) & 1)
}

// Clone returns an independent copy, history included.
func (p *Position) Clone() *Position {
	q := &Position{state: p.state, variant: p.variant}
	q.history = append(make([]state, 0, len(p.history)+64), p.history...)
	if p.wide != nil {
		q.wide = p.wide.clone()
	}
	return q
}

// CopyFrom makes p a copy of q, reusing p's history buffer: a search can
// reset its working position to the root without allocating.
func (p *Position) CopyFrom(q *Position) {
	p.state = q.state
	p.variant = q.variant
	p.history = append(p.history[:0], q.history...)
	switch {
	case q.wide == nil:
		p.wide = nil
	case p.wide == nil:
		p.wide = q.wide.clone()
	default:
		p.wide.copyFrom(q.wide)
	}
}

// splitmix64 is the deterministic generator behind the Zobrist keys: the
// same keys on every run and every machine.
type splitmix64 uint64

func (x *splitmix64) next() uint64 {
	*x += 0x9e3779b97f4a7c15
	z := uint64(*x)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Zobrist keys, fixed at initialisation.
var (
	zobristPiece    [12][maxBoards][64]uint64
	zobristSide     uint64
	zobristCastling [16]uint64
	zobristEP       [64]uint64
)

func init() {
	rng := splitmix64(0x5a6f6272697374) // "Zobrist"
	for pc := range zobristPiece {
		for b := BoardA; b <= BoardB; b++ {
			for s := range zobristPiece[pc][b] {
				zobristPiece[pc][b][s] = rng.next()
			}
		}
	}
	zobristSide = rng.next()
	for i := range zobristCastling {
		zobristCastling[i] = rng.next()
	}
	for i := range zobristEP {
		zobristEP[i] = rng.next()
	}
	// Board C's keys come last, so that the two-board keys are those of
	// the first releases: hashes stay what they were.
	for pc := range zobristPiece {
		for s := range zobristPiece[pc][BoardC] {
			zobristPiece[pc][BoardC][s] = rng.next()
		}
	}
}

func (s *state) put(pc Piece, sq Square, b Board) {
	m := bit(sq)
	s.pieces[pc.Colour()][pc.Kind()] |= m
	s.colours[pc.Colour()] |= m
	if b == BoardB {
		s.onB |= m
	}
	s.mailbox[sq] = pc
	s.hash ^= zobristPiece[pc][b][sq]
}

func (s *state) remove(sq Square) {
	pc := s.mailbox[sq]
	m := bit(sq)
	b := s.boardOf(sq)
	s.pieces[pc.Colour()][pc.Kind()] &^= m
	s.colours[pc.Colour()] &^= m
	s.onB &^= m
	s.mailbox[sq] = NoPiece
	s.hash ^= zobristPiece[pc][b][sq]
}

// computeHash returns the Zobrist key of the position from scratch.
func (p *Position) computeHash() uint64 {
	if p.wide != nil {
		return p.wide.menHash() ^ p.state.hashOfRights()
	}
	return p.state.menHash() ^ p.state.hashOfRights()
}

// menHash is the part of the key that is the men, on the fast path's
// representation.
func (s *state) menHash() uint64 {
	var h uint64
	for sq := Square(0); sq < 64; sq++ {
		if pc := s.mailbox[sq]; pc != NoPiece {
			h ^= zobristPiece[pc][s.boardOf(sq)][sq]
		}
	}
	return h
}

// hashOfRights is the part of the key that is not the men: side to move,
// castling rights, en-passant square.
func (s *state) hashOfRights() uint64 {
	var h uint64
	if s.side == Black {
		h ^= zobristSide
	}
	h ^= zobristCastling[s.castling]
	if s.ep != NoSquare {
		h ^= zobristEP[s.ep]
	}
	return h
}
