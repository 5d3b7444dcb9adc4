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

// UCI writes m, a move of p's side to move, in UCI notation as the rule
// book writes it for p's variant: from- and to-square and promotion
// ("e2e4", "e1g1", "e7e8q"; a null move from = to, "e4e4"), with the
// moving man's board and a colon in front when another man of the mover
// stands on its square of another board ("a:d1d5"), and a slash and the
// board the man ends on where the variant asks for it: always in alice-3
// ("e2e4/c"), for a man that stays on its board in alice-stone ("e2e4/a").
func (p *Position) UCI(m Move) string {
	if m == NoMove {
		return "0000"
	}
	x, t, ok := m.boards()
	if !ok {
		return m.UCI()
	}
	prefix := false
	for b := BoardA; int(b) < p.variant.Boards(); b++ {
		if pc := p.PieceOn(m.From(), b); b != x && pc != NoPiece && pc.Colour() == p.side {
			prefix = true
		}
	}
	suffix := p.variant.transfer == transferChosen || p.variant.transfer == transferOptional && t == x
	var buf [12]byte
	return string(m.appendUCI(buf[:0], prefix, suffix))
}

// uciParts is a UCI move taken apart by parseUCIText.
type uciParts struct {
	from, to  Square
	promo     Kind
	fromBoard int // -1 when not written
	toBoard   int // -1 when not written
}

// parseUCIText takes UCI text apart: an optional board prefix ("a:"), two
// squares, an optional promotion letter and an optional board suffix
// ("/b"). It returns a reason when the text is not UCI.
func parseUCIText(s string) (u uciParts, reason string) {
	const shape = "not UCI notation (want e.g. e2e4, e7e8q, a:d1d5 or e2e4/b)"
	u = uciParts{promo: NoKind, fromBoard: -1, toBoard: -1}
	t := s
	if len(t) >= 2 && t[1] == ':' {
		if t[0] < 'a' || t[0] > 'c' {
			return u, "board prefix must be a:, b: or c:"
		}
		u.fromBoard = int(t[0] - 'a')
		t = t[2:]
	}
	if n := len(t); n >= 2 && t[n-2] == '/' {
		if t[n-1] < 'a' || t[n-1] > 'c' {
			return u, "board suffix must be /a, /b or /c"
		}
		u.toBoard = int(t[n-1] - 'a')
		t = t[:n-2]
	}
	if len(t) != 4 && len(t) != 5 {
		return u, shape
	}
	var ok1, ok2 bool
	u.from, ok1 = ParseSquare(t[0:2])
	u.to, ok2 = ParseSquare(t[2:4])
	if !ok1 || !ok2 {
		return u, shape
	}
	if len(t) == 5 {
		u.promo = kindFromLetter(t[4])
		if u.promo == NoKind || u.promo == Pawn || u.promo == King || t[4] >= 'A' && t[4] <= 'Z' {
			return u, "promotion must be one of q, r, b, n"
		}
	}
	return u, ""
}

// ParseUCI reads a move in UCI notation and returns it if it is legal in
// p. Besides what UCI writes, it takes the board prefix and suffix in every
// variant (each checked: the prefix names the board the moving man stands
// on, the suffix the board it ends on) and leaves them out where the move
// is plain without them; in alice-stone a move without the suffix ends on
// the other board, as the rule book writes it.
func (p *Position) ParseUCI(s string) (Move, error) {
	fail := func(reason string) (Move, error) {
		return NoMove, &MoveError{Move: s, FEN: p.FEN(), Reason: reason}
	}
	u, reason := parseUCIText(s)
	if reason != "" {
		return fail(reason)
	}
	nb := p.variant.Boards()
	for _, b := range [2]int{u.fromBoard, u.toBoard} {
		if b >= nb {
			return fail(fmt.Sprintf("board %s: variant %s has %d boards", Board(b), p.variant.Name, nb))
		}
	}
	for _, sq := range [2]Square{u.from, u.to} {
		if reason := p.variant.offBoardReason(sq); reason != "" {
			return fail(reason)
		}
	}
	var ml MoveList
	p.LegalMoves(&ml)
	staysInstead := NoMove // a legal move that stays where the text transfers
	match, n := firstMatches(&ml, func(m Move) bool {
		x, t := p.MoveBoards(m)
		if m.From() != u.from || m.To() != u.to || m.Promotion() != u.promo ||
			u.fromBoard >= 0 && int(x) != u.fromBoard || u.toBoard >= 0 && int(t) != u.toBoard {
			return false
		}
		if u.toBoard < 0 && p.variant.transfer == transferOptional && t == x {
			staysInstead = m
			return false
		}
		return true
	})
	switch {
	case n == 1:
		return match[0], nil
	case n > 1:
		return fail("ambiguous: " + p.UCI(match[0]) + " and " + p.UCI(match[1]) + " both fit")
	case staysInstead != NoMove:
		x, _ := p.MoveBoards(staysInstead)
		return fail(fmt.Sprintf("illegal move: without a board suffix the man ends on the other board; to leave it on board %s write %s", x, p.UCI(staysInstead)))
	}
	if u.fromBoard >= 0 {
		pc := p.PieceOn(u.from, Board(u.fromBoard))
		switch {
		case pc == NoPiece:
			return fail(fmt.Sprintf("no piece on %s of board %s", u.from, Board(u.fromBoard)))
		case pc.Colour() != p.side:
			return fail(fmt.Sprintf("the piece on %s of board %s is not %s's", u.from, Board(u.fromBoard), p.side))
		}
		return fail("illegal move")
	}
	ours, any := false, false
	for b := BoardA; int(b) < nb; b++ {
		if pc := p.PieceOn(u.from, b); pc != NoPiece {
			any = true
			ours = ours || pc.Colour() == p.side
		}
	}
	switch {
	case !any:
		return fail("no piece on " + u.from.String())
	case !ours:
		return fail(fmt.Sprintf("the piece on %s is not %s's", u.from, p.side))
	}
	return fail("illegal move")
}

// firstMatches returns the first two moves of ml that fit (all an error
// about ambiguity needs) and how many fit.
func firstMatches(ml *MoveList, fit func(Move) bool) (match [2]Move, n int) {
	for _, m := range ml.Slice() {
		if fit(m) {
			if n < len(match) {
				match[n] = m
			}
			n++
		}
	}
	return match, n
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

// looksUCI reports whether s has the shape of a UCI move. SAN with a full
// from-square ("e2e4" for a pawn) then means the same move anyway.
func looksUCI(s string) bool {
	_, reason := parseUCIText(s)
	return reason == ""
}
