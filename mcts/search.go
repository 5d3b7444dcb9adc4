package mcts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/pool"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
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

// beginSearch resets the per-search state.
func (t *Tree) beginSearch(budget int, useGumbel, noise, small bool) {
	t.restorePriors()
	t.budget, t.started, t.inFlight, t.playouts = budget, 0, 0, 0
	t.stopped, t.small, t.useGumbel, t.noise = false, small, useGumbel, noise
	t.depthSum, t.selDepth = 0, 0
	t.gSeq, t.gSims = t.gSeq[:0], 0
	if t.nodes[0].state == stExpanded {
		t.rootExpanded()
	}
}

// SearchBatch runs one full search for each tree (Config.Simulations
// playouts, or a small search under playout-cap randomisation), gathering
// the leaves of all of them into batches of Config.BatchSize for the
// evaluator. With Config.Workers > 1 the trees are split among that many
// goroutines, each with its own batches (the evaluator must then be safe
// for concurrent use). It returns one Result per tree, in order; it does
// not advance the trees. A cancelled ctx aborts the round with an error
// (the trees stay usable).
func (s *Searcher) SearchBatch(ctx context.Context, trees []*Tree) ([]Result, error) {
	for i, t := range trees {
		if err := s.acquire(t); err != nil {
			for _, u := range trees[:i] {
				u.busy.Store(false)
			}
			return nil, fmt.Errorf("mcts: SearchBatch: tree %d: %w", i, err)
		}
	}
	defer func() {
		for _, t := range trees {
			t.busy.Store(false)
		}
	}()
	for i, t := range trees {
		if st := t.Status(); st.IsOver() {
			return nil, fmt.Errorf("mcts: SearchBatch: tree %d: %w (%s)", i, ErrGameOver, st)
		}
		// One batch of the evaluator holds positions of one encoding.
		if v, v0 := t.root.Variant(), trees[0].root.Variant(); v != v0 {
			return nil, fmt.Errorf("mcts: SearchBatch: tree %d plays %s, tree 0 %s: one batch searches one variant", i, v.Name, v0.Name)
		}
	}
	cfg := &s.cfg
	for _, t := range trees {
		small := cfg.PlayoutCapProb > 0 && t.rng.Float64() < cfg.PlayoutCapProb
		budget := cfg.Simulations
		if small {
			budget = max(1, cfg.Simulations/cfg.PlayoutCapFactor)
		}
		t.beginSearch(budget, cfg.Gumbel, !small, small)
	}
	w := min(cfg.Workers, len(trees))
	var err error
	if w <= 1 {
		err = s.runGroup(ctx, trees)
	} else {
		p := pool.New().WithErrors().WithContext(ctx).WithCancelOnError().WithFirstError()
		for g := range w {
			group := make([]*Tree, 0, (len(trees)+w-1)/w)
			for i := g; i < len(trees); i += w {
				group = append(group, trees[i])
			}
			p.Go(func(ctx context.Context) error { return s.runGroup(ctx, group) })
		}
		err = p.Wait()
	}
	if err != nil {
		return nil, err
	}
	res := make([]Result, len(trees))
	for i, t := range trees {
		res[i] = t.result()
		s.playouts.Add(int64(t.playouts))
	}
	return res, nil
}

