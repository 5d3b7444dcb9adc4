package mcts

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/sourcegraph/conc/pool"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

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

	// The workers share one budget of leaves in flight, BatchSize: more
	// would spread virtual loss over moves the search would not try and
	// make the workers collide in the tree. Below engineMinBatch a batch
	// costs the network about as much as at it.
	batch := max(min(s.cfg.BatchSize, engineMinBatch), s.cfg.BatchSize/s.cfg.Workers)
	r := &engineRun{s: s, t: t, progress: progress, ctx: ctx, start: time.Now(), batch: batch}
	if timeBudget > 0 {
		r.deadline = r.start.Add(timeBudget)
	}
	if d, ok := ctx.Deadline(); ok && (r.deadline.IsZero() || d.Before(r.deadline)) {
		r.deadline = d
	}
	t.beginSearch(budget, useGumbel, true, false, r.deadline)
	if budget < math.MaxInt32 {
		// A small node budget gathers smaller batches: virtual loss
		// spreads a batch's leaves over moves the search would not
		// otherwise try, which a search of a few dozen playouts cannot
		// afford.
		r.batch = max(1, min(r.batch, budget/8))
	}
	r.cond = sync.NewCond(&r.mu)
	r.lastInfo = r.start
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
