package env

import (
	"fmt"
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

// ParseFEN reads a position of variant v in the project's FEN convention:
// ordinary FEN in which a man standing on board B is prefixed with '|' (and
// in alice-3 one on board C with '||'); where a square holds men on several
// boards (Variant.SharedSquares), they are written as one bracket group
// filling one file, "[Q|p]". Boards of alice-mini have 4 files. The
// halfmove and fullmove fields may be omitted (they default to 0 and 1).
// The position must be possible: one king a side, no pawn on the first or
// last rank, at most 16 men a side, the side not to move not in check,
// castling rights backed by an unmoved king and rook on one board (and
// only where the variant castles), and an en-passant square only where the
// variant allows it and a double step explains it.
func ParseFEN(fen string, v Variant) (*Position, error) {
	if v.boards == 0 {
		return nil, &FENError{FEN: fen, Field: "position", Reason: fmt.Sprintf("variant %q is no rule set (see VariantByName)", v.Name)}
	}
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
	p.wide = nil
	if p.variant.SharedSquares() {
		p.wide = newWideGame()
	}

	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return fail("placement", "want 8 ranks separated by '/', got %d", len(ranks))
	}
	files := p.variant.Files()
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); {
			c := row[j]
			switch {
			case c >= '1' && c <= '8':
				file += int(c - '0')
				j++
			case c == '[':
				end := strings.IndexByte(row[j:], ']')
				if end < 0 {
					return fail("placement", "rank %d: '[' without its ']'", rank+1)
				}
				group := row[j+1 : j+end]
				if !p.variant.SharedSquares() {
					return fail("placement", "rank %d: bracket group [%s]: variant %s has one man per square", rank+1, group, p.variant.Name)
				}
				if group == "" {
					return fail("placement", "rank %d: empty bracket group", rank+1)
				}
				if file >= files {
					return fail("placement", "rank %d has more than %d squares", rank+1, files)
				}
				for k := 0; k < len(group); {
					pc, b, next, reason := p.readMan(group, k)
					if reason != "" {
						return fail("placement", "rank %d: bracket group [%s]: %s", rank+1, group, reason)
					}
					if reason := p.place(pc, SquareAt(file, rank), b); reason != "" {
						return fail("placement", "rank %d: %s", rank+1, reason)
					}
					k = next
				}
				file++
				j += end + 1
			default:
				pc, b, next, reason := p.readMan(row, j)
				if reason != "" {
					return fail("placement", "rank %d: %s", rank+1, reason)
				}
				if file >= files {
					return fail("placement", "rank %d has more than %d squares", rank+1, files)
				}
				if reason := p.place(pc, SquareAt(file, rank), b); reason != "" {
					return fail("placement", "rank %d: %s", rank+1, reason)
				}
				file++
				j = next
			}
			if file > files {
				return fail("placement", "rank %d has more than %d squares", rank+1, files)
			}
		}
		if file != files {
			return fail("placement", "rank %d has %d squares, want %d", rank+1, file, files)
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
	s.hash = p.computeHash()
	p.history = p.history[:0]
	return nil
}

// readMan reads one man of a FEN rank at text[j:]: its board prefix ('|'
// for B, '||' for C) and its letter. It returns the index after it, or a
// reason the text is not a man.
func (p *Position) readMan(text string, j int) (pc Piece, b Board, next int, reason string) {
	for j < len(text) && text[j] == '|' {
		b++
		j++
	}
	switch {
	case int(b) >= p.variant.Boards():
		return NoPiece, 0, 0, fmt.Sprintf("%q names board %s, but variant %s has %d boards", strings.Repeat("|", int(b)), b, p.variant.Name, p.variant.Boards())
	case j == len(text):
		return NoPiece, 0, 0, "'|' must be followed by a piece"
	}
	c := text[j]
	k := kindFromLetter(c)
	if k == NoKind {
		if b > 0 {
			return NoPiece, 0, 0, fmt.Sprintf("'|' must be followed by a piece, not %q", c)
		}
		return NoPiece, 0, 0, fmt.Sprintf("unknown piece letter %q", c)
	}
	col := White
	if c >= 'a' {
		col = Black
	}
	return MakePiece(col, k), b, j + 1, ""
}

// place puts pc on square sq of board b while a position is set up, or
// says why it cannot stand there.
func (p *Position) place(pc Piece, sq Square, b Board) string {
	if p.wide != nil {
		if p.wide.mailbox[b][sq] != NoPiece {
			return fmt.Sprintf("two men on %s of board %s", sq, b)
		}
		p.wide.put(pc, sq, b, &p.hash)
		return ""
	}
	if p.mailbox[sq] != NoPiece {
		return fmt.Sprintf("two men on %s: variant %s has one man per square", sq, p.variant.Name)
	}
	p.state.put(pc, sq, b)
	return ""
}

