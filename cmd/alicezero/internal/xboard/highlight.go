package xboard

import (
	"github.com/alicezero/alicezero/cmd/alicezero/internal/board16"
	"github.com/alicezero/alicezero/env"
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
	marks, second = Highlights(x.pos, q, x.lifted, x.liftedSet)
	if !second {
		x.lifted, x.liftedSet = q, true
	}
	x.out.Printf("highlight %s", marks)
}

// Highlights returns the marks of a lift of square q in pos, as the FEN-
// like board of a highlight command, and whether the lift is the second
// leg of a capture by the man lifted before from prev (when havePrev).
// A victim square is cyan even where the man may also take there and stay
// on its board (alice-optional-transfer, alice-stone): dropped there, it
// waits for a second leg, and XBoard ends the move there, in one leg, when
// the user clicks that square again.
func Highlights(pos *env.Position, q, prev board16.Square, havePrev bool) (marks string, second bool) {
	var grid [8][board16.MaxFiles]byte
	rank := map[byte]int{'Y': 1, 'M': 2, 'C': 3}
	mark := func(s board16.Square, c byte) {
		if rank[c] > rank[grid[s.Rank][s.File]] {
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
		from, mid, land := board16.Path(pos, m)
		moves = append(moves, legs{from: from, victim: mid, land: land, twoLeg: mid != land, promo: m.Promotion() != env.NoKind})
	}
	// A lift from the victim's square of a capture by the man lifted
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
	width := 2 * pos.Variant().Files()
	return board16.Grid(&grid, width), second
}
