package serve

// Positions and their legal moves: a position sent by the page described
// (/api/position), and the legal moves of a man of the session's game
// (/api/game/legal), with why a move is not legal.

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/alicezero/alicezero/env"
)

// maxLineMoves bounds the moves after a FEN that one request may send.
const maxLineMoves = 2000

// legalResponse lists the legal moves of one piece.
type legalResponse struct {
	From  string     `json:"from"`
	Board string     `json:"board,omitempty"`
	Piece string     `json:"piece,omitempty"`
	Moves []moveJSON `json:"moves"`
	// Illegal, with ?to=, says why no move of the man goes there.
	Illegal string `json:"illegal,omitempty"`
}

func (s *Server) handleGameLegal(w http.ResponseWriter, r *http.Request, se *session) error {
	se.mu.Lock()
	se.game.tick(s.now())
	p, over := se.game.pos.Clone(), se.game.isOver()
	se.mu.Unlock()
	q := r.URL.Query()
	res, err := legalFrom(p, q.Get("from"), q.Get("board"))
	if err != nil {
		return err
	}
	if to := q.Get("to"); to != "" && res.From != "" {
		if err := explainIllegal(p, &res, to, over); err != nil {
			return err
		}
	}
	if over {
		// A game lost on time has no legal moves left, as a mated one.
		res.Moves = []moveJSON{}
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

// legalFrom lists the legal moves of the man on from (all legal moves
// when from is empty). Where a square may hold men on several boards,
// board ("A", "B", "C"; "" for any) picks one of them; without it the
// moves of every man there are listed, and Board and Piece name the
// first one's.
func legalFrom(p *env.Position, from, board string) (legalResponse, error) {
	all := describePosition(p).Legal
	if from == "" {
		return legalResponse{Moves: all}, nil
	}
	sq, ok := env.ParseSquare(from)
	if !ok {
		return legalResponse{}, badRequest("from: %q is not a square (want e.g. e2)", from)
	}
	b, err := boardOf(p, sq, board)
	if err != nil {
		return legalResponse{}, err
	}
	res := legalResponse{From: sq.String(), Moves: []moveJSON{}}
	if pc := p.PieceOn(sq, b); pc != env.NoPiece {
		res.Board, res.Piece = b.String(), string(pc.Letter())
	}
	for _, m := range all {
		if m.From == res.From && (board == "" || m.FromBoard == res.Board) {
			res.Moves = append(res.Moves, m)
		}
	}
	return res, nil
}

// explainIllegal sets res.Illegal to why the man res names cannot go to
// to, when none of its moves goes there.
func explainIllegal(p *env.Position, res *legalResponse, to string, over bool) error {
	sq, ok := env.ParseSquare(to)
	if !ok {
		return badRequest("to: %q is not a square (want e.g. e4)", to)
	}
	from, _ := env.ParseSquare(res.From)
	switch {
	case over:
		res.Illegal = "the game is over"
	case res.Board == "":
		res.Illegal = fmt.Sprintf("no man stands on %s", res.From)
	default:
		fb, err := boardOf(p, from, res.Board)
		if err != nil {
			return err
		}
		res.Illegal = whyIllegal(p, from, fb, sq)
	}
	return nil
}

// boardOf reads the board name asked for, one of p's variant; "" stands
// for the board of the first man on sq (PieceAt's).
func boardOf(p *env.Position, sq env.Square, name string) (env.Board, error) {
	if name == "" {
		_, b := p.PieceAt(sq)
		return b, nil
	}
	for b := env.BoardA; int(b) < p.Variant().Boards(); b++ {
		if strings.EqualFold(name, b.String()) {
			return b, nil
		}
	}
	return 0, badRequest("board: %q is not a board of %s (want A or B, or C in alice-3)", name, p.Variant().Name)
}

type positionRequest struct {
	FEN     string   `json:"fen"`
	Variant string   `json:"variant"`
	Moves   []string `json:"moves"`
	From    string   `json:"from"`
	Board   string   `json:"board"`
}

// positionResponse is a position with, when asked for one piece, that
// piece's moves.
type positionResponse struct {
	positionJSON
	Piece *legalResponse `json:"piece,omitempty"`
}

func (s *Server) handlePosition(w http.ResponseWriter, r *http.Request, se *session) error {
	var req positionRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if len(req.Moves) > maxLineMoves {
		return badRequest("at most %d moves, got %d", maxLineMoves, len(req.Moves))
	}
	p, err := parsePosition(req.FEN, req.Variant, req.Moves)
	if err != nil {
		return err
	}
	res := positionResponse{positionJSON: describePosition(p)}
	if req.From != "" {
		lr, err := legalFrom(p, req.From, req.Board)
		if err != nil {
			return err
		}
		res.Piece = &lr
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}
