// Package enginetest provides the fake engine.Interface that the tests
// and examples of every front end (uci, xboard, console, serve, pychess)
// drive: it keeps a game like package engine's Engine, but its searches
// are scripted, so a test can decide what a search reports, how long it
// takes and how it fails.
//
//	e := enginetest.New()
//	e.Search = func(ctx context.Context, pos *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
//		... // report through progress, answer a move of pos
//	}
//	err := uci.Run(ctx, e, gui, out)
package enginetest

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// Engine is a fake engine. Its zero value is not usable; make one with
// New.
type Engine struct {
	opts engine.Options
	pos  *env.Position

	// ReadyErr is what Ready returns.
	ReadyErr error
	// Description is what Network returns; "" means "fake network".
	Description string
	// Kind is what SearchKind returns; "" means engine.SearchMCTS, whose
	// nodes are the visits asked for.
	Kind string
	// Search, if set, runs in place of the default search (which
	// reports one Info and plays the first legal move, or waits for ctx
	// when the limits are infinite).
	Search func(ctx context.Context, pos *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error)

	mu     sync.Mutex
	limits []clock.Limits // of every Go, in order
	closed bool
}

var _ engine.Interface = (*Engine)(nil)

// The methods below are engine.Interface's; they keep the game as package
// engine's Engine does.

// New returns a fake engine at the start position.
func New() *Engine {
	e := &Engine{opts: engine.Options{Variant: env.Alice, Threads: 1, HashMB: engine.DefaultHashMB, Visits: engine.DefaultVisits,
		EvalWorkers: 1, MoveOverhead: engine.DefaultMoveOverhead}}
	e.NewGame()
	return e
}

// Limits returns the limits of every Go so far.
func (e *Engine) Limits() []clock.Limits {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]clock.Limits(nil), e.limits...)
}

func (e *Engine) Options() engine.Options { return e.opts }

func (e *Engine) SetOptions(o engine.Options) error {
	if o.Threads < 0 || o.Visits < 0 {
		return errors.New("fake: negative option")
	}
	if o.Variant.Name == "" {
		o.Variant = env.Alice
	}
	if o.Variant != e.opts.Variant {
		e.opts = o
		e.NewGame()
	}
	e.opts = o
	return nil
}

func (e *Engine) Ready() error { return e.ReadyErr }

func (e *Engine) NewGame() {
	e.pos = env.NewPosition(e.opts.Variant)
}

func (e *Engine) SetPosition(fen string, moves []string) error {
	if fen == "" {
		fen = e.opts.Variant.StartFEN()
	}
	pos, err := env.ParseFEN(fen, e.opts.Variant)
	if err != nil {
		return fmt.Errorf("position: %w", err)
	}
	if i, err := pos.PlayUCI(moves); err != nil {
		return fmt.Errorf("position: move %d (%s): %w", i+1, moves[i], err)
	}
	e.pos = pos
	return nil
}

func (e *Engine) Position() *env.Position { return e.pos.Clone() }

func (e *Engine) Network() string {
	if e.Description == "" {
		return "fake network"
	}
	return e.Description
}

func (e *Engine) SearchKind() string {
	if e.Kind == "" {
		return engine.SearchMCTS
	}
	return e.Kind
}

// Close marks the engine closed (Closed); it must not be used afterwards.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	return nil
}

// Closed reports whether Close was called.
func (e *Engine) Closed() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.closed
}

// Play plays m if it is legal.
func (e *Engine) Play(m env.Move) error {
	var ml env.MoveList
	e.pos.LegalMoves(&ml)
	if !ml.Contains(m) {
		return &env.MoveError{Move: m.UCI(), FEN: e.pos.FEN(), Reason: "illegal move"}
	}
	e.pos.MakeMove(m)
	return nil
}

// Undo takes back the last move.
func (e *Engine) Undo() (env.Move, bool) {
	if e.pos.Ply() == 0 {
		return env.NoMove, false
	}
	m := e.pos.LastMove()
	e.pos.UnmakeMove()
	return m, true
}

// Go records lim and runs the search: Search if set, else the default.
func (e *Engine) Go(ctx context.Context, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
	e.mu.Lock()
	e.limits = append(e.limits, lim)
	e.mu.Unlock()
	var ml env.MoveList
	e.pos.LegalMoves(&ml)
	if ml.N == 0 {
		return mcts.Result{}, fmt.Errorf("fake: %w (%s)", engine.ErrNoLegalMove, e.pos.Status())
	}
	if e.Search != nil {
		return e.Search(ctx, e.pos.Clone(), lim, progress)
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
