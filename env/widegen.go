package env

// The general path of the generator: every variant of the rule book's frame
// on the per-board representation (wide.go). A move is a movement of one
// man on its board X — an ordinary chess move, or a null move where the
// variant has them — then a transfer to a target board chosen by the
// variant's transfer rule. Each candidate is checked against the frame's two
// check rules by working out what it changes on the boards (a change), not
// by playing it: the mover's king must not be in check on X after the
// movement when it stands on X, nor on its own board after the transfer.

// change is what a move (or its movement alone) does to the boards, as the
// check tests need it: per board the squares it empties and fills, and the
// enemy men it removes.
type change struct {
	off, on, gone [maxBoards]uint64
}

// wideGen is what the general generator works out once per position.
type wideGen struct {
	p        *Position
	w        *wideBoards
	v        *Variant
	us, them Colour
	boards   Board // the number of boards
	kb       Board // our king's board
	ksq      Square
	occ      [maxBoards]uint64
	region   uint64
	// inCheck: our king is in check now. Then every candidate needs the
	// full test; otherwise only one that moves the king or empties a
	// square of its board on a line through it (lines), since filling
	// squares and taking enemy men cannot give check.
	inCheck bool
	lines   uint64
}

func (p *Position) newWideGen() wideGen {
	w := &p.wide.wideBoards
	g := wideGen{p: p, w: w, v: &p.variant, us: p.side, them: p.side.Other(), boards: Board(p.variant.Boards()), region: p.variant.region()}
	for b := BoardA; b < g.boards; b++ {
		g.occ[b] = w.occupied(b)
	}
	g.kb = w.kingBoard(g.us)
	g.ksq = lsb(w.men[g.kb][g.us][King])
	g.lines = queenAttacks(g.ksq, 0)
	g.inCheck = g.checked(g.kb, g.ksq, &change{})
	return g
}

// kingSafe reports whether our king, ending on square ksq of board kb, is
// out of check once c is made.
func (g *wideGen) kingSafe(kb Board, ksq Square, c *change) bool {
	if !g.inCheck && kb == g.kb && ksq == g.ksq && c.off[kb]&g.lines == 0 {
		return true
	}
	return !g.checked(kb, ksq, c)
}

// attackedOn reports whether colour by attacks square sq of board b once
// the change c is made (for by's men on b: ordinary chess attacks on b,
// with the board's occupancy after c and without the men c removes).
func (w *wideBoards) attackedOn(b Board, sq Square, c *change, by Colour, occ uint64) bool {
	return attackedBy(&w.men[b][by], ^c.gone[b], sq, (occ&^c.off[b])|c.on[b], by)
}

// checked reports whether a king of colour us standing on square sq of
// board b would be in check once c is made: attacked on b, or in
// alice-stone, facing an enemy man other than a pawn on its square of the
// other board (a null capture).
func (g *wideGen) checked(b Board, sq Square, c *change) bool {
	if g.w.attackedOn(b, sq, c, g.them, g.occ[b]) {
		return true
	}
	if g.v.null == nullCapture {
		o := b.Other()
		return (g.w.occ[o][g.them]&^g.w.men[o][g.them][Pawn]&^c.gone[o])&bit(sq) != 0
	}
	return false
}

// wideInCheck reports whether colour c's king is in check.
func (p *Position) wideInCheck(c Colour) bool {
	g := p.newWideGen()
	if c != g.us {
		g.us, g.them = c, c.Other()
		g.kb = g.w.kingBoard(c)
		g.ksq = lsb(g.w.men[g.kb][c][King])
	}
	return g.checked(g.kb, g.ksq, &change{})
}

// wideLegalMoves fills ml with the legal moves on the general path.
func (p *Position) wideLegalMoves(ml *MoveList) {
	ml.N = 0
	g := p.newWideGen()
	for x := BoardA; x < g.boards; x++ {
		g.genBoard(x, ml)
	}
	if p.castling != 0 && p.variant.canCastle() {
		g.genCastling(ml)
	}
	if p.ep != NoSquare {
		g.genEnPassant(ml)
	}
}

