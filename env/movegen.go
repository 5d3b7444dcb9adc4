package env

// attacked reports whether square sq is attacked by colour by's pieces
// among attackers (the attackers' board), with occ the occupancy of that
// board.
func (s *state) attacked(sq Square, occ, attackers uint64, by Colour) bool {
	return attackedBy(&s.pieces[by], attackers, sq, occ, by)
}

// attackedBy reports whether colour by's men among pcs (by kind) and
// attackers attack square sq of a board whose occupancy is occ.
func attackedBy(pcs *[6]uint64, attackers uint64, sq Square, occ uint64, by Colour) bool {
	if knightAttacks[sq]&attackers&pcs[Knight] != 0 ||
		pawnAttacks[by.Other()][sq]&attackers&pcs[Pawn] != 0 ||
		kingAttacks[sq]&attackers&pcs[King] != 0 {
		return true
	}
	if bq := (pcs[Bishop] | pcs[Queen]) & attackers; bq != 0 && bishopAttacks(sq, occ)&bq != 0 {
		return true
	}
	if rq := (pcs[Rook] | pcs[Queen]) & attackers; rq != 0 && rookAttacks(sq, occ)&rq != 0 {
		return true
	}
	return false
}

// attackers returns by's pieces among the given set that attack sq.
func (s *state) attackers(sq Square, occ, set uint64, by Colour) uint64 {
	pcs := &s.pieces[by]
	a := knightAttacks[sq]&pcs[Knight] |
		pawnAttacks[by.Other()][sq]&pcs[Pawn] |
		kingAttacks[sq]&pcs[King] |
		bishopAttacks(sq, occ)&(pcs[Bishop]|pcs[Queen]) |
		rookAttacks(sq, occ)&(pcs[Rook]|pcs[Queen])
	return a & set
}

// InCheck reports whether the side to move's king is in check: attacked on
// its board, or in alice-stone, facing a null capture.
func (p *Position) InCheck() bool {
	if p.wide != nil {
		return p.wideInCheck(p.side)
	}
	us := p.side
	ksq := lsb(p.pieces[us][King])
	mask := p.boardMask(p.boardOf(ksq))
	occ := (p.colours[White] | p.colours[Black]) & mask
	return p.attacked(ksq, occ, p.colours[us.Other()]&mask, us.Other())
}

// genContext is what the generator works out once per position.
type genContext struct {
	us, them  Colour
	ksq       Square
	occ       uint64 // both boards
	kMask     uint64 // squares of the king's board
	occK      uint64 // occupancy of the king's board
	occO      uint64 // occupancy of the other board
	theirK    uint64
	theirO    uint64
	checkers  uint64
	pinned    uint64 // our pieces that alone shield the king on its board
	blockMask uint64 // landing squares that keep the king safe, for pieces off its board
}

func (p *Position) context() genContext {
	var g genContext
	g.us = p.side
	g.them = g.us.Other()
	g.ksq = lsb(p.pieces[g.us][King])
	// Squares outside the boards (alice-mini) count as occupied on both:
	// nothing lands there, and no line between two squares of a board
	// crosses them.
	g.occ = p.colours[White] | p.colours[Black] | p.variant.offBoard
	g.kMask = p.boardMask(p.boardOf(g.ksq))
	g.occK = g.occ & g.kMask
	g.occO = g.occ &^ g.kMask
	theirs := p.colours[g.them]
	g.theirK = theirs & g.kMask
	g.theirO = theirs &^ g.kMask
	g.checkers = p.attackers(g.ksq, g.occK, g.theirK, g.them)

	tp := &p.pieces[g.them]
	snipers := (rookAttacks(g.ksq, 0)&(tp[Rook]|tp[Queen]) | bishopAttacks(g.ksq, 0)&(tp[Bishop]|tp[Queen])) & g.theirK
	for snipers != 0 {
		sq := popLSB(&snipers)
		b := between[g.ksq][sq] & g.occK
		if b != 0 && b&(b-1) == 0 {
			g.pinned |= b & p.colours[g.us]
		}
	}

	// A piece from the other board lands on the king's board: it cannot
	// capture there, only block a single sliding check.
	g.blockMask = ^uint64(0)
	if g.checkers != 0 {
		g.blockMask = 0
		if g.checkers&(g.checkers-1) == 0 {
			c := lsb(g.checkers)
			if k := p.mailbox[c].Kind(); k == Bishop || k == Rook || k == Queen {
				g.blockMask = between[g.ksq][c]
			}
		}
	}
	return g
}

