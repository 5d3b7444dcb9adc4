// Package board16 writes and reads Alice Chess positions and moves on the
// one board XBoard can show: the variant's two boards side by side, board A
// on the left. For the variants of two boards of 8 files that is a board of
// 16 files by 8 ranks, files a–h being board A and i–p board B, so a man on
// e4 of board B stands on m4; alice-mini's two boards of 4 files make an
// 8×8 board (a–d board A, e–h board B). Layout says which; alice-3's three
// boards do not fit (see LayoutOf).
//
// A move is written from the man's square on the board it stands on to its
// square on the board it ends on: 1. e4 is "e2m4" (the pawn leaves e2 of A
// and lands on e4 of B), a null move (alice-null, alice-stone) "e4m4", a
// move that stays on its board (alice-optional-transfer, alice-stone)
// "e2e4". A capture that takes a man on the mover's board and then passes
// through the looking glass travels in two legs: onto the victim's square,
// then across ("a8a2," "a2i2"); MoveLegs writes those, ParseMove reads both
// forms. A capture that stays on its board, and a null move that takes the
// man on its landing square (alice-stone), land on the victim: one leg. An
// en-passant capture (alice-ep) is one leg too, to the passed square on the
// landing board: XBoard then takes the pawn behind it itself.
//
//	pos := env.NewPosition(env.Alice)
//	board16.FEN(pos)                          // "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1"
//	m, err := board16.ParseMove(pos, "e2m4")
//	fen, err := board16.ParseFEN(s, env.Alice) // back to the project's FEN ('|' marks board B)
package board16

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/alicezero/alicezero/env"
)

// MaxFiles is the widest board XBoard draws: BOARD_FILES in its common.h
// (holdings included), and at most 16 ranks likewise.
const MaxFiles = 16

// Square is a square of XBoard's board: File 0 to Width-1 (board B's
// files follow board A's), Rank 0–7.
type Square struct{ File, Rank int }

// String names q: "e4", "m4".
func (q Square) String() string {
	return string([]byte{byte('a' + q.File), byte('1' + q.Rank)})
}

// ParseSquare reads a square name "a1" to "p8" (Layout.Split checks that
// it lies on a variant's board).
func ParseSquare(t string) (Square, bool) {
	if len(t) != 2 || t[0] < 'a' || t[0] >= 'a'+MaxFiles || t[1] < '1' || t[1] > '8' {
		return Square{}, false
	}
	return Square{int(t[0] - 'a'), int(t[1] - '1')}, true
}

// Layout is how a variant's two boards lie side by side on XBoard's board.
type Layout struct {
	// Files is the number of files of each board: 8, or 4 in alice-mini.
	Files int
}

// LayoutOf returns the layout of variant v, or an error when XBoard cannot
// show it: alice-3's three boards would need 24 files side by side or 24
// ranks stacked, and XBoard's board has at most 16 of either. (Stacking
// board C over A and B on a 16×16 board would fit, but XBoard would then
// promote pawns on its rank 16, not on rank 8 of each board, and name
// ranks past 9 in two digits.)
func LayoutOf(v env.Variant) (Layout, error) {
	if v.Boards() != 2 {
		return Layout{}, fmt.Errorf("variant %s: %d boards of %d files side by side are %d files wide, and XBoard's board has at most %d files (and %d ranks)",
			v.Name, v.Boards(), v.Files(), v.Boards()*v.Files(), MaxFiles, MaxFiles)
	}
	return Layout{Files: v.Files()}, nil
}

// layout is the layout of pos's variant, which must be one LayoutOf
// accepts.
func layout(pos *env.Position) Layout { return Layout{Files: pos.Variant().Files()} }

// Width is the number of files of XBoard's board: both boards'.
func (l Layout) Width() int { return 2 * l.Files }

// Geometry is the board-size part of the setup command: "16x8+0_fairy"
// (no holdings, the fairy parent variant).
func (l Layout) Geometry() string { return fmt.Sprintf("%dx8+0_fairy", l.Width()) }

// At returns square s of board b.
func (l Layout) At(s env.Square, b env.Board) Square {
	return Square{s.File() + l.Files*int(b), s.Rank()}
}

