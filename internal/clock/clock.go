// Package clock holds the one description of how long a move may take —
// a node budget, a fixed time, or the clocks of a timed game — and the one
// time manager that turns it into the time to spend. The search, the
// engine behind every protocol and the arena's players all use Limits,
// and the pychess bot hands the engine its server's clock readings as
// Limits, so a time control means the same everywhere.
//
//	lim := clock.Limits{WTime: time.Minute, BTime: time.Minute, WInc: time.Second, BInc: time.Second}
//	budget := lim.Budget(env.White) // a 30th of the clock plus ¾ of the increment
//
// A game's time control is a Control, read in one grammar,
// [MOVES/]BASE[+INC]: a time with a unit ("3m+2s", "90s+0.5s",
// "1m30s+2s") means the same to every front end, and a bare number is
// read in the Convention of the front end's host, which it states:
//
//   - Seconds, as PGN's TimeControl tag ("180+2"): the arena's --tc and
//     per-player tc=.
//   - Lobby, minutes+seconds as pychess.org and lichess seeks ("3+2"):
//     the pychess bot's --min-tc and --max-tc, the web server's
//     time_control.
//   - XBoard's "level MPS BASE INC" (base in minutes or MINUTES:SECONDS):
//     ParseLevel; its st is seconds, read by ParseTime.
//
// A single time is read by ParseTime, bare numbers in the caller's unit:
// XBoard's st, an arena player's movetime=, and every command's time
// flag (TimeFlag: --movetime 0.5 or 500ms), all in seconds.
//
// UCI's go wtime/btime/winc/binc (whole milliseconds) and XBoard's
// time/otim (whole centiseconds) are clock readings, not time controls:
// their protocol packages read them. Control.PGN writes the one PGN
// TimeControl tag, and Game keeps the two clocks of a timed game (charge
// a move's time, add the increment, flag on time) for the arena, the web
// server and the XBoard front end.
package clock

import (
	"fmt"
	"time"

	"github.com/alicezero/alicezero/env"
)

// Limits bound the search for one move. Zero fields do not limit; with
// none set, the player searches its own default budget.
//
// A game's time control is a Control, never a Limits: the arena, the web
// server and the XBoard front end keep a game's clocks (Game) and pass
// their readings to each move as a Limits.
type Limits struct {
	// Nodes is the most nodes to search (visits of a tree search, nodes
	// of an alpha-beta search).
	Nodes int64
	// MoveTime is the time to spend on this move (with a clock: the most).
	MoveTime time.Duration
	// WTime and BTime are the time left on White's and Black's clocks,
	// WInc and BInc their increments, MovesToGo the moves until the next
	// time control (0: the rest of the game). A side's clock counts when
	// its time left is positive.
	WTime, BTime time.Duration
	WInc, BInc   time.Duration
	MovesToGo    int
	// Infinite searches until it is stopped (UCI "go infinite" and
	// "ponder"); it overrides every other limit.
	Infinite bool
	// Overhead is kept back from every time budget for the delays of the
	// protocol and the operating system (UCI's "Move Overhead").
	Overhead time.Duration
	// Depth bounds the iterations of a search that deepens (the
	// alpha-beta, UCI's "go depth"); 0: no bound. A tree search, which
	// has no depth to bound, does not read it.
	Depth int
}

// Validate reports a negative limit.
func (l Limits) Validate() error {
	if l.Nodes < 0 || l.Depth < 0 || l.MoveTime < 0 || l.WTime < 0 || l.BTime < 0 || l.WInc < 0 || l.BInc < 0 || l.MovesToGo < 0 || l.Overhead < 0 {
		return fmt.Errorf("negative search limit in %+v", l)
	}
	return nil
}

// Clock returns side's time left and increment.
func (l Limits) Clock(side env.Colour) (left, inc time.Duration) {
	if side == env.Black {
		return l.BTime, l.BInc
	}
	return l.WTime, l.WInc
}

// Budget is the time side, to move, should spend; zero means no time
// bound (Infinite, or no time limit at all). With a clock it is a share of
// the time left — a 30th, or 1/MovesToGo when fewer moves remain to the
// time control — plus three quarters of the increment, never more than
// half the time left nor more than MoveTime, less Overhead (or, on a clock
// too short for that, half of it). Without a clock it is MoveTime less
// Overhead, keeping at least four fifths of MoveTime. It is never below a
// millisecond.
func (l Limits) Budget(side env.Colour) time.Duration {
	if l.Infinite {
		return 0
	}
	left, inc := l.Clock(side)
	if left <= 0 {
		if l.MoveTime <= 0 {
			return 0
		}
		return max(l.moveTimeSpendable(), time.Millisecond)
	}
	moves := l.MovesToGo
	if moves <= 0 || moves > 30 {
		moves = 30
	}
	b := left/time.Duration(moves) + inc*3/4
	b = min(b, left/2)
	if b > 2*l.Overhead {
		b -= l.Overhead
	} else {
		b /= 2
	}
	if l.MoveTime > 0 {
		b = min(b, l.MoveTime)
	}
	return max(b, time.Millisecond)
}

// Window is the time manager's answer for a search that can stop between
// iterations: target is the time to aim for (Budget), most the time it
// may run to when the position asks for more (the best move keeps
// changing, the score falls). With a fixed move time both are the move
// time; on a clock most is up to four targets, never more than a quarter
// of the time left (less the overhead). Infinite searches get 0, 0.
func (l Limits) Window(side env.Colour) (target, most time.Duration) {
	target = l.Budget(side)
	if target <= 0 {
		return 0, 0
	}
	left, _ := l.Clock(side)
	if left <= 0 {
		return target, target
	}
	most = min(4*target, left/4-l.Overhead)
	if l.MoveTime > 0 {
		most = min(most, l.moveTimeSpendable())
	}
	return target, max(most, target)
}

// moveTimeSpendable is the move time less the overhead, of which at most a
// fifth is kept back.
func (l Limits) moveTimeSpendable() time.Duration {
	return l.MoveTime - min(l.Overhead, l.MoveTime/5)
}
