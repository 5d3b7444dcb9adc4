package reference

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// Random plays a uniformly random legal move. It is deterministic: the same
// seeds give the same moves.
type Random struct {
	name     string
	specSeed uint64
	rng      *rand.Rand
	ml       env.MoveList
}

// NewRandom returns a random mover named name, seeded with seed.
func NewRandom(name string, seed uint64) *Random {
	return &Random{name: name, specSeed: seed, rng: rand.New(rand.NewPCG(seed, 0))}
}

// Name returns the player's name.
func (r *Random) Name() string { return r.name }

// Seed reseeds the mover for the next game; the spec's seed still counts,
// so random:seed=1 and random:seed=2 play differently in the same match.
func (r *Random) Seed(seed uint64) { r.rng = rand.New(rand.NewPCG(r.specSeed, seed)) }

// NewGame does nothing: a random mover has no per-game state.
func (r *Random) NewGame(context.Context) error { return nil }

// Move returns a random legal move.
func (r *Random) Move(_ context.Context, pos *env.Position, _ clock.Limits) (env.Move, error) {
	pos.LegalMoves(&r.ml)
	if r.ml.N == 0 {
		return env.NoMove, fmt.Errorf("%s: no legal move in %s", r.name, pos.FEN())
	}
	return r.ml.Moves[r.rng.IntN(r.ml.N)], nil
}

// Close does nothing.
func (r *Random) Close() error { return nil }

// IgnoresNodes implements player.NodeIgnorer.
func (r *Random) IgnoresNodes() string { return "random plays without searching" }