// Split returns the square of the variant's boards that q is, and its
// board; ok is false when q lies off XBoard's board.
func (l Layout) Split(q Square) (s env.Square, b env.Board, ok bool) {
	if q.File < 0 || q.File >= l.Width() || q.Rank < 0 || q.Rank > 7 {
		return env.NoSquare, env.BoardA, false
	}
	return env.SquareAt(q.File%l.Files, q.Rank), env.Board(q.File / l.Files), true
}

// Path returns where m, a legal move of pos, starts (the man's square on
// its board), takes (the victim's square of a capture on the mover's board
// that then passes to another board, the end of the first of two legs;
// else the landing square) and ends.
func Path(pos *env.Position, m env.Move) (from, mid, land Square) {
	l := layout(pos)
	x, t := pos.MoveBoards(m)
	from, land = l.At(m.From(), x), l.At(m.To(), t)
	if TwoLegs(pos, m) {
		return from, l.At(m.To(), x), land
	}
	return from, land, land
}

// Move writes m, a legal move of pos, in one leg: from the square on the
// man's board to the square on the board it ends on ("e2m4"; a rook taking
// on a2 of board A and passing to B is "a8i2"). See MoveLegs for what
// XBoard is sent.
func Move(pos *env.Position, m env.Move) string {
	from, _, land := Path(pos, m)
	return from.String() + land.String() + promotion(m)
}

func promotion(m env.Move) string {
	if k := m.Promotion(); k != env.NoKind {
		return string(k.Letter())
	}
	return ""
}

// MoveLegs writes m, a legal move of pos, as the legs of an XBoard move:
// one leg, or for a capture that passes to another board two, onto the
// victim's square (which takes it) and then through the looking glass:
// "a8a2," "a2i2".
func MoveLegs(pos *env.Position, m env.Move) []string {
	from, mid, land := Path(pos, m)
	if mid != land {
		return []string{from.String() + mid.String() + ",", mid.String() + land.String() + promotion(m)}
	}
	return []string{from.String() + land.String() + promotion(m)}
}

// TwoLegs reports whether m, a legal move of pos, goes in two legs:
// whether it takes a man on its own board and then passes to another
// (castling, null moves and en passant never do; a capture that stays on
// its board lands on the victim).
func TwoLegs(pos *env.Position, m env.Move) bool {
	if m.IsCastling() || m.IsNull() || m.IsEnPassant() {
		return false
	}
	x, t := pos.MoveBoards(m)
	return t != x && pos.PieceOn(m.To(), x) != env.NoPiece
}

// Legs is a move as read from the GUI: its squares, leg by leg (two for
// one leg, three for two), and the promotion suffix ("" or one of qrbn).
type Legs struct {
	Squares   []Square
	Promotion string
}

// SplitMove reads the shape of a coordinate move of one leg ("e2m4",
// "e7m8q") or two ("a8a2,a2i2": the second leg starts where the first
// ended), without a position.
func SplitMove(s string) (Legs, bool) {
	var l Legs
	legs := strings.Split(strings.TrimRight(s, "+#!?"), ",")
	if len(legs) > 2 {
		return l, false
	}
	for i, leg := range legs {
		if len(leg) < 4 {
			return l, false
		}
		from, ok1 := ParseSquare(leg[0:2])
		to, ok2 := ParseSquare(leg[2:4])
		if !ok1 || !ok2 {
			return l, false
		}
		if i == 0 {
			l.Squares = append(l.Squares, from)
		} else if from != l.Squares[len(l.Squares)-1] {
			return l, false
		}
		l.Squares = append(l.Squares, to)
		suffix := strings.TrimPrefix(strings.ToLower(leg[4:]), "=")
		if suffix != "" && (i < len(legs)-1 || len(suffix) > 1 || !strings.Contains("qrbn", suffix)) {
			return l, false
		}
		l.Promotion = suffix
	}
	return l, true
}

// LooksLikeMove reports whether s has the shape of a coordinate move.
func LooksLikeMove(s string) bool {
	_, ok := SplitMove(s)
	return ok
}

