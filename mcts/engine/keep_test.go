package engine

import (
	"context"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
)

// A timed search keeps a tree only when keeping it takes at most half its
// budget; untimed searches keep any.
func TestKeepable(t *testing.T) {
	e := newEngine(t, Options{Weights: NoWeights, Search: SearchMCTS, Visits: 2000})
	if _, err := e.Go(context.Background(), env.NewGame(env.Alice), clock.Limits{}, mcts.Progress{}); err != nil {
		t.Fatal(err)
	}
	tr := e.tree
	cost := tr.RebuildCost()
	if cost <= 0 {
		t.Fatalf("a tree of %d bytes costs %v to keep", tr.Bytes(), cost)
	}
	for _, tc := range []struct {
		budget time.Duration
		want   bool
	}{
		{0, true},
		{2 * cost, true},
		{2*cost - 1, false},
		{time.Hour, true},
	} {
		if got := keepable(tr, tc.budget); got != tc.want {
			t.Errorf("keepable(tree costing %v, %v) = %v, want %v", cost, tc.budget, got, tc.want)
		}
	}
}

// Hash is split between the evaluation cache (a quarter) and the tree,
// which gets at least the smallest bound the search takes.
func TestSearchMemory(t *testing.T) {
	for _, mb := range []int{1, 2, DefaultHashMB, MaxHashMB} {
		entries, tree := searchMemory(mb)
		cache := entries * cacheEntryBytes
		if entries < 1 || tree < mcts.MinTreeBytes || (mb > 1 && cache+tree > mb<<20) || cache > (mb<<20)/3 {
			t.Errorf("Hash %d MiB: cache %d entries (%d bytes), tree %d bytes", mb, entries, cache, tree)
		}
		cfg := mcts.DefaultPlayConfig()
		cfg.CacheEntries, cfg.TreeBytes = entries, tree
		if err := cfg.Validate(); err != nil {
			t.Errorf("Hash %d MiB: %v", mb, err)
		}
	}
	if entries, tree := searchMemory(DefaultHashMB); entries != 1<<18 || tree != 192<<20 {
		t.Errorf("default Hash: %d cache entries, %d tree bytes; want 1<<18 and 192 MiB", entries, tree)
	}
}

// A game that continues the one searched last keeps the tree's subtree of
// the moves since, so that the next search starts with visits; a new game,
// or a game that does not continue it, starts afresh.
func TestGoKeepsTheTreeOfTheGame(t *testing.T) {
	e := newEngine(t, Options{Weights: NoWeights, Search: SearchMCTS})
	// kept is the visits of the root's moves in all beyond the search's
	// own: what the tree held before it.
	search := func(pos *env.Position) (mcts.Result, int) {
		t.Helper()
		res, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 100}, mcts.Progress{})
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, c := range res.Children {
			total += c.Visits
		}
		return res, total - res.Nodes
	}
	pos := env.NewPosition(env.Alice)
	res, _ := search(pos)
	if len(res.PV) < 2 {
		t.Fatalf("a PV of %d moves after 100 visits", len(res.PV))
	}
	other := pos.Clone()
	pos.MakeMove(res.PV[0])
	pos.MakeMove(res.PV[1])
	if _, kept := search(pos); kept <= 0 {
		t.Errorf("the game went on by the PV's two moves, and the search kept %d visits", kept)
	}
	e.NewGame()
	if _, kept := search(pos); kept > 0 {
		t.Errorf("after NewGame the search kept %d visits", kept)
	}
	var ml env.MoveList
	other.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		if m != res.PV[0] {
			other.MakeMove(m)
			break
		}
	}
	if _, kept := search(other); kept > 0 {
		t.Errorf("a game that does not continue the last kept %d visits", kept)
	}
}
