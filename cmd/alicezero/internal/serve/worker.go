package serve

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/sourcegraph/conc/panics"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// enqueue puts sr in the search queue, or refuses it when the queue is
// full.
func (s *Server) enqueue(sr *search) error {
	sr.publish("queued", map[string]int{"ahead": len(s.queue)})
	select {
	case s.queue <- sr:
		return nil
	default:
		sr.stop(errStopRefused)
		return unavailable("the engine is busy: %d searches are waiting; try again in a moment", cap(s.queue))
	}
}

// worker runs queued searches, one at a time, until the server closes.
func (s *Server) worker() {
	for {
		select {
		case <-s.ctx.Done():
			s.drain()
			return
		case sr := <-s.queue:
			s.runCaught(sr)
		}
	}
}

// drain ends the searches still queued when the server closes.
func (s *Server) drain() {
	for {
		select {
		case sr := <-s.queue:
			sr.finish(stateStopped, doneJSON{Error: "the server is shutting down", End: &endJSON{Reason: endStopped, Text: "the server is shutting down"}})
		default:
			return
		}
	}
}

// runCaught runs sr; a panic in the engine fails the search, not the
// server.
func (s *Server) runCaught(sr *search) {
	var pc panics.Catcher
	pc.Try(func() { s.run(sr) })
	if r := pc.Recovered(); r != nil {
		s.log.Error("serve: panic in a search", "search", sr.id, "panic", r.Value, "stack", string(r.Stack))
		sr.fail(fmt.Sprintf("internal error in the engine: %v", r.Value))
	}
}

// doneJSON is the last event of a search.
type doneJSON struct {
	State string    `json:"state"`
	Error string    `json:"error,omitempty"`
	Info  *infoJSON `json:"info,omitempty"`
	// Played is the move a play search played in the game, and Game the
	// game after it; Stale is set when the game changed during the search,
	// so that the move was not played. Timeout is set when the engine's
	// clock ran out before its move: Game is then the game lost on time.
	Played  *moveJSON `json:"played,omitempty"`
	Game    *gameJSON `json:"game,omitempty"`
	Stale   bool      `json:"stale,omitempty"`
	Timeout bool      `json:"timeout,omitempty"`
	// Draw is a draw search's answer.
	Draw *drawJSON `json:"draw,omitempty"`
	// End says why the search ended.
	End *endJSON `json:"end,omitempty"`
}

// fail ends the search with an error.
func (sr *search) fail(msg string) {
	sr.finish(stateFailed, doneJSON{Error: msg, End: &endJSON{Reason: endError, Text: msg}})
}

// finish ends the search with its "done" event.
func (sr *search) finish(state string, d doneJSON) {
	d.State = state
	sr.emit("done", d, state)
	sr.cancel(nil)
}

func (s *Server) run(sr *search) {
	if sr.ctx.Err() != nil {
		end := s.stoppedEnd(sr)
		sr.finish(stateStopped, doneJSON{Error: "stopped before it started", End: &end})
		return
	}
	sr.setState(stateRunning)
	key := engineKey{weights: sr.weights.Path, variant: sr.root.Variant()}
	eng, err := s.engines.take(sr.ctx, key)
	if err != nil {
		s.log.Error("serve: loading the engine failed", "search", sr.id, "weights", sr.weights.ID, "variant", key.variant.Name, "err", err)
		sr.fail(s.publicPaths(fmt.Sprintf("loading the engine (%s): %v", sr.weights.ID, err)))
		return
	}
	defer s.engines.give(key, eng)
	search := eng.SearchKind()
	if err := setLines(eng, sr.kind); err != nil {
		sr.fail(fmt.Sprintf("setting the engine's lines: %v", err))
		return
	}
	sr.publish("engine", map[string]string{"weights": sr.weights.ID, "engine": s.publicPaths(eng.Network()), "name": s.engineName(sr.weights, eng, key.variant), "search": search})
	// The visits asked for are the tree's; the alpha-beta searches as long.
	lim, ctx := sr.lim, sr.ctx
	lim.Nodes = engine.VisitNodes(search, lim.Nodes)
	if sr.kind == kindReview {
		s.review(sr, eng, lim, search)
		return
	}
	if sr.kind == kindPlay && sr.clocked {
		// The engine's clock has run since the visitor's move, through
		// the queue and the engine's loading: it searches on what is left.
		clocks, left, d := s.engineClock(sr)
		if d != nil {
			sr.finish(stateDone, *d)
			return
		}
		lim = withClocks(lim, clocks)
		// A backstop, should the time manager misjudge: the search stops
		// just before the engine's flag would fall, and the move found so
		// far is played in time.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, left-min(left/10, 50*time.Millisecond))
		defer cancel()
	}
	pos := sr.root.Clone()
	scratch := pos.Clone() // for writing reports; the engine has pos
	report := func(in mcts.Info) {
		js := describeInfo(scratch, in, search)
		sr.setLast(js)
		sr.publish("info", js)
	}
	in, err := searchOn(ctx, eng, pos, lim, report)
	best := bestMove(in.Info)
	var ml env.MoveList
	scratch.LegalMoves(&ml)
	if err != nil && !ml.Contains(best) {
		if sr.ctx.Err() != nil {
			end := s.stoppedEnd(sr)
			sr.finish(stateStopped, doneJSON{Error: "stopped before the engine found a move", End: &end})
			return
		}
		s.log.Error("serve: search failed", "search", sr.id, "weights", sr.weights.ID, "variant", sr.root.Variant().Name, "err", err)
		sr.fail(s.publicPaths(fmt.Sprintf("search: %v", err)))
		return
	}
	if !ml.Contains(best) {
		sr.fail(fmt.Sprintf("the engine answered %v, not a legal move", best))
		return
	}
	in.Final = true
	end := s.searchEnd(sr, ctx, eng, lim, in)
	d := doneJSON{Info: describeInfo(scratch, in.Info, search), End: &end}
	sr.setLast(d.Info)
	switch sr.kind {
	case kindPlay:
		s.playFound(sr, best, &d)
	case kindDraw:
		s.answerDraw(sr, in, &d)
	}
	state := stateDone
	if sr.ctx.Err() != nil {
		state = stateStopped
	}
	sr.finish(state, d)
}

