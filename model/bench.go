package model

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/alicezero/alicezero/env"
)

// syntheticBatch returns n positions of plausible input (sparse piece and
// attack planes, the constant plane) and matching random targets and legal
// masks, deterministically.
func syntheticBatch(n int, seed uint64) (planes, pol, mask, wdl []float32) {
	rng := rand.New(rand.NewPCG(seed, 0xbe7c))
	planes = make([]float32, n*env.InputSize)
	pol = make([]float32, n*env.PolicySize)
	mask = make([]float32, n*env.PolicySize)
	wdl = make([]float32, n*env.WDLSize)
	for b := 0; b < n; b++ {
		pos := planes[b*env.InputSize : (b+1)*env.InputSize]
		for sq := 0; sq < env.PlaneSize; sq++ {
			if rng.IntN(3) == 0 {
				pos[rng.IntN(24)*env.PlaneSize+sq] = 1
			}
			if rng.IntN(2) == 0 {
				pos[(env.PlaneAttacks+rng.IntN(4))*env.PlaneSize+sq] = 1
			}
			pos[env.PlaneOnes*env.PlaneSize+sq] = 1
		}
		// About 30 legal moves, the target spread over some of them.
		row, legal := pol[b*env.PolicySize:(b+1)*env.PolicySize], mask[b*env.PolicySize:(b+1)*env.PolicySize]
		for range 30 {
			legal[rng.IntN(env.PolicySize)] = 1
		}
		moves := 1 + rng.IntN(10)
		for i := 0; i < moves; {
			if j := rng.IntN(env.PolicySize); legal[j] == 1 {
				row[j] += 1 / float32(moves)
				i++
			}
		}
		wdl[b*env.WDLSize+rng.IntN(env.WDLSize)] = 1
	}
	return planes, pol, mask, wdl
}

// timeLoop calls f until d has passed (at least once, after one untimed
// warm-up call) and returns calls per second.
func timeLoop(d time.Duration, f func() error) (float64, error) {
	if err := f(); err != nil {
		return 0, err
	}
	start := time.Now()
	calls := 0
	for {
		if err := f(); err != nil {
			return 0, err
		}
		calls++
		if el := time.Since(start); el >= d {
			return float64(calls) / el.Seconds(), nil
		}
	}
}

// MeasureInference times the fast path (on GOMAXPROCS workers) and the
// gorgonia graph on batches of `batch` random positions for about d each,
// with random weights of architecture cfg, and returns positions per
// second for each. The graph's products run on the package's AVX2 BLAS
// where the CPU has it (see blas.go; not with the purego build tag), as
// training's do.
func MeasureInference(cfg Config, batch int, d time.Duration) (fastPosPerS, gorgoniaPosPerS float64, err error) {
	if fastPosPerS, err = MeasureFast(cfg, batch, 0, d); err != nil {
		return 0, 0, err
	}
	w, err := NewWeights(cfg, 1)
	if err != nil {
		return 0, 0, err
	}
	planes, _, _, _ := syntheticBatch(batch, 1)
	pol := make([]float32, batch*env.PolicySize)
	wdl := make([]float32, batch*env.WDLSize)
	g, err := NewGraphEvaluator(w, batch)
	if err != nil {
		return 0, 0, err
	}
	defer g.Close()
	rate, err := timeLoop(d, func() error { return g.Evaluate(planes, batch, pol, wdl) })
	if err != nil {
		return 0, 0, fmt.Errorf("model: measure gorgonia inference: %w", err)
	}
	return fastPosPerS, rate * float64(batch), nil
}

// MeasureFast times the fast path with the given number of workers (0:
// GOMAXPROCS; 1 evaluates on the calling goroutine only, i.e. one core) on
// batches of `batch` random positions for about d, with random weights of
// architecture cfg, and returns positions per second.
func MeasureFast(cfg Config, batch, workers int, d time.Duration) (posPerS float64, err error) {
	if batch < 1 {
		return 0, fmt.Errorf("model: measure inference: batch %d < 1", batch)
	}
	w, err := NewWeights(cfg, 1)
	if err != nil {
		return 0, err
	}
	planes, _, _, _ := syntheticBatch(batch, 1)
	pol := make([]float32, batch*env.PolicySize)
	wdl := make([]float32, batch*env.WDLSize)
	fast, err := NewFastEvaluator(w, FastOptions{Workers: workers})
	if err != nil {
		return 0, err
	}
	defer fast.Close()
	rate, err := timeLoop(d, func() error { return fast.Evaluate(planes, batch, pol, wdl) })
	if err != nil {
		return 0, fmt.Errorf("model: measure fast inference: %w", err)
	}
	return rate * float64(batch), nil
}

// MeasureTraining times training steps of tc (its BatchSize; zero fields
// of a zero TrainConfig mean DefaultTrainConfig) on random data for about
// d, and returns positions per second.
func MeasureTraining(cfg Config, tc TrainConfig, d time.Duration) (posPerS float64, err error) {
	if tc.BatchSize == 0 && tc.Optimizer == "" {
		tc = DefaultTrainConfig()
	}
	w, err := NewWeights(cfg, 1)
	if err != nil {
		return 0, err
	}
	t, err := NewTrainer(w, tc)
	if err != nil {
		return 0, err
	}
	defer t.Close()
	planes, pol, mask, wdl := syntheticBatch(tc.BatchSize, 2)
	rate, err := timeLoop(d, func() error {
		_, err := t.Step(planes, pol, mask, wdl)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("model: measure training: %w", err)
	}
	return rate * float64(tc.BatchSize), nil
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
func MeasureSpeeds(cfg Config, tc TrainConfig, d time.Duration) (Speeds, error) {
	if tc.BatchSize == 0 && tc.Optimizer == "" {
		tc = DefaultTrainConfig()
	}
	w, err := NewWeights(cfg, 1)
	if err != nil {
		return Speeds{}, err
	}
	planes, pol, mask, wdl := syntheticBatch(max(64, tc.BatchSize), 2)
	polOut := make([]float32, 64*env.PolicySize)
	wdlOut := make([]float32, 64*env.WDLSize)
	evalStep := func(workers, batch int) (func() (int, error), func() error, error) {
		ev, err := NewFastEvaluator(w, FastOptions{Workers: workers})
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
	rates, err := timeInterleaved(8, d/8, steps)
	if err != nil {
		return Speeds{}, fmt.Errorf("model: measure speeds: %w", err)
	}
	return Speeds{Fast: rates[0], FastB16: rates[1], Fast1Core: rates[2], Train: rates[3]}, nil
}

// timeInterleaved runs each step once untimed, then rounds times runs
// every step in turn for about slice, and returns each step's positions
// per second over its slices.
func timeInterleaved(rounds int, slice time.Duration, steps []func() (int, error)) ([]float64, error) {
	for _, st := range steps {
		if _, err := st(); err != nil {
			return nil, err
		}
	}
	pos := make([]int, len(steps))
	spent := make([]time.Duration, len(steps))
	for range rounds {
		for i, st := range steps {
			start := time.Now()
			for time.Since(start) < slice {
				n, err := st()
				if err != nil {
					return nil, err
				}
				pos[i] += n
			}
			spent[i] += time.Since(start)
		}
	}
	rates := make([]float64, len(steps))
	for i := range rates {
		rates[i] = float64(pos[i]) / spent[i].Seconds()
	}
	return rates, nil
}
