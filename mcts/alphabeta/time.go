package alphabeta

import "time"

// timeManager decides after each iteration whether to start another, on a
// game's clock: it aims at the clock's target, more when the best move
// keeps changing or the score falls, never past most (clock.Limits.Window).
// With a fixed move time (target = most) the search runs to its end: the
// iteration cut short still counts when its best move was searched fully.
type timeManager struct {
	target, most time.Duration
	changes      float64 // best-move changes, decaying by half an iteration
	falling      float64 // how far the score fell in the last iteration, as a factor
}

// iterationDone records an iteration: whether its best move differs from
// the last one's, and its score against the last.
func (tm *timeManager) iterationDone(depth int, changed bool, score, last int32) {
	tm.changes /= 2
	if changed && depth > 1 {
		tm.changes++
	}
	tm.falling = 1
	if depth > 1 {
		drop := float64(last-score) / 100 // pawns lost since the last iteration
		tm.falling = max(0.8, min(1.6, 1+drop/2))
	}
}

// nextShare is the share of the aim past which no new iteration starts:
// the next one takes about twice the time of all before it.
const nextShare = 0.55

// enough reports whether no new iteration should start after elapsed.
func (tm *timeManager) enough(elapsed time.Duration) bool {
	if tm.most <= tm.target {
		return false // a fixed move time, or no time limit
	}
	aim := float64(tm.target) * (1 + tm.changes) * tm.falling
	aim = min(aim, float64(tm.most))
	return float64(elapsed) > aim*nextShare
}
