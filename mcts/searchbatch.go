package mcts

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/pool"
)

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
		t.beginSearch(budget, cfg.Gumbel, !small, small, time.Time{})
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
