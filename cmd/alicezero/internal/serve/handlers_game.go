package serve

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/alicezero/alicezero/env"
)

// infoResponse describes the server to the page.
type infoResponse struct {
	Variants      []string       `json:"variants"`
	Weights       []weightsEntry `json:"weights"`
	Runs          bool           `json:"runs"`
	DefaultVisits int            `json:"default_visits"`
	MaxVisits     int            `json:"max_visits"`
	MaxMovetimeMS int64          `json:"max_movetime_ms"`
	Searchers     int            `json:"searchers"`
	Queue         int            `json:"queue"`
	// TimeControls are the time controls the page offers by name.
	TimeControls []string `json:"time_controls"`
}

func (s *Server) handleInfo(w http.ResponseWriter, r *http.Request, se *session) error {
	var vs []string
	for _, v := range env.Variants() {
		vs = append(vs, v.Name)
	}
	writeJSON(w, http.StatusOK, infoResponse{
		Variants:      vs,
		Weights:       s.weightsEntries(),
		Runs:          s.opts.RunsDir != "",
		DefaultVisits: s.opts.DefaultVisits,
		MaxVisits:     s.opts.MaxVisits,
		MaxMovetimeMS: s.opts.MaxTime.Milliseconds(),
		Searchers:     s.opts.Searchers,
		Queue:         s.opts.Queue,
		TimeControls:  timeControlPresets(),
	})
	return nil
}

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

// positionFromPGN plays the game numbered index of a PGN text up to ply
// (nil: to its end).
func positionFromPGN(text, variant string, index int, ply *int) (*env.Position, [][2]string, error) {
	v, err := variantOrDefault(variant)
	if err != nil {
		return nil, nil, err
	}
	g, err := nthGame(text, v, index)
	if err != nil {
		return nil, nil, err
	}
	n := len(g.Moves)
	if ply != nil {
		if *ply < 0 || *ply > n {
			return nil, nil, badRequest("ply must lie in 0..%d, got %d", n, *ply)
		}
		n = *ply
	}
	p, err := g.StartPosition()
	if err != nil {
		return nil, nil, badRequest("pgn: %v", err)
	}
	if err := playLine(p, g.Moves[:n]); err != nil {
		return nil, nil, err
	}
	var tags [][2]string
	for _, t := range g.Tags {
		switch t[0] {
		// Termination told how the loaded game ended, which the game
		// played on from here need not.
		case "Result", "Variant", "SetUp", "FEN", "Termination":
		default:
			tags = append(tags, t)
		}
	}
	return p, tags, nil
}

// nthGame reads games up to the one numbered index (from 0), which must
// read without error.
func nthGame(text string, v env.Variant, index int) (*env.Game, error) {
	if index < 0 || index >= maxPGNGames {
		return nil, badRequest("game must lie in 0..%d, got %d", maxPGNGames-1, index)
	}
	pr := env.NewPGNReader(strings.NewReader(text), v)
	for i := 0; ; i++ {
		g, err := pr.Next()
		if errors.Is(err, io.EOF) {
			if i == 0 {
				return nil, badRequest("pgn: no game in it")
			}
			return nil, badRequest("pgn: game %d asked for, but it holds %d", index, i)
		}
		if i == index {
			if err != nil {
				return nil, badRequest("pgn: %v", err)
			}
			return g, nil
		}
		var pe *env.PGNError
		if err != nil && !errors.As(err, &pe) {
			return nil, badRequest("pgn: %v", err)
		}
	}
}

