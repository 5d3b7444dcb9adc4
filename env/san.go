package env

import (
	"strings"
)

// pieceLetters are the SAN letters by Kind; a pawn has none.
const pieceLetters = "PNBRQK"

// SAN writes m, a legal move of p, in Standard Algebraic Notation: piece
// letter, the least disambiguation that tells it apart from every other
// piece of its kind that can legally reach the same square on either board
// (file, else rank, else both), "x" for a capture, "=Q" for a promotion,
// "O-O"/"O-O-O" for castling, and "+" or "#" when the move gives check or
// mate. The result is plain SAN, without the board suffix (see
// SANWithBoard).
//
// SAN plays m to find check and mate and takes it back: p is unchanged on
// return, but it must not be shared with another goroutine meanwhile. The
// move is matched by its squares and promotion; one that is not legal in p
// is written in UCI notation, since SAN cannot name it.
func (p *Position) SAN(m Move) string {
	var buf [16]byte
	return string(p.appendSAN(buf[:0], m, false))
}

// SANWithBoard is SAN followed by the annotators' suffix naming the board
// the piece lands on: "d4/A", "Nxf7/B", "Bb5#/B". For castling the suffix
// names the king's landing board.
func (p *Position) SANWithBoard(m Move) string {
	var buf [16]byte
	return string(p.appendSAN(buf[:0], m, true))
}

func (p *Position) appendSAN(b []byte, m Move, withBoard bool) []byte {
	var ml MoveList
	p.LegalMoves(&ml)
	legal, ok := findLegal(&ml, m)
	if !ok {
		return append(b, m.UCI()...)
	}
	m = legal
	from, to := m.From(), m.To()
	kind := p.mailbox[from].Kind()
	switch {
	case m.IsCastling() && to.File() == 6:
		b = append(b, "O-O"...)
	case m.IsCastling():
		b = append(b, "O-O-O"...)
	default:
		capture := p.mailbox[to] != NoPiece || m.IsEnPassant()
		if kind != Pawn {
			b = append(b, pieceLetters[kind])
		}
		if kind == Pawn && capture {
			// A pawn capture always names its file (exd5): it is the
			// only thing that tells it from a push.
			b = append(b, byte('a'+from.File()))
		} else {
			b = appendDisambiguation(b, p, &ml, m, kind)
		}
		if capture {
			b = append(b, 'x')
		}
		b = append(b, byte('a'+to.File()), byte('1'+to.Rank()))
		if k := m.Promotion(); k != NoKind {
			b = append(b, '=', pieceLetters[k])
		}
	}
	lands := p.boardOf(from).Other()
	p.MakeMove(m)
	if p.InCheck() {
		if p.CountLegalMoves() == 0 {
			b = append(b, '#')
		} else {
			b = append(b, '+')
		}
	}
	p.UnmakeMove()
	if withBoard {
		b = append(b, '/')
		b = append(b, lands.String()...)
	}
	return b
}

// appendDisambiguation appends the from-square's file, rank or both, as
// little as tells m apart from the other legal moves of the same kind of
// piece to the same square. Promotions of one pawn share a from-square and
// differ in their suffix instead.
func appendDisambiguation(b []byte, p *Position, ml *MoveList, m Move, kind Kind) []byte {
	from, to := m.From(), m.To()
	var others, sameFile, sameRank bool
	for _, o := range ml.Slice() {
		if o.To() != to || o.From() == from || o.IsCastling() || p.mailbox[o.From()].Kind() != kind {
			continue
		}
		others = true
		sameFile = sameFile || o.From().File() == from.File()
		sameRank = sameRank || o.From().Rank() == from.Rank()
	}
	switch {
	case !others:
		return b
	case !sameFile:
		return append(b, byte('a'+from.File()))
	case !sameRank:
		return append(b, byte('1'+from.Rank()))
	}
	return append(b, byte('a'+from.File()), byte('1'+from.Rank()))
}

// sanParts is a SAN move taken apart by parseSANText.
type sanParts struct {
	castle   int    // 0: not castling; 1: O-O; 2: O-O-O
	kind     Kind   // the moving piece
	fromFile int    // -1 when not given
	fromRank int    // -1 when not given
	to       Square // destination
	capture  bool   // "x" or ":" written
	promo    Kind   // NoKind when none written
	board    int    // landing board named by a suffix, or -1
}

