package env

import (
	"fmt"
	"strings"
)

// pieceLetters are the SAN letters by Kind; a pawn has none.
const pieceLetters = "PNBRQK"

// SAN writes m, a legal move of p, in Standard Algebraic Notation: piece
// letter, the least disambiguation that tells it apart from every other
// legal move of a man of its kind to the same square, whichever board that
// man stands on (file, else rank, else both), "x" for a capture, "=Q" for a
// promotion, "O-O"/"O-O-O" for castling, and "+" or "#" when the move gives
// check or mate. In the default rules that is plain SAN, without the board
// suffix (see SANWithBoard). Where the board a man ends on is not implied
// (alice-3's choice of board, alice-stone's stay or transfer), the suffix
// naming it ("e4/C", "Nf3/A") is written when it is needed to tell two
// moves apart, and always for a null move ("Qd1/B": the queen on d1 passes
// to d1 of board B); where two men of one kind share a square on different
// boards, the moving man's board is written in front ("a:Rd5"), as in UCI.
//
// SAN plays m to find check and mate and takes it back: p is unchanged on
// return, but it must not be shared with another goroutine meanwhile. The
// move is matched by its squares, promotion and boards; one that is not
// legal in p is written in UCI notation, since SAN cannot name it.
func (p *Position) SAN(m Move) string {
	var buf [24]byte
	return string(p.appendSAN(buf[:0], m, false))
}

// SANWithBoard is SAN followed by the annotators' suffix naming the board
// the piece lands on: "d4/A", "Nxf7/B", "Bb5#/B". For castling the suffix
// names the king's landing board.
func (p *Position) SANWithBoard(m Move) string {
	var buf [24]byte
	return string(p.appendSAN(buf[:0], m, true))
}

// sanDetail is what a SAN text writes besides the piece, capture,
// destination and promotion: the landing-board suffix, the from-board
// prefix, the from-square's file and its rank.
type sanDetail struct{ board, prefix, file, rank bool }

// sanDetails are the choices in the writer's order of preference: the
// ordinary disambiguations (none, file, rank, both) first, then the same
// with the suffix, then with the prefix.
var sanDetails = func() (ds [16]sanDetail) {
	for i := range ds {
		ds[i] = sanDetail{file: i&1 != 0, rank: i&2 != 0, board: i&4 != 0, prefix: i&8 != 0}
	}
	return ds
}()

func (p *Position) appendSAN(b []byte, m Move, withBoard bool) []byte {
	var ml MoveList
	p.LegalMoves(&ml)
	legal, ok := ml.Find(m)
	if !ok {
		return append(b, m.UCI()...)
	}
	m = legal
	full := p.sanPartsOf(m)
	sp := full
	for _, d := range sanDetails {
		// A pawn capture always names its file (exd5): it is the only
		// thing that tells it from a push.
		pawnCapture := full.kind == Pawn && full.capture && full.castle == 0
		if m.IsNull() && !d.board || pawnCapture && !d.file {
			continue
		}
		if c := full.only(d); p.countSANMatches(&ml, &c) == 1 {
			sp = c
			break
		}
	}
	if withBoard {
		sp.board = full.board
	}
	b = sp.appendText(b)
	p.MakeMove(m)
	if p.InCheck() {
		if p.CountLegalMoves() == 0 {
			b = append(b, '#')
		} else {
			b = append(b, '+')
		}
	}
	p.UnmakeMove()
	if sp.board >= 0 {
		b = append(b, '/')
		b = append(b, Board(sp.board).String()...)
	}
	return b
}

// sanPartsOf returns every detail of legal move m that SAN could write.
func (p *Position) sanPartsOf(m Move) sanParts {
	x, t := p.MoveBoards(m)
	sp := sanParts{kind: p.PieceOn(m.From(), x).Kind(), fromBoard: int(x), fromFile: m.From().File(), fromRank: m.From().Rank(),
		to: m.To(), capture: p.Captured(m) != NoPiece, promo: m.Promotion(), board: int(t)}
	if m.IsCastling() {
		sp.castle = 2
		if m.To().File() == 6 {
			sp.castle = 1
		}
	}
	return sp
}