// genBoard generates the moves of our men on board x.
func (g *wideGen) genBoard(x Board, ml *MoveList) {
	w := g.w
	ours, theirs := w.occ[x][g.us], w.occ[x][g.them]
	occX := g.occ[x]
	for men := ours; men != 0; {
		from := popLSB(&men)
		kind := w.mailbox[x][from].Kind()
		var dests uint64
		switch kind {
		case Pawn:
			g.genPawn(x, from, ml)
		case Knight:
			dests = knightAttacks[from]
		case Bishop:
			dests = bishopAttacks(from, occX)
		case Rook:
			dests = rookAttacks(from, occX)
		case Queen:
			dests = queenAttacks(from, occX)
		case King:
			dests = kingAttacks[from]
		}
		for dests &= ^ours & g.region; dests != 0; {
			to := popLSB(&dests)
			g.movement(x, from, to, newMove(from, to), theirs&bit(to) != 0, ml)
		}
		if g.v.null == nullPlain || g.v.null == nullCapture && kind != Pawn {
			g.genNull(x, from, ml)
		}
	}
}

// genPawn generates the pawn's pushes, double step and captures on x.
func (g *wideGen) genPawn(x Board, from Square, ml *MoveList) {
	occX, theirs := g.occ[x], g.w.occ[x][g.them]
	fwd, startRank, lastRank := Square(8), 1, 7
	if g.us == Black {
		fwd, startRank, lastRank = -8, 6, 0
	}
	add := func(to Square, capture bool, flags Move) {
		if to.Rank() == lastRank {
			for k := Queen; k >= Knight; k-- {
				g.movement(x, from, to, newPromotion(from, to, k), capture, ml)
			}
			return
		}
		g.movement(x, from, to, newMove(from, to)|flags, capture, ml)
	}
	if one := from + fwd; occX&bit(one) == 0 {
		add(one, false, 0)
		if two := one + fwd; from.Rank() == startRank && !g.v.noDouble && occX&bit(two) == 0 {
			add(two, false, flagDouble)
		}
	}
	for caps := pawnAttacks[g.us][from] & theirs; caps != 0; {
		add(popLSB(&caps), true, 0)
	}
}

// targets returns the boards a man that moved on x to square to may end on
// under the variant's transfer rule: those whose landing square is empty
// among the other boards, and x itself where it may stay.
func (g *wideGen) targets(x Board, land uint64) (ts [maxBoards]Board, n int) {
	empty := func(b Board) bool { return g.occ[b]&land == 0 }
	switch g.v.transfer {
	case transferAlways:
		if y := x.Other(); empty(y) {
			ts[0], n = y, 1
		}
	case transferUnlessBlocked:
		ts[0], n = x, 1
		if y := x.Other(); empty(y) {
			ts[0] = y
		}
	case transferOptional:
		ts[0], n = x, 1
		if y := x.Other(); empty(y) {
			ts[1], n = y, 2
		}
	case transferChosen:
		for b := BoardA; b < g.boards; b++ {
			if b != x && empty(b) {
				ts[n] = b
				n++
			}
		}
	}
	return ts, n
}

// movement adds the legal moves of the movement from → to on board x (m
// names its squares, promotion and flags), one per target board.
func (g *wideGen) movement(x Board, from, to Square, m Move, capture bool, ml *MoveList) {
	var mid change
	mid.off[x], mid.on[x] = bit(from), bit(to)
	if capture {
		mid.gone[x] = bit(to)
	}
	g.land(x, from, to, m, &mid, ml)
}