// ParseSAN reads a move in SAN and returns it if it is legal in p. It takes
// published games as they are written: a board suffix "/A" or "/B" (checked
// against the board the piece lands on, and used to tell two otherwise equal
// moves apart), redundant disambiguation ("Ngf3", "Ng1f3", "Rbg8/A"),
// check, mate and evaluation marks ("+", "#", "!", "?", "!!", "?!", "!?"),
// castling with letter O or digit zero, an optional capture mark ("x" or
// ":"), and a promotion with or without "=" ("e8=Q", "e8Q"). A capture mark
// on a move that captures nothing, an ambiguous move (two legal moves match)
// and an illegal one are errors: a *MoveError naming the text and the
// position.
func (p *Position) ParseSAN(s string) (Move, error) {
	fail := func(reason string) (Move, error) {
		return NoMove, &MoveError{Move: s, FEN: p.FEN(), Reason: reason}
	}
	sp, reason := parseSANText(s)
	if reason != "" {
		return fail(reason)
	}
	var ml MoveList
	p.LegalMoves(&ml)
	var match [2]Move // the first two matches are all an error needs
	n, boardMismatch := 0, NoMove
	for _, m := range ml.Slice() {
		if !sp.matches(p, m) {
			continue
		}
		if sp.board >= 0 && int(p.boardOf(m.From()).Other()) != sp.board {
			boardMismatch = m
			continue
		}
		if n < len(match) {
			match[n] = m
		}
		n++
	}
	switch {
	case n == 1:
		return match[0], nil
	case n > 1:
		return fail("ambiguous: " + p.SAN(match[0]) + " and " + p.SAN(match[1]) + " both match")
	case boardMismatch != NoMove:
		return fail(p.SANWithBoard(boardMismatch) + " lands on board " + p.boardOf(boardMismatch.From()).Other().String() + ", not " + Board(sp.board).String())
	}
	return fail(p.noMatchReason(&ml, sp))
}

// matches reports whether legal move m fits the parsed text.
func (sp *sanParts) matches(p *Position, m Move) bool {
	if sp.castle != 0 {
		return m.IsCastling() && (m.To().File() == 6) == (sp.castle == 1)
	}
	from := m.From()
	if m.IsCastling() || m.To() != sp.to || p.mailbox[from].Kind() != sp.kind || m.Promotion() != sp.promo {
		return false
	}
	if sp.fromRank >= 0 && from.Rank() != sp.fromRank {
		return false
	}
	switch {
	case sp.fromFile >= 0:
		if from.File() != sp.fromFile {
			return false
		}
	case sp.kind == Pawn && from.File() != sp.to.File():
		// A pawn move that names no file is a push: "d5" never means exd5.
		return false
	}
	if sp.capture && p.mailbox[m.To()] == NoPiece && !m.IsEnPassant() {
		return false
	}
	return true
}

// noMatchReason explains why no legal move fits sp, as precisely as the
// position allows.
func (p *Position) noMatchReason(ml *MoveList, sp sanParts) string {
	if sp.castle != 0 {
		return "castling is not legal here"
	}
	name := kindNames[sp.kind]
	if p.pieces[p.side][sp.kind] == 0 {
		return p.side.String() + " has no " + name
	}
	if sp.promo == NoKind && sp.kind == Pawn {
		for _, m := range ml.Slice() {
			if m.To() == sp.to && m.Promotion() != NoKind {
				return "promotion piece missing (write e.g. " + sp.to.String() + "=Q)"
			}
		}
	}
	if sp.capture && p.mailbox[sp.to] == NoPiece {
		return "marked as a capture, but " + sp.to.String() + " is empty"
	}
	return "illegal move: no legal " + name + " move to " + sp.to.String() + " fits"
}

var kindNames = [...]string{"pawn", "knight", "bishop", "rook", "queen", "king"}

