package pychess

import (
	"context"
	"time"

	"github.com/alicezero/alicezero/env"
)

// Engine chooses the bot's moves. It is called from several games at
// once, so it must be safe for concurrent use, and it must return soon
// after ctx ends.
type Engine interface {
	Move(ctx context.Context, req MoveRequest) (MoveReply, error)
}

// MoveRequest is a position to move in: a game from its start, and the
// time to spend.
type MoveRequest struct {
	// Variant is the rule set.
	Variant env.Variant
	// StartFEN is the game's start position in the rule book's notation.
	StartFEN string
	// Moves are the moves played since, in UCI.
	Moves []string
	// Budget is the time the search should take; ctx ends a little after
	// it.
	Budget time.Duration
}

// MoveReply is the engine's choice.
type MoveReply struct {
	// Move is in UCI.
	Move string
	// Value is the search's value of the position, W−L in [−1, 1] from the
	// side to move's view, when HasValue is set.
	Value    float64
	HasValue bool
}
