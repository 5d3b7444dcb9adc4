package mcts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/alicezero/alicezero/env"
)

// MeasureSelfPlay plays batched self-play from the start position with
// games games at once, batches of batch leaves and the settings of cfg
// (BatchSize is overridden), for about d (at least one round of searches),
// and reports the playouts per second and the share of wall time (in
// percent) during which no Evaluate call was running: the search's own
// overhead. Finished games restart. It is what `alicezero bench` reports as
// mcts_sims_per_s and mcts_overhead_pct.
func MeasureSelfPlay(ctx context.Context, eval Evaluator, cfg Config, games, batch int, d time.Duration) (simsPerS, overheadPct float64, err error) {
	if games < 1 || batch < 1 || d <= 0 {
		return 0, 0, fmt.Errorf("mcts: MeasureSelfPlay: need games ≥ 1, batch ≥ 1, d > 0 (got %d, %d, %v)", games, batch, d)
	}
	cfg.BatchSize = batch
	s, err := NewSearcher(eval, cfg)
	if err != nil {
		return 0, 0, fmt.Errorf("mcts: MeasureSelfPlay: %w", err)
	}
	start := env.NewPosition(env.Alice)
	trees := make([]*Tree, games)
	for i := range trees {
		if trees[i], err = s.NewTree(start, uint64(i)+1); err != nil {
			return 0, 0, err
		}
	}
	var sims int64
	t0 := time.Now()
	s.ResetStats()
	for {
		res, err := s.SearchBatch(ctx, trees)
		if err != nil {
			return 0, 0, fmt.Errorf("mcts: MeasureSelfPlay: %w", err)
		}
		for i, r := range res {
			sims += int64(r.Nodes)
			if r.BestMove == env.NoMove {
				return 0, 0, errors.New("mcts: MeasureSelfPlay: search returned no move")
			}
			if err := trees[i].Advance(r.BestMove); err != nil {
				return 0, 0, err
			}
			if trees[i].Status().IsOver() {
				if err := trees[i].Reset(start); err != nil {
					return 0, 0, err
				}
			}
		}
		if time.Since(t0) >= d {
			break
		}
	}
	wall := time.Since(t0)
	st := s.Stats()
	simsPerS = float64(sims) / wall.Seconds()
	overheadPct = 100 * float64(wall-st.EvalBusy) / float64(wall)
	return simsPerS, max(0, overheadPct), nil
}