func variantOrDefault(name string) (env.Variant, error) {
	if name == "" {
		return env.Alice, nil
	}
	v, err := env.VariantByName(name)
	if err != nil {
		return env.Variant{}, badRequest("variant: %v", err)
	}
	return v, nil
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

// Bounds on what one request may ask for.
const (
	maxLineMoves = 2000 // moves after a FEN
	maxPGNGames  = 5000 // games read from one PGN text
)

type pgnRequest struct {
	PGN     string `json:"pgn"`
	Variant string `json:"variant"`
	// Game is the game to describe in full (index from 0).
	Game int `json:"game"`
}

// pgnGameSummary is one game of a PGN text in a list.
type pgnGameSummary struct {
	Index  int    `json:"index"`
	Event  string `json:"event,omitempty"`
	Round  string `json:"round,omitempty"`
	White  string `json:"white,omitempty"`
	Black  string `json:"black,omitempty"`
	Result string `json:"result"`
	Plies  int    `json:"plies"`
	Error  string `json:"error,omitempty"`
}

// plyPositionJSON is a position of a game being reviewed.
type plyPositionJSON struct {
	FEN    string `json:"fen"`
	Side   string `json:"side"`
	Check  bool   `json:"check"`
	Status string `json:"status"`
	shapeJSON
	Boards   boardsJSON `json:"boards"`
	LastMove *moveJSON  `json:"last_move,omitempty"`
}

// pgnGameJSON is one game in full: its moves and every position.
type pgnGameJSON struct {
	Index     int               `json:"index"`
	Tags      [][2]string       `json:"tags"`
	Variant   string            `json:"variant"`
	StartFEN  string            `json:"start_fen"`
	Result    string            `json:"result"`
	Moves     []moveJSON        `json:"moves"`
	Positions []plyPositionJSON `json:"positions"`
	Error     string            `json:"error,omitempty"`
}

type pgnParseResponse struct {
	Games []pgnGameSummary `json:"games"`
	Game  *pgnGameJSON     `json:"game"`
}

func (s *Server) handlePGN(w http.ResponseWriter, r *http.Request, se *session) error {
	var req pgnRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	res, err := parsePGNText(req.PGN, req.Variant, req.Game)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

// parsePGNText lists the games of a PGN text and describes the one
// numbered index in full. A game with an error is kept up to it, with the
// error.
func parsePGNText(text, variant string, index int) (*pgnParseResponse, error) {
	v, err := variantOrDefault(variant)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(text) == "" {
		return nil, badRequest("pgn: empty")
	}
	if index < 0 {
		return nil, badRequest("game must not be negative, got %d", index)
	}
	res := &pgnParseResponse{Games: []pgnGameSummary{}}
	pr := env.NewPGNReader(strings.NewReader(text), v)
	for i := 0; i < maxPGNGames; i++ {
		g, err := pr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *env.PGNError
		if err != nil && !errors.As(err, &pe) {
			return nil, badRequest("pgn: %v", err)
		}
		sum := pgnGameSummary{Index: i, Event: g.Tag("Event"), Round: g.Tag("Round"), White: g.Tag("White"), Black: g.Tag("Black"),
			Result: g.Result.String(), Plies: len(g.Moves)}
		if err != nil {
			sum.Error = err.Error()
		}
		res.Games = append(res.Games, sum)
		if i == index {
			gj, gerr := describeGame(g, i)
			if gerr != nil {
				return nil, gerr
			}
			if sum.Error != "" {
				gj.Error = sum.Error
			}
			res.Game = gj
		}
	}
	if len(res.Games) == 0 {
		return nil, badRequest("pgn: no game in it")
	}
	if res.Game == nil {
		return nil, badRequest("game %d asked for, but the PGN holds %d", index, len(res.Games))
	}
	return res, nil
}

// describeGame describes a game read from PGN with all its positions.
func describeGame(g *env.Game, index int) (*pgnGameJSON, error) {
	p, err := g.StartPosition()
	if err != nil {
		return nil, badRequest("pgn game %d: %v", index+1, err)
	}
	gj := &pgnGameJSON{Index: index, Tags: g.Tags, Variant: g.Variant.Name, StartFEN: p.FEN(), Result: g.Result.String(),
		Moves: make([]moveJSON, 0, len(g.Moves)), Positions: make([]plyPositionJSON, 0, len(g.Moves)+1)}
	if gj.Tags == nil {
		gj.Tags = [][2]string{}
	}
	add := func(last *moveJSON) {
		st := p.Status()
		gj.Positions = append(gj.Positions, plyPositionJSON{FEN: p.FEN(), Side: p.SideToMove().String(), Check: p.InCheck(),
			Status: st.String(), shapeJSON: shapeOf(p.Variant()), Boards: boardsOf(p), LastMove: last})
	}
	add(nil)
	for i, m := range g.Moves {
		m, err := p.ParseUCI(m.UCI()) // the legal move, with the flags MakeMove needs
		if err != nil {
			gj.Error = fmt.Sprintf("ply %d: %v", i+1, err)
			break
		}
		mj := describeMove(p, m)
		gj.Moves = append(gj.Moves, mj)
		p.MakeMove(m)
		add(&mj)
	}
	return gj, nil
}

// playLine plays moves on p, each checked for legality.
func playLine(p *env.Position, moves []env.Move) error {
	for i, m := range moves {
		lm, err := p.ParseUCI(m.UCI())
		if err != nil {
			return badRequest("ply %d: %v", i+1, err)
		}
		p.MakeMove(lm)
	}
	return nil
}