// engineClock returns, for a play search in a timed game about to start,
// the clocks to search by and the engine's time left; or, when the game
// has changed meanwhile or the engine's time ran out already, the search's
// last event instead.
func (s *Server) engineClock(sr *search) (clock.Limits, time.Duration, *doneJSON) {
	se := sr.owner
	se.mu.Lock()
	defer se.mu.Unlock()
	g := se.game
	if g.version != sr.version || g.clock == nil {
		return clock.Limits{}, 0, &doneJSON{Stale: true}
	}
	now := s.now()
	g.tick(now)
	if g.isOver() {
		st := g.state(now)
		return clock.Limits{}, 0, &doneJSON{Timeout: true, Game: &st}
	}
	return g.engineLimits(now), g.timeLeft(g.pos.SideToMove(), now), nil
}

// playFound plays the move a play search found in its session's game,
// unless the game changed during the search or, in a timed game, the
// engine's time ran out before the move came.
func (s *Server) playFound(sr *search, m env.Move, d *doneJSON) {
	s.inGame(sr, d, func(g *game, now time.Time) {
		if g.isOver() {
			d.Timeout = true
			st := g.state(now)
			d.Game = &st
			return
		}
		played := describeMove(g.pos, m)
		g.makeMove(m, now)
		st := g.state(now)
		d.Played, d.Game = &played, &st
	})
}

// inGame runs f on sr's session game, under the session's lock and at one
// moment (a flag that fell by then seen first), when it is still the game
// sr searched; else it marks d stale.
func (s *Server) inGame(sr *search, d *doneJSON, f func(g *game, now time.Time)) {
	se := sr.owner
	se.mu.Lock()
	defer se.mu.Unlock()
	g := se.game
	if g.version != sr.version {
		d.Stale = true
		return
	}
	now := s.now()
	g.tick(now)
	f(g, now)
}

// plyJSON is a review's evaluation of one position of the line: Ply
// moves after its start, from White's view.
type plyJSON struct {
	Ply        int           `json:"ply"`
	WhiteValue float64       `json:"white_value"`
	WhiteWDL   [3]float64    `json:"white_wdl"`
	MateIn     int           `json:"mate,omitempty"` // from the side to move's view
	Best       *lineMoveJSON `json:"best,omitempty"`
	Status     string        `json:"status"`
	Nodes      int           `json:"nodes"`
}

// analysisLines is how many lines the alpha-beta searches exactly in an
// analysis, for the page's list of top moves (the tree lists every root
// move whatever it is).
const analysisLines = 4

// setLines sets how many lines eng searches for a search of kind: several
// for an analysis, one for the searches that play or weigh a move (play,
// draw) and for a review's evaluations, which show no lines, so that
// their depth is not spread over moves not shown.
func setLines(eng engine.Interface, kind searchKind) error {
	o := eng.Options()
	lines := 1
	if kind == kindAnalyse {
		lines = analysisLines
	}
	if max(o.MultiPV, 1) == lines {
		return nil
	}
	o.MultiPV = lines
	return eng.SetOptions(o)
}

