package model

import (
	"fmt"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model/internal/bench"
)

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
	planes, _, _, _ := bench.SyntheticBatch(batch, 1)
	pol := make([]float32, batch*env.PolicySize)
	wdl := make([]float32, batch*env.WDLSize)
	fast, err := NewFastEvaluator(w, FastOptions{Workers: workers})
	if err != nil {
		return 0, err
	}
	defer fast.Close()
	rate, err := bench.TimeLoop(d, func() error { return fast.Evaluate(planes, batch, pol, wdl) })
	if err != nil {
		return 0, fmt.Errorf("model: measure fast inference: %w", err)
	}
	return rate * float64(batch), nil
}
