package serve

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/alicezero/alicezero/env"
)

var kindNames = [...]string{"pawn", "knight", "bishop", "rook", "queen", "king"}

// whyIllegal says why the man on from of board fb cannot go to to, for a
// player who dropped it there: the landing square is taken on the other
// board, the king is in check, or it does not move so. It is "" when a
// legal move of the man goes to to.
func whyIllegal(p *env.Position, from env.Square, fb env.Board, to env.Square) string {
	pc := p.PieceOn(from, fb)
	if pc == env.NoPiece || pc.Colour() != p.SideToMove() {
		return fmt.Sprintf("no man of yours stands on %s of board %s", from, fb)
	}
	name := kindNames[pc.Kind()]
	var ml env.MoveList
	p.LegalMoves(&ml)
	any := false
	for _, m := range ml.Slice() {
		if x, _ := p.MoveBoards(m); x == fb && m.From() == from {
			any = true
			if m.To() == to {
				return ""
			}
		}
	}
	// to = from asks about the man itself (picked up, it has no move).
	if to == from && !any {
		if p.InCheck() {
			return fmt.Sprintf("your king is in check on %s, and the %s on %s cannot answer it", p.KingBoard(p.SideToMove()), name, from)
		}
		return fmt.Sprintf("the %s on %s of board %s has no legal move", name, from, fb)
	}
	// In the variants of one man a square, a move that would be legal
	// with the landing square empty fails only for that man there.
	if p.Variant().Boards() == 2 && !p.Variant().SharedSquares() {
		land := fb.Other()
		if p.PieceOn(to, land) != env.NoPiece {
			if q := withoutMan(p, to, land); q != nil && movesTo(q, from, fb, to) {
				return fmt.Sprintf("that square is taken on board %s: the %s would land on %s there", land, name, to)
			}
		}
	}
	if p.InCheck() {
		return fmt.Sprintf("your king is in check on %s, and the %s's move to %s does not answer it", p.KingBoard(p.SideToMove()), name, to)
	}
	return fmt.Sprintf("the %s on %s of board %s cannot go to %s: it does not move so, or the move would leave your king in check", name, from, fb, to)
}

// movesTo reports whether a legal move of q takes the man on from of
// board fb to to.
func movesTo(q *env.Position, from env.Square, fb env.Board, to env.Square) bool {
	var ml env.MoveList
	q.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		if x, _ := q.MoveBoards(m); x == fb && m.From() == from && m.To() == to {
			return true
		}
	}
	return false
}

// withoutMan returns p with the man on sq of board b taken off (a
// variant of one man a square, two boards), or nil when that is no
// position (a king taken off, castling rights that no longer fit).
func withoutMan(p *env.Position, sq env.Square, b env.Board) *env.Position {
	if pc := p.PieceOn(sq, b); pc == env.NoPiece || pc.Kind() == env.King {
		return nil
	}
	v := p.Variant()
	var sb strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := range v.Files() {
			s := env.Square(r*8 + f)
			pc, on := p.PieceAt(s)
			if pc == env.NoPiece || s == sq && on == b {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			if on == env.BoardB {
				sb.WriteByte('|')
			}
			sb.WriteByte(pc.Letter())
		}
		if empty > 0 {
			sb.WriteString(strconv.Itoa(empty))
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	fields := strings.Fields(p.FEN())
	if len(fields) < 2 {
		return nil
	}
	fields[0] = sb.String()
	q, err := env.ParseFEN(strings.Join(fields, " "), v)
	if err != nil {
		return nil
	}
	return q
}
