// Package enginetest provides the fake engine.Interface that the tests
// and examples of every front end (uci, xboard, console, serve, pychess)
// drive. It keeps no game and plays no chess of its own: it records what
// the front end gives it (options, new games, the game and limits of
// every Go) and answers each Go with a scripted search, so that a test
// can decide what a search reports, how long it takes and how it fails,
// and check what the front end asked for.
//
//	e := enginetest.New()
//	e.Search = func(ctx context.Context, pos *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
//		... // report through progress, answer a move of pos
//	}
//	err := uci.Run(ctx, e, gui, out)
//	last := e.Games()[len(e.Games())-1] // the game the front end searched
package enginetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// Engine is a fake engine. Its zero value is not usable; make one with
// New.
type Engine struct {
	// ReadyErr is what Ready returns.
	ReadyErr error
	// Description is what Network returns; "" means "fake network".
	Description string
	// Kind is what SearchKind returns; "" means engine.SearchMCTS, whose
	// nodes are the visits asked for.
	Kind string
	// Search, if set, answers every Go in place of the default answer
	// (one Info and the first legal move, after ctx ends when the limits
	// are infinite). pos is the position the game handed to Go reaches.
	Search func(ctx context.Context, pos *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error)

	mu       sync.Mutex
	opts     engine.Options
	games    []*env.Game    // of every Go, in order
	limits   []clock.Limits // of every Go, in order
	newGames int
}

var _ engine.Interface = (*Engine)(nil)

// New returns a fake engine with the engine's default options.
func New() *Engine {
	return &Engine{opts: engine.Options{Variant: env.Alice, Threads: 1, HashMB: engine.DefaultHashMB, Visits: engine.DefaultVisits,
		EvalWorkers: 1, MoveOverhead: engine.DefaultMoveOverhead}}
}

// Games returns copies of the games of every Go so far, in order.
func (e *Engine) Games() []*env.Game {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.games)
}

// Limits returns the limits of every Go so far, in order.
func (e *Engine) Limits() []clock.Limits {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.limits)
}

// NewGames returns how many times NewGame was called.
func (e *Engine) NewGames() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.newGames
}

// The methods below are engine.Interface's.

// Options returns the options last set.
func (e *Engine) Options() engine.Options {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.opts
}

// SetOptions records o, refusing negative threads or visits as the engine
// does; an empty variant is alice.
func (e *Engine) SetOptions(o engine.Options) error {
	if o.Threads < 0 || o.Visits < 0 {
		return errors.New("fake: negative option")
	}
	if o.Variant.Name == "" {
		o.Variant = env.Alice
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.opts = o
	return nil
}

// Ready returns ReadyErr.
func (e *Engine) Ready() error { return e.ReadyErr }

// Network returns Description.
func (e *Engine) Network() string {
	if e.Description == "" {
		return "fake network"
	}
	return e.Description
}

// SearchKind returns Kind.
func (e *Engine) SearchKind() string {
	if e.Kind == "" {
		return engine.SearchMCTS
	}
	return e.Kind
}

// NewGame counts the call (NewGames).
func (e *Engine) NewGame() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.newGames++
}

// Close does nothing: the fake holds nothing to release.
func (e *Engine) Close() error { return nil }

// Go records game and lim and answers: an error for a game that does not
// play, one wrapping engine.ErrNoLegalMove where the side to move has no
// move (the engine's contract), else Search's answer or the default one.
func (e *Engine) Go(ctx context.Context, game *env.Game, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
	if game == nil {
		return mcts.Result{}, errors.New("fake: no game")
	}
	g := *game
	g.Moves, g.Tags = slices.Clone(g.Moves), slices.Clone(g.Tags)
	e.mu.Lock()
	e.games = append(e.games, &g)
	e.limits = append(e.limits, lim)
	e.mu.Unlock()
	pos, err := g.FinalPosition()
	if err != nil {
		return mcts.Result{}, fmt.Errorf("fake: %w", err)
	}
	var ml env.MoveList
	pos.LegalMoves(&ml)
	if ml.N == 0 {
		return mcts.Result{}, fmt.Errorf("fake: %w (%s)", engine.ErrNoLegalMove, pos.Status())
	}
	if e.Search != nil {
		return e.Search(ctx, pos, lim, progress)
	}
	if lim.Infinite {
		<-ctx.Done()
	}
	m := ml.Moves[0]
	res := mcts.Result{BestMove: m, PV: []env.Move{m}, Nodes: 1, RootWDL: [3]float32{0.3, 0.4, 0.3}}
	if progress.Report != nil {
		progress.Report(mcts.Info{Depth: 1, SelDepth: 1, Nodes: 1, WDL: res.RootWDL, PV: res.PV, Final: true})
	}
	return res, nil
}
