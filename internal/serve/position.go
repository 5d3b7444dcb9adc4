package serve

import (
	"strings"

	"github.com/alicezero/alicezero/env"
)

// boardsJSON is the two boards as 64 characters each, a1 first, h8 last:
// FEN letters (upper case White), '.' for an empty square.
type boardsJSON struct {
	A string `json:"A"`
	B string `json:"B"`
}

// moveJSON describes one move in the position it is played from: its
// squares, the board it leaves and the board it lands on (always the
// other one: every moved piece passes through the looking glass).
type moveJSON struct {
	UCI       string `json:"uci"`
	SAN       string `json:"san"`
	From      string `json:"from"`
	To        string `json:"to"`
	FromBoard string `json:"from_board"`
	ToBoard   string `json:"to_board"`
	Piece     string `json:"piece"`
	Promotion string `json:"promotion,omitempty"`
	Capture   bool   `json:"capture,omitempty"`
	Castle    bool   `json:"castle,omitempty"`
}

// positionJSON is a position as the page draws it.
type positionJSON struct {
	FEN      string     `json:"fen"`
	Variant  string     `json:"variant"`
	Side     string     `json:"side"`
	Ply      int        `json:"ply"`
	Fullmove int        `json:"fullmove"`
	Check    bool       `json:"check"`
	Status   string     `json:"status"`
	Result   string     `json:"result"`
	Boards   boardsJSON `json:"boards"`
	Legal    []moveJSON `json:"legal"`
	// LastMove is the move that led here, as played in the position
	// before it; absent at the set-up position.
	LastMove *moveJSON `json:"last_move,omitempty"`
}

// boardsOf draws both boards of p.
func boardsOf(p *env.Position) boardsJSON {
	var a, b [64]byte
	for i := range a {
		a[i], b[i] = '.', '.'
	}
	for sq := env.Square(0); sq < 64; sq++ {
		pc, board := p.PieceAt(sq)
		if pc == env.NoPiece {
			continue
		}
		if board == env.BoardB {
			b[sq] = pc.Letter()
		} else {
			a[sq] = pc.Letter()
		}
	}
	return boardsJSON{A: string(a[:]), B: string(b[:])}
}

// describeMove describes m, a legal move of p (p is unchanged on return).
func describeMove(p *env.Position, m env.Move) moveJSON {
	pc, board := p.PieceAt(m.From())
	victim, _ := p.PieceAt(m.To())
	mj := moveJSON{
		UCI:       m.UCI(),
		SAN:       p.SAN(m),
		From:      m.From().String(),
		To:        m.To().String(),
		FromBoard: board.String(),
		ToBoard:   board.Other().String(),
		Piece:     string(pc.Letter()),
		Capture:   victim != env.NoPiece || m.IsEnPassant(),
		Castle:    m.IsCastling(),
	}
	if k := m.Promotion(); k != env.NoKind {
		mj.Promotion = string(k.Letter())
	}
	return mj
}

// describePosition describes p for the page, its legal moves included.
func describePosition(p *env.Position) positionJSON {
	var ml env.MoveList
	p.LegalMoves(&ml)
	st := p.Status()
	pj := positionJSON{
		FEN:      p.FEN(),
		Variant:  p.Variant().Name,
		Side:     p.SideToMove().String(),
		Ply:      p.Ply(),
		Fullmove: p.FullmoveNumber(),
		Check:    p.InCheck(),
		Status:   st.String(),
		Result:   p.Outcome(st).String(),
		Boards:   boardsOf(p),
		Legal:    make([]moveJSON, 0, ml.N),
	}
	if !st.IsOver() {
		for _, m := range ml.Slice() {
			pj.Legal = append(pj.Legal, describeMove(p, m))
		}
	}
	if p.Ply() > 0 {
		q := p.Clone()
		last := q.LastMove()
		q.UnmakeMove()
		lm := describeMove(q, last)
		pj.LastMove = &lm
	}
	return pj
}

// lineSAN writes moves, played in turn from p, in SAN (p is unchanged).
func lineSAN(p *env.Position, moves []env.Move) []string {
	q := p.Clone()
	out := make([]string, 0, len(moves))
	var ml env.MoveList
	for _, m := range moves {
		q.LegalMoves(&ml)
		if !ml.Contains(m) {
			break
		}
		out = append(out, q.SAN(m))
		q.MakeMove(m)
	}
	return out
}

// parsePosition reads a FEN ("" or "startpos": the variant's start) of the
// named variant ("" for alice) and plays moves (UCI or SAN) from it.
func parsePosition(fen, variant string, moves []string) (*env.Position, error) {
	v := env.Alice
	if variant != "" {
		var err error
		if v, err = env.VariantByName(variant); err != nil {
			return nil, badRequest("variant: %v", err)
		}
	}
	fen = strings.TrimSpace(fen)
	if fen == "" || fen == "startpos" {
		fen = v.StartFEN()
	}
	p, err := env.ParseFEN(fen, v)
	if err != nil {
		return nil, badRequest("fen: %v", err)
	}
	for i, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			return nil, badRequest("move %d (%q): %v", i+1, s, err)
		}
		p.MakeMove(m)
	}
	return p, nil
}
