package env

import (
	"fmt"
	"strings"
)

// Symmetry is one of the rule book's symmetries of Alice Chess: the colour
// flip (mirror the boards top to bottom and swap the colours) and the
// permutations of the boards (the board swap A↔B moves every man to the
// other board; alice-3 adds B↔C, A↔C and the two cycles). Each maps legal
// play to legal play move for move, so each turns one training position
// into another. The rules of every variant treat their boards alike and
// the colours alike, so every one of these is a symmetry of every variant's
// rules (Variant.Symmetries lists them); what a variant's start position
// keeps is another matter (Variant.StartSymmetries).
//
// The low bit is the colour flip; the bits above it number the board
// permutation.
type Symmetry uint8

const (
	Identity   Symmetry = 0
	ColourFlip Symmetry = 1
	BoardSwap  Symmetry = 2
	// FlipAndSwap applies both.
	FlipAndSwap Symmetry = ColourFlip | BoardSwap
	// SwapBC exchanges boards B and C (alice-3), SwapAC boards A and C.
	SwapBC Symmetry = 2 << 1
	SwapAC Symmetry = 3 << 1
	// CycleABC moves the men of A to B, of B to C and of C to A;
	// CycleACB the other way round (alice-3).
	CycleABC Symmetry = 4 << 1
	CycleACB Symmetry = 5 << 1
)

// boardPerms[i][b] is the board that board b goes to under permutation i.
var boardPerms = [6][maxBoards]Board{
	{BoardA, BoardB, BoardC}, {BoardB, BoardA, BoardC}, {BoardA, BoardC, BoardB},
	{BoardC, BoardB, BoardA}, {BoardB, BoardC, BoardA}, {BoardC, BoardA, BoardB},
}

var permNames = [6]string{"", "swap", "swap-BC", "swap-AC", "cycle-ABC", "cycle-ACB"}

// Symmetries lists the four symmetries of the two-board variants: identity,
// colour flip, board swap and both.
var Symmetries = [4]Symmetry{Identity, ColourFlip, BoardSwap, FlipAndSwap}

// Symmetries returns every symmetry of the variant's rules: the colour flip
// times the permutations of its boards (4 on two boards, 12 on three).
func (v Variant) Symmetries() []Symmetry {
	perms := 2
	if v.boards == 3 {
		perms = 6
	}
	var ys []Symmetry
	for i := 0; i < perms; i++ {
		ys = append(ys, Symmetry(i<<1), Symmetry(i<<1)|ColourFlip)
	}
	return ys
}

// StartSymmetries returns the symmetries that keep the variant's start
// position: its men and castling rights (one that flips the colours hands
// the move to Black, which is the same start seen from the other side).
// They are the identity and the colour flip where both armies start on A
// (alice-3 adds B↔C, with and without the flip, since B and C start
// alike), and the flip together with the board swap where Black starts on
// B (alice-black-b, alice-stone), since either alone puts an army on the
// other board.
func (v Variant) StartSymmetries() []Symmetry {
	start := NewPosition(v)
	keep := func(p *Position) string {
		f := strings.Fields(p.FEN())
		return f[0] + " " + f[2]
	}
	var ys []Symmetry
	for _, y := range v.Symmetries() {
		if keep(y.Position(start)) == keep(start) {
			ys = append(ys, y)
		}
	}
	return ys
}

func (y Symmetry) perm() int { return int(y >> 1) }

func (y Symmetry) flips() bool { return y&ColourFlip != 0 }

func (y Symmetry) String() string {
	if y.perm() >= len(permNames) {
		return fmt.Sprintf("symmetry(%d)", uint8(y))
	}
	switch name := permNames[y.perm()]; {
	case name == "" && y.flips():
		return "colour-flip"
	case name == "":
		return "identity"
	case y == BoardSwap:
		return "board-swap"
	case y.flips():
		return "flip-and-" + name
	default:
		return name
	}
}

// mapBoard returns the board that board b goes to.
func (y Symmetry) mapBoard(b Board) Board { return boardPerms[y.perm()][b] }

