package env

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// StartFEN is the start position: the normal army on board A, board B empty.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// FENError reports a malformed or impossible FEN.
type FENError struct {
	FEN    string
	Field  string // "placement", "side", "castling", "en passant", "halfmove", "fullmove" or "position"
	Reason string
}

func (e *FENError) Error() string {
	return fmt.Sprintf("bad FEN %q: %s: %s", e.FEN, e.Field, e.Reason)
}

// ParseFEN reads a position in the project's FEN convention: ordinary FEN in
// which a piece standing on board B is prefixed with '|'. The halfmove and
// fullmove fields may be omitted (they default to 0 and 1). The position
// must be possible: one king a side, no pawn on the first or last rank, at
// most 16 men a side, the side not to move not in check, castling rights
// backed by an unmoved king and rook on one board, and an en-passant square
// only where the variant allows it and a double step explains it.
func ParseFEN(fen string, v Variant) (*Position, error) {
	p := &Position{variant: v}
	if err := p.setFEN(fen); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Position) setFEN(fen string) error {
	fail := func(field, format string, args ...any) error {
		return &FENError{FEN: fen, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	fields := strings.Fields(fen)
	if len(fields) < 4 || len(fields) > 6 {
		return fail("position", "want 4 to 6 space-separated fields, got %d", len(fields))
	}
	s := &p.state
	*s = state{ep: NoSquare, fullmove: 1}
	for i := range s.mailbox {
		s.mailbox[i] = NoPiece
	}

	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return fail("placement", "want 8 ranks separated by '/', got %d", len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		onB := false
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c == '|':
				if onB {
					return fail("placement", "rank %d: doubled '|'", rank+1)
				}
				onB = true
				continue
			case c >= '1' && c <= '8':
				if onB {
					return fail("placement", "rank %d: '|' must be followed by a piece, not %q", rank+1, c)
				}
				file += int(c - '0')
			default:
				k := kindFromLetter(c)
				if k == NoKind {
					return fail("placement", "rank %d: unknown piece letter %q", rank+1, c)
				}
				if file > 7 {
					return fail("placement", "rank %d has more than 8 squares", rank+1)
				}
				col := White
				if c >= 'a' {
					col = Black
				}
				b := BoardA
				if onB {
					b = BoardB
				}
				s.put(MakePiece(col, k), SquareAt(file, rank), b)
				file++
				onB = false
			}
			if file > 8 {
				return fail("placement", "rank %d has more than 8 squares", rank+1)
			}
		}
		if onB {
			return fail("placement", "rank %d ends with '|'", rank+1)
		}
		if file != 8 {
			return fail("placement", "rank %d has %d squares, want 8", rank+1, file)
		}
	}

	switch fields[1] {
	case "w":
		s.side = White
	case "b":
		s.side = Black
	default:
		return fail("side", "want 'w' or 'b', got %q", fields[1])
	}

	if fields[2] != "-" {
		for _, c := range []byte(fields[2]) {
			var r uint8
			switch c {
			case 'K':
				r = CastleWK
			case 'Q':
				r = CastleWQ
			case 'k':
				r = CastleBK
			case 'q':
				r = CastleBQ
			default:
				return fail("castling", "unknown letter %q (want a subset of KQkq or '-')", c)
			}
			if s.castling&r != 0 {
				return fail("castling", "letter %q repeated", c)
			}
			s.castling |= r
		}
	}

	if fields[3] != "-" {
		sq, ok := ParseSquare(fields[3])
		if !ok {
			return fail("en passant", "%q is not a square", fields[3])
		}
		if !p.variant.EnPassant {
			return fail("en passant", "variant %s has no en passant; the field must be '-'", p.variant.Name)
		}
		s.ep = sq
	}

	if len(fields) > 4 {
		n, err := strconv.Atoi(fields[4])
		if err != nil || n < 0 {
			return fail("halfmove", "%q is not a non-negative number", fields[4])
		}
		s.halfmove = int32(min(n, 1<<20))
	}
	if len(fields) > 5 {
		n, err := strconv.Atoi(fields[5])
		if err != nil || n < 1 {
			return fail("fullmove", "%q is not a positive number", fields[5])
		}
		s.fullmove = int32(min(n, 1<<24))
	}

	if err := p.validate(); err != nil {
		return &FENError{FEN: fen, Field: "position", Reason: err.Error()}
	}
	s.hash = s.computeHash()
	p.history = p.history[:0]
	return nil
}

