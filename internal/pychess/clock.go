package pychess

import "time"

// Clock turns a clock reading into the time to spend on one move. The
// zero value uses the defaults.
type Clock struct {
	// Overhead is kept back from every move for what the clock charges
	// beyond the search: the move's trip to the server and the server's
	// own work. 0 means DefaultOverhead.
	Overhead time.Duration
	// MovesToGo is the number of moves the remaining time is shared
	// over; 0 means DefaultMovesToGo.
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

// maxShare is the largest fraction of the usable time one move may take:
// even with a large increment a few bad moves cannot empty the clock.
const maxShare = 4

// Budget returns the search time for the move at ply (0 for the game's
// first) with left on the clock and inc added after the move (pychess adds
// it once the move is made), lag being the time already gone since the
// reading was taken. It is (left − lag − overhead)/MovesToGo + ¾·inc, at
// most a quarter of left − lag − overhead, at most 10 s for each side's
// first move, and at least MinBudget.
func (c Clock) Budget(ply int, left, inc, lag time.Duration) time.Duration {
	overhead, moves, least := c.Overhead, c.MovesToGo, c.MinBudget
	if overhead <= 0 {
		overhead = DefaultOverhead
	}
	if moves <= 0 {
		moves = DefaultMovesToGo
	}
	if least <= 0 {
		least = DefaultMinBudget
	}
	usable := left - lag - overhead
	if usable <= 0 {
		return least
	}
	b := usable/time.Duration(moves) + inc*3/4
	b = min(b, usable/maxShare)
	if ply < 2 {
		b = min(b, firstMoveBudget)
	}
	return max(b, least)
}
