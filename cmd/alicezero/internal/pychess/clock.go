package pychess

import (
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// Clock turns a clock reading into the limits of one move's search: the
// bot's clock as the engine's time manager (clock.Limits.Budget) reads a
// GUI's, with what pychess adds, the age of the reading, the move's trip
// and a first move timed apart. The engine decides the time to spend. The
// zero value uses the defaults.
type Clock struct {
	// Overhead is kept back from every move for what the clock charges
	// beyond the search: the move's trip to the server and the server's
	// own work (clock.Limits.Overhead, replacing the engine's own). 0
	// means DefaultOverhead.
	Overhead time.Duration
	// MovesToGo is the number of moves the remaining time is shared
	// over (clock.Limits.MovesToGo, which counts at most 30); 0 means
	// the time manager's default, 30.
	MovesToGo int
	// MinBudget is the time given to a search when the clock is spent
	// (a clock at zero would bound nothing); 0 means DefaultMinBudget.
	MinBudget time.Duration
}

// Defaults of Clock.
const (
	DefaultOverhead  = 300 * time.Millisecond
	DefaultMinBudget = 10 * time.Millisecond
)

// firstMoveBudget bounds the search of each side's first move. pychess
// does not charge a bot's clock for it, but gives it a deadline of its
// own: 5 minutes in a casual game with a bot (clock.BOT_FIRST_MOVE_TIMEOUT),
// 11 to 30 s in a tournament, after which the game is aborted.
const firstMoveBudget = 10 * time.Second

// overhead is Overhead or its default.
func (c Clock) overhead() time.Duration {
	if c.Overhead <= 0 {
		return DefaultOverhead
	}
	return c.Overhead
}

// Limits returns the limits of the search of side's move at ply (0 for
// the game's first) with left on its clock and inc added after the move
// (pychess adds it once the move is made), lag being the time already
// gone since the reading was taken: its clock less the lag, the
// increment, MovesToGo and Overhead, and for each side's first move a
// move time of 10 s at most. A clock spent gets MinBudget's move time.
func (c Clock) Limits(side env.Colour, ply int, left, inc, lag time.Duration) clock.Limits {
	lim := clock.Limits{MovesToGo: c.MovesToGo, Overhead: c.overhead()}
	if ply < 2 {
		lim.MoveTime = firstMoveBudget
	}
	left -= lag // the clock has run on since it was read
	if left <= 0 {
		lim.MoveTime = c.MinBudget
		if lim.MoveTime <= 0 {
			lim.MoveTime = DefaultMinBudget
		}
		return lim
	}
	if side == env.Black {
		lim.BTime, lim.BInc = left, inc
	} else {
		lim.WTime, lim.WInc = left, inc
	}
	return lim
}
