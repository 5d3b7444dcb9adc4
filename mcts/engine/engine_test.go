package engine

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/model"
)

func newEngine(t *testing.T, o Options) *Engine {
	t.Helper()
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// at returns the position of the engine's variant set up from fen (""
// for the start), then the moves (UCI): a game as a front end keeps it.
func at(t *testing.T, e *Engine, fen string, moves ...string) *env.Position {
	t.Helper()
	v := e.Options().Variant
	if fen == "" {
		fen = v.StartFEN()
	}
	pos, err := env.ParseFEN(fen, v)
	if err != nil {
		t.Fatal(err)
	}
	if i, err := pos.PlayUCI(moves); err != nil {
		t.Fatalf("move %d (%s): %v", i+1, moves[i], err)
	}
	return pos
}

// checkLegal fails unless m is legal in pos.
func checkLegal(t *testing.T, pos *env.Position, m env.Move) {
	t.Helper()
	var ml env.MoveList
	pos.LegalMoves(&ml)
	if !ml.Contains(m) {
		t.Fatalf("move %v is not legal in %s", m, pos.FEN())
	}
}

func TestDefaults(t *testing.T) {
	e := newEngine(t, Options{})
	o := e.Options()
	if o.Variant != env.Alice || o.Threads != 1 || o.HashMB != DefaultHashMB || o.Visits != DefaultVisits || o.EvalWorkers < 1 {
		t.Fatalf("defaults: %+v", o)
	}
	if e.Network() != alphaBetaSearch {
		t.Fatalf("Network() = %q, want %q", e.Network(), alphaBetaSearch)
	}
	for _, bad := range []Options{{Threads: -1}, {HashMB: -5}, {Visits: -1}, {Variant: env.Variant{Name: "nope"}}, {MoveOverhead: -time.Second}} {
		if _, err := New(bad); err == nil {
			t.Errorf("New(%+v) accepted", bad)
		}
		if err := e.SetOptions(bad); err == nil {
			t.Errorf("SetOptions(%+v) accepted", bad)
		}
	}
	if e.Options() != o {
		t.Fatalf("a refused SetOptions changed the options: %+v", e.Options())
	}
}

// What plays: with no network named the alpha-beta, loading none; a
// network named (builtin, a checkpoint, weights in memory) or Search mcts
// plays through the tree, the latter with the built-in network when no
// weights are named; Search alphabeta asks no network.
func TestWhatPlays(t *testing.T) {
	run := saveTiny(t, "alice")
	tiny, err := InMemory(tinyWeights(t, env.Alice), "tiny in memory")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		o       Options
		tree    bool   // the tree search runs (else the alpha-beta)
		network bool   // a network is loaded
		want    string // in Network()
	}{
		{"default", Options{}, false, false, alphaBetaSearch},
		{"<empty>", Options{Weights: "<empty>"}, false, false, alphaBetaSearch},
		{"none", Options{Weights: NoWeights}, false, false, plainAlphaBeta},
		{"builtin", Options{Weights: BuiltinWeights}, true, true, "built-in network"},
		{"a run folder", Options{Weights: run}, true, true, "iter-000003.azck (tiny, step 7)"},
		{"weights in memory", Options{Network: tiny}, true, true, "tiny in memory"},
		{"Search mcts", Options{Search: SearchMCTS}, true, true, "built-in network"},
		{"Search mcts, none", Options{Search: SearchMCTS, Weights: NoWeights}, true, false, plainTree},
		{"Search alphabeta", Options{Search: SearchAlphaBeta}, false, false, alphaBetaSearch},
		{"Search alphabeta, builtin", Options{Search: SearchAlphaBeta, Weights: BuiltinWeights}, false, true, alphaBetaSearch},
		{"alice-ep", Options{Variant: env.AliceEP}, false, false, alphaBetaSearch},
		{"alice-ep, Search mcts", Options{Variant: env.AliceEP, Search: SearchMCTS}, true, true, "the built-in network (alice-ep, "},
	} {
		tc.o.EvalWorkers = 1
		e := newEngine(t, tc.o)
		if err := e.Ready(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := e.Network(); !strings.Contains(got, tc.want) {
			t.Errorf("%s: Network() = %q, want %q", tc.name, got, tc.want)
		}
		if kind := e.SearchKind(); (kind == SearchMCTS) != tc.tree || kind != SearchMCTS && kind != SearchAlphaBeta {
			t.Errorf("%s: SearchKind() = %q, want the tree %v", tc.name, kind, tc.tree)
		}
		if (e.net.Weights != nil) != tc.network {
			t.Errorf("%s: network loaded %v, want %v", tc.name, e.net.Weights != nil, tc.network)
		}
		// The alpha-beta's table is made before a search, outside its time.
		if (e.ab != nil) == tc.tree {
			t.Errorf("%s: the alpha-beta made before the search %v, want %v", tc.name, e.ab != nil, !tc.tree)
		}
		if _, err := e.Go(context.Background(), env.GameOf(at(t, e, "")), clock.Limits{Nodes: 30}, mcts.Progress{}); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if (e.tree != nil) != tc.tree || (e.ab != nil) == tc.tree {
			t.Errorf("%s: searched with the tree %v and the alpha-beta %v, want the tree %v", tc.name, e.tree != nil, e.ab != nil, tc.tree)
		}
	}
}

// Switching Search with no weights named switches what plays: the tree
// loads the built-in network, and back to the default it is dropped.
func TestSwitchingSearch(t *testing.T) {
	e := newEngine(t, Options{EvalWorkers: 1})
	for _, step := range []struct {
		search  string
		network bool
		before  string // Network() before Ready
		want    string
	}{
		{SearchMCTS, true, "the default network (not loaded yet)", "built-in network"},
		{SearchAuto, false, alphaBetaSearch, alphaBetaSearch},
		{SearchAlphaBeta, false, alphaBetaSearch, alphaBetaSearch},
		{SearchMCTS, true, "the default network (not loaded yet)", "built-in network"},
	} {
		o := e.Options()
		o.Search = step.search
		if err := e.SetOptions(o); err != nil {
			t.Fatal(err)
		}
		if got := e.Network(); got != step.before {
			t.Errorf("Search %s, before Ready: Network() = %q, want %q", step.search, got, step.before)
		}
		if err := e.Ready(); err != nil {
			t.Fatal(err)
		}
		if got := e.Network(); !strings.Contains(got, step.want) || (e.net.Weights != nil) != step.network {
			t.Errorf("Search %s: Network() = %q, a network loaded %v; want %q, %v", step.search, got, e.net.Weights != nil, step.want, step.network)
		}
	}
}

// Go without limits searches the engine's Visits (or, for the alpha-beta,
// as long), reporting as it goes, with either search; the tree is kept
// from move to move.
func TestGoDefaultBudget(t *testing.T) {
	for _, search := range []string{SearchAuto, SearchMCTS} {
		e := newEngine(t, Options{Visits: 50, Search: search})
		pos := at(t, e, "")
		var infos int
		res, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{}, mcts.Progress{Report: func(mcts.Info) { infos++ }})
		if err != nil {
			t.Fatal(err)
		}
		checkLegal(t, pos, res.BestMove)
		if res.Nodes < 1 || infos == 0 {
			t.Fatalf("%s: nodes %d, infos %d", search, res.Nodes, infos)
		}
		// Play the move and search again (the tree's subtree is kept).
		pos.MakeMove(res.BestMove)
		res, err = e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 30}, mcts.Progress{})
		if err != nil {
			t.Fatal(err)
		}
		checkLegal(t, pos, res.BestMove)
	}
}

