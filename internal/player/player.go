package player

import (
	"context"
	"fmt"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
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
	Move(ctx context.Context, pos *env.Position, limits clock.Limits) (env.Move, error)
	// Close releases the player's resources (processes, memory).
	Close() error
}

// Seeder is implemented by players with randomness. The arena seeds them
// before each game from the match seed and the game's number, so that a
// match is reproducible whatever the concurrency.
type Seeder interface {
	Seed(seed uint64)
}

// NodeIgnorer is implemented by players whose play does not depend on a
// node budget (a reference player searches to its depth, a random mover
// does not search): the arena refuses a node limit given to such a player
// alone (its spec's nodes=N), which it would silently ignore.
// IgnoresNodes says why, for the error.
type NodeIgnorer interface {
	IgnoresNodes() string
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

// MateScore is the score a Scorer gives a position it has proven won
// (−MateScore: lost), beyond every centipawn score.
const MateScore = 100_000

// Scorer is implemented by players that report how they judged the
// position after their last move: centipawns from their own side's view
// (the side that just moved), a proven mate as ±MateScore. The arena's
// score adjudication reads it. ok is false when the last move had no
// score (e.g. an engine that printed none).
type Scorer interface {
	LastScore() (cp int, ok bool)
}
