package serve

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

type searchRequest struct {
	// Kind is "analyse" (the default), "play", "review" or "draw".
	Kind string `json:"kind"`
	// OfferedBy is, for a draw search, the side that offers the draw
	// (absent: the side to move); the engine answers for the other.
	OfferedBy string `json:"offered_by"`
	// The position: FEN (with Variant) and Moves, or PGN (with Game) for
	// a review; neither means the session's game. A play search always
	// searches the session's game.
	FEN     string   `json:"fen"`
	Variant string   `json:"variant"`
	Moves   []string `json:"moves"`
	PGN     string   `json:"pgn"`
	Game    int      `json:"game"`
	// Visits and MovetimeMS bound the search (for a review: each
	// position's); neither means the server's default visits, or for a
	// play search in a timed game, the engine's clock alone.
	Visits     int `json:"visits"`
	MovetimeMS int `json:"movetime_ms"`
	// Weights chooses the engine: "default", "none" (the plain search) or
	// "run:NAME[/iter-NNNNNN.azck]".
	Weights string `json:"weights"`
}

func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request, se *session) error {
	var req searchRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	kind := searchKind(req.Kind)
	switch kind {
	case "":
		kind = kindAnalyse
	case kindAnalyse, kindPlay, kindReview, kindDraw:
	default:
		return badRequest("kind: want analyse, play, review or draw, got %q", req.Kind)
	}
	if req.OfferedBy != "" && kind != kindDraw {
		return badRequest("offered_by is for a draw search")
	}
	if err := s.checkLimits(req.Visits, req.MovetimeMS); err != nil {
		return err
	}
	wc, err := s.resolveWeights(req.Weights)
	if err != nil {
		return err
	}
	sr := newSearch(s.ctx, se, kind)
	sr.weights = wc
	if err := s.searchPosition(sr, &req, se); err != nil {
		sr.stop(errStopRefused)
		return err
	}
	sr.lim = s.limits(req.Visits, req.MovetimeMS, sr.clocked)
	if kind != kindReview {
		if st := sr.root.Status(); st.IsOver() {
			sr.stop(errStopRefused)
			return badRequest("nothing to search: the game is over (%s)", st)
		}
	}
	// A refused search leaves the visitor's running one alone; an
	// accepted one replaces it.
	if err := s.enqueue(sr); err != nil {
		return err
	}
	se.addSearch(sr)
	res := sr.summary()
	res.Queued = len(s.queue)
	writeJSON(w, http.StatusAccepted, res)
	return nil
}

// searchPosition sets the position (and for a review, the line) that sr
// searches.
func (s *Server) searchPosition(sr *search, req *searchRequest, se *session) error {
	if len(req.Moves) > maxLineMoves {
		return badRequest("at most %d moves, got %d", maxLineMoves, len(req.Moves))
	}
	switch {
	case sr.kind == kindPlay || sr.kind == kindDraw:
		if req.FEN != "" || req.PGN != "" || len(req.Moves) > 0 {
			return badRequest("a %s search is in the session's game: send no fen, moves or pgn", sr.kind)
		}
		se.mu.Lock()
		g := se.game
		g.tick(s.now())
		over, reason := g.isOver(), g.overReason()
		sr.root, sr.version = g.pos.Clone(), g.version
		// A draw offer is weighed by the limits asked for, not the clock.
		sr.clocked = sr.kind == kindPlay && g.clock != nil
		se.mu.Unlock()
		if over {
			return badRequest("nothing to search: the game is over (%s)", reason)
		}
		sr.offeredBy = sr.root.SideToMove()
		if req.OfferedBy != "" {
			side, err := parseSide("offered_by", req.OfferedBy)
			if err != nil {
				return err
			}
			sr.offeredBy = side
		}
	case req.PGN != "":
		if sr.kind != kindReview {
			return badRequest("pgn is for a review; send fen and moves to analyse a position")
		}
		v, err := variantOrDefault(req.Variant)
		if err != nil {
			return err
		}
		g, err := nthGame(req.PGN, v, req.Game)
		if err != nil {
			return err
		}
		if sr.root, err = g.StartPosition(); err != nil {
			return badRequest("pgn: %v", err)
		}
		sr.line = g.Moves
	case req.FEN != "" || len(req.Moves) > 0:
		p, err := parsePosition(req.FEN, req.Variant, nil)
		if err != nil {
			return err
		}
		sr.root = p.Clone()
		for i, text := range req.Moves {
			m, err := p.ParseMove(text)
			if err != nil {
				return badRequest("move %d (%q): %v", i+1, text, err)
			}
			sr.line = append(sr.line, m)
			p.MakeMove(m)
		}
	default:
		se.mu.Lock()
		sr.root = se.game.pos.Clone()
		se.mu.Unlock()
	}
	if sr.kind == kindReview {
		if sr.root.Ply() > 0 && len(sr.line) == 0 {
			// The session's game: review it from its set-up position.
			g := env.GameOf(sr.root)
			root, err := g.StartPosition()
			if err != nil {
				return fmt.Errorf("the game's set-up position: %w", err)
			}
			sr.root, sr.line = root, g.Moves
		}
		if err := playLine(sr.root.Clone(), sr.line); err != nil {
			return err
		}
		return nil
	}
	// An analysis searches the position after the moves, their history
	// kept for repetitions.
	for _, m := range sr.line {
		sr.root.MakeMove(m)
	}
	sr.line = nil
	return nil
}

