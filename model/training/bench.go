package training

import (
	"fmt"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/internal/bench"
)

// MeasureInference times the fast path (on GOMAXPROCS workers) and the
// gorgonia graph on batches of `batch` random positions for about d each,
// with random weights of architecture cfg, and returns positions per
// second for each. The graph's products run on the package's AVX2 BLAS
// where the CPU has it (see blas.go; not with the purego build tag), as
// training's do.
func MeasureInference(cfg model.Config, batch int, d time.Duration) (fastPosPerS, gorgoniaPosPerS float64, err error) {
	if fastPosPerS, err = model.MeasureFast(cfg, batch, 0, d); err != nil {
		return 0, 0, err
	}
	w, err := model.NewWeights(cfg, 1)
	if err != nil {
		return 0, 0, err
	}
	planes, _, _, _ := bench.SyntheticBatch(batch, 1)
	pol := make([]float32, batch*env.PolicySize)
	wdl := make([]float32, batch*env.WDLSize)
	g, err := NewGraphEvaluator(w, batch)
	if err != nil {
		return 0, 0, err
	}
	defer g.Close()
	rate, err := bench.TimeLoop(d, func() error { return g.Evaluate(planes, batch, pol, wdl) })
	if err != nil {
		return 0, 0, fmt.Errorf("model: measure gorgonia inference: %w", err)
	}
	return fastPosPerS, rate * float64(batch), nil
}

// Speeds are the figures MeasureSpeeds takes side by side, in positions per
// second.
type Speeds struct {
	Fast      float64 // the fast path at batch 64 on GOMAXPROCS workers
	FastB16   float64 // the same at batch 16
	Fast1Core float64 // at batch 64 on one worker (one core)
	Train     float64 // training steps of tc
}

// MeasureSpeeds times the fast path (batch 64 and 16 on all cores, batch
// 64 on one) and training steps of tc (zero fields of a zero TrainConfig
// mean DefaultTrainConfig) on random positions and random weights of
// architecture cfg, each for about d in all, interleaved in slices of
// d/8: on a shared machine the neighbours' load then weighs on every
// figure alike, so their ratios hold even when the figures swing.
func MeasureSpeeds(cfg model.Config, tc TrainConfig, d time.Duration) (Speeds, error) {
	if tc.BatchSize == 0 && tc.Optimizer == "" {
		tc = DefaultTrainConfig()
	}
	w, err := model.NewWeights(cfg, 1)
	if err != nil {
		return Speeds{}, err
	}
	planes, pol, mask, wdl := bench.SyntheticBatch(max(64, tc.BatchSize), 2)
	polOut := make([]float32, 64*env.PolicySize)
	wdlOut := make([]float32, 64*env.WDLSize)
	evalStep := func(workers, batch int) (func() (int, error), func() error, error) {
		ev, err := model.NewFastEvaluator(w, model.FastOptions{Workers: workers})
		if err != nil {
			return nil, nil, err
		}
		return func() (int, error) { return batch, ev.Evaluate(planes, batch, polOut, wdlOut) }, ev.Close, nil
	}
	var steps []func() (int, error)
	for _, c := range []struct{ workers, batch int }{{0, 64}, {0, 16}, {1, 64}} {
		step, closeFn, err := evalStep(c.workers, c.batch)
		if err != nil {
			return Speeds{}, err
		}
		defer closeFn()
		steps = append(steps, step)
	}
	t, err := NewTrainer(w.Clone(), tc)
	if err != nil {
		return Speeds{}, err
	}
	defer t.Close()
	B := tc.BatchSize
	steps = append(steps, func() (int, error) {
		_, err := t.Step(planes[:B*env.InputSize], pol[:B*env.PolicySize], mask[:B*env.PolicySize], wdl[:B*env.WDLSize])
		return B, err
	})
	rates, err := bench.TimeInterleaved(8, d/8, steps)
	if err != nil {
		return Speeds{}, fmt.Errorf("model: measure speeds: %w", err)
	}
	return Speeds{Fast: rates[0], FastB16: rates[1], Fast1Core: rates[2], Train: rates[3]}, nil
}
