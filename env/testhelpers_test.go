package env

import (
	"math/rand/v2"
	"testing"
)

// randomPositions plays random games of variant v and returns positions
// along them (clones, with history), for tests that want many odd positions.
func randomPositions(t testing.TB, v Variant, games, every int, seed uint64) []*Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	var out []*Position
	for g := 0; g < games; g++ {
		p := NewPosition(v)
		for ply := 0; ply < 160; ply++ {
			if ply%every == 0 {
				out = append(out, p.Clone())
			}
			var ml MoveList
			p.LegalMoves(&ml)
			if ml.N == 0 {
				break
			}
			p.MakeMove(ml.Moves[rng.IntN(ml.N)])
		}
	}
	return out
}
