package mcts

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// A bounded tree's node pool never grows past MaxTreeNodes, and is never
// copied (a copy of a large pool stalls the whole process; see alloc),
// through a search that fills it and an Advance that keeps a subtree; an
// infinite search on a full tree goes on reporting until it is stopped.
func TestBoundedTreeStaysInItsPool(t *testing.T) {
	cfg := DefaultPlayConfig()
	cfg.CacheEntries = 1 << 12
	cfg.MaxTreeNodes = 300_000 // not a power of two: doubling would overshoot it
	s := newSearcher(t, hashEvaluator{}, cfg)
	tr := newTree(t, s, mustPlay(t, "d2d4", "g8f6"), 1)
	pool := unsafe.SliceData(tr.nodes[:1])

	ctx, cancel := context.WithCancel(context.Background())
	var reports, afterFull atomic.Int32
	full := make(chan struct{})
	var closed bool
	res, err := func() (Result, error) {
		go func() {
			select {
			case <-full:
				time.Sleep(200 * time.Millisecond) // some reports with the tree full
			case <-time.After(time.Minute):
			}
			cancel()
		}()
		return s.Search(ctx, tr, clock.Limits{Infinite: true}, Progress{Interval: 20 * time.Millisecond,
			Report: func(in Info) {
				reports.Add(1)
				if in.TreeSize+2*env.MaxMoves > cfg.MaxTreeNodes {
					if !closed {
						closed = true
						close(full)
					}
					afterFull.Add(1)
				}
			}})
	}()
	if err != nil {
		t.Fatal(err)
	}
	if n := afterFull.Load(); n < 3 {
		t.Errorf("%d reports after the tree filled (of %d): an infinite search on a full tree must go on reporting", n, reports.Load())
	}
	if c := cap(tr.nodes); c > cfg.MaxTreeNodes {
		t.Errorf("after the search the pool holds %d nodes, want at most %d", c, cfg.MaxTreeNodes)
	}
	if unsafe.SliceData(tr.nodes) != pool {
		t.Errorf("the search moved the node pool: a bounded pool must be reserved once and never copied")
	}
	if err := tr.Advance(res.BestMove); err != nil {
		t.Fatal(err)
	}
	if c, sp := cap(tr.nodes), cap(tr.spare); c > cfg.MaxTreeNodes || sp > cfg.MaxTreeNodes {
		t.Errorf("after Advance the pools hold %d and %d nodes, want at most %d", c, sp, cfg.MaxTreeNodes)
	}
	if tr.Size() < 2 {
		t.Errorf("Advance kept %d nodes of the best move's subtree", tr.Size())
	}
}
