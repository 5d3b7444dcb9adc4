// Package bench holds what model's and model/training's speed measurements
// share: synthetic positions and the timing loops.
package bench

import (
	"math/rand/v2"
	"time"

	"github.com/alicezero/alicezero/env"
)

// SyntheticBatch returns n positions of plausible input (sparse piece and
// attack planes, the constant plane) and matching random targets and legal
// masks, deterministically.
func SyntheticBatch(n int, seed uint64) (planes, pol, mask, wdl []float32) {
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

// TimeLoop calls f until d has passed (at least once, after one untimed
// warm-up call) and returns calls per second.
func TimeLoop(d time.Duration, f func() error) (float64, error) {
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

// TimeInterleaved runs each step once untimed, then rounds times runs
// every step in turn for about slice, and returns each step's positions
// per second over its slices.
func TimeInterleaved(rounds int, slice time.Duration, steps []func() (int, error)) ([]float64, error) {
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