func TestGoFindsQuickMate(t *testing.T) {
	e := newEngine(t, Options{})
	pos := at(t, e, "", "e2e4", "d7d5", "f1e2", "d5e4")
	res, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 100}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	if res.BestMove.UCI() != "e2b5" || res.MateIn != 1 {
		t.Fatalf("best %v mate %d, want e2b5 mate 1", res.BestMove, res.MateIn)
	}
	pos.MakeMove(res.BestMove)
	if st := pos.Status(); st != env.Checkmate {
		t.Fatalf("status %v", st)
	}
	res, err = e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 10}, mcts.Progress{})
	if !errors.Is(err, ErrNoLegalMove) || res.BestMove != env.NoMove {
		t.Fatalf("after mate: %v, %v", res.BestMove, err)
	}
}

// Go searches the position its game reaches, set up from a '|' FEN; a
// game that does not play is refused with no search.
func TestGoSearchesTheGame(t *testing.T) {
	e := newEngine(t, Options{HashMB: 4})
	// A '|' FEN (the rule book's position after 1. e4), then 1... d5.
	fen := "rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	pos := at(t, e, fen, "d7d5")
	g := env.GameOf(pos)
	if g.StartFEN != fen || len(g.Moves) != 1 {
		t.Fatalf("the game of %s: %q %v", pos.FEN(), g.StartFEN, g.Moves)
	}
	res, err := e.Go(context.Background(), g, clock.Limits{Nodes: 500}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	checkLegal(t, pos, res.BestMove)
	e2e4 := at(t, e, "", "e2e4").LastMove()
	for _, c := range []struct {
		name string
		game *env.Game
	}{
		{"no game", nil},
		{"a bad FEN", &env.Game{Variant: env.Alice, StartFEN: "garbage"}},
		{"a position without kings", &env.Game{Variant: env.Alice, StartFEN: "8/8/8/8/8/8/8/8 w - - 0 1"}},
		{"an illegal move", &env.Game{Variant: env.Alice, Moves: []env.Move{e2e4, e2e4}}},
		{"another variant", env.NewGame(env.AliceEP)},
	} {
		res, err := e.Go(context.Background(), c.game, clock.Limits{Nodes: 100}, mcts.Progress{})
		if err == nil || res.BestMove != env.NoMove || res.Nodes != 0 {
			t.Errorf("%s: searched (%v, %d nodes, %v)", c.name, res.BestMove, res.Nodes, err)
		}
	}
}

func TestGoStoppedAndInfinite(t *testing.T) {
	for _, search := range []string{SearchAuto, SearchMCTS} {
		e := newEngine(t, Options{Search: search})
		pos := at(t, e, "")
		// A context already done ("go" and at once "stop", or the input
		// ended): the position is still searched (the tree evaluates it
		// once, the alpha-beta completes depth 1), with no error.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res, err := e.Go(ctx, env.GameOf(pos), clock.Limits{Infinite: true}, mcts.Progress{})
		if err != nil || res.Nodes < 1 {
			t.Fatalf("%s: stopped at once: %d nodes, %v", search, res.Nodes, err)
		}
		checkLegal(t, pos, res.BestMove)

		ctx, cancel = context.WithTimeout(context.Background(), 150*time.Millisecond)
		t0 := time.Now()
		res, err = e.Go(ctx, env.GameOf(pos), clock.Limits{Infinite: true}, mcts.Progress{})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if el := time.Since(t0); el < 100*time.Millisecond || el > 5*time.Second {
			t.Fatalf("%s: infinite search took %v", search, el)
		}
		checkLegal(t, pos, res.BestMove)
	}
}

func TestGoMoveTime(t *testing.T) {
	for _, search := range []string{SearchAuto, SearchMCTS} {
		e := newEngine(t, Options{Threads: 2, Search: search})
		pos := at(t, e, "")
		t0 := time.Now()
		res, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{MoveTime: 100 * time.Millisecond}, mcts.Progress{})
		if err != nil {
			t.Fatal(err)
		}
		if el := time.Since(t0); el > 2*time.Second {
			t.Fatalf("%s: movetime 100ms took %v", search, el)
		}
		checkLegal(t, pos, res.BestMove)
		if _, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: -1}, mcts.Progress{}); err == nil {
			t.Fatalf("%s: negative nodes accepted", search)
		}
	}
}

