package env

import (
	"fmt"
	"slices"
)

// An independent, deliberately naive move generator written straight from
// the rule book (§2–§4 and every entry of §8), on mailboxes of two or three
// boards of 8 ranks and 8 or 4 files. It shares no code with the engine's
// generators: it reads a Position's men, side, castling rights and
// en-passant square through the public accessors, takes the variant's rules
// from its own table below (written from the rule book's text, not from the
// engine's switches), finds check by asking whether an enemy man could
// capture the king with its movement, and plays its moves on its own
// boards, so that it can count perft on its own as well.

// refRules is one entry of the rule book's §8 as the reference reads it.
type refRules struct {
	boards, files int
	nullMoves     bool   // men may make null moves
	nullPawns     bool   // … pawns included (alice-null)
	nullCaptures  bool   // a null move takes an enemy man other than a king on its landing square; check by it; the king may escape by its own (alice-stone)
	transfer      string // "always", "unless-occupied", "optional", "chosen"
	doubleStep    bool
	castling      bool
	enPassant     bool
}

func refRulesOf(name string) refRules {
	def := refRules{boards: 2, files: 8, transfer: "always", doubleStep: true, castling: true}
	switch name {
	case "alice", "alice-black-b":
	case "alice-ep":
		def.enPassant = true
	case "alice-null":
		def.nullMoves, def.nullPawns = true, true
	case "alice-optional-transfer":
		def.transfer = "unless-occupied"
	case "alice-stone":
		def.transfer, def.nullMoves, def.nullCaptures = "optional", true, true
	case "alice-mini":
		def.files, def.doubleStep, def.castling = 4, false, false
	case "alice-3":
		def.boards, def.transfer = 3, "chosen"
	default:
		panic("reference: no rules for " + name)
	}
	return def
}

// refSq is a square as (file, rank).
type refSq struct{ f, r int }

func (s refSq) String() string { return string([]byte{byte('a' + s.f), byte('1' + s.r)}) }

// refPos is a position on the reference's own boards.
type refPos struct {
	rules refRules
	men   [3][8][8]Piece // [board][rank][file]
	side  Colour
	// rights[i] is castling right i (K, Q, k, q) and the board its king and
	// rook stand on, or -1 when the right is gone.
	rights [4]int
	// ep is the square a double step passed, the board it was made on,
	// and where the stepped pawn stands now; epBoard is -1 when no double
	// step was just made.
	ep, epVictim      refSq
	epBoard, epVBoard int
}

func (q *refPos) at(b int, s refSq) Piece      { return q.men[b][s.r][s.f] }
func (q *refPos) set(b int, s refSq, pc Piece) { q.men[b][s.r][s.f] = pc }
func (q *refPos) inside(s refSq) bool {
	return s.f >= 0 && s.f < q.rules.files && s.r >= 0 && s.r < 8
}

// refFromPosition copies p onto the reference's boards.
func refFromPosition(p *Position) *refPos {
	q := &refPos{rules: refRulesOf(p.Variant().Name), side: p.SideToMove(), epBoard: -1}
	for b := 0; b < 3; b++ {
		for r := 0; r < 8; r++ {
			for f := 0; f < 8; f++ {
				q.men[b][r][f] = NoPiece
				if b < q.rules.boards {
					q.men[b][r][f] = p.PieceOn(SquareAt(f, r), Board(b))
				}
			}
		}
	}
	for i := range q.rights {
		q.rights[i] = -1
		if p.Castling()&(1<<i) != 0 {
			// The right's king stands on e1 or e8 of some board.
			king, r := MakePiece(Colour(i/2), King), 7*(i/2)
			for b := 0; b < q.rules.boards; b++ {
				if q.at(b, refSq{4, r}) == king {
					q.rights[i] = b
				}
			}
		}
	}
	if ep := p.EnPassant(); ep != NoSquare {
		q.ep = refSq{ep.File(), ep.Rank()}
		dir := 1
		if q.side == White {
			dir = -1 // Black stepped: the pawn stands below the passed square
		}
		q.epVictim = refSq{q.ep.f, q.ep.r + dir}
		for b := 0; b < q.rules.boards; b++ {
			if q.at(b, q.epVictim) == MakePiece(q.side.Other(), Pawn) {
				q.epVBoard = b
				q.epBoard = 1 - b // two boards: the step was made on the other
			}
		}
	}
	return q
}