// standsOnSomeBoard reports whether pc stands on square sq of some board.
func (p *Position) standsOnSomeBoard(pc Piece, sq Square) bool {
	for b := BoardA; int(b) < p.variant.Boards(); b++ {
		if p.PieceOn(sq, b) == pc {
			return true
		}
	}
	return false
}

// kingInCheck reports whether colour c's king is in check (whoever is to
// move).
func (p *Position) kingInCheck(c Colour) bool {
	if p.wide != nil {
		return p.wideInCheck(c)
	}
	s := &p.state
	ksq := lsb(s.pieces[c][King])
	mask := s.boardMask(s.boardOf(ksq))
	occ := (s.colours[White] | s.colours[Black]) & mask
	return s.attacked(ksq, occ, s.colours[c.Other()]&mask, c.Other())
}

// validate checks that the position could arise in play closely enough for
// the generator: the limits ParseFEN documents.
func (p *Position) validate() error {
	s := &p.state
	for c := White; c <= Black; c++ {
		if n := p.count(c, King); n != 1 {
			return fmt.Errorf("%s has %d kings, want 1", c, n)
		}
		if n := p.menCount(c); n > 16 {
			return fmt.Errorf("%s has %d men, at most 16 are possible", c, n)
		}
	}
	if pw := (p.Pieces(White, Pawn) | p.Pieces(Black, Pawn)) & (rank1 | rank8); pw != 0 {
		return fmt.Errorf("pawn on %s, the first or last rank", lsb(pw))
	}
	if p.variant.noDouble {
		// Pawns start on their third rank and only advance.
		if pw := p.Pieces(White, Pawn)&rank2 | p.Pieces(Black, Pawn)&rank7; pw != 0 {
			return fmt.Errorf("pawn on %s: in variant %s pawns start on their third rank and never stand behind it", lsb(pw), p.variant.Name)
		}
	}
	them := s.side.Other()
	if p.kingInCheck(them) {
		return fmt.Errorf("%s, not to move, is in check", them)
	}
	if s.castling != 0 && !p.variant.canCastle() {
		return fmt.Errorf("variant %s has no castling; the castling field must be '-'", p.variant.Name)
	}
	names := "KQkq"
	for i, cs := range castlings {
		if s.castling&cs.flag == 0 {
			continue
		}
		col := Colour(i / 2)
		king, rook := MakePiece(col, King), MakePiece(col, Rook)
		if !p.standsOnSomeBoard(king, cs.kingFrom) || !p.standsOnSomeBoard(rook, cs.rookFrom) {
			return fmt.Errorf("castling right %c needs the %s king on %s and rook on %s", names[i], col, cs.kingFrom, cs.rookFrom)
		}
		if kb := p.KingBoard(col); p.PieceOn(cs.rookFrom, kb) != rook {
			return fmt.Errorf("castling right %c: king on %s and rook on %s stand on different boards", names[i], cs.kingFrom, cs.rookFrom)
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
		if !p.standsOnSomeBoard(MakePiece(them, Pawn), victim) {
			return fmt.Errorf("en-passant square %s has no %s pawn on %s that just double-stepped", s.ep, them, victim)
		}
		// The pawn stands on Y, where it went through the glass; it
		// passed ep on X, the board it stepped on, so ep must be empty
		// there (what stands on Y's ep does not matter for the record).
		y := s.boardOf(victim)
		x := y.Other()
		if p.PieceOn(s.ep, x) != NoPiece {
			return fmt.Errorf("en-passant square %s is occupied on board %s, where the %s pawn now on %s of board %s passed it", s.ep, x, them, victim, y)
		}
		// As the move generator records it (and Stockfish reads FEN): a
		// field that allows no capture — no pawn on X to take, or ep taken
		// on Y, where the capturer would land — is dropped, so that equal
		// positions read equal.
		takers := s.pieces[s.side][Pawn] & s.boardMask(x) & pawnAttacks[them][s.ep]
		if takers == 0 || (p.men(White)|p.men(Black))&bit(s.ep) != 0 {
			s.ep = NoSquare
		}
	}
	return nil
}

// FEN writes the position in the project's FEN convention.
func (p *Position) FEN() string {
	var sb strings.Builder
	files := p.variant.Files()
	var here [maxBoards]Piece
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < files; file++ {
			sq := SquareAt(file, rank)
			n := 0
			for b := BoardA; int(b) < p.variant.Boards(); b++ {
				here[b] = p.PieceOn(sq, b)
				if here[b] != NoPiece {
					n++
				}
			}
			if n == 0 {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			if n > 1 {
				sb.WriteByte('[')
			}
			for b, pc := range here[:p.variant.Boards()] {
				if pc != NoPiece {
					sb.WriteString("||"[:b])
					sb.WriteByte(pc.Letter())
				}
			}
			if n > 1 {
				sb.WriteByte(']')
			}
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
