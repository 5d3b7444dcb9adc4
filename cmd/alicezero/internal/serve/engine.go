package serve

import (
	"context"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// Engine searches positions for the server. The server hands an engine to
// one search at a time, so implementations need not be safe for
// concurrent use.
type Engine interface {
	// Search searches pos (whose move history counts for repetitions)
	// within lim. report, when not nil, receives progress while the search
	// runs, never concurrently with itself; the returned Info is the final
	// one. Cancelling ctx stops the search early: it then returns the best
	// found so far. A position without legal moves is an error.
	Search(ctx context.Context, pos *env.Position, lim Limits, report func(Info)) (Info, error)
	// Describe says what evaluates positions, for the page ("network
	// iter-000012 (small)", "plain search, material evaluation").
	Describe() string
	// Close releases the engine's resources.
	Close() error
}

// Loader builds an engine for positions of variant v. weights is a
// checkpoint file or a run folder, PlainWeights for the plain search
// without a network, or "" for the loader's default engine (the built-in
// network where it plays v). A network built for another variant than v
// is no error: the engine is then the plain search, and its Describe says
// so.
type Loader func(ctx context.Context, weights string, v env.Variant) (Engine, error)

// PlainWeights names the plain search (a material evaluation, no network)
// to a Loader, as --weights none does on the command line.
const PlainWeights = "none"

// Limits bound one search; at least one of Visits, Time and the side to
// move's clock is set. A search stops at the first limit reached.
type Limits struct {
	Visits int           // playouts; 0: no bound
	Time   time.Duration // wall time (with a clock: the most); 0: no bound
	// Clock, in a timed game, holds the clocks: WTime and BTime the time
	// left, WInc and BInc the increments. The engine's time manager
	// (clock.Limits.Budget) then decides how long to think; its other
	// fields are not read (see ClockLimits).
	Clock clock.Limits
}

// ClockLimits is l as the engine takes it, in the project's one
// description of a search's limits: Visits as Nodes, Time as MoveTime,
// the clocks and increments of Clock, and Infinite when nothing bounds
// the search (it then runs until it is stopped).
func (l Limits) ClockLimits() clock.Limits {
	c := clock.Limits{Nodes: int64(l.Visits), MoveTime: l.Time,
		WTime: l.Clock.WTime, BTime: l.Clock.BTime, WInc: l.Clock.WInc, BInc: l.Clock.BInc,
		MovesToGo: l.Clock.MovesToGo, Overhead: l.Clock.Overhead}
	c.Infinite = c.Nodes == 0 && c.MoveTime == 0 && c.WTime <= 0 && c.BTime <= 0
	return c
}

// Info is a search's progress: its evaluation from the side to move's
// view, principal variation and most visited root moves.
type Info struct {
	Nodes    int
	Elapsed  time.Duration
	Depth    int
	SelDepth int
	// WDL is the root's win/draw/loss probability for the side to move.
	WDL [3]float64
	// MateIn is N > 0 when the side to move mates in N moves, -N when it
	// is mated in N, else 0.
	MateIn int
	// BestMove is the move the engine would play now; PV starts with it.
	BestMove env.Move
	PV       []env.Move
	// Top lists root moves, most visited first.
	Top []MoveStat
	// Final marks the last report of a search.
	Final bool
}

// MoveStat is one root move's share of the search.
type MoveStat struct {
	Move   env.Move
	Visits int
	// Q is the mean value (win minus loss) after the move, from the root
	// side's view.
	Q float64
	// Prior is the network's prior for the move.
	Prior float64
	// MateIn is as Info.MateIn, from the root side's view.
	MateIn int
}