// runGroup searches a group of trees to the end, one batch at a time. Each
// batch takes one leaf from each tree in turn (round robin, starting after
// the last tree served) and more from each only when there are too few
// trees to fill it.
//
// With at least two batches' worth of trees, the batches are pipelined: the
// next batch is gathered while the previous one is being evaluated (on a
// helper goroutine), so that the search's own work overlaps the network's
// instead of leaving the cores idle. A tree with leaves in the batch being
// evaluated sits the next batch out, so that every tree still sees the
// network's answers before it descends again, as without the pipeline.
// Everything that touches the trees and the cache (gathering, completing)
// happens on this goroutine in a fixed order, so the search stays
// deterministic.
func (s *Searcher) runGroup(ctx context.Context, group []*Tree) error {
	if len(group) == 0 {
		return nil
	}
	if len(group) < 2*s.cfg.BatchSize {
		return s.runGroupSerial(ctx, group)
	}
	v := group[0].root.Variant()
	ws := [2]*workspace{s.getWorkspace(v), s.getWorkspace(v)}
	defer s.putWorkspace(ws[1])
	defer s.putWorkspace(ws[0])
	type evalReq struct {
		ws   *workspace
		rows int
	}
	reqs, results := make(chan evalReq), make(chan error, 1)
	var helper conc.WaitGroup
	helper.Go(func() {
		for r := range reqs {
			results <- s.evaluate(r.ws, r.rows)
		}
	})
	defer helper.Wait()
	defer close(reqs)

	var pending evalReq // the batch being evaluated, if pending.ws != nil
	// wait waits for the pending batch's evaluation and returns that batch
	// (undone if the evaluation failed).
	wait := func() (evalReq, error) {
		p := pending
		pending = evalReq{}
		if p.ws == nil {
			return p, nil
		}
		if err := <-results; err != nil {
			p.ws.cancelRows(p.rows)
			return evalReq{}, fmt.Errorf("mcts: SearchBatch: %w", err)
		}
		return p, nil
	}
	// complete checks and backs up a batch the network has answered (or
	// undoes it if an output is not finite).
	complete := func(p evalReq) error {
		if p.ws == nil {
			return nil
		}
		if err := p.ws.checkRows(p.rows); err != nil {
			p.ws.cancelRows(p.rows)
			return fmt.Errorf("mcts: SearchBatch: %w", err)
		}
		p.ws.completeRows(p.rows)
		p.ws.revertCollisions()
		return nil
	}
	defer func() { // on an early return, nothing stays in flight
		if p, err := wait(); err == nil {
			complete(p) // an error here comes after the one being returned
		}
	}()
	cursor, cur := 0, 0
	for {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("mcts: SearchBatch: %w", err)
		}
		w := ws[cur]
		rows := s.gatherBatch(w, group, &cursor, 0, pending.ws != nil)
		prev, err := wait()
		if err != nil {
			w.cancelRows(rows)
			return err
		}
		if prev.ws != nil && rows < s.cfg.BatchSize {
			// Too few trees were free to fill the batch: back the previous
			// one up, so that its trees may join this one.
			if err := complete(prev); err != nil {
				w.cancelRows(rows)
				return err
			}
			prev = evalReq{}
			rows = s.gatherBatch(w, group, &cursor, rows, false)
		}
		if rows > 0 {
			// Start the network on this batch, then back the previous one
			// up while it runs.
			pending = evalReq{w, rows}
			reqs <- pending
			// Let the helper start the network at once on this core (it
			// was readied here); this goroutine resumes on another.
			runtime.Gosched()
			cur ^= 1
		} else {
			w.revertCollisions()
		}
		if err := complete(prev); err != nil {
			return err
		}
		if rows == 0 && !slices.ContainsFunc(group, func(t *Tree) bool { return !t.done() }) {
			return nil
		}
	}
}

// runGroupSerial is runGroup without the pipeline, for groups too small to
// fill two batches from different trees.
func (s *Searcher) runGroupSerial(ctx context.Context, group []*Tree) error {
	ws := s.getWorkspace(group[0].root.Variant())
	defer s.putWorkspace(ws)
	cursor := 0
	for {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("mcts: SearchBatch: %w", err)
		}
		rows := s.gatherBatch(ws, group, &cursor, 0, false)
		if rows == 0 {
			ws.revertCollisions()
			if !slices.ContainsFunc(group, func(t *Tree) bool { return !t.done() }) {
				return nil
			}
			continue // trees that only made progress without the network
		}
		if err := s.evalRows(ws, rows); err != nil {
			ws.cancelRows(rows)
			return fmt.Errorf("mcts: SearchBatch: %w", err)
		}
		ws.completeRows(rows)
		ws.revertCollisions()
	}
}

// gatherBatch fills ws from row rows0 on with up to BatchSize leaves in
// all from group, round robin from *cursor (which it advances past the
// last tree served), and returns the rows filled. With sitOut, trees with
// leaves in flight (in the batch being evaluated) take no part; a later
// call for the same batch (rows0 > 0) lets them join, and each tree's
// count of leaves and collisions carries on from the earlier call.
func (s *Searcher) gatherBatch(ws *workspace, group []*Tree, cursor *int, rows0 int, sitOut bool) int {
	cfg := &s.cfg
	for _, t := range group {
		if rows0 == 0 {
			t.batchLeaves, t.batchColl = 0, 0
		}
		t.sitOut = sitOut && t.inFlight > 0
	}
	rows, last := rows0, *cursor
	for rows < cfg.BatchSize {
		progress := false
		for k := 0; k < len(group) && rows < cfg.BatchSize; k++ {
			i := (*cursor + k) % len(group)
			t := group[i]
			if t.sitOut || t.batchLeaves >= cfg.MaxInFlightPerTree || t.batchColl > cfg.MaxCollisions {
				continue
			}
			sl := &ws.slots[rows]
			switch t.gather(sl, ws.row(rows)) {
			case gotLeaf:
				rows++
				t.batchLeaves++
				progress, last = true, i
			case gotCollision:
				ws.pushCollision(sl)
				t.batchColl++
				progress = true
			default:
				t.batchLeaves = cfg.MaxInFlightPerTree // blocked until the batch returns
			}
		}
		if !progress {
			break
		}
	}
	*cursor = (last + 1) % len(group)
	return rows
}

