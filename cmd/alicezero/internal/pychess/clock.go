package pychess

import (
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// Clock turns a clock reading into the time to spend on one move: it is
// the project's one time manager (clock.Limits.Budget) fed with what
// pychess adds, the age of the reading and a first move timed apart. The
// zero value uses the defaults.
type Clock struct {
	// Overhead is kept back from every move for what the clock charges
	// beyond the search: the move's trip to the server and the server's
	// own work (clock.Limits.Overhead). 0 means DefaultOverhead.
	Overhead time.Duration
	// MovesToGo is the number of moves the remaining time is shared
	// over (clock.Limits.MovesToGo, which counts at most 30); 0 means
	// DefaultMovesToGo.
	MovesToGo int
	// MinBudget is the least time given to a search, even when the clock
	// is nearly out; 0 means DefaultMinBudget.
	MinBudget time.Duration
}

// Defaults of Clock.
const (
	DefaultOverhead  = 300 * time.Millisecond
	DefaultMovesToGo = 30
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

// Budget returns the search time for the move at ply (0 for the game's
// first) with left on the clock and inc added after the move (pychess adds
// it once the move is made), lag being the time already gone since the
// reading was taken. It is clock.Limits.Budget of the clock less the lag
// (a share of it plus ¾ of inc, at most half of it, less Overhead), at
// most 10 s for each side's first move, and at least MinBudget.
func (c Clock) Budget(ply int, left, inc, lag time.Duration) time.Duration {
	moves, least := c.MovesToGo, c.MinBudget
	if moves <= 0 {
		moves = DefaultMovesToGo
	}
	if least <= 0 {
		least = DefaultMinBudget
	}
	left -= lag // the clock has run on since it was read
	if left <= 0 {
		return least // a Limits without time left would set no bound at all
	}
	// The side is immaterial: the bot's own clock goes in as White's.
	lim := clock.Limits{WTime: left, WInc: inc, MovesToGo: moves, Overhead: c.overhead()}
	if ply < 2 {
		lim.MoveTime = firstMoveBudget
	}
	return max(lim.Budget(env.White), least)
}
