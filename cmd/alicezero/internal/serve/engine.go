package serve

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// Loader builds an engine for positions of variant v. weights is a
// checkpoint file or a run folder, engine.BuiltinWeights for the built-in
// network, PlainWeights for the plain search without a network, or ""
// for the loader's default engine, which plays no network (mcts/engine's
// alpha-beta). A network built for another variant than v is no error:
// the engine is then the plain search, and its Network says so. The
// server hands an engine to one search at a time, and closes it when it
// has too many loaded.
type Loader func(ctx context.Context, weights string, v env.Variant) (engine.Interface, error)

// PlainWeights names the plain search (the alpha-beta, no network) to a
// Loader, as --weights none does on the command line.
const PlainWeights = "none"

// reportInterval is how often a running search reports to the page.
const reportInterval = 250 * time.Millisecond

// searched is a finished search: its final report, and whether the
// search proved the root's value (a mate, or a draw it cannot escape),
// which ends a search before its limits.
type searched struct {
	mcts.Info
	Proven bool
}

// searchOn searches pos (whose move history counts for repetitions) on
// eng within lim. report, when not nil, receives the progress reports
// while the search runs (the final one is the Info returned, Final set,
// its PV starting with the move to play). Cancelling ctx stops the search
// early: it then returns the best found so far. A position without legal
// moves is an error; so is a search that found nothing, the Info then
// holding at most the engine's makeshift move.
func searchOn(ctx context.Context, eng engine.Interface, pos *env.Position, lim clock.Limits, report func(mcts.Info)) (searched, error) {
	if v := eng.Options().Variant; v != pos.Variant() {
		return searched{}, fmt.Errorf("a position of variant %s for an engine of %s", pos.Variant().Name, v.Name)
	}
	start := time.Now()
	progress := mcts.Progress{Interval: reportInterval}
	if report != nil {
		progress.Report = func(in mcts.Info) {
			if !in.Final {
				report(in)
			}
		}
	}
	res, err := eng.Go(ctx, env.GameOf(pos), lim, progress)
	in := searched{Info: mcts.Info{Final: true, PV: res.PV}}
	if len(in.PV) == 0 && res.BestMove != env.NoMove {
		in.PV = []env.Move{res.BestMove}
	}
	if err != nil && (res.Nodes == 0 || errors.Is(err, engine.ErrNoLegalMove)) {
		return in, err
	}
	// A result with nodes is the search's, whatever err says (at most a
	// network that failed to load, the plain search playing instead).
	in.Nodes, in.Elapsed, in.Depth, in.SelDepth = res.Nodes, time.Since(start), res.Depth, res.SelDepth
	in.Value, in.WDL, in.MateIn, in.Children = res.RootValue, res.RootWDL, res.MateIn, res.Children
	in.Proven = res.Proven
	return in, nil
}

// bestMove is the move a search's Info would play: its PV's first.
func bestMove(in mcts.Info) env.Move {
	if len(in.PV) == 0 {
		return env.NoMove
	}
	return in.PV[0]
}

// withClocks is lim bounded by a timed game's clocks besides: the
// engine's time manager (clock.Limits.Budget) then decides how long to
// think within them.
func withClocks(lim, clocks clock.Limits) clock.Limits {
	lim.WTime, lim.BTime, lim.WInc, lim.BInc = clocks.WTime, clocks.BTime, clocks.WInc, clocks.BInc
	lim.MovesToGo, lim.Overhead = clocks.MovesToGo, clocks.Overhead
	lim.Infinite = lim.Infinite && lim.WTime <= 0 && lim.BTime <= 0
	return lim
}
