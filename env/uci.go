package env

import "fmt"

// MoveError reports a move that cannot be read or is not legal.
type MoveError struct {
	Move   string
	FEN    string
	Reason string
}

func (e *MoveError) Error() string {
	return fmt.Sprintf("move %q in %s: %s", e.Move, e.FEN, e.Reason)
}

// ParseUCI reads a move in UCI notation ("e2e4", "e1g1", "e7e8q") and
// returns it if it is legal in p.
func (p *Position) ParseUCI(s string) (Move, error) {
	fail := func(reason string) (Move, error) {
		return NoMove, &MoveError{Move: s, FEN: p.FEN(), Reason: reason}
	}
	if len(s) != 4 && len(s) != 5 {
		return fail("not UCI notation (want e.g. e2e4 or e7e8q)")
	}
	from, ok1 := ParseSquare(s[0:2])
	to, ok2 := ParseSquare(s[2:4])
	if !ok1 || !ok2 {
		return fail("not UCI notation (want e.g. e2e4 or e7e8q)")
	}
	promo := NoKind
	if len(s) == 5 {
		promo = kindFromLetter(s[4])
		if promo == NoKind || promo == Pawn || promo == King || s[4] >= 'A' && s[4] <= 'Z' {
			return fail("promotion must be one of q, r, b, n")
		}
	}
	var ml MoveList
	p.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		if m.From() == from && m.To() == to && m.Promotion() == promo {
			return m, nil
		}
	}
	if p.mailbox[from] == NoPiece {
		return fail("no piece on " + from.String())
	}
	if p.mailbox[from].Colour() != p.side {
		return fail(fmt.Sprintf("the piece on %s is not %s's", from, p.side))
	}
	return fail("illegal move")
}

// PlayUCI reads and plays a sequence of UCI moves, stopping at the first
// one that is unreadable or illegal (its index is returned with the error).
func (p *Position) PlayUCI(moves []string) (int, error) {
	for i, s := range moves {
		m, err := p.ParseUCI(s)
		if err != nil {
			return i, err
		}
		p.MakeMove(m)
	}
	return len(moves), nil
}
