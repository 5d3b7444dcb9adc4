package serve

import (
	"context"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// newRealEngine returns the real engine running search (engine.SearchMCTS:
// the built-in network through the tree; engine.SearchAlphaBeta: the
// default engine), closed with the test.
func newRealEngine(t *testing.T, search string) *engine.Engine {
	t.Helper()
	o := engine.Options{}
	if search == engine.SearchMCTS {
		o.Search = search
	}
	e, err := engine.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	if got := e.SearchKind(); got != search {
		t.Fatalf("the engine runs %s, want %s", got, search)
	}
	return e
}

// searchOn on the real engine, with either search: the clocks of a timed
// game, a time limit, a stop, a mate, and a mated position.
func TestSearchOnTheEngine(t *testing.T) {
	for _, search := range []string{engine.SearchMCTS, engine.SearchAlphaBeta} {
		e := newRealEngine(t, search)
		pos := env.NewPosition(env.Alice)
		var ml env.MoveList
		pos.LegalMoves(&ml)

		// A timed game's clocks reach the engine's time manager: with 6 s
		// left it spends about a 30th of them (less the move overhead),
		// far below the move's 60 s cap.
		t0 := time.Now()
		clocked := withClocks(clock.Limits{MoveTime: time.Minute}, clock.Limits{WTime: 6 * time.Second, BTime: time.Hour, WInc: 0, BInc: time.Second})
		if _, err := searchOn(context.Background(), e, pos, clocked, nil); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(t0); d < 50*time.Millisecond || d > 3*time.Second {
			t.Errorf("%s: a search on a 6 s clock took %v; want about 170 ms", search, d)
		}

		// A time limit, and a stop.
		t0 = time.Now()
		if _, err := searchOn(context.Background(), e, pos, clock.Limits{MoveTime: 400 * time.Millisecond}, nil); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(t0); d < 300*time.Millisecond || d > 3*time.Second {
			t.Errorf("%s: a 400 ms search took %v", search, d)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		t0 = time.Now()
		in, err := searchOn(ctx, e, pos, clock.Limits{MoveTime: 30 * time.Second}, nil)
		cancel()
		if err != nil || !ml.Contains(bestMove(in.Info)) {
			t.Fatalf("%s: stopped search: %v, best %v", search, err, bestMove(in.Info))
		}
		if d := time.Since(t0); d > 3*time.Second {
			t.Errorf("%s: a search stopped after 200 ms took %v", search, d)
		}

		// A mate in one (the rule book's quick mate, Bb5#) is found and
		// announced: the engine searched the game that reached it.
		mate := env.NewPosition(env.Alice)
		if _, err := mate.PlayUCI([]string{"e2e4", "d7d5", "f1e2", "d5e4"}); err != nil {
			t.Fatal(err)
		}
		in, err = searchOn(context.Background(), e, mate, clock.Limits{Nodes: engine.VisitNodes(search, 200)}, nil)
		if err != nil || in.MateIn != 1 || mate.SAN(bestMove(in.Info)) != "Bb5#" {
			t.Errorf("%s: mate in one: %v, mate %d, best %s", search, err, in.MateIn, mate.SAN(bestMove(in.Info)))
		}
		mate.MakeMove(bestMove(in.Info))
		if _, err := searchOn(context.Background(), e, mate, clock.Limits{Nodes: 10}, nil); err == nil {
			t.Errorf("%s: a search of a mated position did not fail", search)
		}
		// A position of another variant than the engine's is refused.
		if _, err := searchOn(context.Background(), e, env.NewPosition(env.AliceMini), clock.Limits{Nodes: 10}, nil); err == nil {
			t.Errorf("%s: a search of an alice-mini position on an alice engine did not fail", search)
		}
	}
}

// The tree's reports: the final one and the progress reports the page
// shows list every root move, with the visits searched.
func TestSearchOnTheTreeReports(t *testing.T) {
	e := newRealEngine(t, engine.SearchMCTS)
	pos := env.NewPosition(env.Alice)
	var reports []mcts.Info
	in, err := searchOn(context.Background(), e, pos, clock.Limits{Nodes: 300}, func(r mcts.Info) { reports = append(reports, r) })
	if err != nil {
		t.Fatal(err)
	}
	if !in.Final || in.Nodes != 300 || len(in.PV) == 0 {
		t.Fatalf("final report: final %v, %d nodes, PV %v", in.Final, in.Nodes, in.PV)
	}
	var ml env.MoveList
	pos.LegalMoves(&ml)
	if !ml.Contains(bestMove(in.Info)) || len(in.Children) != ml.N {
		t.Fatalf("best %v, %d root moves of %d", bestMove(in.Info), len(in.Children), ml.N)
	}
	visits := 0
	for _, m := range in.Children {
		visits += m.Visits
	}
	if visits < 299 {
		t.Errorf("root moves hold %d visits, want about 300", visits)
	}
	// A longer search reports while it goes: the reports before the end
	// list the root moves too, and count up.
	reports = nil
	if _, err := searchOn(context.Background(), e, pos, clock.Limits{MoveTime: 900 * time.Millisecond}, func(r mcts.Info) { reports = append(reports, r) }); err != nil {
		t.Fatal(err)
	}
	checkReportsCountUp(t, reports, func(i int, r mcts.Info) bool { return len(r.Children) > 0 || i == 0 })
}

// checkReportsCountUp fails unless there are several progress reports,
// none final, their nodes counting up, each one that listed(i, report).
func checkReportsCountUp(t *testing.T, reports []mcts.Info, listed func(int, mcts.Info) bool) {
	t.Helper()
	if len(reports) < 2 {
		t.Fatalf("%d progress reports", len(reports))
	}
	for i, r := range reports {
		if !listed(i, r) || r.Final {
			t.Errorf("report %d: %d root moves, final %v", i, len(r.Children), r.Final)
		}
		if i > 0 && r.Nodes < reports[i-1].Nodes {
			t.Errorf("report %d: %d nodes after %d", i, r.Nodes, reports[i-1].Nodes)
		}
	}
}

// The alpha-beta's reports: an analysis searches several lines, which
// the page lists as its top moves in the search's order, its best move
// first, each with its line, while it goes and at the end; a play search
// searches one. (A search cut mid-iteration keeps the lines it did not
// reach from the iteration before, whose values may stand above the
// deeper ones: the order, not the values, is the ranking.)
func TestSearchOnTheAlphaBetaReports(t *testing.T) {
	e := newRealEngine(t, engine.SearchAlphaBeta)
	if err := setLines(e, kindAnalyse); err != nil || e.Options().MultiPV != analysisLines {
		t.Fatalf("an analysis's lines: %v, MultiPV %d", err, e.Options().MultiPV)
	}
	pos := env.NewPosition(env.Alice)
	if _, err := pos.PlayUCI([]string{"e2e4", "d7d5"}); err != nil {
		t.Fatal(err)
	}
	var reports []mcts.Info
	lim := clock.Limits{Nodes: engine.VisitNodes(engine.SearchAlphaBeta, 100)}
	in, err := searchOn(context.Background(), e, pos, lim, func(r mcts.Info) { reports = append(reports, r) })
	if err != nil {
		t.Fatal(err)
	}
	// The alpha-beta completes depth 1 whatever its limit: it may search
	// a little more than it was given.
	if !in.Final || int64(in.Nodes) < lim.Nodes || len(in.PV) == 0 || in.Depth < 2 {
		t.Fatalf("final report: final %v, %d nodes, depth %d, PV %v", in.Final, in.Nodes, in.Depth, in.PV)
	}
	js := describeInfo(pos, in.Info, engine.SearchAlphaBeta)
	if js.Search != engine.SearchAlphaBeta || js.Best == nil || len(js.Top) != analysisLines || js.Top[0].UCI != js.Best.UCI {
		t.Fatalf("the page's report: %+v", js)
	}
	seen := map[string]bool{}
	for k, m := range js.Top {
		if m.Visits != 0 || m.Share != 0 || len(m.Line) == 0 || m.Line[0].UCI != m.UCI || seen[m.UCI] {
			t.Errorf("top move %d: %+v", k+1, m)
		}
		seen[m.UCI] = true
	}
	// A longer search reports each iteration, its lines listed, counting up.
	reports = nil
	if _, err := searchOn(context.Background(), e, pos, clock.Limits{MoveTime: 900 * time.Millisecond}, func(r mcts.Info) { reports = append(reports, r) }); err != nil {
		t.Fatal(err)
	}
	checkReportsCountUp(t, reports, func(_ int, r mcts.Info) bool { return len(r.Children) == analysisLines })

	// A play search searches one line: no list of top moves.
	if err := setLines(e, kindPlay); err != nil || e.Options().MultiPV != 1 {
		t.Fatalf("a play search's lines: %v, MultiPV %d", err, e.Options().MultiPV)
	}
	in, err = searchOn(context.Background(), e, pos, lim, nil)
	if err != nil || len(in.Children) != 0 || len(in.PV) == 0 {
		t.Errorf("a play search: %v, %d lines, PV %v", err, len(in.Children), in.PV)
	}
}
