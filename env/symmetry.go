package env

// Symmetry is one of the rule book's symmetries of Alice Chess: the colour
// flip (mirror the boards top to bottom and swap the colours) and the board
// swap (move every piece to the other board). Each maps legal play to legal
// play move for move, so each turns one training position into another.
type Symmetry uint8

const (
	Identity   Symmetry = 0
	ColourFlip Symmetry = 1
	BoardSwap  Symmetry = 2
	// FlipAndSwap applies both.
	FlipAndSwap Symmetry = ColourFlip | BoardSwap
)

// Symmetries lists all four elements of the group.
var Symmetries = [4]Symmetry{Identity, ColourFlip, BoardSwap, FlipAndSwap}

func (y Symmetry) String() string {
	return [...]string{"identity", "colour-flip", "board-swap", "flip-and-swap"}[y&3]
}

// Position returns the image of p, history included (so repetition counts
// carry over).
func (y Symmetry) Position(p *Position) *Position {
	q := p.Clone()
	q.state = y.state(&p.state)
	for i := range q.history {
		q.history[i] = y.state(&p.history[i])
	}
	return q
}

// Move returns the image of a move.
func (y Symmetry) Move(m Move) Move {
	if y&ColourFlip == 0 || m == NoMove {
		return m
	}
	return m&^(63|63<<6) | newMove(m.From()^56, m.To()^56)
}

// PolicyIndex returns the image of a policy index. Indices are taken from
// the side to move's view and a move's board is implied by its from-square,
// so both symmetries fix every index: this is the identity, kept so that
// code transforming training targets says what it means.
func (y Symmetry) PolicyIndex(i int) int { return i }

func (y Symmetry) state(s *state) state {
	if y == Identity {
		return *s
	}
	var t state
	for i := range t.mailbox {
		t.mailbox[i] = NoPiece
	}
	t.ep = NoSquare
	for sq := Square(0); sq < 64; sq++ {
		pc := s.mailbox[sq]
		if pc == NoPiece {
			continue
		}
		b := s.boardOf(sq)
		if y&BoardSwap != 0 {
			b = b.Other()
		}
		if y&ColourFlip != 0 {
			t.put(MakePiece(pc.Colour().Other(), pc.Kind()), sq^56, b)
		} else {
			t.put(pc, sq, b)
		}
	}
	t.side, t.castling, t.ep = s.side, s.castling, s.ep
	if y&ColourFlip != 0 {
		t.side = s.side.Other()
		t.castling = s.castling>>2 | s.castling<<2&15
		if s.ep != NoSquare {
			t.ep = s.ep ^ 56
		}
	}
	t.halfmove, t.fullmove = s.halfmove, s.fullmove
	t.lastMove = y.Move(s.lastMove)
	t.hash = t.computeHash()
	return t
}
