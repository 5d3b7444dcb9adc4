package mcts

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alicezero/alicezero/env"
)

// Searcher runs searches with one evaluator and one configuration: Search
// for a single game (engine mode), SearchBatch for many games at once
// (self-play). It owns the evaluation cache its trees share. Its methods
// are safe for concurrent use on different trees.
type Searcher struct {
	cfg   Config
	eval  Evaluator
	cache *Cache

	wsMu sync.Mutex
	free []*workspace

	batches   atomic.Int64
	positions atomic.Int64
	playouts  atomic.Int64
	evalNanos atomic.Int64

	busyMu    sync.Mutex
	busyN     int
	busySince time.Time
	busyTotal time.Duration
}

// NewSearcher checks cfg and returns a searcher that evaluates with eval.
func NewSearcher(eval Evaluator, cfg Config) (*Searcher, error) {
	if eval == nil {
		return nil, errors.New("mcts: NewSearcher: nil evaluator")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Searcher{cfg: cfg, eval: eval, cache: NewCache(cfg.CacheEntries)}, nil
}

// Config returns the searcher's settings.
func (s *Searcher) Config() Config { return s.cfg }

// Cache returns the searcher's evaluation cache (nil if disabled).
func (s *Searcher) Cache() *Cache { return s.cache }

// ClearCache empties the evaluation cache: call it when the evaluator's
// network changes.
func (s *Searcher) ClearCache() { s.cache.Clear() }

// Stats are a searcher's running totals.
type Stats struct {
	Batches   int64         // Evaluate calls
	Positions int64         // positions evaluated
	Playouts  int64         // playouts completed by finished searches
	EvalTime  time.Duration // time inside Evaluate, summed over calls
	// EvalBusy is the wall time during which at least one Evaluate call
	// ran; the rest of the wall time is search overhead.
	EvalBusy    time.Duration
	CacheHits   int64
	CacheMisses int64
}

// Stats returns the totals since the searcher was made or ResetStats.
func (s *Searcher) Stats() Stats {
	st := Stats{
		Batches:   s.batches.Load(),
		Positions: s.positions.Load(),
		Playouts:  s.playouts.Load(),
		EvalTime:  time.Duration(s.evalNanos.Load()),
	}
	s.busyMu.Lock()
	st.EvalBusy = s.busyTotal
	if s.busyN > 0 {
		st.EvalBusy += time.Since(s.busySince)
	}
	s.busyMu.Unlock()
	st.CacheHits, st.CacheMisses = s.cache.HitsMisses()
	return st
}

// ResetStats zeroes the totals (not the cache's contents).
func (s *Searcher) ResetStats() {
	s.batches.Store(0)
	s.positions.Store(0)
	s.playouts.Store(0)
	s.evalNanos.Store(0)
	s.busyMu.Lock()
	s.busyTotal = 0
	s.busySince = time.Now()
	s.busyMu.Unlock()
	if s.cache != nil {
		s.cache.hits.Store(0)
		s.cache.misses.Store(0)
	}
}

// workspace is one batch's buffers: input planes, network outputs, the
// leaves in flight and the collisions holding virtual loss.
type workspace struct {
	// v is the variant whose encoding the buffers hold: in and pol are
	// its floats of input and policy per position.
	v                   env.Variant
	in, pol             int
	planes, policy, wdl []float32
	slots               []leafSlot
	colls               []collision
	nColl               int
	scratch             [env.MaxMoves]float32
}

type collision struct {
	t         *Tree
	path      []int32
	rootChild int32
}

// getWorkspace returns a free workspace for positions of variant v, or a
// new one.
func (s *Searcher) getWorkspace(v env.Variant) *workspace {
	s.wsMu.Lock()
	defer s.wsMu.Unlock()
	for i := len(s.free) - 1; i >= 0; i-- {
		if ws := s.free[i]; ws.v == v {
			s.free = slices.Delete(s.free, i, i+1)
			return ws
		}
	}
	b := s.cfg.BatchSize
	in, pol := v.InputSize(), v.PolicySize()
	return &workspace{
		v: v, in: in, pol: pol,
		planes: make([]float32, b*in),
		policy: make([]float32, b*pol),
		wdl:    make([]float32, b*env.WDLSize),
		slots:  make([]leafSlot, b),
	}
}

func (s *Searcher) putWorkspace(ws *workspace) {
	s.wsMu.Lock()
	s.free = append(s.free, ws)
	s.wsMu.Unlock()
}

func (ws *workspace) row(i int) []float32 { return ws.planes[i*ws.in : (i+1)*ws.in] }

// pushCollision moves a collision out of a slot (swapping path buffers) so
// that its virtual loss can be removed after the batch.
func (ws *workspace) pushCollision(sl *leafSlot) {
	if ws.nColl == len(ws.colls) {
		ws.colls = append(ws.colls, collision{})
	}
	c := &ws.colls[ws.nColl]
	ws.nColl++
	c.t, c.rootChild = sl.t, sl.rootChild
	c.path, sl.path = sl.path, c.path
	sl.rootChild = -1
}

func (ws *workspace) revertCollisions() {
	for i := range ws.colls[:ws.nColl] {
		c := &ws.colls[i]
		c.t.revertCollision(c.path, c.rootChild)
		c.t = nil
	}
	ws.nColl = 0
}

// completeRows expands and backs up every leaf of the batch.
func (ws *workspace) completeRows(rows int) {
	for i := range rows {
		sl := &ws.slots[i]
		sl.t.complete(sl, ws.policy[i*ws.pol:(i+1)*ws.pol], ws.wdl[i*env.WDLSize:(i+1)*env.WDLSize])
		sl.t = nil
	}
}

// cancelRows undoes every leaf of a batch whose evaluation failed.
func (ws *workspace) cancelRows(rows int) {
	for i := range rows {
		sl := &ws.slots[i]
		sl.t.cancel(sl)
		sl.t = nil
	}
	ws.revertCollisions()
}

func (s *Searcher) busyEnter() {
	s.busyMu.Lock()
	if s.busyN == 0 {
		s.busySince = time.Now()
	}
	s.busyN++
	s.busyMu.Unlock()
}

func (s *Searcher) busyLeave() {
	s.busyMu.Lock()
	s.busyN--
	if s.busyN == 0 {
		s.busyTotal += time.Since(s.busySince)
	}
	s.busyMu.Unlock()
}

// evalRows evaluates the batch's first rows positions and checks that the
// outputs the search reads are finite.
func (s *Searcher) evalRows(ws *workspace, rows int) error {
	if err := s.evaluate(ws, rows); err != nil {
		return err
	}
	return ws.checkRows(rows)
}

// evaluate runs the evaluator on the batch's first rows positions.
func (s *Searcher) evaluate(ws *workspace, rows int) error {
	s.busyEnter()
	t0 := time.Now()
	err := callEvaluator(s.eval, ws.planes[:rows*ws.in], rows,
		ws.policy[:rows*ws.pol], ws.wdl[:rows*env.WDLSize])
	s.evalNanos.Add(int64(time.Since(t0)))
	s.busyLeave()
	s.batches.Add(1)
	s.positions.Add(int64(rows))
	return err
}

// checkRows checks that the outputs the search reads of the batch's first
// rows positions are finite.
func (ws *workspace) checkRows(rows int) error {
	for i := range rows {
		sl := &ws.slots[i]
		if !sl.legalLogits(ws.policy[i*ws.pol:], ws.wdl[i*env.WDLSize:], ws.scratch[:]) {
			return fmt.Errorf("%w: non-finite output for position %d of a batch of %d", ErrEvaluator, i, rows)
		}
	}
	return nil
}

// acquire takes ownership of a tree for a search.
func (s *Searcher) acquire(t *Tree) error {
	if t == nil {
		return errors.New("mcts: nil tree")
	}
	if t.s != s {
		return ErrForeignTree
	}
	if !t.busy.CompareAndSwap(false, true) {
		return ErrTreeBusy
	}
	return nil
}

// beginSearch resets the per-search state; recycleBy is when the search
// must end (zero: no time limit; see Tree.recycleBy).
func (t *Tree) beginSearch(budget int, useGumbel, noise, small bool, recycleBy time.Time) {
	t.restorePriors()
	t.budget, t.started, t.inFlight, t.playouts = budget, 0, 0, 0
	t.edgesOwed, t.collisions = 0, 0
	t.stopped, t.small, t.useGumbel, t.noise = false, small, useGumbel, noise
	t.depthSum, t.selDepth = 0, 0
	t.gSeq, t.gSims = t.gSeq[:0], 0
	t.recycleBy = recycleBy
	if !t.hasRoom() {
		// A kept tree that filled its pools: marking the root's moves
		// below may need nodes.
		t.rebuild(0)
		t.recycles++
	}
	if t.nodes[0].state == stExpanded {
		t.rootExpanded()
	}
}
