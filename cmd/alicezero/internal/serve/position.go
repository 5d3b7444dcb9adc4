package serve

import (
	"strings"

	"github.com/alicezero/alicezero/env"
)

// boardsJSON is each board as 64 characters, a1 first, h8 last: FEN
// letters (upper case White), '.' for an empty square. C is filled only
// in alice-3, the one variant with a third board.
type boardsJSON struct {
	A string `json:"A"`
	B string `json:"B"`
	C string `json:"C,omitempty"`
}

// shapeJSON is what the page needs to lay a variant's boards out: how
// many there are and how many files each has (4 in alice-mini, whose
// strings still run over the 8×8 frame, files e–h empty).
type shapeJSON struct {
	BoardCount int `json:"board_count"`
	Files      int `json:"files"`
}

func shapeOf(v env.Variant) shapeJSON { return shapeJSON{BoardCount: v.Boards(), Files: v.Files()} }

// moveJSON describes one move in the position it is played from: its
// squares, the board the man leaves and the board it lands on (the
// other one in the default rules; a chosen one in alice-3; the same one
// when it stays, which alice-optional-transfer and alice-stone allow).
// A null move has from = to and lands on another board.
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
	// Captured is the man taken (its FEN letter) and CapturedBoard the
	// board it was taken on: the man's own for a capture, the landing
	// board for alice-stone's null capture and alice-ep's en passant.
	Captured      string `json:"captured,omitempty"`
	CapturedBoard string `json:"captured_board,omitempty"`
	Castle        bool   `json:"castle,omitempty"`
	Null          bool   `json:"null,omitempty"`
}

// positionJSON is a position as the page draws it.
type positionJSON struct {
	FEN      string `json:"fen"`
	Variant  string `json:"variant"`
	Side     string `json:"side"`
	Ply      int    `json:"ply"`
	Fullmove int    `json:"fullmove"`
	Check    bool   `json:"check"`
	Status   string `json:"status"`
	Result   string `json:"result"`
	shapeJSON
	Boards boardsJSON `json:"boards"`
	// Material is each side's men in pawns (pawn 1, knight and bishop 3,
	// rook 5, queen 9), on all boards.
	Material materialJSON `json:"material"`
	Legal    []moveJSON   `json:"legal"`
	// LastMove is the move that led here, as played in the position
	// before it; absent at the set-up position.
	LastMove *moveJSON `json:"last_move,omitempty"`
}

// materialJSON is each side's material in pawns.
type materialJSON struct {
	White int `json:"white"`
	Black int `json:"black"`
}

// boardsOf draws every board of p, man by man: where a square may hold
// men on several boards, PieceAt would show only one of them.
func boardsOf(p *env.Position) boardsJSON {
	var rows [3]string
	for b := env.BoardA; int(b) < p.Variant().Boards(); b++ {
		var row [64]byte
		for sq := env.Square(0); sq < 64; sq++ {
			row[sq] = '.'
			if pc := p.PieceOn(sq, b); pc != env.NoPiece {
				row[sq] = pc.Letter()
			}
		}
		rows[b] = string(row[:])
	}
	return boardsJSON{A: rows[0], B: rows[1], C: rows[2]}
}

// describeMove describes m, a legal move of p (p is unchanged on return).
// The boards come from the move itself (MoveBoards), so a stay, a chosen
// board and a null move are drawn where they happen, and the UCI is the
// rule book's for the variant (p.UCI: a board prefix or suffix only where
// needed).
func describeMove(p *env.Position, m env.Move) moveJSON {
	from, to := p.MoveBoards(m)
	pc := p.PieceOn(m.From(), from)
	victim := p.Captured(m)
	mj := moveJSON{
		UCI:       p.UCI(m),
		SAN:       p.SAN(m),
		From:      m.From().String(),
		To:        m.To().String(),
		FromBoard: from.String(),
		ToBoard:   to.String(),
		Piece:     string(pc.Letter()),
		Capture:   victim != env.NoPiece,
		Castle:    m.IsCastling(),
		Null:      m.IsNull(),
	}
	if victim != env.NoPiece {
		on := from
		if m.IsNull() || m.IsEnPassant() {
			on = to
		}
		mj.Captured, mj.CapturedBoard = string(victim.Letter()), on.String()
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
		FEN:       p.FEN(),
		Variant:   p.Variant().Name,
		Side:      p.SideToMove().String(),
		Ply:       p.Ply(),
		Fullmove:  p.FullmoveNumber(),
		Check:     p.InCheck(),
		Status:    st.String(),
		Result:    p.Outcome(st).String(),
		shapeJSON: shapeOf(p.Variant()),
		Boards:    boardsOf(p),
		Material:  materialJSON{White: p.Material(env.White), Black: p.Material(env.Black)},
		Legal:     make([]moveJSON, 0, ml.N),
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

// lineMoves writes moves, played in turn from p, in UCI (as each
// position writes it) and SAN, up to the first that is not legal (p is
// unchanged).
func lineMoves(p *env.Position, moves []env.Move) []lineMoveJSON {
	q := p.Clone()
	out := make([]lineMoveJSON, 0, len(moves))
	var ml env.MoveList
	for _, m := range moves {
		q.LegalMoves(&ml)
		if !ml.Contains(m) {
			break
		}
		out = append(out, lineMoveJSON{UCI: q.UCI(m), SAN: q.SAN(m)})
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
