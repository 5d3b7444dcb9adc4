package train

import (
	"context"
	"fmt"
	"math"

	"github.com/alicezero/alicezero/internal/player"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/internal/seed"
	"github.com/alicezero/alicezero/mcts/engine"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/train/arena"
)

// evaluate plays the new checkpoint against the random mover, the
// alpha-beta reference and an earlier checkpoint: a gauntlet of
// Evaluate.Games games per opponent.
func (r *runner) evaluate(ctx context.Context, it int) (*runs.EvalMetrics, error) {
	e := &r.cfg.Evaluate
	prevIt := r.previousCheckpoint(it - e.PreviousGap)
	prev, err := model.LoadCheckpoint(runs.CheckpointPath(r.dir, prevIt))
	if err != nil {
		return nil, err
	}
	nets := map[string]*model.Weights{
		fmt.Sprintf("iter:%d", it):     r.trainer.Weights(),
		fmt.Sprintf("iter:%d", prevIt): prev.Weights,
	}
	reg, err := arena.NewRegistry()
	if err != nil {
		return nil, err
	}
	err = reg.Register("iter", "iter:N  this run's network after iteration N", func(ctx context.Context, spec player.Spec, setup player.Setup) (player.Player, error) {
		w, ok := nets[spec.Text]
		if !ok {
			return nil, fmt.Errorf("no network %q in this run", spec.Text)
		}
		net, err := engine.InMemory(w, spec.Text)
		if err != nil {
			return nil, err
		}
		// The search self-play uses, without its noise.
		return engine.NewPlayer(spec.Text, engine.Options{Network: net, Variant: r.variant, Visits: e.Simulations,
			Gumbel: r.cfg.Search.Gumbel, GumbelK: r.cfg.Search.GumbelK, EvalWorkers: setup.Cores})
	})
	if err != nil {
		return nil, err
	}
	abName := fmt.Sprintf("ab:depth=%d", e.AlphaBetaDepth)
	players := []string{fmt.Sprintf("iter:%d", it), "random", abName, fmt.Sprintf("iter:%d", prevIt)}
	openings, err := arena.BuiltinOpenings(max(1, e.Games/2), r.variant)
	if err != nil {
		return nil, err
	}
	res, err := arena.Run(ctx, arena.Config{
		Players:     players,
		Registry:    reg,
		Format:      arena.Gauntlet,
		Games:       e.Games,
		Openings:    openings,
		Concurrency: 2,
		Nodes:       int64(e.Simulations),
		PlyCap:      e.PlyCap,
		Variant:     r.variant,
		Seed:        seed.Derive(r.cfg.Seed, "evaluate", uint64(it), uint64(0)),
		Event:       fmt.Sprintf("%s strength check, iteration %d", r.cfg.Name, it),
		Progress:    r.opts.Progress,
	})
	if err != nil {
		return nil, err
	}
	if res.Interrupted {
		return nil, ctx.Err()
	}
	out := &runs.EvalMetrics{}
	for _, p := range res.Pairings {
		ms := &runs.MatchScore{Opponent: p.NameB, Wins: p.Wins, Draws: p.Draws, Losses: p.Losses, Score: p.Score,
			Elo: clampElo(p.Elo.Elo), CI95: [2]float64{clampElo(p.Elo.Low), clampElo(p.Elo.High)}}
		switch p.NameB {
		case "random":
			ms.Opponent = "random"
			out.VsRandom = ms
		case abName:
			out.VsAlphaBeta = ms
			out.Elo = ms.Elo
		default:
			out.VsPrevious = ms
		}
	}
	return out, nil
}

// clampElo keeps estimates finite for JSON: a perfect or null score has an
// unbounded Elo difference, written as ±999.
func clampElo(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return math.Max(-999, math.Min(999, x))
}

// previousCheckpoint returns the newest kept checkpoint at or before
// iteration want (iteration 0 is always kept).
func (r *runner) previousCheckpoint(want int) int {
	its, err := runs.Checkpoints(r.dir)
	if err == nil {
		for _, it := range its {
			if it <= max(want, 0) {
				return it
			}
		}
	}
	return 0
}
