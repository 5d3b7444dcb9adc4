package mcts

import (
	"math"
	"math/rand/v2"
)

// newRand returns the PCG generator a tree draws all its randomness from.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0xa1ce2e70a1ce2e70))
}

// sampleGamma draws from Gamma(a, 1) (Marsaglia and Tsang).
func sampleGamma(r *rand.Rand, a float64) float64 {
	if a < 1 {
		// Gamma(a) = Gamma(a+1)·U^(1/a).
		u := r.Float64()
		return sampleGamma(r, a+1) * math.Pow(u, 1/a)
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if u < 1-0.0331*x*x*x*x {
			return d * v
		}
		if u > 0 && math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// sampleDirichlet fills dst with a Dirichlet(α, …, α) sample.
func sampleDirichlet(r *rand.Rand, alpha float64, dst []float64) {
	var sum float64
	for i := range dst {
		dst[i] = sampleGamma(r, alpha)
		sum += dst[i]
	}
	if sum <= 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		// All draws underflowed (tiny α): put the mass on one entry.
		clear(dst)
		dst[r.IntN(len(dst))] = 1
		return
	}
	for i := range dst {
		dst[i] /= sum
	}
}

// sampleGumbel draws from the standard Gumbel distribution.
func sampleGumbel(r *rand.Rand) float64 {
	u := r.Float64()
	for u == 0 {
		u = r.Float64()
	}
	return -math.Log(-math.Log(u))
}