// validate checks that the position could arise in play closely enough for
// the generator: the limits ParseFEN documents.
func (p *Position) validate() error {
	s := &p.state
	for c := White; c <= Black; c++ {
		if n := bits.OnesCount64(s.pieces[c][King]); n != 1 {
			return fmt.Errorf("%s has %d kings, want 1", c, n)
		}
		if n := bits.OnesCount64(s.colours[c]); n > 16 {
			return fmt.Errorf("%s has %d men, at most 16 are possible", c, n)
		}
	}
	if pw := (s.pieces[White][Pawn] | s.pieces[Black][Pawn]) & (rank1 | rank8); pw != 0 {
		return fmt.Errorf("pawn on %s, the first or last rank", lsb(pw))
	}
	them := s.side.Other()
	ksq := lsb(s.pieces[them][King])
	mask := s.boardMask(s.boardOf(ksq))
	occ := (s.colours[White] | s.colours[Black]) & mask
	if s.attacked(ksq, occ, s.colours[s.side]&mask, s.side) {
		return fmt.Errorf("%s, not to move, is in check", them)
	}
	type right struct {
		flag       uint8
		col        Colour
		king, rook Square
		name       string
	}
	for _, r := range []right{
		{CastleWK, White, 4, 7, "K"}, {CastleWQ, White, 4, 0, "Q"},
		{CastleBK, Black, 60, 63, "k"}, {CastleBQ, Black, 60, 56, "q"},
	} {
		if s.castling&r.flag == 0 {
			continue
		}
		if s.mailbox[r.king] != MakePiece(r.col, King) || s.mailbox[r.rook] != MakePiece(r.col, Rook) {
			return fmt.Errorf("castling right %s needs the %s king on %s and rook on %s", r.name, r.col, r.king, r.rook)
		}
		if s.boardOf(r.king) != s.boardOf(r.rook) {
			return fmt.Errorf("castling right %s: king on %s and rook on %s stand on different boards", r.name, r.king, r.rook)
		}
	}
	if s.ep != NoSquare {
		// The side to move captures; the opponent double-stepped past ep.
		wantRank, victim := 5, s.ep-8
		if s.side == Black {
			wantRank, victim = 2, s.ep+8
		}
		if s.ep.Rank() != wantRank {
			return fmt.Errorf("en-passant square %s is not on rank %d", s.ep, wantRank+1)
		}
		if s.mailbox[victim] != MakePiece(them, Pawn) {
			return fmt.Errorf("en-passant square %s has no %s pawn on %s that just double-stepped", s.ep, them, victim)
		}
		if s.mailbox[s.ep] != NoPiece {
			return fmt.Errorf("en-passant square %s is occupied", s.ep)
		}
	}
	return nil
}

// FEN writes the position in the project's FEN convention.
func (p *Position) FEN() string {
	var sb strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			sq := SquareAt(file, rank)
			pc := p.mailbox[sq]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			if p.onB&bit(sq) != 0 {
				sb.WriteByte('|')
			}
			sb.WriteByte(pc.Letter())
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			sb.WriteByte('/')
		}
	}
	if p.side == White {
		sb.WriteString(" w ")
	} else {
		sb.WriteString(" b ")
	}
	if p.castling == 0 {
		sb.WriteByte('-')
	}
	for i, l := range "KQkq" {
		if p.castling&(1<<i) != 0 {
			sb.WriteRune(l)
		}
	}
	sb.WriteByte(' ')
	sb.WriteString(p.ep.String())
	fmt.Fprintf(&sb, " %d %d", p.halfmove, p.fullmove)
	return sb.String()
}