// The tree search of a position drawn by rule (the alpha-beta's:
// TestAlphaBetaDrawnPositions).
func TestGoDrawnByRuleStillMoves(t *testing.T) {
	e := newEngine(t, Options{Search: SearchMCTS})
	// Knights out and back twice: the start position occurs a third time.
	var moves []string
	for range 2 {
		moves = append(moves, "g1f3", "g8f6", "f3g1", "f6g8")
	}
	pos := at(t, e, "", moves...)
	if st := pos.Status(); st != env.Threefold {
		t.Fatalf("status %v", st)
	}
	res, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 50}, mcts.Progress{})
	if err != nil || res.Nodes == 0 {
		t.Fatalf("a position drawn by repetition: %d nodes, %v (want a search and no error)", res.Nodes, err)
	}
	checkLegal(t, pos, res.BestMove)
	// The drawn position's search used the game's tree: a game that goes
	// on elsewhere starts it afresh.
	pos = at(t, e, "", "e2e4")
	if res, err = e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 50}, mcts.Progress{}); err != nil || res.Nodes != 50 {
		t.Fatalf("after the drawn position: %d nodes, %v", res.Nodes, err)
	}
	checkLegal(t, pos, res.BestMove)
	// Only the kings left: any move, a draw, no error.
	pos = at(t, e, "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
	res, err = e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 50}, mcts.Progress{})
	if err != nil || res.RootWDL != [3]float32{0, 1, 0} {
		t.Fatalf("dead position: %+v, %v", res, err)
	}
	checkLegal(t, pos, res.BestMove)
}

