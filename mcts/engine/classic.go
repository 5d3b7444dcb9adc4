package engine

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/alphabeta"
)

// The searches an Engine can run (Options.Search).
const (
	// SearchAuto, the default, is the tree search with a network and the
	// alpha-beta without one (the plain search).
	SearchAuto = "auto"
	// SearchMCTS is the tree search, guided by the network (or, without
	// one, counting material).
	SearchMCTS = "mcts"
	// SearchAlphaBeta is the classical alpha-beta (package alphabeta),
	// with its own evaluation: the network is not asked.
	SearchAlphaBeta = "alphabeta"
)

// Searches lists the values of Options.Search, the default first.
func Searches() []string { return []string{SearchAuto, SearchMCTS, SearchAlphaBeta} }

// runsAlphaBeta reports whether Go runs the alpha-beta: asked for, or
// automatic with no network loaded (the engine must be Ready).
func (e *Engine) runsAlphaBeta() bool {
	switch e.opts.Search {
	case SearchAlphaBeta:
		return true
	case SearchAuto:
		return e.loaded && e.net.Weights == nil
	}
	return false
}

// nodesPerVisit turns Options.Visits, the budget of a Go without limits,
// into alpha-beta nodes: about the ratio of their speeds on one core
// (docs/PERFORMANCE.md), so that a budget takes about as long either way.
const nodesPerVisit = 40

// makeAlphaBeta builds the alpha-beta searcher unless it is built. Its
// table is touched whole as it is made (up to Hash MB, a fraction of a
// second): Ready builds it, so that no move's time pays for it.
func (e *Engine) makeAlphaBeta() error {
	if e.ab != nil {
		return nil
	}
	ab, err := alphabeta.New(alphabeta.Config{HashMB: e.opts.HashMB})
	if err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	e.ab = ab
	return nil
}

// searchAlphaBeta runs the alpha-beta on root (the game's position, or it
// without its history when drawn by rule) within lim, reporting each
// completed iteration as a progress Info.
func (e *Engine) searchAlphaBeta(ctx context.Context, root *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
	if err := e.makeAlphaBeta(); err != nil {
		return mcts.Result{}, err
	}
	if lim.Nodes == 0 && !lim.Infinite && lim.Budget(root.SideToMove()) == 0 {
		lim.Nodes = int64(e.opts.Visits) * nodesPerVisit // Go's default budget
	}
	e.ab.MultiPV = e.opts.MultiPV
	e.ab.OnIteration = nil
	if progress.Report != nil {
		e.ab.OnIteration = func(in alphabeta.Info) {
			progress.Report(abInfo(in, false))
		}
	}
	start := time.Now()
	r, err := e.ab.Search(ctx, root, lim)
	if err != nil && r.Move == env.NoMove {
		return mcts.Result{}, fmt.Errorf("engine: %w", err)
	}
	v := valueOfScore(r.Score, r.MateIn)
	res := mcts.Result{
		BestMove:  r.Move,
		PV:        append([]env.Move(nil), r.PV...),
		RootValue: v,
		RootWDL:   wdlOfValue(v),
		Nodes:     int(r.Nodes),
		MateIn:    r.MateIn,
		Proven:    r.MateIn != 0,
		Depth:     r.Depth,
		SelDepth:  r.SelDepth,
	}
	if len(res.PV) == 0 || res.PV[0] != r.Move {
		res.PV = []env.Move{r.Move}
	}
	if progress.Report != nil {
		el := time.Since(start)
		progress.Report(abInfo(alphabeta.Info{Depth: r.Depth, SelDepth: r.SelDepth, Score: r.Score, MateIn: r.MateIn,
			Nodes: r.Nodes, Elapsed: el, PV: res.PV, Lines: r.Lines}, true))
	}
	return res, nil
}

// abInfo turns an alpha-beta iteration into the engine's progress report.
func abInfo(in alphabeta.Info, final bool) mcts.Info {
	v := valueOfScore(in.Score, in.MateIn)
	nps := 0
	if s := in.Elapsed.Seconds(); s > 0 {
		nps = int(float64(in.Nodes) / s)
	}
	info := mcts.Info{
		Depth: in.Depth, SelDepth: in.SelDepth, Nodes: int(in.Nodes), NPS: nps, Elapsed: in.Elapsed,
		Value: v, WDL: wdlOfValue(v), MateIn: in.MateIn, PV: append([]env.Move(nil), in.PV...), Final: final,
	}
	if len(in.Lines) > 1 {
		// The lines searched exactly, as root moves with no visits: a
		// front end ranks them by their value.
		for _, l := range in.Lines {
			lv := valueOfScore(l.Score, l.MateIn)
			info.Children = append(info.Children, mcts.ChildStat{Move: l.PV[0], Q: lv, WDL: wdlOfValue(lv), MateIn: l.MateIn,
				PV: append([]env.Move(nil), l.PV...)})
		}
	}
	return info
}

// valueOfScore maps centipawns to the engine's W-L value, the inverse of
// Centipawns, so that a front end shows the alpha-beta's score as it
// printed it; a mate is ±1.
func valueOfScore(cp, mateIn int) float32 {
	switch {
	case mateIn > 0:
		return 1
	case mateIn < 0:
		return -1
	}
	v := math.Atan(float64(cp)/111.714640912) / 1.5620688421
	return float32(max(-0.999, min(0.999, v)))
}

// wdlOfValue spreads a W-L value over win and loss, with no draws: the
// alpha-beta's evaluation knows no draw probability.
func wdlOfValue(v float32) [3]float32 {
	return [3]float32{(1 + v) / 2, 0, (1 - v) / 2}
}