// Progress asks an engine-mode Search for reports while it runs.
type Progress struct {
	// Report, if set, receives a report every Interval (default 1 s) and
	// once at the end. It is called from the search's goroutines, never
	// concurrently with itself; the search waits for it.
	Report   func(Info)
	Interval time.Duration
}

// Info is a progress report of an engine-mode search: what a UCI info
// line, an XBoard thinking line or a live analysis board shows.
type Info struct {
	Depth, SelDepth int
	Nodes           int // playouts completed by this search
	TreeSize        int // nodes in the tree
	NPS             int
	Elapsed         time.Duration
	Value           float32    // root W-L, side to move's view
	WDL             [3]float32 // root win/draw/loss, side to move's view
	MateIn          int        // as Result.MateIn
	PV              []env.Move
	// Children are the root's moves with their statistics (visits, value,
	// WDL, line), in generator order; a move's share of the visits is its
	// Visits over the sum. Target is not set.
	Children []ChildStat
	Final    bool // the last report of the search
}

type engineRun struct {
	s        *Searcher
	t        *Tree
	progress Progress
	batch    int // leaves gathered per evaluation
	ctx      context.Context
	mu       sync.Mutex
	cond     *sync.Cond
	infoMu   sync.Mutex
	start    time.Time
	deadline time.Time
	lastInfo time.Time
}

// engineMinBatch is the smallest batch a worker of several gathers: one
// lane group of the fast evaluator.
const engineMinBatch = 8

// Search runs an engine-mode search of one tree within lim: Config.Workers
// goroutines, each gathering up to Config.BatchSize leaves at once with
// virtual loss. The search stops at lim.Nodes playouts, at the time
// lim.Budget gives the side to move, or when ctx is cancelled (UCI's
// "stop"); with no limit it runs Config.Simulations playouts, and an
// Infinite search runs until ctx is cancelled. The best result found so
// far is returned with a nil error, unless the root was never evaluated
// (ErrNoResult). The search ends early when the root is proven (a forced
// mate, or every move mated or drawn), except that an Infinite search
// always waits for ctx. Root noise and the move temperature apply as
// configured. With a single worker the search is deterministic.
func (s *Searcher) Search(ctx context.Context, t *Tree, lim clock.Limits, progress Progress) (Result, error) {
	if err := s.acquire(t); err != nil {
		return Result{}, fmt.Errorf("mcts: Search: %w", err)
	}
	defer t.busy.Store(false)
	if err := lim.Validate(); err != nil {
		return Result{}, fmt.Errorf("mcts: Search: %w", err)
	}
	if progress.Interval < 0 {
		return Result{}, fmt.Errorf("mcts: Search: negative info interval %v", progress.Interval)
	}
	if st := t.Status(); st.IsOver() {
		return Result{}, fmt.Errorf("mcts: Search: %w (%s)", ErrGameOver, st)
	}
	timeBudget := lim.Budget(t.root.SideToMove())
	budget := int(min(lim.Nodes, math.MaxInt32))
	switch {
	case lim.Infinite:
		budget = math.MaxInt32
	case budget == 0 && timeBudget == 0:
		budget = s.cfg.Simulations
	case budget == 0:
		budget = math.MaxInt32
	}
	useGumbel := s.cfg.Gumbel && timeBudget == 0 && !lim.Infinite
	t.beginSearch(budget, useGumbel, true, false)

	// The workers share one budget of leaves in flight, BatchSize: more
	// would spread virtual loss over moves the search would not try and
	// make the workers collide in the tree. Below engineMinBatch a batch
	// costs the network about as much as at it.
	batch := max(min(s.cfg.BatchSize, engineMinBatch), s.cfg.BatchSize/s.cfg.Workers)
	r := &engineRun{s: s, t: t, progress: progress, ctx: ctx, start: time.Now(), batch: batch}
	if budget < math.MaxInt32 {
		// A small node budget gathers smaller batches: virtual loss
		// spreads a batch's leaves over moves the search would not
		// otherwise try, which a search of a few dozen playouts cannot
		// afford.
		r.batch = max(1, min(r.batch, budget/8))
	}
	r.cond = sync.NewCond(&r.mu)
	r.lastInfo = r.start
	if timeBudget > 0 {
		r.deadline = r.start.Add(timeBudget)
	}
	if r.progress.Interval == 0 {
		r.progress.Interval = time.Second
	}
	var err error
	if s.cfg.Workers <= 1 {
		err = r.worker()
	} else {
		p := pool.New().WithErrors().WithFirstError()
		for range s.cfg.Workers {
			p.Go(r.worker)
		}
		err = p.Wait()
	}
	if lim.Infinite && err == nil {
		// The search ended early (proven root, node limit, full tree): an
		// infinite search still ends only when told to, and goes on
		// reporting meanwhile.
		r.waitForStop()
	}
	res := t.result()
	t.addChildLines(res.Children)
	s.playouts.Add(int64(t.playouts))
	if progress.Report != nil {
		info := r.info(time.Now())
		info.Final = true
		progress.Report(info)
	}
	if err != nil {
		return Result{}, fmt.Errorf("mcts: Search: %w", err)
	}
	if t.nodes[0].state != stExpanded {
		if cause := context.Cause(ctx); cause != nil {
			return Result{}, fmt.Errorf("mcts: Search: %w: %w", ErrNoResult, cause)
		}
		return Result{}, fmt.Errorf("mcts: Search: %w", ErrNoResult)
	}
	return res, nil
}

