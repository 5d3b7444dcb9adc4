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
	// SearchAuto, the default, is the alpha-beta, the stronger player at
	// every move time measured (docs/EVALUATION.md), unless a network is
	// named (BuiltinWeights, a checkpoint or run folder, or weights in
	// memory): that network then plays, through the tree search.
	SearchAuto = "auto"
	// SearchMCTS is the tree search, guided by the network (with no
	// weights named the built-in one, where it plays the variant; with
	// none, counting material).
	SearchMCTS = "mcts"
	// SearchAlphaBeta is the classical alpha-beta (package alphabeta),
	// with its own evaluation: the network is not asked.
	SearchAlphaBeta = "alphabeta"
)

// Searches lists the values of Options.Search, the default first.
func Searches() []string { return []string{SearchAuto, SearchMCTS, SearchAlphaBeta} }

// runsAlphaBeta reports whether Go runs the alpha-beta: asked for, or
// automatic with no network to play (none named, or the one named failed
// to load and the plain search took over).
func (e *Engine) runsAlphaBeta() bool {
	switch e.opts.Search {
	case SearchAlphaBeta:
		return true
	case SearchAuto:
		if e.loaded {
			return e.net.Weights == nil
		}
		return !e.opts.namesNetwork()
	}
	return false
}

// SearchKind names the search Go runs with the options as they stand:
// SearchAlphaBeta or SearchMCTS (SearchAuto resolved). Front ends tell by
// it what a search's nodes count, the tree's visits or the alpha-beta's
// nodes (VisitNodes).
func (e *Engine) SearchKind() string {
	if e.runsAlphaBeta() {
		return SearchAlphaBeta
	}
	return SearchMCTS
}

// NodeName names, for people, what a search of kind (SearchKind) counts
// as its nodes: the tree's "visits" or the alpha-beta's "nodes".
func NodeName(kind string) string {
	if kind == SearchAlphaBeta {
		return "nodes"
	}
	return "visits"
}

// NodesPerVisit turns a budget of visits, such as Options.Visits (the
// budget of a Go without limits), into alpha-beta nodes: about the ratio
// of their speeds on one core (docs/PERFORMANCE.md), so that a budget
// takes about as long either way.
const NodesPerVisit = 40

// VisitNodes is the node limit (clock.Limits.Nodes) of a search of kind
// (SearchKind) as long as visits visits of the tree: visits itself for
// the tree, NodesPerVisit nodes a visit for the alpha-beta.
func VisitNodes(kind string, visits int64) int64 {
	if kind == SearchAlphaBeta {
		return visits * NodesPerVisit
	}
	return visits
}

// searchAlphaBeta runs the alpha-beta on root (the game's position, or it
// without its history when drawn by rule) within lim, reporting each
// completed iteration as a progress Info.
func (e *Engine) searchAlphaBeta(ctx context.Context, root *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
	if _, err := e.alphaBeta(); err != nil {
		return mcts.Result{}, err
	}
	if lim.Nodes == 0 && lim.Depth == 0 && !lim.Infinite && lim.Budget(root.SideToMove()) == 0 {
		lim.Nodes = VisitNodes(SearchAlphaBeta, int64(e.opts.Visits)) // Go's default budget
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
	pv := r.PV
	if len(pv) == 0 || pv[0] != r.Move {
		pv = []env.Move{r.Move}
	}
	final := abInfo(alphabeta.Info{Depth: r.Depth, SelDepth: r.SelDepth, Score: r.Score, MateIn: r.MateIn,
		Nodes: r.Nodes, Elapsed: time.Since(start), PV: pv, Lines: r.Lines}, true)
	res := mcts.Result{
		BestMove:  r.Move,
		PV:        final.PV,
		RootValue: final.Value,
		RootWDL:   final.WDL,
		Nodes:     int(r.Nodes),
		MateIn:    r.MateIn,
		Proven:    r.MateIn != 0,
		Depth:     r.Depth,
		SelDepth:  r.SelDepth,
		// The MultiPV lines, as the final report has them, for front ends
		// that show the result's root moves (the web board's analysis).
		Children: final.Children,
	}
	if progress.Report != nil {
		progress.Report(final)
	}
	return res, nil
}

// alphaBeta returns the engine's alpha-beta, made at the first call with
// its table of HashMB. New and Ready make it where the alpha-beta plays,
// before any clock runs: a large table can take a second to allocate on
// a busy machine, which a Go would spend of its move's time, deaf to a
// stop.
func (e *Engine) alphaBeta() (*alphabeta.Searcher, error) {
	if e.ab == nil {
		ab, err := alphabeta.New(alphabeta.Config{HashMB: e.opts.HashMB, Threads: e.opts.Threads})
		if err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
		e.ab = ab
	}
	return e.ab, nil
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
