package serve

// The session's game: its state, a new game, moves, undo, resignation,
// draws, loading a position or a PGN game into it, and its PGN.

import (
	"net/http"
	"strings"
	"time"

	"github.com/alicezero/alicezero/env"
)

// withGame runs f on the session's game under the session's lock and
// answers with the game's state. A change made there and the stopping of
// the session's searches happen in one step, so that an engine move found
// for the old game is never played into the new one. The request's
// moment, read once, times it all; a flag that fell before it is seen
// first.
func (s *Server) withGame(w http.ResponseWriter, se *session, f func(g *game, now time.Time) error) error {
	se.mu.Lock()
	defer se.mu.Unlock()
	now := s.now()
	se.game.tick(now)
	if err := f(se.game, now); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, se.game.state(now))
	return nil
}

func (s *Server) handleGame(w http.ResponseWriter, r *http.Request, se *session) error {
	return s.withGame(w, se, func(*game, time.Time) error { return nil })
}

type newGameRequest struct {
	FEN     string `json:"fen"`
	Variant string `json:"variant"`
	// TimeControl times the game: "M+S" (minutes each, seconds added per
	// move; clock.Lobby) or "" / "none" for no clock.
	TimeControl string `json:"time_control"`
}

func (s *Server) handleNewGame(w http.ResponseWriter, r *http.Request, se *session) error {
	var req newGameRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	tc, err := parseTimeControl(req.TimeControl)
	if err != nil {
		return err
	}
	p, err := parsePosition(req.FEN, req.Variant, nil)
	if err != nil {
		return err
	}
	return s.withGame(w, se, func(g *game, _ time.Time) error {
		se.stopSearchesLocked()
		g.set(p, nil, tc)
		return nil
	})
}

type moveRequest struct {
	// Move is in UCI (e2e4, e7e8q) or SAN (e4, Nf3, e8=Q) notation.
	Move string `json:"move"`
	// Version, when set, must be the game's version: a move made for a
	// position the game has left is refused (409).
	Version *int `json:"version"`
}

func (s *Server) handleMove(w http.ResponseWriter, r *http.Request, se *session) error {
	var req moveRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if strings.TrimSpace(req.Move) == "" {
		return badRequest("no move: send {\"move\": \"e2e4\"}")
	}
	return s.withGame(w, se, func(g *game, now time.Time) error {
		// A move after the flag fell is refused as too late, whatever
		// version it was sent for.
		if g.isOver() {
			return badRequest("the game is over (%s)", g.overReason())
		}
		if req.Version != nil && *req.Version != g.version {
			return &apiError{status: http.StatusConflict, msg: "the game has changed since (reload it)"}
		}
		return g.play(req.Move, now)
	})
}

type undoRequest struct {
	Plies int `json:"plies"`
}

func (s *Server) handleUndo(w http.ResponseWriter, r *http.Request, se *session) error {
	var req undoRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if req.Plies == 0 {
		req.Plies = 1
	}
	if req.Plies < 0 || req.Plies > 10000 {
		return badRequest("plies must lie in 1..10000, got %d", req.Plies)
	}
	return s.withGame(w, se, func(g *game, now time.Time) error {
		if _, err := g.undo(req.Plies, now); err != nil {
			return err
		}
		se.stopSearchesLocked()
		return nil
	})
}

type resignRequest struct {
	// Side is the side that resigns, "white" or "black"; absent, the side
	// to move.
	Side string `json:"side"`
}

func (s *Server) handleResign(w http.ResponseWriter, r *http.Request, se *session) error {
	var req resignRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	return s.withGame(w, se, func(g *game, now time.Time) error {
		side := g.pos.SideToMove()
		if req.Side != "" {
			var err error
			if side, err = parseSide("side", req.Side); err != nil {
				return err
			}
		}
		if err := g.resign(side, now); err != nil {
			return err
		}
		se.stopSearchesLocked()
		return nil
	})
}

// handleDraw ends the game drawn by the players' agreement: a person
// playing both sides, or a script. Against the engine the page offers a
// draw by a search of kind "draw", which the engine may decline.
func (s *Server) handleDraw(w http.ResponseWriter, r *http.Request, se *session) error {
	var req struct{}
	if err := readJSON(r, &req); err != nil {
		return err
	}
	return s.withGame(w, se, func(g *game, now time.Time) error {
		if err := g.agreeDraw(now); err != nil {
			return err
		}
		se.stopSearchesLocked()
		return nil
	})
}

// parseSide reads a side named in the field named field.
func parseSide(field, v string) (env.Colour, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "white":
		return env.White, nil
	case "black":
		return env.Black, nil
	}
	return 0, badRequest("%s: want white or black, got %q", field, v)
}

type loadRequest struct {
	// Either FEN (with Variant and Moves) or PGN (with Game, the index of
	// the game in it, and Ply, how many of its moves to play: all when
	// absent).
	FEN     string   `json:"fen"`
	Variant string   `json:"variant"`
	Moves   []string `json:"moves"`
	PGN     string   `json:"pgn"`
	Game    int      `json:"game"`
	Ply     *int     `json:"ply"`
	// TimeControl times the game from the loaded position on, as for a
	// new game.
	TimeControl string `json:"time_control"`
}

func (s *Server) handleLoad(w http.ResponseWriter, r *http.Request, se *session) error {
	var req loadRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	tc, err := parseTimeControl(req.TimeControl)
	if err != nil {
		return err
	}
	var (
		p    *env.Position
		tags [][2]string
	)
	switch {
	case req.PGN != "" && (req.FEN != "" || len(req.Moves) > 0):
		return badRequest("send either fen (and moves) or pgn, not both")
	case req.PGN != "":
		p, tags, err = positionFromPGN(req.PGN, req.Variant, req.Game, req.Ply)
	case req.FEN != "":
		p, err = parsePosition(req.FEN, req.Variant, req.Moves)
	default:
		return badRequest("nothing to load: send fen or pgn")
	}
	if err != nil {
		return err
	}
	return s.withGame(w, se, func(g *game, _ time.Time) error {
		se.stopSearchesLocked()
		g.set(p, tags, tc)
		return nil
	})
}

type pgnResponse struct {
	PGN string `json:"pgn"`
	FEN string `json:"fen"`
}

func (s *Server) handleGamePGN(w http.ResponseWriter, r *http.Request, se *session) error {
	se.mu.Lock()
	se.game.tick(s.now())
	text, err := se.game.pgn()
	fen := se.game.pos.FEN()
	se.mu.Unlock()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, pgnResponse{PGN: text, FEN: fen})
	return nil
}