// waitForStop waits for ctx with the tree quiescent, reporting every
// progress interval.
func (r *engineRun) waitForStop() {
	if r.progress.Report == nil {
		<-r.ctx.Done()
		return
	}
	tick := time.NewTicker(r.progress.Interval)
	defer tick.Stop()
	for {
		select {
		case <-r.ctx.Done():
			return
		case now := <-tick.C:
			r.progress.Report(r.info(now))
		}
	}
}

func (r *engineRun) checkStop() {
	if r.ctx.Err() != nil || (!r.deadline.IsZero() && !time.Now().Before(r.deadline)) {
		r.t.stopped = true
	}
}

// worker gathers, evaluates and backs up batches until the search ends.
func (r *engineRun) worker() error {
	s, t := r.s, r.t
	ws := s.getWorkspace(t.root.Variant())
	defer s.putWorkspace(ws)
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		r.checkStop()
		rows, colls := 0, 0
		for rows < r.batch {
			sl := &ws.slots[rows]
			res := t.gather(sl, ws.row(rows))
			if res == gotLeaf {
				rows++
				continue
			}
			if res == gotCollision {
				ws.pushCollision(sl)
				if colls++; colls > s.cfg.MaxCollisions {
					break
				}
				continue
			}
			break
		}
		if rows == 0 {
			ws.revertCollisions()
			switch {
			case t.done():
				r.cond.Broadcast()
				return nil
			case t.inFlight > 0:
				r.cond.Wait() // for another worker's batch
			}
			continue
		}
		r.mu.Unlock()
		err := s.evalRows(ws, rows)
		r.mu.Lock()
		if err != nil {
			ws.cancelRows(rows)
			t.stopped = true
			r.cond.Broadcast()
			return err
		}
		ws.completeRows(rows)
		ws.revertCollisions()
		r.cond.Broadcast()
		if r.progress.Report != nil {
			if now := time.Now(); now.Sub(r.lastInfo) >= r.progress.Interval {
				r.lastInfo = now
				info := r.info(now)
				r.mu.Unlock()
				r.infoMu.Lock()
				r.progress.Report(info)
				r.infoMu.Unlock()
				r.mu.Lock()
			}
		}
	}
}

// info reports the search's progress (call with the tree quiescent or
// r.mu held).
func (r *engineRun) info(now time.Time) Info {
	t := r.t
	el := now.Sub(r.start)
	in := Info{
		Nodes:    t.playouts,
		TreeSize: len(t.nodes),
		Elapsed:  el,
		SelDepth: t.selDepth,
	}
	if t.started > 0 {
		in.Depth = int(math.Round(float64(t.depthSum) / float64(t.started)))
	}
	if el > 0 {
		in.NPS = int(float64(t.playouts) / el.Seconds())
	}
	root := &t.nodes[0]
	in.Value, in.WDL = nodeValue(root)
	in.MateIn = mateIn(root.proof, root.dist)
	in.PV = t.pv(0, nil)
	in.Children = t.childStats(nil)
	t.addChildLines(in.Children)
	return in
}