// only keeps the details d asks for.
func (sp sanParts) only(d sanDetail) sanParts {
	if !d.board {
		sp.board = -1
	}
	if !d.prefix {
		sp.fromBoard = -1
	}
	if !d.file || sp.castle != 0 {
		sp.fromFile = -1
	}
	if !d.rank || sp.castle != 0 {
		sp.fromRank = -1
	}
	return sp
}

// countSANMatches counts the legal moves of ml that sp names, up to 2.
func (p *Position) countSANMatches(ml *MoveList, sp *sanParts) int {
	n := 0
	for _, o := range ml.Slice() {
		if sp.castle == 0 && o.To() != sp.to {
			continue // the common case, decided cheaply
		}
		if sp.matches(p, o) && sp.boardsMatch(p, o) {
			if n++; n > 1 {
				break
			}
		}
	}
	return n
}

// appendText writes sp as SAN without check marks and board suffix.
func (sp *sanParts) appendText(b []byte) []byte {
	if sp.fromBoard >= 0 {
		b = append(b, Board(sp.fromBoard).letter(), ':')
	}
	switch sp.castle {
	case 1:
		return append(b, "O-O"...)
	case 2:
		return append(b, "O-O-O"...)
	}
	if sp.kind != Pawn {
		b = append(b, pieceLetters[sp.kind])
	}
	if sp.fromFile >= 0 {
		b = append(b, byte('a'+sp.fromFile))
	}
	if sp.fromRank >= 0 {
		b = append(b, byte('1'+sp.fromRank))
	}
	if sp.capture {
		b = append(b, 'x')
	}
	b = append(b, byte('a'+sp.to.File()), byte('1'+sp.to.Rank()))
	if sp.promo != NoKind {
		b = append(b, '=', pieceLetters[sp.promo])
	}
	return b
}

// sanParts is a SAN move taken apart by parseSANText.
type sanParts struct {
	castle    int    // 0: not castling; 1: O-O; 2: O-O-O
	kind      Kind   // the moving piece
	fromBoard int    // the moving man's board named by a prefix ("a:"), or -1
	fromFile  int    // -1 when not given
	fromRank  int    // -1 when not given
	to        Square // destination
	capture   bool   // "x" or ":" written
	promo     Kind   // NoKind when none written
	board     int    // landing board named by a suffix, or -1
}

// ParseSAN reads a move in SAN and returns it if it is legal in p. It takes
// published games as they are written: a board suffix "/A", "/B" (or "/C"
// in alice-3), checked against the board the piece lands on and used to
// tell two otherwise equal moves apart, redundant disambiguation ("Ngf3",
// "Ng1f3", "Rbg8/A"), check, mate and evaluation marks ("+", "#", "!",
// "?", "!!", "?!", "!?"), castling with letter O or digit zero, an optional
// capture mark ("x" or ":"), and a promotion with or without "=" ("e8=Q",
// "e8Q"). Where a square may hold men on several boards, a leading "a:",
// "b:" or "c:" names the moving man's board. A capture mark on a move that
// captures nothing, an ambiguous move (two legal moves match) and an
// illegal one are errors: a *MoveError naming the text and the position.
func (p *Position) ParseSAN(s string) (Move, error) {
	fail := func(reason string) (Move, error) {
		return NoMove, &MoveError{Move: s, FEN: p.FEN(), Reason: reason}
	}
	sp, reason := parseSANText(s, p.variant.SharedSquares())
	if reason != "" {
		return fail(reason)
	}
	if reason := p.variant.offBoardReason(sp.to); reason != "" && sp.castle == 0 {
		return fail(reason)
	}
	if sp.board >= p.variant.Boards() {
		return fail(fmt.Sprintf("board suffix /%s: variant %s has %d boards", Board(sp.board), p.variant.Name, p.variant.Boards()))
	}
	if sp.fromBoard >= p.variant.Boards() {
		return fail(fmt.Sprintf("board prefix %c: names board %s; variant %s has %d boards", Board(sp.fromBoard).letter(), Board(sp.fromBoard), p.variant.Name, p.variant.Boards()))
	}
	var ml MoveList
	p.LegalMoves(&ml)
	boardMismatch := NoMove
	match, n := firstMatches(&ml, func(m Move) bool {
		if !sp.matches(p, m) {
			return false
		}
		if !sp.boardsMatch(p, m) {
			boardMismatch = m
			return false
		}
		return true
	})
	switch {
	case n == 1:
		return match[0], nil
	case n > 1:
		return fail("ambiguous: " + p.SAN(match[0]) + " and " + p.SAN(match[1]) + " both match")
	case boardMismatch != NoMove:
		x, t := p.MoveBoards(boardMismatch)
		if sp.fromBoard >= 0 && int(x) != sp.fromBoard {
			return fail(fmt.Sprintf("%s is played from board %s, not %s", p.SAN(boardMismatch), x, Board(sp.fromBoard)))
		}
		return fail(fmt.Sprintf("%s lands on board %s, not %s", p.SANWithBoard(boardMismatch), t, Board(sp.board)))
	}
	return fail(p.noMatchReason(&ml, sp))
}

