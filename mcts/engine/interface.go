package engine

import (
	"context"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
)

// Interface is what every front end drives — the UCI and XBoard loops, the
// terminal game, the web server and the pychess bot — as lc0's UCI loop
// drives its controller: set the options, search a game with limits and a
// progress callback, stop the search through its context. The front end
// keeps the game (a position with its history) and hands it to every Go
// as an env.Game (env.GameOf); the engine keeps only what makes its next
// search better, its tree or table, matched to the game it is given.
// *Engine implements it; package cmd/alicezero/internal/enginetest has the
// fake the front ends' tests script.
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

	// NewGame tells the engine that the next game is a new one: what it
	// kept from the last (its tree, its table) goes, so that a game does
	// not depend on the games before it.
	NewGame()

	// Go searches the position game reaches (its set-up position, then
	// its moves, which count for repetitions) within lim; see Engine.Go
	// for the contract (a legal BestMove whenever one exists, an error
	// wrapping ErrNoLegalMove when none does). Cancelling ctx stops the
	// search, which then returns its best move so far.
	Go(ctx context.Context, game *env.Game, lim clock.Limits, progress mcts.Progress) (mcts.Result, error)

	// Close releases the engine; it must not be used afterwards.
	Close() error
}

var _ Interface = (*Engine)(nil)
