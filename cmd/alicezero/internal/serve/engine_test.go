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

// searchOn on the real engine (the built-in network): the final report
// and the progress reports the page shows, the clocks of a timed game, a
// time limit, a stop, a mate, and a mated position.
func TestSearchOnTheEngine(t *testing.T) {
	e, err := engine.New(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
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
	if len(reports) < 2 {
		t.Fatalf("%d progress reports", len(reports))
	}
	for i, r := range reports {
		if len(r.Children) == 0 && i > 0 || r.Final {
			t.Errorf("report %d: %d root moves, final %v", i, len(r.Children), r.Final)
		}
		if i > 0 && r.Nodes < reports[i-1].Nodes {
			t.Errorf("report %d: %d nodes after %d", i, r.Nodes, reports[i-1].Nodes)
		}
	}

	// A timed game's clocks reach the engine's time manager: with 6 s
	// left it spends about a 30th of them (less the move overhead), far
	// below the move's 60 s cap.
	t0 := time.Now()
	clocked := withClocks(clock.Limits{MoveTime: time.Minute}, clock.Limits{WTime: 6 * time.Second, BTime: time.Hour, WInc: 0, BInc: time.Second})
	if _, err := searchOn(context.Background(), e, pos, clocked, nil); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(t0); d < 100*time.Millisecond || d > 3*time.Second {
		t.Errorf("a search on a 6 s clock took %v; want about 170 ms", d)
	}

	// A time limit, and a stop.
	t0 = time.Now()
	if _, err := searchOn(context.Background(), e, pos, clock.Limits{MoveTime: 400 * time.Millisecond}, nil); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(t0); d < 300*time.Millisecond || d > 3*time.Second {
		t.Errorf("a 400 ms search took %v", d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	t0 = time.Now()
	in, err = searchOn(ctx, e, pos, clock.Limits{MoveTime: 30 * time.Second}, nil)
	if err != nil || !ml.Contains(bestMove(in.Info)) {
		t.Fatalf("stopped search: %v, best %v", err, bestMove(in.Info))
	}
	if d := time.Since(t0); d > 3*time.Second {
		t.Errorf("a search stopped after 200 ms took %v", d)
	}

	// A mate in one (the rule book's quick mate, Bb5#) is found and
	// announced; the game's history is the engine's too.
	mate := env.NewPosition(env.Alice)
	if _, err := mate.PlayUCI([]string{"e2e4", "d7d5", "f1e2", "d5e4"}); err != nil {
		t.Fatal(err)
	}
	in, err = searchOn(context.Background(), e, mate, clock.Limits{Nodes: 200}, nil)
	if err != nil || in.MateIn != 1 || mate.SAN(bestMove(in.Info)) != "Bb5#" {
		t.Errorf("mate in one: %v, mate %d, best %s", err, in.MateIn, mate.SAN(bestMove(in.Info)))
	}
	if got := e.Position(); got.Ply() != mate.Ply() || got.FEN() != mate.FEN() {
		t.Errorf("the engine's game: %s after %d moves, want %s after %d", got.FEN(), got.Ply(), mate.FEN(), mate.Ply())
	}
	mate.MakeMove(bestMove(in.Info))
	if _, err := searchOn(context.Background(), e, mate, clock.Limits{Nodes: 10}, nil); err == nil {
		t.Error("a search of a mated position did not fail")
	}
	// A position of another variant than the engine's is refused.
	if _, err := searchOn(context.Background(), e, env.NewPosition(env.AliceMini), clock.Limits{Nodes: 10}, nil); err == nil {
		t.Error("a search of an alice-mini position on an alice engine did not fail")
	}
}