// validFor panics unless y is a symmetry of v: a programming error, as an
// index out of range is.
func (y Symmetry) validFor(v Variant) {
	if y.perm() >= len(permNames) || (v.boards < 3 && y.perm() > 1) {
		panic(fmt.Sprintf("env: %s is not a symmetry of variant %s (see Variant.Symmetries)", y, v.Name))
	}
}

// Position returns the image of p, history included (so repetition counts
// carry over). y must be one of p.Variant().Symmetries().
func (y Symmetry) Position(p *Position) *Position {
	y.validFor(p.variant)
	q := p.Clone()
	q.state = y.state(&p.state, p.wide != nil)
	for i := range q.history {
		q.history[i] = y.state(&p.history[i], p.wide != nil)
	}
	if p.wide != nil {
		q.wide.wideBoards = y.wideBoards(&p.wide.wideBoards)
		for i := range q.wide.history {
			q.wide.history[i] = y.wideBoards(&p.wide.history[i])
		}
		q.hash = q.computeHash()
		for i := range q.history {
			q.history[i].hash = q.wide.history[i].menHash() ^ q.history[i].hashOfRights()
		}
	}
	return q
}

// Move returns the image of a move.
func (y Symmetry) Move(m Move) Move {
	if m == NoMove {
		return m
	}
	if y.flips() {
		m = m&^(63|63<<6) | newMove(m.From()^56, m.To()^56)
	}
	if x, t, ok := m.boards(); ok {
		m = m.withBoards(y.mapBoard(x), y.mapBoard(t))
	}
	return m
}

// PolicyIndex returns the image of policy index i of layout l. Indices are
// taken from the side to move's view, so the colour flip fixes every one;
// where a move's board is implied by its from-square (l.FromBoards() == 1)
// so do the board permutations. Elsewhere a permutation moves the index to
// the block of its image's from-board and, in alice-3, to the landing
// choice that names its image's landing board.
func (y Symmetry) PolicyIndex(l *PolicyLayout, i int) int {
	if l.fromBoards == 1 || y.perm() == 0 {
		return i
	}
	block := len(l.types) * l.height * l.width
	x, c, rest := i/block/l.choices, i/block%l.choices, i%block
	nx := int(y.mapBoard(Board(x)))
	if t := l.landing(x, c); t >= 0 {
		c, _ = l.choiceOf(nx, int(y.mapBoard(Board(t))))
	}
	return (nx*l.choices+c)*block + rest
}

// state returns the image of the shared fields of s and, on the fast path
// (wide false), of its men.
func (y Symmetry) state(s *state, wide bool) state {
	if y == Identity {
		return *s
	}
	var t state
	for i := range t.mailbox {
		t.mailbox[i] = NoPiece
	}
	for sq := Square(0); sq < 64 && !wide; sq++ {
		if pc := s.mailbox[sq]; pc != NoPiece {
			b := y.mapBoard(s.boardOf(sq))
			pc, to := y.man(pc, sq)
			t.put(pc, to, b)
		}
	}
	t.side, t.castling, t.ep = s.side, s.castling, s.ep
	if y.flips() {
		t.side = s.side.Other()
		t.castling = s.castling>>2 | s.castling<<2&15
		if s.ep != NoSquare {
			t.ep = s.ep ^ 56
		}
	}
	t.halfmove, t.fullmove = s.halfmove, s.fullmove
	t.lastMove = y.Move(s.lastMove)
	t.hash = t.menHash() ^ t.hashOfRights()
	return t
}

// man returns the image of the man pc on square sq (its board aside).
func (y Symmetry) man(pc Piece, sq Square) (Piece, Square) {
	if y.flips() {
		return MakePiece(pc.Colour().Other(), pc.Kind()), sq ^ 56
	}
	return pc, sq
}

// wideBoards returns the image of the general path's men.
func (y Symmetry) wideBoards(w *wideBoards) wideBoards {
	var t wideBoards
	t.clear()
	var h uint64
	for b := range w.mailbox {
		for sq, pc := range w.mailbox[b] {
			if pc != NoPiece {
				pc, to := y.man(pc, Square(sq))
				t.put(pc, to, y.mapBoard(Board(b)), &h)
			}
		}
	}
	return t
}
