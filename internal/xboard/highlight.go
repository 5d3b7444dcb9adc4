package xboard

import (
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/board16"
)

// highlight answers the GUI's "lift SQUARE": it marks where the piece
// there may go, so that XBoard (which does not know the rules) offers
// exactly the legal moves: yellow for landing squares, magenta where a
// pawn promotes, cyan for the victim of a capture (the first leg of a
// two-leg move, see board16.MoveLegs: dropping the piece there does not
// end the move; the GUI lifts it again from there and the landing square
// is marked).
func (x *session) highlight(arg string) {
	q, ok := board16.ParseSquare(arg)
	if !ok || x.invalid != "" {
		return
	}
	var second bool
	var marks string
	marks, second = Highlights(x.e.Position(), q, x.lifted, x.liftedSet)
	if !second {
		x.lifted, x.liftedSet = q, true
	}
	x.out.printf("highlight %s", marks)
}

// Highlights returns the marks of a lift of square q in pos, as the FEN-
// like board of a highlight command, and whether the lift is the second
// leg of a capture by the piece lifted before from prev (when havePrev).
func Highlights(pos *env.Position, q, prev board16.Square, havePrev bool) (marks string, second bool) {
	var grid [8][16]byte
	mark := func(s board16.Square, c byte) {
		if grid[s.Rank][s.File] == 0 || c == 'M' {
			grid[s.Rank][s.File] = c
		}
	}
	type legs struct {
		from, victim, land board16.Square
		twoLeg, promo      bool
	}
	var ml env.MoveList
	pos.LegalMoves(&ml)
	moves := make([]legs, 0, ml.N)
	for _, m := range ml.Slice() {
		_, b := pos.PieceAt(m.From())
		moves = append(moves, legs{
			from:   board16.At(m.From(), b),
			victim: board16.At(m.To(), b),
			land:   board16.At(m.To(), b.Other()),
			twoLeg: board16.TwoLegs(pos, m),
			promo:  m.Promotion() != env.NoKind,
		})
	}
	// A lift from the victim's square of a capture by the piece lifted
	// before is the capture's second leg.
	for _, l := range moves {
		second = second || havePrev && l.twoLeg && l.from == prev && l.victim == q
	}
	for _, l := range moves {
		switch {
		case second && !(l.twoLeg && l.from == prev && l.victim == q):
			continue
		case !second && l.from != q:
			continue
		case !second && l.twoLeg:
			mark(l.victim, 'C')
			continue
		}
		if l.promo {
			mark(l.land, 'M')
		} else {
			mark(l.land, 'Y')
		}
	}
	return board16.Grid(&grid), second
}
