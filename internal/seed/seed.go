// Package seed is the project's one seed mixer: it derives independent,
// reproducible seeds from one seed, so that a run, a match or a game draws
// the same random numbers however it is split up or resumed.
//
// Mix is splitmix64's output function, a cheap bijective hash whose
// outputs for nearby inputs (seed 1, seed 2; game 7, game 8) look
// unrelated. Derive builds on it to name what a seed is for.
package seed

// Mix returns a well-spread hash of x: splitmix64's finaliser applied to x
// plus the golden-ratio increment, so that Mix(0) is not 0. It is a
// bijection: different inputs give different outputs.
func Mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Derive returns the seed for one use of base: purpose names the use
// ("weights", "resign", "game") and parts number it (an iteration, a game,
// a colour). The same arguments always give the same seed; changing any of
// them gives an unrelated one.
func Derive(base uint64, purpose string, parts ...uint64) uint64 {
	// FNV-1a folds the purpose into one word; Mix spreads each step.
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(purpose); i++ {
		h = (h ^ uint64(purpose[i])) * 0x100000001b3
	}
	h = Mix(base ^ Mix(h))
	for _, p := range parts {
		h = Mix(h ^ p)
	}
	return h
}
