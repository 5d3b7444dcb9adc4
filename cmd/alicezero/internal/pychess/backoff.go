package pychess

import (
	"math"
	"math/rand/v2"
	"time"
)

// Backoff spaces out reconnection attempts: the n-th wait (from 0) is
// Initial·Factorⁿ capped at Max, of which a random share up to Jitter is
// taken off, so that many clients dropped at once do not return at once.
type Backoff struct {
	Initial time.Duration
	Max     time.Duration
	Factor  float64
	// Jitter is the largest share of a wait taken off at random, in [0, 1].
	Jitter float64
	// Rand returns a number in [0, 1); nil means math/rand/v2.
	Rand func() float64
}

// DefaultBackoff is 1 s doubling to at most a minute, with up to half of
// each wait taken off at random.
var DefaultBackoff = Backoff{Initial: time.Second, Max: time.Minute, Factor: 2, Jitter: 0.5}

// Delay returns the wait before attempt n (0 for the first retry).
func (b Backoff) Delay(n int) time.Duration {
	d := float64(b.Initial)
	if b.Factor > 1 {
		d *= math.Pow(b.Factor, float64(max(n, 0)))
	}
	if b.Max > 0 {
		d = min(d, float64(b.Max))
	}
	if j := min(max(b.Jitter, 0), 1); j > 0 {
		r := rand.Float64
		if b.Rand != nil {
			r = b.Rand
		}
		d *= 1 - j*r()
	}
	return time.Duration(d)
}