// refMove is one move: a movement from one square to another of board x
// (or a null move), then the man ends on board t.
type refMove struct {
	x, t           int
	from, to       refSq
	promo          Kind
	null, castle   bool
	enPassant      bool
	rookFrom, rook refSq // castling only
}

// key names the move for comparisons: "a:e2e4>b", promotion letter after
// the squares.
func (m refMove) key() string {
	s := fmt.Sprintf("%c:%s%s", 'a'+m.x, m.from, m.to)
	if m.promo != NoKind {
		s += string(m.promo.Letter())
	}
	return fmt.Sprintf("%s>%c", s, 'a'+m.t)
}

var (
	refKnight = [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	refKing   = [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	refRook   = refKing[:4]
	refBishop = refKing[4:]
)

// couldCapture reports whether the man on square s of board b could capture
// a man on square target of that board by its movement alone (the rule
// book's "legal movement (a)": its ordinary move on its own board, blocked
// only by men of that board).
func (q *refPos) couldCapture(b int, s, target refSq) bool {
	pc := q.at(b, s)
	df, dr := target.f-s.f, target.r-s.r
	steps, slide := refKing, false
	switch pc.Kind() {
	case Pawn:
		fwd := 1
		if pc.Colour() == Black {
			fwd = -1
		}
		return dr == fwd && (df == 1 || df == -1)
	case Knight:
		steps = refKnight
	case Bishop:
		steps, slide = refBishop, true
	case Rook:
		steps, slide = refRook, true
	case Queen:
		slide = true
	}
	for _, d := range steps {
		for n := (refSq{s.f + d[0], s.r + d[1]}); q.inside(n); n = (refSq{n.f + d[0], n.r + d[1]}) {
			if n == target {
				return true
			}
			if !slide || q.at(b, n) != NoPiece {
				break
			}
		}
	}
	return false
}

// attacked reports whether a man of colour c on square s of board b would
// be in check there: an enemy man of that board could capture it, or in
// alice-stone an enemy man other than a pawn stands on s of the other
// board (a null capture).
func (q *refPos) attacked(b int, s refSq, c Colour) bool {
	for r := 0; r < 8; r++ {
		for f := 0; f < q.rules.files; f++ {
			if pc := q.men[b][r][f]; pc != NoPiece && pc.Colour() != c && q.couldCapture(b, refSq{f, r}, s) {
				return true
			}
		}
	}
	if q.rules.nullCaptures {
		pc := q.at(1-b, s)
		return pc != NoPiece && pc.Colour() != c && pc.Kind() != Pawn
	}
	return false
}

func (q *refPos) king(c Colour) (int, refSq) {
	for b := 0; b < q.rules.boards; b++ {
		for r := 0; r < 8; r++ {
			for f := 0; f < q.rules.files; f++ {
				if q.men[b][r][f] == MakePiece(c, King) {
					return b, refSq{f, r}
				}
			}
		}
	}
	panic("reference: no king")
}

func (q *refPos) inCheck(c Colour) bool {
	b, s := q.king(c)
	return q.attacked(b, s, c)
}

// targetBoards lists the boards a man that moved to square s of board x
// may end on (landing is the squares that must be empty there, one or, for
// castling, two).
func (q *refPos) targetBoards(x int, landing ...refSq) []int {
	empty := func(t int) bool {
		for _, s := range landing {
			if q.at(t, s) != NoPiece {
				return false
			}
		}
		return true
	}
	var ts []int
	switch q.rules.transfer {
	case "always": // the other board, whose landing square must be empty
		if empty(1 - x) {
			ts = append(ts, 1-x)
		}
	case "unless-occupied": // the other board if empty there, else stay
		if empty(1 - x) {
			ts = append(ts, 1-x)
		} else {
			ts = append(ts, x)
		}
	case "optional": // stay, or go to the other board if empty there
		ts = append(ts, x)
		if empty(1 - x) {
			ts = append(ts, 1-x)
		}
	case "chosen": // either other board that is empty there
		for t := 0; t < q.rules.boards; t++ {
			if t != x && empty(t) {
				ts = append(ts, t)
			}
		}
	}
	return ts
}

// play returns the position after m, and whether m is legal: the movement
// on board x, the before-transfer check, the transfer, the after-transfer
// check.
func (q *refPos) play(m refMove) (*refPos, bool) {
	n := *q
	us := q.side
	pc := n.at(m.x, m.from)
	kingMoves := pc.Kind() == King
	var captured Piece = NoPiece
	var capturedAt refSq
	capturedOn := -1
	if !m.null {
		// (a) The movement on x.
		switch {
		case m.enPassant:
			captured, capturedAt, capturedOn = n.at(q.epVBoard, q.epVictim), q.epVictim, q.epVBoard
			n.set(q.epVBoard, q.epVictim, NoPiece)
		case n.at(m.x, m.to) != NoPiece:
			captured, capturedAt, capturedOn = n.at(m.x, m.to), m.to, m.x
		}
		n.set(m.x, m.from, NoPiece)
		moved := pc
		if m.promo != NoKind {
			moved = MakePiece(us, m.promo)
		}
		n.set(m.x, m.to, moved)
		if m.castle {
			n.set(m.x, m.rookFrom, NoPiece)
			n.set(m.x, m.rook, MakePiece(us, Rook))
		}
	}
	// Before the transfer: the king must not be in check on x — except a
	// king's own null move in alice-stone, judged on its landing square.
	if kb, _ := n.king(us); kb == m.x && !(m.null && kingMoves && q.rules.nullCaptures) && n.inCheck(us) {
		return nil, false
	}
	// (b) The transfer.
	if m.t != m.x {
		if there := n.at(m.t, m.to); there != NoPiece {
			if !(m.null && q.rules.nullCaptures && there.Colour() != us && there.Kind() != King) {
				return nil, false
			}
			captured, capturedAt, capturedOn = there, m.to, m.t
		}
		n.set(m.t, m.to, n.at(m.x, m.to))
		n.set(m.x, m.to, NoPiece)
		if m.castle {
			n.set(m.t, m.rook, n.at(m.x, m.rook))
			n.set(m.x, m.rook, NoPiece)
		}
	}
	if n.inCheck(us) {
		return nil, false
	}
	// Castling rights: gone when their king or rook moves or is taken.
	for i := range n.rights {
		b := n.rights[i]
		if b < 0 {
			continue
		}
		kingSq, rookSq := refSq{4, 7 * (i / 2)}, refSq{7 * (1 - i%2), 7 * (i / 2)}
		if m.x == b && (m.from == kingSq || m.from == rookSq) || capturedOn == b && capturedAt == rookSq {
			n.rights[i] = -1
		}
	}
	n.epBoard = -1
	if pc.Kind() == Pawn && !m.null && (m.to.r-m.from.r == 2 || m.from.r-m.to.r == 2) {
		n.ep, n.epBoard = refSq{m.from.f, (m.from.r + m.to.r) / 2}, m.x
		n.epVictim, n.epVBoard = m.to, m.t
	}
	n.side = us.Other()
	_ = captured
	return &n, true
}

// movements lists the movements (a) of the man on square s of board x:
// destination, promotion, en passant.
func (q *refPos) movements(x int, s refSq) []refMove {
	pc := q.at(x, s)
	us := pc.Colour()
	var out []refMove
	add := func(to refSq, ep bool) {
		last := 7
		if us == Black {
			last = 0
		}
		if pc.Kind() == Pawn && to.r == last {
			for _, k := range []Kind{Queen, Rook, Bishop, Knight} {
				out = append(out, refMove{x: x, from: s, to: to, promo: k})
			}
			return
		}
		out = append(out, refMove{x: x, from: s, to: to, promo: NoKind, enPassant: ep})
	}
	free := func(t refSq) bool { return q.inside(t) && q.at(x, t) == NoPiece }
	enemy := func(t refSq) bool {
		return q.inside(t) && q.at(x, t) != NoPiece && q.at(x, t).Colour() != us
	}
	if pc.Kind() == Pawn {
		fwd, start := 1, 1
		if us == Black {
			fwd, start = -1, 6
		}
		if one := (refSq{s.f, s.r + fwd}); free(one) {
			add(one, false)
			if two := (refSq{s.f, s.r + 2*fwd}); q.rules.doubleStep && s.r == start && free(two) {
				add(two, false)
			}
		}
		for _, df := range []int{-1, 1} {
			t := refSq{s.f + df, s.r + fwd}
			if enemy(t) {
				add(t, false)
			}
			// En passant: onto the passed square of the board the double
			// step was made on, which must be empty there.
			if q.rules.enPassant && q.epBoard == x && t == q.ep && free(t) {
				add(t, true)
			}
		}
		return out
	}
	for r := 0; r < 8; r++ {
		for f := 0; f < q.rules.files; f++ {
			t := refSq{f, r}
			if (free(t) || enemy(t)) && q.couldCapture(x, s, t) {
				add(t, false)
			}
		}
	}
	return out
}

// legal returns every legal move of the side to move.
func (q *refPos) legal() []refMove {
	var out []refMove
	try := func(m refMove) {
		if _, ok := q.play(m); ok {
			out = append(out, m)
		}
	}
	for x := 0; x < q.rules.boards; x++ {
		for r := 0; r < 8; r++ {
			for f := 0; f < q.rules.files; f++ {
				s := refSq{f, r}
				pc := q.at(x, s)
				if pc == NoPiece || pc.Colour() != q.side {
					continue
				}
				for _, m := range q.movements(x, s) {
					for _, t := range q.targetBoards(x, m.to) {
						m.t = t
						try(m)
					}
				}
				// A null move goes to the same square of another board.
				if q.rules.nullMoves && (pc.Kind() != Pawn || q.rules.nullPawns) {
					for t := 0; t < q.rules.boards; t++ {
						if t != x {
							try(refMove{x: x, t: t, from: s, to: s, promo: NoKind, null: true})
						}
					}
				}
			}
		}
	}
	if q.rules.castling {
		for i, b := range q.rights {
			if b < 0 || Colour(i/2) != q.side {
				continue
			}
			q.castle(i, b, try)
		}
	}
	return out
}

// castle offers castling i (K, Q, k, q) on board x: legal there by
// ordinary rules, then king and rook go to a target board together.
func (q *refPos) castle(i, x int, try func(refMove)) {
	r := 7 * (i / 2)
	king, rook := refSq{4, r}, refSq{7, r}
	kingTo, rookTo := refSq{6, r}, refSq{5, r}
	between, crossed := []int{5, 6}, []int{4, 5, 6}
	if i%2 == 1 {
		rook, kingTo, rookTo = refSq{0, r}, refSq{2, r}, refSq{3, r}
		between, crossed = []int{1, 2, 3}, []int{4, 3, 2}
	}
	if q.at(x, king) != MakePiece(q.side, King) || q.at(x, rook) != MakePiece(q.side, Rook) {
		return
	}
	for _, f := range between {
		if q.at(x, refSq{f, r}) != NoPiece {
			return
		}
	}
	for _, f := range crossed {
		if q.attacked(x, refSq{f, r}, q.side) {
			return
		}
	}
	for _, t := range q.targetBoards(x, kingTo, rookTo) {
		try(refMove{x: x, t: t, from: king, to: kingTo, promo: NoKind, castle: true, rookFrom: rook, rook: rookTo})
	}
}

// refLegalKeys returns the keys of the reference's legal moves in p.
func refLegalKeys(p *Position) []string {
	var out []string
	for _, m := range refFromPosition(p).legal() {
		out = append(out, m.key())
	}
	slices.Sort(out)
	return out
}

// refPerft counts the leaves of the reference's own move tree.
func (q *refPos) perft(depth int) uint64 {
	ms := q.legal()
	if depth == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for _, m := range ms {
		next, _ := q.play(m)
		n += next.perft(depth - 1)
	}
	return n
}

// engineKey names an engine move as refMove.key does.
func engineKey(p *Position, m Move) string {
	x, t := p.MoveBoards(m)
	s := fmt.Sprintf("%c:%s%s", 'a'+x, m.From(), m.To())
	if k := m.Promotion(); k != NoKind {
		s += string(k.Letter())
	}
	return fmt.Sprintf("%s>%c", s, 'a'+t)
}

// engineLegalKeys returns the keys of the engine's legal moves in p.
func engineLegalKeys(p *Position) []string {
	var ml MoveList
	p.LegalMoves(&ml)
	out := make([]string, 0, ml.N)
	for _, m := range ml.Slice() {
		out = append(out, engineKey(p, m))
	}
	slices.Sort(out)
	return out
}