// LegalMoves fills ml with every legal move of the position.
func (p *Position) LegalMoves(ml *MoveList) {
	if p.wide != nil {
		p.wideLegalMoves(ml)
		return
	}
	ml.N = 0
	g := p.context()
	p.genPieces(&g, ml, true)
	p.genPieces(&g, ml, false)
	p.genKing(&g, ml)
	p.genCastling(&g, ml)
	if p.ep != NoSquare {
		p.genEnPassant(&g, ml)
	}
	if p.variant.null != nullNone {
		p.genNull(&g, ml)
	}
}

// leavesKingSafe is the exact test for a piece that leaves the king's board
// while the king is in check there or the piece shields it: after the piece
// and any captured piece are gone, the king must not be attacked.
func (p *Position) leavesKingSafe(g *genContext, from, to Square) bool {
	occ := g.occK &^ bit(from) &^ bit(to)
	return !p.attacked(g.ksq, occ, g.theirK&^bit(to), g.them)
}

// genPieces generates the non-king moves of the pieces on the king's board
// (onKingBoard) or on the other board.
func (p *Position) genPieces(g *genContext, ml *MoveList, onKingBoard bool) {
	mask := g.kMask
	if !onKingBoard {
		mask = ^g.kMask
	}
	occX := g.occ & mask
	theirX := p.colours[g.them] & mask
	// Quiet moves need the square empty on both boards; a capture takes an
	// enemy piece on the first board (the square is then empty on the other).
	targets := ^g.occ | theirX
	careful := uint64(0) // pieces whose every move needs the exact test
	risky := uint64(0)   // destinations whose every move needs it
	if onKingBoard {
		careful = g.pinned
		if g.checkers != 0 {
			careful = ^uint64(0)
		}
		// A capturing piece leaves the board too, so a capture empties two
		// squares of the king's board: one aligned with the king may open a
		// line that no pin shows.
		risky = theirX & queenAttacks(g.ksq, 0)
	} else {
		targets &= g.blockMask
		if targets == 0 {
			return
		}
	}
	ours := &p.pieces[g.us]

	emit := func(from Square, dests uint64) {
		if careful&bit(from) == 0 {
			for safe := dests &^ risky; safe != 0; {
				ml.add(newMove(from, popLSB(&safe)))
			}
			dests &= risky
		}
		for dests != 0 {
			to := popLSB(&dests)
			if p.leavesKingSafe(g, from, to) {
				ml.add(newMove(from, to))
			}
		}
	}
	for b := ours[Knight] & mask; b != 0; {
		from := popLSB(&b)
		emit(from, knightAttacks[from]&targets)
	}
	for b := (ours[Bishop] | ours[Queen]) & mask; b != 0; {
		from := popLSB(&b)
		emit(from, bishopAttacks(from, occX)&targets)
	}
	for b := (ours[Rook] | ours[Queen]) & mask; b != 0; {
		from := popLSB(&b)
		emit(from, rookAttacks(from, occX)&targets)
	}
	// A queen's bishop and rook moves are generated separately above; that
	// covers each destination once since the two ray sets are disjoint.

	pawns := ours[Pawn] & mask
	if pawns == 0 {
		return
	}
	// A pawn on its second rank double-steps. In alice-mini, which has no
	// double step, no pawn can stand there (pawns start on the third rank
	// and ParseFEN refuses the impossible), so nothing here needs to know.
	empty := ^g.occ
	var push, dbl, capL, capR uint64
	var fwd int
	promoRank := rank8
	if g.us == White {
		fwd = 8
		push = pawns << 8 & empty & targets
		dbl = ((pawns & rank2) << 8 &^ occX) << 8 & empty & targets
		capL = (pawns &^ fileA) << 7 & theirX & targets
		capR = (pawns &^ fileH) << 9 & theirX & targets
	} else {
		fwd = -8
		promoRank = rank1
		push = pawns >> 8 & empty & targets
		dbl = ((pawns & rank7) >> 8 &^ occX) >> 8 & empty & targets
		capL = (pawns &^ fileA) >> 9 & theirX & targets
		capR = (pawns &^ fileH) >> 7 & theirX & targets
	}
	pawnMoves := func(dests uint64, delta int, flags Move) {
		for dests != 0 {
			to := popLSB(&dests)
			from := to - Square(delta)
			if (careful&bit(from) != 0 || risky&bit(to) != 0) && !p.leavesKingSafe(g, from, to) {
				continue
			}
			if bit(to)&promoRank != 0 {
				for k := Queen; k >= Knight; k-- {
					ml.add(newPromotion(from, to, k))
				}
				continue
			}
			ml.add(newMove(from, to) | flags)
		}
	}
	pawnMoves(push, fwd, 0)
	pawnMoves(dbl, 2*fwd, flagDouble)
	pawnMoves(capL, fwd-1, 0)
	pawnMoves(capR, fwd+1, 0)
}