func TestWeights(t *testing.T) {
	dir := t.TempDir()
	w := tinyWeights(t, env.Alice)
	path := filepath.Join(dir, "net.ckpt")
	if err := model.SaveCheckpoint(path, &model.Checkpoint{Weights: w, Preset: "tiny", Meta: map[string]string{"variant": "alice"}}); err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, Options{Weights: path, EvalWorkers: 1})
	if err := e.Ready(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.Network(), "tiny") {
		t.Fatalf("Network() = %q", e.Network())
	}
	pos := at(t, e, "")
	res, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 20}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	checkLegal(t, pos, res.BestMove)

	// A network for another variant is refused; the plain search takes over.
	o := e.Options()
	o.Variant = env.AliceEP
	if err := e.SetOptions(o); err != nil {
		t.Fatal(err)
	}
	if err := e.Ready(); err == nil || !strings.Contains(err.Error(), "trained for alice") {
		t.Fatalf("Ready: %v", err)
	}
	if e.Options().Weights != path || !strings.Contains(e.Network(), "plain search") || !strings.Contains(e.Network(), "trained for alice") {
		t.Fatalf("after a failed load: %+v, %s", e.Options(), e.Network())
	}
	// The failure stands while the plain search stands in: a front end
	// asking again is told again.
	if err := e.Ready(); err == nil || !strings.Contains(err.Error(), "trained for alice") {
		t.Fatalf("Ready again after a failed load: %v", err)
	}
	// Back to the variant the weights were trained for: they load again.
	o = e.Options()
	o.Variant = env.Alice
	if err := e.SetOptions(o); err != nil {
		t.Fatal(err)
	}
	if err := e.Ready(); err != nil || strings.Contains(e.Network(), "plain search") {
		t.Fatalf("back to alice: %v, %s", err, e.Network())
	}

	// A missing file: Go still plays, and says why the network is missing.
	o = e.Options()
	o.Weights = filepath.Join(dir, "missing")
	if err := e.SetOptions(o); err != nil {
		t.Fatal(err)
	}
	res, err = e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 20}, mcts.Progress{})
	if err == nil || res.Nodes == 0 {
		t.Fatalf("Go with missing weights: %v, %d nodes", err, res.Nodes)
	}
	checkLegal(t, pos, res.BestMove)
}

func TestCentipawnsAndWDL(t *testing.T) {
	for _, c := range []struct {
		v    float32
		want int
	}{{0, 0}, {0.5, 111}, {-0.5, -111}, {0.9, 671}, {1, 12800}, {-1, -12800}, {2, 12800}} {
		if got := Centipawns(c.v); got != c.want {
			t.Errorf("Centipawns(%v) = %d, want %d", c.v, got, c.want)
		}
	}
	if Centipawns(0.2) <= 0 || Centipawns(0.9) <= Centipawns(0.5) {
		t.Error("Centipawns not increasing")
	}
	w, d, l := WDLPermille([3]float32{0.5, 0.2, 0.3})
	if w != 500 || d != 200 || l != 300 {
		t.Errorf("WDL %d %d %d", w, d, l)
	}
	w, d, l = WDLPermille([3]float32{1.0 / 3, 1.0 / 3, 1.0 / 3})
	if w+d+l != 1000 {
		t.Errorf("WDL thirds %d %d %d", w, d, l)
	}
	if w, d, l = WDLPermille([3]float32{}); d != 1000 || w != 0 || l != 0 {
		t.Errorf("WDL zero %d %d %d", w, d, l)
	}
}

// In a position lost whatever White does, the engine plays a move mated
// last. Without the solver's rule the tree search keeps visiting the moves
// it has proven lost, never tries the three the network gives zero priors,
// which allow a mate in one, and then plays one of those, the untried
// moves looking better than the known losses.
func TestGoPlaysTheLongestDefence(t *testing.T) {
	e := newEngine(t, Options{Search: SearchMCTS})
	pos := at(t, e, "rn2k2r/ppp2ppp/8/2|bp|p2R/2N1n1|b1/2|P|P4/PP1|qPPPP/2BQKB1R w Kkq - 1 11")
	res, err := e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 20_000}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	if res.MateIn != -2 {
		t.Fatalf("plays %v, MateIn %d after %d visits; want mated in two", res.BestMove, res.MateIn, res.Nodes)
	}
	pos.MakeMove(res.BestMove)
	var replies, next env.MoveList
	pos.LegalMoves(&replies)
	for _, r := range replies.Slice() {
		pos.MakeMove(r)
		pos.LegalMoves(&next)
		if next.N == 0 && pos.InCheck() {
			t.Fatalf("plays %v, which %v mates at once", res.BestMove, r)
		}
		pos.UnmakeMove()
	}
}
