package engine

import (
	"context"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
)

// Interface is what every front end drives — the UCI and XBoard loops, the
// terminal game, the web server and the pychess bot — as lc0's UCI loop
// drives its one engine: set up the game, search it with limits and a
// progress callback, stop the search through its context. *Engine
// implements it; package cmd/alicezero/internal/enginetest has the fake
// the front ends' tests script.
//
// An Interface is not safe for concurrent use: a front end calls one
// method at a time (Go on a goroutine of its own, leaving the engine alone
// until it returns). A front end that plays several games at once holds
// one Interface per game.
type Interface interface {
	// Options returns the settings, defaults filled in; SetOptions
	// changes them (see Engine.SetOptions), taking effect at the next
	// Ready or Go.
	Options() Options
	SetOptions(Options) error
	// Ready loads what the options name. An error says what failed, and
	// is returned again by every Ready until a change of options loads
	// what they name; the engine stays usable (with the plain search).
	Ready() error
	// Network describes what evaluates positions, for a person to read.
	Network() string
	// SearchKind names the search Go runs: SearchAlphaBeta or SearchMCTS
	// (see Engine.SearchKind).
	SearchKind() string

	// NewGame starts a new game at the variant's start position.
	NewGame()
	// SetPosition sets the game to fen ("" for the variant's start
	// position) and the moves (UCI notation) played from it.
	SetPosition(fen string, moves []string) error
	// Position returns a copy of the current position, with its history.
	Position() *env.Position
	// Play plays a legal move; Undo takes back the last one, reporting
	// false when there is none to take back.
	Play(m env.Move) error
	Undo() (env.Move, bool)

	// Go searches the current position within lim; see Engine.Go for the
	// contract (a legal BestMove whenever one exists, an error wrapping
	// ErrNoLegalMove when none does). Cancelling ctx stops the search,
	// which then returns its best move so far.
	Go(ctx context.Context, lim clock.Limits, progress mcts.Progress) (mcts.Result, error)

	// Close releases the engine; it must not be used afterwards.
	Close() error
}

var _ Interface = (*Engine)(nil)

// GameOf returns the game that led to pos as a PGN game, for
// env.WritePGN: the position before pos's history, the moves since and,
// when the game is over, the result.
func GameOf(pos *env.Position) *env.Game {
	q := pos.Clone()
	moves := make([]env.Move, q.Ply())
	for i := len(moves) - 1; i >= 0; i-- {
		moves[i] = q.LastMove()
		q.UnmakeMove()
	}
	g := env.NewGame(pos.Variant())
	g.StartFEN = q.FEN()
	g.Moves = moves
	g.Result = pos.Outcome(pos.Status())
	return g
}