func (p *Position) genKing(g *genContext, ml *MoveList) {
	dests := kingAttacks[g.ksq] & (^g.occ | g.theirK)
	occX := g.occK &^ bit(g.ksq)
	for dests != 0 {
		to := popLSB(&dests)
		// Before the transfer: safe on the first board; after it: safe on
		// the other, where the landing square is empty.
		if p.attacked(to, occX, g.theirK&^bit(to), g.them) ||
			p.attacked(to, g.occO, g.theirO, g.them) {
			continue
		}
		ml.add(newMove(g.ksq, to))
	}
}

func (p *Position) genCastling(g *genContext, ml *MoveList) {
	rights := p.castling
	if g.us == White {
		rights &= CastleWK | CastleWQ
	} else {
		rights &= CastleBK | CastleBQ
	}
	if rights == 0 || g.checkers != 0 {
		return
	}
	r := 0
	if g.us == Black {
		r = 56
	}
	e := Square(r + 4)
	if g.ksq != e {
		return
	}
	rook := MakePiece(g.us, Rook)
	try := func(rookSq, kingTo, rookTo Square, path, kingPath uint64) {
		if p.mailbox[rookSq] != rook || g.kMask&bit(rookSq) == 0 || g.occK&path != 0 {
			return
		}
		if bit(kingTo)&g.occO != 0 || bit(rookTo)&g.occO != 0 {
			return
		}
		for kp := kingPath; kp != 0; {
			if p.attacked(popLSB(&kp), g.occK, g.theirK, g.them) {
				return
			}
		}
		// After the transfer king and rook both stand on the other board.
		occY := g.occO | bit(kingTo) | bit(rookTo)
		if p.attacked(kingTo, occY, g.theirO, g.them) {
			return
		}
		ml.add(newMove(e, kingTo) | flagCastle)
	}
	if rights&(CastleWK|CastleBK) != 0 {
		try(Square(r+7), Square(r+6), Square(r+5), bit(Square(r+5))|bit(Square(r+6)), bit(Square(r+5))|bit(Square(r+6)))
	}
	if rights&(CastleWQ|CastleBQ) != 0 {
		try(Square(r), Square(r+2), Square(r+3), bit(Square(r+1))|bit(Square(r+2))|bit(Square(r+3)), bit(Square(r+2))|bit(Square(r+3)))
	}
}

// genEnPassant generates en-passant captures (alice-ep). They are rare, so
// each is checked by playing it on a copy.
func (p *Position) genEnPassant(g *genContext, ml *MoveList) {
	ep := p.ep
	victim := ep - 8
	if g.us == Black {
		victim = ep + 8
	}
	if p.mailbox[victim] != MakePiece(g.them, Pawn) || g.occ&bit(ep) != 0 {
		return
	}
	// The capturing pawn stands on the board the double step was made on,
	// the one the victim left.
	x := p.boardOf(victim).Other()
	takers := p.pieces[g.us][Pawn] & p.boardMask(x) & pawnAttacks[g.them][ep]
	for takers != 0 {
		m := newMove(popLSB(&takers), ep) | flagEnPassant
		if p.legalByPlaying(m) {
			ml.add(m)
		}
	}
}

// genNull generates the null moves of alice-null: every man may pass to
// its square of the other board, which is empty since a square holds one
// man. Before the transfer nothing has moved, so a man on the king's board
// cannot make one while the king is in check there (not even the king);
// after it, a man that left the king's board must not have shielded it, the
// king must be safe on its new board, and a man that arrives on the king's
// board may block a check but not capture the checker.
func (p *Position) genNull(g *genContext, ml *MoveList) {
	for men := p.colours[g.us]; men != 0; {
		sq := popLSB(&men)
		var legal bool
		switch {
		case sq == g.ksq:
			legal = g.checkers == 0 && !p.attacked(sq, g.occO, g.theirO, g.them)
		case g.kMask&bit(sq) != 0:
			legal = g.checkers == 0 && p.leavesKingSafe(g, sq, sq)
		default:
			legal = g.blockMask&bit(sq) != 0
		}
		if legal {
			ml.add(newMove(sq, sq) | flagNull)
		}
	}
}

// legalByPlaying plays m and checks that the mover's king is not attacked
// on its board afterwards (m must not be a king move), then takes it back.
func (p *Position) legalByPlaying(m Move) bool {
	saved := p.state
	p.apply(m)
	us := saved.side
	s := &p.state
	ksq := lsb(s.pieces[us][King])
	mask := s.boardMask(s.boardOf(ksq))
	occ := (s.colours[White] | s.colours[Black]) & mask
	legal := !s.attacked(ksq, occ, s.colours[us.Other()]&mask, us.Other())
	p.state = saved
	return legal
}

// CountLegalMoves returns the number of legal moves.
func (p *Position) CountLegalMoves() int {
	var ml MoveList
	p.LegalMoves(&ml)
	return ml.N
}
