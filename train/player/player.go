package player

import (
	"context"
	"fmt"
	"time"

	"github.com/alicezero/alicezero/env"
)

// Player is a program that plays games: a fixed reference player, an
// external UCI engine or a network with its search. A Player plays one game
// at a time; run concurrent games with one Player each.
type Player interface {
	// Name identifies the player in tables and PGN: by convention the spec
	// text it was made from.
	Name() string
	// NewGame resets per-game state before a game starts.
	NewGame(ctx context.Context) error
	// Move returns the move to play in pos, a legal move of pos. pos
	// carries the game's history (for repetitions); the player may use it
	// as scratch space but must leave it as it found it. ctx ends when the
	// caller stops waiting (e.g. the player's clock ran out).
	Move(ctx context.Context, pos *env.Position, limits Limits) (env.Move, error)
	// Close releases the player's resources (processes, memory).
	Close() error
}

// Seeder is implemented by players with randomness. The arena seeds them
// before each game from the match seed and the game's number, so that a
// match is reproducible whatever the concurrency.
type Seeder interface {
	Seed(seed uint64)
}

// Limits bounds the search for one move. Zero fields do not limit. A search
// should honour every limit it can; players whose strength is fixed by
// their spec (e.g. an alpha-beta depth) may ignore Nodes.
type Limits struct {
	// Nodes is the search budget in nodes (MCTS visits for the network
	// player, "go nodes" for a UCI engine).
	Nodes int64
	// MoveTime is the time to spend on this move.
	MoveTime time.Duration
	// WTime and BTime are the time left on White's and Black's clocks,
	// WInc and BInc their increments, MovesToGo the moves until the next
	// time control (0: the rest of the game). They are set only in games
	// with a clock.
	WTime, BTime time.Duration
	WInc, BInc   time.Duration
	MovesToGo    int
}

// HasClock reports whether the game is played with a clock.
func (l Limits) HasClock() bool { return l.WTime > 0 || l.BTime > 0 }

// Budget is the time a player to move as side should aim to spend: the move
// time, or with a clock a share of the time left plus most of the
// increment, never more than half the time left. Zero means no time limit.
func (l Limits) Budget(side env.Colour) time.Duration {
	if !l.HasClock() {
		return l.MoveTime
	}
	left, inc := l.WTime, l.WInc
	if side == env.Black {
		left, inc = l.BTime, l.BInc
	}
	moves := l.MovesToGo
	if moves <= 0 || moves > 30 {
		moves = 30
	}
	b := left/time.Duration(moves) + inc*3/4
	b = min(b, left/2)
	if l.MoveTime > 0 {
		b = min(b, l.MoveTime)
	}
	return max(b, time.Millisecond)
}

// IllegalMoveError reports a player that answered with a move that is not
// legal (or not a move at all) in the position.
type IllegalMoveError struct {
	Player string
	Move   string
	Err    error
}

func (e *IllegalMoveError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s played illegal move %q: %v", e.Player, e.Move, e.Err)
	}
	return fmt.Sprintf("%s played illegal move %q", e.Player, e.Move)
}

func (e *IllegalMoveError) Unwrap() error { return e.Err }
