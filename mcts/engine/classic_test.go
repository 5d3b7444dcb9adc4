package engine

import (
	"context"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
)

// The alpha-beta search plays legal moves in every variant, reports each
// iteration and a final line, and keeps the game's history (repetitions
// score as draws).
func TestAlphaBetaSearch(t *testing.T) {
	for _, v := range env.Variants() {
		e := newEngine(t, Options{Weights: NoWeights, Variant: v, Search: SearchAlphaBeta, HashMB: 4})
		pos := at(t, e, "")
		var infos []mcts.Info
		res, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 20_000}, mcts.Progress{Report: func(in mcts.Info) { infos = append(infos, in) }})
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		checkLegal(t, pos, res.BestMove)
		if len(infos) < 2 || !infos[len(infos)-1].Final || infos[0].Final {
			t.Errorf("%s: %d reports, last final %v", v.Name, len(infos), len(infos) > 0 && infos[len(infos)-1].Final)
		}
		if res.Depth < 2 || len(res.PV) == 0 || res.PV[0] != res.BestMove || res.Nodes == 0 {
			t.Errorf("%s: depth %d, pv %v, nodes %d", v.Name, res.Depth, res.PV, res.Nodes)
		}
	}
}

func TestAlphaBetaMateAndTime(t *testing.T) {
	e := newEngine(t, Options{Weights: NoWeights, Search: SearchAlphaBeta})
	// Scholar's mate on board A is no mate in Alice (the queen lands on
	// B); this is a mate in one there: the rook from B lands on A.
	res, err := e.Go(context.Background(), env.GameOf(at(t, e, "6k1/5ppp/8/8/8/8/8/|R5K1 w - - 0 1")), clock.Limits{MoveTime: 300 * time.Millisecond}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	if res.MateIn != 1 || !res.Proven || res.RootValue != 1 {
		t.Errorf("mate in one: mate %d, proven %v, value %v (move %v)", res.MateIn, res.Proven, res.RootValue, res.BestMove)
	}
	e.NewGame()
	pos := at(t, e, "")
	start := time.Now()
	res, err = e.Go(context.Background(), env.GameOf(pos), clock.Limits{WTime: 2 * time.Second, BTime: 2 * time.Second}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	checkLegal(t, pos, res.BestMove)
	if el := time.Since(start); el > time.Second {
		t.Errorf("a move with 2 s on the clock took %v", el)
	}
	if err := e.SetOptions(Options{Search: "minimax"}); err == nil {
		t.Error("search \"minimax\" accepted")
	}
}

func TestValueOfScoreInvertsCentipawns(t *testing.T) {
	for _, cp := range []int{-900, -150, -1, 0, 37, 250, 1200} {
		if got := Centipawns(valueOfScore(cp, 0)); got != cp {
			t.Errorf("Centipawns(valueOfScore(%d)) = %d", cp, got)
		}
	}
	if valueOfScore(5, 3) != 1 || valueOfScore(-5, -2) != -1 {
		t.Error("mates are not ±1")
	}
}

// With MultiPV the alpha-beta reports its exact lines as the root's
// children, best first, in the final report and the result alike; a Go
// without limits searches Visits' worth.
func TestAlphaBetaMultiPVAndDefaultBudget(t *testing.T) {
	e := newEngine(t, Options{Weights: NoWeights, MultiPV: 3, Visits: 50})
	var last mcts.Info
	res, err := e.Go(context.Background(), env.GameOf(at(t, e, "")), clock.Limits{}, mcts.Progress{Report: func(in mcts.Info) { last = in }})
	if err != nil {
		t.Fatal(err)
	}
	if want := VisitNodes(SearchAlphaBeta, 50); res.Nodes == 0 || int64(res.Nodes) > want || want != 50*NodesPerVisit {
		t.Errorf("a Go without limits searched %d nodes, want at most %d", res.Nodes, want)
	}
	if VisitNodes(SearchMCTS, 50) != 50 || NodeName(SearchMCTS) != "visits" || NodeName(SearchAlphaBeta) != "nodes" {
		t.Errorf("50 visits of the tree are %d nodes; the searches count %s and %s", VisitNodes(SearchMCTS, 50), NodeName(SearchMCTS), NodeName(SearchAlphaBeta))
	}
	if len(last.Children) != 3 || last.Children[0].Move != res.BestMove || !last.Final {
		t.Fatalf("%d children, first %v, best %v", len(last.Children), last.Children, res.BestMove)
	}
	if len(res.Children) != len(last.Children) {
		t.Fatalf("the result holds %d lines, the final report %d", len(res.Children), len(last.Children))
	}
	for k, c := range res.Children {
		if c.Move != last.Children[k].Move || c.Q != last.Children[k].Q || c.Visits != 0 {
			t.Errorf("line %d: the result's %+v, the report's %+v", k+1, c, last.Children[k])
		}
		if k > 0 && c.Q > res.Children[k-1].Q {
			t.Errorf("line %d scores %v, above line %d's %v", k+1, c.Q, k, res.Children[k-1].Q)
		}
	}
	for k, c := range last.Children[1:] {
		if c.Move == res.BestMove || len(c.PV) == 0 || c.PV[0] != c.Move {
			t.Errorf("child %d: %+v", k+2, c)
		}
	}
	if err := e.SetOptions(Options{MultiPV: MaxMultiPV + 1}); err == nil {
		t.Error("MultiPV beyond the bound accepted")
	}
}

// A position drawn by rule is searched as if the game went on (a queen up
// scores as one, not as the draw every move would be), and a dead
// position gets a move at once.
func TestAlphaBetaDrawnPositions(t *testing.T) {
	e := newEngine(t, Options{Weights: NoWeights, Search: SearchAlphaBeta, HashMB: 4})
	pos := at(t, e, "4k3/8/8/8/8/8/8/Q3K3 w - - 100 80")
	if st := pos.Status(); st != env.FiftyMove {
		t.Fatalf("status %v", st)
	}
	res, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 20_000}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	checkLegal(t, pos, res.BestMove)
	if cp := Centipawns(res.RootValue); cp < 500 {
		t.Errorf("a queen up after fifty moves scores %d cp, want it searched as a queen up", cp)
	}
	pos = at(t, e, "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
	res, err = e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 100}, mcts.Progress{})
	if err != nil {
		t.Fatalf("a dead position: %v", err)
	}
	checkLegal(t, pos, res.BestMove)
}

// A new game forgets what the alpha-beta learnt in the game before: a
// search after it is the search of a fresh engine.
func TestAlphaBetaNewGameForgets(t *testing.T) {
	search := func(e *Engine) mcts.Result {
		t.Helper()
		res, err := e.Go(context.Background(), env.GameOf(at(t, e, "", "e2e4")), clock.Limits{Nodes: 5000}, mcts.Progress{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	played := newEngine(t, Options{HashMB: 4})
	search(played)
	played.NewGame()
	afterNew := search(played)
	fresh := search(newEngine(t, Options{HashMB: 4}))
	if afterNew.BestMove != fresh.BestMove || afterNew.Depth != fresh.Depth || afterNew.RootValue != fresh.RootValue || afterNew.SelDepth != fresh.SelDepth {
		t.Errorf("after a new game: %v depth %d/%d value %v; a fresh engine: %v depth %d/%d value %v",
			afterNew.BestMove, afterNew.Depth, afterNew.SelDepth, afterNew.RootValue, fresh.BestMove, fresh.Depth, fresh.SelDepth, fresh.RootValue)
	}
}