// parseSANText takes SAN text apart without looking at a position; it
// returns a reason when the text is not SAN at all.
func parseSANText(s string) (sp sanParts, reason string) {
	sp = sanParts{fromFile: -1, fromRank: -1, promo: NoKind, board: -1}
	t := trimMarks(s)
	// The board suffix may come before or after the marks ("Bxf2/A+",
	// "Bxf2+/A").
	if n := len(t); n >= 2 && t[n-2] == '/' {
		switch t[n-1] {
		case 'A', 'a':
			sp.board = int(BoardA)
		case 'B', 'b':
			sp.board = int(BoardB)
		default:
			return sp, "board suffix must be /A or /B"
		}
		t = trimMarks(t[:n-2])
	}
	if t == "" {
		return sp, "empty move"
	}
	switch t {
	case "O-O", "0-0", "o-o":
		sp.castle = 1
		return sp, ""
	case "O-O-O", "0-0-0", "o-o-o":
		sp.castle = 2
		return sp, ""
	}

	// Promotion: "=Q", "=q", or a letter right after the rank ("e8Q",
	// "e8q": after a digit a lower-case letter cannot be a file).
	if n := len(t); n >= 2 && t[n-2] == '=' {
		k := kindFromLetter(t[n-1])
		if k == NoKind || k == Pawn || k == King {
			return sp, "promotion must be to Q, R, B or N"
		}
		sp.promo = k
		t = t[:n-2]
	} else if n >= 3 && t[n-2] >= '1' && t[n-2] <= '8' && strings.IndexByte("QRBNqrbn", t[n-1]) >= 0 {
		sp.promo = kindFromLetter(t[n-1])
		t = t[:n-1]
	}

	// Destination: the last two characters.
	n := len(t)
	if n < 2 {
		return sp, "not SAN (want e.g. e4, Nf3, exd5, O-O)"
	}
	to, ok := ParseSquare(t[n-2:])
	if !ok {
		return sp, "not SAN (want e.g. e4, Nf3, exd5, O-O)"
	}
	sp.to = to
	t = t[:n-2]

	// Piece letter, then disambiguation, then the capture mark.
	sp.kind = Pawn
	if t != "" && t[0] >= 'A' && t[0] <= 'Z' {
		k := strings.IndexByte(pieceLetters, t[0])
		if k < 0 {
			return sp, "unknown piece letter " + t[:1] + " (want K, Q, R, B, N or P)"
		}
		sp.kind = Kind(k)
		t = t[1:]
	}
	if n := len(t); n > 0 && (t[n-1] == 'x' || t[n-1] == ':' || t[n-1] == '-') {
		sp.capture = t[n-1] != '-' // "-" as in long algebraic "Ng1-f3"
		t = t[:n-1]
	}
	if t != "" && t[0] >= 'a' && t[0] <= 'h' {
		sp.fromFile = int(t[0] - 'a')
		t = t[1:]
	}
	if t != "" && t[0] >= '1' && t[0] <= '8' {
		sp.fromRank = int(t[0] - '1')
		t = t[1:]
	}
	if t != "" {
		return sp, "not SAN (want e.g. e4, Nf3, exd5, O-O)"
	}
	if sp.promo != NoKind && sp.kind != Pawn {
		return sp, "only a pawn can promote"
	}
	return sp, ""
}

// trimMarks removes trailing check, mate and evaluation marks.
func trimMarks(s string) string {
	return strings.TrimRight(s, "+#!?")
}

// ParseMove reads a move in UCI notation or, failing that, in SAN, for
// input typed by a person. Text shaped like UCI ("e2e4", "e7e8q") is judged
// as UCI only; anything else as SAN.
func (p *Position) ParseMove(s string) (Move, error) {
	if looksUCI(s) {
		return p.ParseUCI(s)
	}
	return p.ParseSAN(s)
}

// looksUCI reports whether s has the shape of a UCI move. SAN with a full
// from-square ("e2e4" for a pawn) then means the same move anyway.
func looksUCI(s string) bool {
	if len(s) != 4 && len(s) != 5 {
		return false
	}
	_, ok1 := ParseSquare(s[0:2])
	_, ok2 := ParseSquare(s[2:4])
	return ok1 && ok2 && (len(s) == 4 || strings.IndexByte("qrbn", s[4]) >= 0)
}