// review evaluates each position of the line in turn, each within lim (as
// the engine counts nodes), by search.
func (s *Server) review(sr *search, eng engine.Interface, lim clock.Limits, search string) {
	p := sr.root.Clone()
	for i := 0; i <= len(sr.line); i++ {
		if sr.ctx.Err() != nil {
			end := s.stoppedEnd(sr)
			sr.finish(stateStopped, doneJSON{End: &end})
			return
		}
		pj, err := evaluatePly(sr.ctx, eng, p, lim, search)
		if err != nil {
			if sr.ctx.Err() != nil {
				end := s.stoppedEnd(sr)
				sr.finish(stateStopped, doneJSON{End: &end})
				return
			}
			sr.fail(s.publicPaths(fmt.Sprintf("ply %d: %v", i, err)))
			return
		}
		pj.Ply = i
		sr.publish("ply", pj)
		if i < len(sr.line) {
			p.MakeMove(sr.line[i])
		}
	}
	sr.finish(stateDone, doneJSON{End: &endJSON{Reason: endComplete, Text: fmt.Sprintf("all %d positions evaluated", len(sr.line)+1)}})
}

// evaluatePly evaluates one position: by the rules when the game is over
// there, else by a search (of kind search, engine.SearchKind).
func evaluatePly(ctx context.Context, eng engine.Interface, p *env.Position, lim clock.Limits, search string) (plyJSON, error) {
	st := p.Status()
	pj := plyJSON{Status: st.String()}
	white := func(wdl [3]float64) {
		if p.SideToMove() == env.Black {
			wdl[0], wdl[2] = wdl[2], wdl[0]
		}
		pj.WhiteWDL = wdl
		pj.WhiteValue = round4(wdl[0] - wdl[2])
	}
	if st.IsOver() {
		switch p.Outcome(st) {
		case env.WhiteWins:
			pj.WhiteWDL, pj.WhiteValue = [3]float64{1, 0, 0}, 1
		case env.BlackWins:
			pj.WhiteWDL, pj.WhiteValue = [3]float64{0, 0, 1}, -1
		default:
			pj.WhiteWDL = [3]float64{0, 1, 0}
		}
		return pj, nil
	}
	in, err := searchOn(ctx, eng, p.Clone(), lim, nil)
	if err != nil && in.Nodes == 0 {
		return pj, err
	}
	js := describeInfo(p, in.Info, search)
	white(js.WDL)
	pj.MateIn, pj.Best, pj.Nodes = js.MateIn, js.Best, js.Nodes
	return pj, nil
}

// enginePool keeps loaded engines between searches, at most maxIdle of
// them, so that a network is not loaded for every move.
type enginePool struct {
	load    Loader
	maxIdle int

	mu   sync.Mutex
	idle []pooledEngine // least recently used first
}

// engineKey is what an engine is loaded for: the weights as the Loader
// takes them and the variant it plays.
type engineKey struct {
	weights string
	variant env.Variant
}

type pooledEngine struct {
	key engineKey
	eng engine.Interface
}

// take returns an idle engine for key, or loads one.
func (p *enginePool) take(ctx context.Context, key engineKey) (engine.Interface, error) {
	p.mu.Lock()
	for i := len(p.idle) - 1; i >= 0; i-- {
		if p.idle[i].key == key {
			e := p.idle[i].eng
			p.idle = append(p.idle[:i], p.idle[i+1:]...)
			p.mu.Unlock()
			return e, nil
		}
	}
	p.mu.Unlock()
	e, err := p.load(ctx, key.weights, key.variant)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, errors.New("the loader returned no engine")
	}
	return e, nil
}

// give returns an engine after a search, closing the least recently used
// idle engine when there are too many.
func (p *enginePool) give(key engineKey, e engine.Interface) {
	p.mu.Lock()
	p.idle = append(p.idle, pooledEngine{key: key, eng: e})
	var evict []engine.Interface
	for len(p.idle) > p.maxIdle {
		evict = append(evict, p.idle[0].eng)
		p.idle = p.idle[1:]
	}
	p.mu.Unlock()
	for _, e := range evict {
		_ = e.Close() // an engine that fails to close has nothing left to lose
	}
}

// closeAll closes the idle engines.
func (p *enginePool) closeAll() error {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	var errs []error
	for _, pe := range idle {
		errs = append(errs, pe.eng.Close())
	}
	return errors.Join(errs...)
}