// land adds move m, whose movement from → to on board x makes the change
// mid, once for each board its man may end on where the king is then safe.
func (g *wideGen) land(x Board, from, to Square, m Move, mid *change, ml *MoveList) {
	king := from == g.ksq && x == g.kb
	ksq := g.ksq
	if king {
		ksq = to
	}
	// Before the transfer: safe on x, if the king stands there.
	if x == g.kb && !g.kingSafe(x, ksq, mid) {
		return
	}
	ts, n := g.targets(x, bit(to))
	for _, t := range ts[:n] {
		fin := *mid
		if t != x {
			fin.off[x] |= bit(to)
			fin.on[x] = 0
			fin.on[t] |= bit(to)
		}
		kb := g.kb
		if king {
			kb = t
		}
		if g.kingSafe(kb, ksq, &fin) {
			ml.add(m.withBoards(x, t))
		}
	}
}

// genNull adds the legal null moves of the man on square sq of board x.
func (g *wideGen) genNull(x Board, sq Square, ml *MoveList) {
	king := sq == g.ksq && x == g.kb
	// Before the transfer nothing has moved: the king on x must not be in
	// check — except that in alice-stone a king's own null move is judged
	// on its landing square alone.
	if x == g.kb && !(king && g.v.null == nullCapture) && g.inCheck {
		return
	}
	m := newMove(sq, sq) | flagNull
	for t := BoardA; t < g.boards; t++ {
		if t == x {
			continue
		}
		var fin change
		fin.off[x], fin.on[t] = bit(sq), bit(sq)
		switch there := g.w.mailbox[t][sq]; {
		case there == NoPiece:
		case g.v.null == nullCapture && there.Colour() == g.them && there.Kind() != King:
			fin.gone[t] = bit(sq)
		default:
			continue
		}
		kb := g.kb
		if king {
			kb = t
		}
		if g.kingSafe(kb, g.ksq, &fin) {
			ml.add(m.withBoards(x, t))
		}
	}
}

// genCastling adds the legal castlings: legal on the board where the
// unmoved king and rook stand by ordinary rules, then both men go to a
// target board as the variant's transfer rule says, for both landing
// squares at once.
func (g *wideGen) genCastling(ml *MoveList) {
	x := g.kb
	rook := MakePiece(g.us, Rook)
	none := &change{}
	for _, cs := range castlings[2*g.us : 2*g.us+2] {
		if g.p.castling&cs.flag == 0 || g.ksq != cs.kingFrom || g.w.mailbox[x][cs.rookFrom] != rook || g.occ[x]&cs.empty != 0 {
			continue
		}
		if g.inCheck {
			continue
		}
		crossed := true
		for sqs := cs.passed; sqs != 0 && crossed; {
			crossed = !g.checked(x, popLSB(&sqs), none)
		}
		if !crossed {
			continue
		}
		ts, n := g.targets(x, bit(cs.kingTo)|bit(cs.rookTo))
		for _, t := range ts[:n] {
			var fin change
			fin.off[x] = bit(cs.kingFrom) | bit(cs.rookFrom)
			fin.on[t] = bit(cs.kingTo) | bit(cs.rookTo)
			if g.kingSafe(t, cs.kingTo, &fin) {
				ml.add((newMove(cs.kingFrom, cs.kingTo) | flagCastle).withBoards(x, t))
			}
		}
	}
}

// genEnPassant adds the en-passant captures (alice-ep): a pawn on the board
// the double step was made on takes onto the passed square; the
// double-stepped pawn, on another board, goes.
func (g *wideGen) genEnPassant(ml *MoveList) {
	ep := g.p.ep
	victim := ep - 8
	if g.us == Black {
		victim = ep + 8
	}
	for vb := BoardA; vb < g.boards; vb++ {
		if g.w.mailbox[vb][victim] != MakePiece(g.them, Pawn) {
			continue
		}
		for x := BoardA; x < g.boards; x++ {
			if x == vb || g.occ[x]&bit(ep) != 0 {
				continue
			}
			for takers := g.w.men[x][g.us][Pawn] & pawnAttacks[g.them][ep]; takers != 0; {
				from := popLSB(&takers)
				var mid change
				mid.off[x], mid.on[x] = bit(from), bit(ep)
				mid.off[vb], mid.gone[vb] = bit(victim), bit(victim)
				g.land(x, from, ep, newMove(from, ep)|flagEnPassant, &mid, ml)
			}
		}
	}
}