// matches reports whether legal move m fits the parsed text, boards aside.
func (sp *sanParts) matches(p *Position, m Move) bool {
	if sp.castle != 0 {
		return m.IsCastling() && (m.To().File() == 6) == (sp.castle == 1)
	}
	from := m.From()
	x, _ := p.MoveBoards(m)
	if m.IsCastling() || m.To() != sp.to || p.PieceOn(from, x).Kind() != sp.kind || m.Promotion() != sp.promo {
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
	if sp.capture && p.Captured(m) == NoPiece {
		return false
	}
	return true
}

// boardsMatch reports whether legal move m is played from the board the
// prefix names and lands on the one the suffix names, where they are
// written.
func (sp *sanParts) boardsMatch(p *Position, m Move) bool {
	x, t := p.MoveBoards(m)
	return (sp.fromBoard < 0 || int(x) == sp.fromBoard) && (sp.board < 0 || int(t) == sp.board)
}

// noMatchReason explains why no legal move fits sp, as precisely as the
// position allows.
func (p *Position) noMatchReason(ml *MoveList, sp sanParts) string {
	if sp.castle != 0 {
		return "castling is not legal here"
	}
	name := kindNames[sp.kind]
	if p.count(p.side, sp.kind) == 0 {
		return p.side.String() + " has no " + name
	}
	if sp.promo == NoKind && sp.kind == Pawn {
		for _, m := range ml.Slice() {
			if m.To() == sp.to && m.Promotion() != NoKind {
				return "promotion piece missing (write e.g. " + sp.to.String() + "=Q)"
			}
		}
	}
	if sp.capture && (p.men(White)|p.men(Black))&bit(sp.to) == 0 {
		return "marked as a capture, but " + sp.to.String() + " is empty"
	}
	return "illegal move: no legal " + name + " move to " + sp.to.String() + " fits"
}

var kindNames = [...]string{"pawn", "knight", "bishop", "rook", "queen", "king"}

// parseSANText takes SAN text apart without looking at a position; it
// returns a reason when the text is not SAN at all. With prefix, a leading
// "a:", "b:" or "c:" names the moving man's board (without, ':' after a
// file is a capture mark, as in "e4:d5").
func parseSANText(s string, prefix bool) (sp sanParts, reason string) {
	sp = sanParts{fromBoard: -1, fromFile: -1, fromRank: -1, promo: NoKind, board: -1}
	t := trimMarks(s)
	if prefix && len(t) >= 2 && t[1] == ':' && t[0] >= 'a' && t[0] <= 'c' {
		sp.fromBoard = int(t[0] - 'a')
		t = t[2:]
	}
	// The board suffix may come before or after the marks ("Bxf2/A+",
	// "Bxf2+/A").
	if n := len(t); n >= 2 && t[n-2] == '/' {
		switch t[n-1] {
		case 'A', 'a':
			sp.board = int(BoardA)
		case 'B', 'b':
			sp.board = int(BoardB)
		case 'C', 'c':
			sp.board = int(BoardC)
		default:
			return sp, "board suffix must be /A, /B or /C"
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
