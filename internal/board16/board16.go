// Package board16 writes and reads Alice Chess positions and moves on one
// board of 16 files by 8 ranks, the way XBoard can show the game: files
// a–h are board A and files i–p board B, so a piece on e4 of board B
// stands on m4. Every move lands on the other board, so 1. e4 is "e2m4"
// (the pawn leaves e2 of A and lands on e4 of B). An Alice capture takes
// the piece on the mover's own board and then passes through the looking
// glass, so it travels in two legs: onto the victim's square, then across
// ("a8a2," "a2i2"); MoveLegs writes those, ParseMove reads both forms.
//
//	pos := env.NewPosition(env.Alice)
//	board16.FEN(pos)               // "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1"
//	m, err := board16.ParseMove(pos, "e2m4")
//	fen, err := board16.ParseFEN(s) // back to the project's FEN ('|' marks board B)
package board16

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/alicezero/alicezero/env"
)

// Square is a square of the 16×8 board: File 0–15 (8–15 are board B),
// Rank 0–7.
type Square struct{ File, Rank int }

// At returns square s of board b.
func At(s env.Square, b env.Board) Square {
	return Square{s.File() + 8*int(b), s.Rank()}
}

// Square returns the square of the 8×8 boards q stands on.
func (q Square) Square() env.Square { return env.SquareAt(q.File%8, q.Rank) }

// Board returns the board q belongs to.
func (q Square) Board() env.Board { return env.Board(q.File / 8) }

// String names q: "e4", "m4".
func (q Square) String() string {
	return string([]byte{byte('a' + q.File), byte('1' + q.Rank)})
}

// ParseSquare reads a square name "a1" to "p8".
func ParseSquare(t string) (Square, bool) {
	if len(t) != 2 || t[0] < 'a' || t[0] > 'p' || t[1] < '1' || t[1] > '8' {
		return Square{}, false
	}
	return Square{int(t[0] - 'a'), int(t[1] - '1')}, true
}

// Move writes m, a legal move of pos, in one leg: from the square on the
// piece's board to the square on the other board ("e2m4"; a rook taking
// on a2 of board A is "a8i2"). See MoveLegs for what XBoard is sent.
func Move(pos *env.Position, m env.Move) string {
	_, b := pos.PieceAt(m.From())
	return At(m.From(), b).String() + At(m.To(), b.Other()).String() + promotion(m)
}

func promotion(m env.Move) string {
	if k := m.Promotion(); k != env.NoKind {
		return string(k.Letter())
	}
	return ""
}

// MoveLegs writes m, a legal move of pos, as the legs of an XBoard move:
// one leg, or for a capture two, onto the victim's square (which takes
// it) and then through the looking glass: "a8a2," "a2i2".
func MoveLegs(pos *env.Position, m env.Move) []string {
	_, b := pos.PieceAt(m.From())
	from, mid, land := At(m.From(), b).String(), At(m.To(), b).String(), At(m.To(), b.Other()).String()
	if TwoLegs(pos, m) {
		return []string{from + mid + ",", mid + land + promotion(m)}
	}
	return []string{from + land + promotion(m)}
}

