package env

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
type Position struct {
	state
	variant Variant
	history []state
}

// NewPosition returns the start position of the variant.
func NewPosition(v Variant) *Position {
	p, err := ParseFEN(StartFEN, v)
	if err != nil {
		// StartFEN is a constant that the tests parse: this cannot happen.
		panic("env: start position does not parse: " + err.Error())
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

// Hash is the position's Zobrist key: pieces with their boards, side to
// move, castling rights and en-passant square.
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

// PieceAt returns the piece on square s and the board it stands on;
// NoPiece for an empty square.
func (p *Position) PieceAt(s Square) (Piece, Board) {
	pc := p.mailbox[s]
	if p.onB&bit(s) != 0 {
		return pc, BoardB
	}
	return pc, BoardA
}

// Occupied returns the squares occupied on board b.
func (p *Position) Occupied(b Board) uint64 {
	occ := p.colours[White] | p.colours[Black]
	if b == BoardB {
		return occ & p.onB
	}
	return occ &^ p.onB
}

// Pieces returns the squares of colour c's pieces of kind k (both boards).
func (p *Position) Pieces(c Colour, k Kind) uint64 { return p.pieces[c][k] }

// KingSquare returns the square of colour c's king.
func (p *Position) KingSquare(c Colour) Square { return lsb(p.pieces[c][King]) }

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
	return q
}

// CopyFrom makes p a copy of q, reusing p's history buffer: a search can
// reset its working position to the root without allocating.
func (p *Position) CopyFrom(q *Position) {
	p.state = q.state
	p.variant = q.variant
	p.history = append(p.history[:0], q.history...)
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
	zobristPiece    [12][2][64]uint64
	zobristSide     uint64
	zobristCastling [16]uint64
	zobristEP       [64]uint64
)

func init() {
	rng := splitmix64(0x5a6f6272697374) // "Zobrist"
	for pc := range zobristPiece {
		for b := range zobristPiece[pc] {
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

func (s *state) computeHash() uint64 {
	var h uint64
	for sq := Square(0); sq < 64; sq++ {
		if pc := s.mailbox[sq]; pc != NoPiece {
			h ^= zobristPiece[pc][s.boardOf(sq)][sq]
		}
	}
	if s.side == Black {
		h ^= zobristSide
	}
	h ^= zobristCastling[s.castling]
	if s.ep != NoSquare {
		h ^= zobristEP[s.ep]
	}
	return h
}