// checkLimits checks a request's search limits against the server's
// bounds.
func (s *Server) checkLimits(visits, movetimeMS int) error {
	switch {
	case visits < 0 || visits > s.opts.MaxVisits:
		return badRequest("visits must lie in 1..%d, got %d", s.opts.MaxVisits, visits)
	case movetimeMS < 0 || time.Duration(movetimeMS)*time.Millisecond > s.opts.MaxTime:
		return badRequest("movetime_ms must lie in 1..%d, got %d", s.opts.MaxTime.Milliseconds(), movetimeMS)
	}
	return nil
}

// limits turns checked limits into a search's. A clocked search (a play
// search in a timed game) gets its clocks when it starts; the server's
// longest search time still bounds each move, and the visits or time the
// request set bound it further. A search nothing bounds is Infinite: it
// runs until it is stopped.
func (s *Server) limits(visits, movetimeMS int, clocked bool) clock.Limits {
	lim := clock.Limits{Nodes: int64(visits), MoveTime: time.Duration(movetimeMS) * time.Millisecond}
	switch {
	case clocked && lim.MoveTime == 0:
		lim.MoveTime = s.opts.MaxTime
	case lim.Nodes == 0 && lim.MoveTime == 0:
		lim.Nodes = int64(s.opts.DefaultVisits)
	}
	lim.Infinite = lim.Nodes == 0 && lim.MoveTime == 0
	return lim
}

// lookupSearch finds the session's search named in the path.
func lookupSearch(r *http.Request, se *session) (*search, error) {
	id := r.PathValue("id")
	sr := se.findSearch(id)
	if sr == nil {
		return nil, notFound("no search %q in this session", id)
	}
	return sr, nil
}

func (s *Server) handleSearchStatus(w http.ResponseWriter, r *http.Request, se *session) error {
	sr, err := lookupSearch(r, se)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, sr.summary())
	return nil
}

func (s *Server) handleSearchStop(w http.ResponseWriter, r *http.Request, se *session) error {
	sr, err := lookupSearch(r, se)
	if err != nil {
		return err
	}
	sr.stop(errStopVisitor)
	writeJSON(w, http.StatusOK, sr.summary())
	return nil
}

// sseKeepAlive is the longest silence on an event stream: a comment line
// then keeps proxies and the browser from closing it.
const sseKeepAlive = 15 * time.Second

// handleSearchEvents streams a search's events as server-sent events
// ("event: NAME", "id: SEQ", "data: JSON"), from the start or after the
// Last-Event-ID the browser sends when it reconnects, and ends after the
// "done" event.
func (s *Server) handleSearchEvents(w http.ResponseWriter, r *http.Request, se *session) error {
	sr, err := lookupSearch(r, se)
	if err != nil {
		return err
	}
	select {
	case s.streams <- struct{}{}:
		defer func() { <-s.streams }()
	default:
		return unavailable("too many open event streams (%d); try again in a moment", cap(s.streams))
	}
	after := 0
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			after = n
		}
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	keepAlive := time.NewTimer(sseKeepAlive)
	defer keepAlive.Stop()
	for {
		events, done, changed := sr.eventsAfter(after)
		_ = rc.SetWriteDeadline(time.Now().Add(sseKeepAlive + 10*time.Second)) // not every writer has deadlines
		for _, ev := range events {
			if _, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", ev.seq, ev.name, ev.data); err != nil {
				return nil // the client went away
			}
			after = ev.seq
		}
		if err := rc.Flush(); err != nil {
			return nil
		}
		if done {
			return nil
		}
		select {
		case <-changed:
		case <-keepAlive.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return nil
			}
			keepAlive.Reset(sseKeepAlive)
		case <-r.Context().Done():
			return nil
		case <-s.ctx.Done():
			return nil
		}
	}
}