// ParseMove reads a move in XBoard's coordinates (one leg, or a capture
// that passes to another board in two legs through the victim's square)
// and returns it if it is legal in pos.
func ParseMove(pos *env.Position, s string) (env.Move, error) {
	legs, ok := SplitMove(s)
	if !ok {
		return env.NoMove, fmt.Errorf("%q is not a coordinate move", s)
	}
	l := layout(pos)
	first, last := legs.Squares[0], legs.Squares[len(legs.Squares)-1]
	from, x, ok1 := l.Split(first)
	to, t, ok2 := l.Split(last)
	if !ok1 || !ok2 {
		return env.NoMove, fmt.Errorf("%s: off the board (files a-%c, ranks 1-8)", s, 'a'+l.Width()-1)
	}
	var ml env.MoveList
	pos.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		mx, mt := pos.MoveBoards(m)
		if m.From() != from || m.To() != to || mx != x || mt != t || promotion(m) != legs.Promotion {
			continue
		}
		if len(legs.Squares) == 3 && (!TwoLegs(pos, m) || legs.Squares[1] != l.At(m.To(), x)) {
			return env.NoMove, fmt.Errorf("%s: two legs are for a capture that passes to the other board, through the victim's square", s)
		}
		return m, nil
	}
	pc := pos.PieceOn(from, x)
	switch {
	case pc == env.NoPiece:
		return env.NoMove, fmt.Errorf("%s: no man on %s of board %v", s, from, x)
	case pc.Colour() != pos.SideToMove():
		return env.NoMove, fmt.Errorf("%s: the man on %s of board %v is not %v's", s, from, x, pos.SideToMove())
	case x == t && !stays(pos.Variant()):
		// Reading e2e4 as the project's notation would leave the GUI
		// showing the man on the wrong board.
		return env.NoMove, fmt.Errorf("%s: in %s a move always lands on the other board (%s)", s, pos.Variant().Name, l.describe())
	}
	return env.NoMove, fmt.Errorf("%s: not legal here (%s)", s, l.describe())
}

// stays reports whether a man may end a move on the board it started on
// in v.
func stays(v env.Variant) bool { return v.SharedSquares() }

// describe names the files of each board.
func (l Layout) describe() string {
	return fmt.Sprintf("files a-%c are board A, %c-%c board B", 'a'+l.Files-1, 'a'+l.Files, 'a'+l.Width()-1)
}

// Line writes a sequence of moves from pos (left unchanged) in one-leg
// coordinates, stopping at a move that is not legal.
func Line(pos *env.Position, pv []env.Move) string {
	var b strings.Builder
	played := 0
	var ml env.MoveList
	for _, m := range pv {
		pos.LegalMoves(&ml)
		if !ml.Contains(m) {
			break
		}
		if played > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(Move(pos, m))
		pos.MakeMove(m)
		played++
	}
	for range played {
		pos.UnmakeMove()
	}
	return b.String()
}

// FEN writes pos as a FEN of XBoard's board: each rank lists board A's
// squares, then board B's; the other fields are the project's (the
// en-passant square, used only by alice-ep, is named on board A's files).
// Men on both boards of one square are on different squares here.
func FEN(pos *env.Position) string {
	l := layout(pos)
	var cells [8][MaxFiles]byte
	for sq := env.Square(0); sq < 64; sq++ {
		if sq.File() >= l.Files {
			continue
		}
		for b := env.BoardA; b <= env.BoardB; b++ {
			if pc := pos.PieceOn(sq, b); pc != env.NoPiece {
				q := l.At(sq, b)
				cells[q.Rank][q.File] = pc.Letter()
			}
		}
	}
	rest := strings.Fields(pos.FEN())[1:]
	return Grid(&cells, l.Width()) + " " + strings.Join(rest, " ")
}

