package env

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// compareWithReference walks the game tree to the given depth and fails on
// the first position where the two generators disagree.
func compareWithReference(t *testing.T, p *Position, depth int, path []string) bool {
	t.Helper()
	var ml MoveList
	p.LegalMoves(&ml)
	var fast []string
	for _, m := range ml.Slice() {
		fast = append(fast, m.UCI())
	}
	ref := refLegal(p)
	slices.Sort(fast)
	slices.Sort(ref)
	if !slices.Equal(fast, ref) {
		t.Errorf("after %q (%s):\n fast: %v\n  ref: %v", strings.Join(path, " "), p.FEN(), fast, ref)
		return false
	}
	if depth == 0 {
		return true
	}
	for _, m := range ml.Slice() {
		p.MakeMove(m)
		ok := compareWithReference(t, p, depth-1, append(path, m.UCI()))
		p.UnmakeMove()
		if !ok {
			return false
		}
	}
	return true
}

func TestGeneratorMatchesReferenceTree(t *testing.T) {
	p := NewPosition(Alice)
	if _, err := p.PlayUCI(strings.Fields("e2e4 d7d5 f1e2 d5e4")); err != nil {
		t.Fatal(err)
	}
	depth := 3
	if testing.Short() {
		depth = 2
	}
	compareWithReference(t, p, depth, nil)
}

// TestGeneratorMatchesReferenceRandomGames compares the generators along
// many random games, which reach odd positions a shallow tree never does.
func TestGeneratorMatchesReferenceRandomGames(t *testing.T) {
	games := 400
	if testing.Short() {
		games = 100
	}
	for _, v := range Variants() {
		rng := rand.New(rand.NewPCG(1, 2))
		for g := 0; g < games; g++ {
			p := NewPosition(v)
			var path []string
			for ply := 0; ply < 200; ply++ {
				if !compareWithReference(t, p, 0, path) {
					return
				}
				var ml MoveList
				p.LegalMoves(&ml)
				if ml.N == 0 {
					break
				}
				m := ml.Moves[rng.IntN(ml.N)]
				path = append(path, m.UCI())
				p.MakeMove(m)
			}
		}
	}
}
