package env

// wideBoards holds the men of a variant in which a square may hold men on
// several boards: each board's men by colour and kind, each board's
// occupancy by colour, and a mailbox per board. Unused boards stay empty.
type wideBoards struct {
	men     [maxBoards][2][6]uint64
	occ     [maxBoards][2]uint64
	mailbox [maxBoards][64]Piece
}

// wideGame is the general path's part of a Position: the men now and as
// they were before each move made.
type wideGame struct {
	wideBoards
	history []wideBoards
}

func newWideGame() *wideGame {
	w := &wideGame{}
	w.clear()
	return w
}

func (w *wideBoards) clear() {
	*w = wideBoards{}
	for b := range w.mailbox {
		for s := range w.mailbox[b] {
			w.mailbox[b][s] = NoPiece
		}
	}
}

func (w *wideGame) clone() *wideGame {
	q := &wideGame{wideBoards: w.wideBoards}
	q.history = append(make([]wideBoards, 0, len(w.history)+64), w.history...)
	return q
}

func (w *wideGame) copyFrom(q *wideGame) {
	w.wideBoards = q.wideBoards
	w.history = append(w.history[:0], q.history...)
}

func (w *wideGame) unmake() {
	n := len(w.history) - 1
	w.wideBoards = w.history[n]
	w.history = w.history[:n]
}

// put places pc on square sq of board b, which must be empty there, and
// updates the hash.
func (w *wideBoards) put(pc Piece, sq Square, b Board, hash *uint64) {
	m := bit(sq)
	w.men[b][pc.Colour()][pc.Kind()] |= m
	w.occ[b][pc.Colour()] |= m
	w.mailbox[b][sq] = pc
	*hash ^= zobristPiece[pc][b][sq]
}

// remove takes the man off square sq of board b and returns it.
func (w *wideBoards) remove(sq Square, b Board, hash *uint64) Piece {
	pc := w.mailbox[b][sq]
	m := bit(sq)
	w.men[b][pc.Colour()][pc.Kind()] &^= m
	w.occ[b][pc.Colour()] &^= m
	w.mailbox[b][sq] = NoPiece
	*hash ^= zobristPiece[pc][b][sq]
	return pc
}

// menHash is the part of the Zobrist key that is the men.
func (w *wideBoards) menHash() uint64 {
	var h uint64
	for b := range w.mailbox {
		for sq, pc := range w.mailbox[b] {
			if pc != NoPiece {
				h ^= zobristPiece[pc][b][sq]
			}
		}
	}
	return h
}

// occupied returns the squares occupied on board b.
func (w *wideBoards) occupied(b Board) uint64 { return w.occ[b][White] | w.occ[b][Black] }

// kingBoard returns the board colour c's king stands on.
func (w *wideBoards) kingBoard(c Colour) Board {
	for b := range w.men {
		if w.men[b][c][King] != 0 {
			return Board(b)
		}
	}
	return BoardA
}

// castlingSquares describes one castling: the right's flag, and the
// king's and rook's squares before and after.
type castlingSquares struct {
	flag                               uint8
	kingFrom, kingTo, rookFrom, rookTo Square
	empty                              uint64 // squares between king and rook
	passed                             uint64 // squares the king crosses or lands on
}

// castlings lists the four castlings: White's king and queen side, then
// Black's.
var castlings = func() (t [4]castlingSquares) {
	for i, c := range [2]Colour{White, Black} {
		r := 0
		if c == Black {
			r = 56
		}
		sq := func(file int) Square { return Square(r + file) }
		t[2*i] = castlingSquares{CastleWK << (2 * i), sq(4), sq(6), sq(7), sq(5),
			bit(sq(5)) | bit(sq(6)), bit(sq(5)) | bit(sq(6))}
		t[2*i+1] = castlingSquares{CastleWQ << (2 * i), sq(4), sq(2), sq(0), sq(3),
			bit(sq(1)) | bit(sq(2)) | bit(sq(3)), bit(sq(3)) | bit(sq(2))}
	}
	return t
}()

// rightsLost returns the castling rights that go when the man pc leaves
// square sq of board b (it moves, or it is taken there), with kb the board
// of pc's king. A right needs its king and rook unmoved on one board, so
// only the king or a rook on its corner of the king's board carries one:
// another man passing that square on another board changes nothing.
func rightsLost(pc Piece, sq Square, b, kb Board) uint8 {
	c := pc.Colour()
	switch pc.Kind() {
	case King:
		return (CastleWK | CastleWQ) << (2 * c)
	case Rook:
		if b != kb {
			return 0
		}
		for _, cs := range castlings[2*c : 2*c+2] {
			if cs.rookFrom == sq {
				return cs.flag
			}
		}
	}
	return 0
}

// applyWide plays m on the general path (MakeMove has saved the shared
// state; the men are saved here).
func (p *Position) applyWide(m Move) {
	w := p.wide
	w.history = append(w.history, w.wideBoards)
	s := &p.state
	from, to := m.From(), m.To()
	x, t := p.MoveBoards(m)
	us, them := s.side, s.side.Other()
	pc := w.mailbox[x][from]

	if s.ep != NoSquare {
		s.hash ^= zobristEP[s.ep]
		s.ep = NoSquare
	}
	s.halfmove++
	lost := uint8(0)
	capture := func(sq Square, b Board) {
		victim := w.remove(sq, b, &s.hash)
		lost |= rightsLost(victim, sq, b, w.kingBoard(them))
		s.halfmove = 0
	}
	switch {
	case m&flagNull != 0:
		if w.mailbox[t][to] != NoPiece {
			capture(to, t)
		}
	case m&flagEnPassant != 0:
		victim := to - 8
		if us == Black {
			victim = to + 8
		}
		// The double-stepped pawn stands on some board other than the
		// capturer's.
		for b := BoardA; int(b) < p.variant.Boards(); b++ {
			if b != x && w.mailbox[b][victim] == MakePiece(them, Pawn) {
				capture(victim, b)
				break
			}
		}
	case w.mailbox[x][to] != NoPiece:
		capture(to, x)
	}
	lost |= rightsLost(pc, from, x, w.kingBoard(us))
	w.remove(from, x, &s.hash)
	if k := m.Promotion(); k != NoKind {
		w.put(MakePiece(us, k), to, t, &s.hash)
	} else {
		w.put(pc, to, t, &s.hash)
	}
	if pc.Kind() == Pawn {
		s.halfmove = 0
	}
	if m&flagCastle != 0 {
		rookFrom, rookTo := castlingRookSquares(to)
		w.remove(rookFrom, x, &s.hash)
		w.put(MakePiece(us, Rook), rookTo, t, &s.hash)
	}
	if s.castling&lost != 0 {
		s.hash ^= zobristCastling[s.castling]
		s.castling &^= lost
		s.hash ^= zobristCastling[s.castling]
	}
	if m&flagDouble != 0 && p.variant.EnPassant {
		passed := (from + to) / 2
		// As on the fast path: the target is recorded only when an enemy
		// pawn on the first board could take.
		takers := w.men[x][them][Pawn] & pawnAttacks[us][passed]
		if takers != 0 && p.men(White)&bit(passed) == 0 && p.men(Black)&bit(passed) == 0 {
			s.ep = passed
			s.hash ^= zobristEP[passed]
		}
	}
	if us == Black {
		s.fullmove++
	}
	s.side = them
	s.hash ^= zobristSide
	s.lastMove = m
}