// TwoLegs reports whether m, a legal move of pos, goes in two legs:
// whether it is a capture (castling never is).
func TwoLegs(pos *env.Position, m env.Move) bool {
	if m.IsCastling() {
		return false
	}
	pc, _ := pos.PieceAt(m.To())
	return pc != env.NoPiece
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

// ParseMove reads a move in the 16×8 coordinates (one leg, or a capture in
// two legs through the victim's square) and returns it if it is legal in
// pos.
func ParseMove(pos *env.Position, s string) (env.Move, error) {
	l, ok := SplitMove(s)
	if !ok {
		return env.NoMove, fmt.Errorf("%q is not a coordinate move", s)
	}
	from, to := l.Squares[0], l.Squares[len(l.Squares)-1]
	if from.Board() == to.Board() {
		// Never a move: every move changes board. (Reading e2e4 as the
		// project's notation would leave the GUI showing the piece on the
		// wrong board.)
		return env.NoMove, fmt.Errorf("%s: a move always lands on the other board (files a-h are board A, i-p board B)", s)
	}
	m, err := pos.ParseUCI(from.Square().String() + to.Square().String() + l.Promotion)
	if err != nil {
		return env.NoMove, err
	}
	if _, b := pos.PieceAt(m.From()); b != from.Board() {
		return env.NoMove, fmt.Errorf("%s: the piece on %s stands on board %v", s, m.From(), b)
	}
	if len(l.Squares) == 3 && (l.Squares[1] != At(m.To(), from.Board()) || !TwoLegs(pos, m)) {
		return env.NoMove, fmt.Errorf("%s: two legs are for a capture, through the victim's square", s)
	}
	return m, nil
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

// FEN writes pos as a FEN of the 16×8 board: each rank lists board A's
// eight squares, then board B's; the other fields are the project's (the
// en-passant square, used only by alice-ep, is named on board A's files).
func FEN(pos *env.Position) string {
	var cells [8][16]byte
	for r := range 8 {
		for f := range 16 {
			if pc, board := pos.PieceAt(env.SquareAt(f%8, r)); pc != env.NoPiece && int(board) == f/8 {
				cells[r][f] = pc.Letter()
			}
		}
	}
	rest := strings.Fields(pos.FEN())[1:]
	return Grid(&cells) + " " + strings.Join(rest, " ")
}

// Grid writes a 16×8 board of one-letter cells (0 for an empty square,
// cells[rank][file]) as FEN's first field: rank 8 first, runs of empty
// squares as numbers. XBoard's highlight command takes the same form.
func Grid(cells *[8][16]byte) string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for _, c := range cells[r] {
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

// ParseFEN converts a FEN of the 16×8 board to the project's FEN ('|'
// before board-B pieces). A FEN of 8-file ranks (the project's own) is
// returned unchanged. Shredder-style castling letters (the rook's file)
// become KQkq, and an en-passant square on board B's files is named on
// board A's.
func ParseFEN(fen string) (string, error) {
	fields := strings.Fields(fen)
	if len(fields) == 0 {
		return "", errors.New("empty FEN")
	}
	if strings.Contains(fields[0], "|") {
		return fen, nil
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return "", fmt.Errorf("FEN %q: want 8 ranks, got %d", fen, len(ranks))
	}
	var out strings.Builder
	for i, rank := range ranks {
		cells, err := readRank(rank)
		if err != nil {
			return "", fmt.Errorf("FEN %q: rank %d: %w", fen, 8-i, err)
		}
		if len(cells) == 8 && i == 0 {
			return fen, nil // an 8×8 FEN: the project's notation
		}
		if len(cells) != 16 {
			return "", fmt.Errorf("FEN %q: rank %d has %d squares, want 16", fen, 8-i, len(cells))
		}
		if i > 0 {
			out.WriteByte('/')
		}
		empty := 0
		for f := range 8 {
			a, bb := cells[f], cells[f+8]
			if a != 0 && bb != 0 {
				return "", fmt.Errorf("FEN %q: %c%d is occupied on both boards", fen, 'a'+f, 8-i)
			}
			if a == 0 && bb == 0 {
				empty++
				continue
			}
			if empty > 0 {
				out.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			if bb != 0 {
				out.WriteByte('|')
				out.WriteByte(bb)
			} else {
				out.WriteByte(a)
			}
		}
		if empty > 0 {
			out.WriteString(strconv.Itoa(empty))
		}
	}
	rest := fields[1:]
	if len(rest) >= 2 {
		rest[1] = castling(rest[1])
	}
	if len(rest) >= 3 && len(rest[2]) == 2 && rest[2][0] >= 'i' && rest[2][0] <= 'p' {
		rest[2] = string(rest[2][0]-8) + rest[2][1:]
	}
	s := out.String()
	if len(rest) > 0 {
		s += " " + strings.Join(rest, " ")
	}
	return s, nil
}

// readRank reads one FEN rank into cells (0 for an empty square), refusing
// more than 16 squares.
func readRank(rank string) ([]byte, error) {
	cells := make([]byte, 0, 16)
	for j := 0; j < len(rank); j++ {
		c := rank[j]
		switch {
		case c >= '1' && c <= '9':
			n := int(c - '0')
			for j+1 < len(rank) && rank[j+1] >= '0' && rank[j+1] <= '9' && n <= 16 {
				j++
				n = 10*n + int(rank[j]-'0')
			}
			if len(cells)+n > 16 {
				return nil, errors.New("too long")
			}
			for range n {
				cells = append(cells, 0)
			}
		case strings.IndexByte("pnbrqkPNBRQK", c) >= 0:
			if len(cells) == 16 {
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
// XBoard may write them) to KQkq; the project's rules castle with the
// rooks of the a- and h-files only.
func castling(c string) string {
	if c == "-" {
		return c
	}
	return strings.NewReplacer("H", "K", "A", "Q", "h", "k", "a", "q").Replace(c)
}
