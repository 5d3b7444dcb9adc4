package engine

import (
	"context"
	"testing"
	"time"

	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
)

// A timed search keeps a tree only when keeping it takes at most half its
// budget; untimed searches keep any.
func TestKeepable(t *testing.T) {
	e := newEngine(t, Options{Weights: NoWeights, Search: SearchMCTS, Visits: 2000})
	if _, err := e.Go(context.Background(), clock.Limits{}, mcts.Progress{}); err != nil {
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