// Grid writes the first width files of a board of one-letter cells (0 for
// an empty square, cells[rank][file]) as FEN's first field: rank 8 first,
// runs of empty squares as numbers. XBoard's highlight command takes the
// same form.
func Grid(cells *[8][MaxFiles]byte, width int) string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for _, c := range cells[r][:width] {
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// ParseFEN converts a FEN of XBoard's board for variant v to the project's
// FEN ('|' before board-B men; a square with men on both boards, possible
// where v.SharedSquares, as a bracket group "[Q|p]"). A FEN in the
// project's notation (a '|' or '[' in it, or ranks as wide as one board)
// is returned unchanged. Shredder-style castling letters (the rook's file,
// as XBoard may write them) become KQkq, and an en-passant square on board
// B's files is named on board A's.
func ParseFEN(fen string, v env.Variant) (string, error) {
	l, err := LayoutOf(v)
	if err != nil {
		return "", err
	}
	fields := strings.Fields(fen)
	if len(fields) == 0 {
		return "", errors.New("empty FEN")
	}
	if strings.ContainsAny(fields[0], "|[") {
		return fen, nil
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return "", fmt.Errorf("FEN %q: want 8 ranks, got %d", fen, len(ranks))
	}
	var out strings.Builder
	for i, rank := range ranks {
		cells, err := readRank(rank, l.Width())
		if err != nil {
			return "", fmt.Errorf("FEN %q: rank %d: %w", fen, 8-i, err)
		}
		if len(cells) == l.Files && i == 0 {
			return fen, nil // ranks of one board: the project's notation
		}
		if len(cells) != l.Width() {
			return "", fmt.Errorf("FEN %q: rank %d has %d squares, want %d", fen, 8-i, len(cells), l.Width())
		}
		if i > 0 {
			out.WriteByte('/')
		}
		empty := 0
		for f := range l.Files {
			a, bb := cells[f], cells[f+l.Files]
			if a == 0 && bb == 0 {
				empty++
				continue
			}
			if empty > 0 {
				out.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			switch {
			case a != 0 && bb != 0 && !v.SharedSquares():
				return "", fmt.Errorf("FEN %q: %c%d is occupied on both boards, which %s never allows", fen, 'a'+f, 8-i, v.Name)
			case a != 0 && bb != 0:
				out.WriteString("[" + string(a) + "|" + string(bb) + "]")
			case bb != 0:
				out.WriteString("|" + string(bb))
			default:
				out.WriteByte(a)
			}
		}
		if empty > 0 {
			out.WriteString(strconv.Itoa(empty))
		}
	}
	rest := fields[1:]
	if len(rest) >= 2 {
		rest[1] = l.castling(rest[1])
	}
	if len(rest) >= 3 && len(rest[2]) == 2 && rest[2][0] >= byte('a'+l.Files) && rest[2][0] < byte('a'+l.Width()) {
		rest[2] = string(rest[2][0]-byte(l.Files)) + rest[2][1:]
	}
	s := out.String()
	if len(rest) > 0 {
		s += " " + strings.Join(rest, " ")
	}
	return s, nil
}

// readRank reads one FEN rank into cells (0 for an empty square), refusing
// more than width squares.
func readRank(rank string, width int) ([]byte, error) {
	cells := make([]byte, 0, width)
	for j := 0; j < len(rank); j++ {
		c := rank[j]
		switch {
		case c >= '1' && c <= '9':
			n := int(c - '0')
			for j+1 < len(rank) && rank[j+1] >= '0' && rank[j+1] <= '9' && n <= width {
				j++
				n = 10*n + int(rank[j]-'0')
			}
			if len(cells)+n > width {
				return nil, errors.New("too long")
			}
			for range n {
				cells = append(cells, 0)
			}
		case strings.IndexByte("pnbrqkPNBRQK", c) >= 0:
			if len(cells) == width {
				return nil, errors.New("too long")
			}
			cells = append(cells, c)
		default:
			return nil, fmt.Errorf("unexpected %q", c)
		}
	}
	return cells, nil
}

// castling maps Shredder-style castling letters (the rook's file, as
// XBoard may write them: h or p for a rook on the h-file of board A or B,
// a or i for the a-file) to KQkq; the project's rules castle with the
// rooks of the a- and h-files only.
func (l Layout) castling(c string) string {
	if c == "-" {
		return c
	}
	last, bLast, bFirst := rune('a'+l.Files-1), rune('a'+l.Width()-1), rune('a'+l.Files)
	var b strings.Builder
	for _, r := range c {
		upper := r >= 'A' && r <= 'Z'
		lr := r
		if upper {
			lr += 'a' - 'A'
		}
		switch lr {
		case last, bLast:
			lr = 'k'
		case 'a', bFirst:
			lr = 'q'
		}
		if upper {
			lr -= 'a' - 'A'
		}
		b.WriteRune(lr)
	}
	return b.String()
}
