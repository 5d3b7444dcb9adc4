package engine

import (
	"bytes"
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

// checkLegal fails unless m is legal in the engine's position.
func checkLegal(t *testing.T, e *Engine, m env.Move) {
	t.Helper()
	var ml env.MoveList
	pos := e.Position()
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
	if e.Position().FEN() != env.StartFEN || e.StartFEN() != env.StartFEN {
		t.Fatalf("not at the start: %s", e.Position().FEN())
	}
	if !strings.Contains(e.Network(), "built-in network") {
		t.Fatalf("Network() = %q, want the built-in network", e.Network())
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

func TestGoPlainSearch(t *testing.T) {
	e := newEngine(t, Options{Visits: 50})
	var infos int
	res, err := e.Go(context.Background(), clock.Limits{}, mcts.Progress{Report: func(mcts.Info) { infos++ }})
	if err != nil {
		t.Fatal(err)
	}
	checkLegal(t, e, res.BestMove)
	if res.Nodes < 1 || infos == 0 {
		t.Fatalf("nodes %d, infos %d", res.Nodes, infos)
	}
	// Tree reuse: play the move and a reply, search again.
	if err := e.Play(res.BestMove); err != nil {
		t.Fatal(err)
	}
	res, err = e.Go(context.Background(), clock.Limits{Nodes: 30}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	checkLegal(t, e, res.BestMove)
}

func TestGoFindsQuickMate(t *testing.T) {
	e := newEngine(t, Options{})
	if err := e.SetPosition("", []string{"e2e4", "d7d5", "f1e2", "d5e4"}); err != nil {
		t.Fatal(err)
	}
	res, err := e.Go(context.Background(), clock.Limits{Nodes: 100}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	if res.BestMove.UCI() != "e2b5" || res.MateIn != 1 {
		t.Fatalf("best %v mate %d, want e2b5 mate 1", res.BestMove, res.MateIn)
	}
	if err := e.Play(res.BestMove); err != nil {
		t.Fatal(err)
	}
	if st := e.Status(); st != env.Checkmate {
		t.Fatalf("status %v", st)
	}
	res, err = e.Go(context.Background(), clock.Limits{Nodes: 10}, mcts.Progress{})
	if !errors.Is(err, ErrNoLegalMove) || res.BestMove != env.NoMove {
		t.Fatalf("after mate: %v, %v", res.BestMove, err)
	}
	if g := e.Game(); g.Result != env.WhiteWins || len(g.Moves) != 5 {
		t.Fatalf("game %+v", g)
	}
}

func TestSetPositionErrorsKeepTheGame(t *testing.T) {
	e := newEngine(t, Options{})
	if err := e.SetPosition("", []string{"e2e4"}); err != nil {
		t.Fatal(err)
	}
	before := e.Position().FEN()
	for _, c := range []struct {
		fen   string
		moves []string
	}{
		{"garbage", nil},
		{"", []string{"e2e5"}},
		{"", []string{"e2e4", "zz"}},
		{"8/8/8/8/8/8/8/8 w - - 0 1", nil},
	} {
		if err := e.SetPosition(c.fen, c.moves); err == nil {
			t.Errorf("SetPosition(%q, %v) accepted", c.fen, c.moves)
		}
		if got := e.Position().FEN(); got != before {
			t.Fatalf("a refused SetPosition changed the game: %s", got)
		}
	}
	// A '|' FEN (the rule book's position after 1. e4).
	fen := "rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	if err := e.SetPosition(fen, []string{"d7d5"}); err != nil {
		t.Fatal(err)
	}
	if e.StartFEN() != fen || len(e.Moves()) != 1 {
		t.Fatalf("start %s, moves %v", e.StartFEN(), e.Moves())
	}
	if _, b := e.Position().PieceAt(env.SquareAt(4, 3)); b != env.BoardB {
		t.Fatal("e4 pawn not on board B")
	}
}

func TestPlayUndoAndGame(t *testing.T) {
	e := newEngine(t, Options{})
	if _, err := e.PlayText("e4"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.PlayText("d7d5"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.PlayText("Nf6"); err == nil {
		t.Fatal("Nf6 accepted for White")
	}
	if err := e.Play(env.NoMove); err == nil {
		t.Fatal("NoMove accepted")
	}
	m, ok := e.Undo()
	if !ok || m.UCI() != "d7d5" {
		t.Fatalf("undo %v %v", m, ok)
	}
	if _, ok := e.Undo(); !ok {
		t.Fatal("second undo failed")
	}
	if _, ok := e.Undo(); ok {
		t.Fatal("undo at the start succeeded")
	}
	for _, s := range []string{"e4", "d5", "Be2", "dxe4", "Bb5"} {
		if _, err := e.PlayText(s); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := env.WritePGN(&buf, e.Game()); err != nil {
		t.Fatal(err)
	}
	games, err := env.ReadPGN(&buf, env.Alice)
	if err != nil || len(games) != 1 || len(games[0].Moves) != 5 || games[0].Result != env.WhiteWins {
		t.Fatalf("PGN round trip: %v %+v\n%s", err, games, buf.String())
	}
	// SetGame keeps the history.
	pos := e.Position()
	e2 := newEngine(t, Options{})
	if err := e2.SetGame(pos); err != nil {
		t.Fatal(err)
	}
	if e2.StartFEN() != env.StartFEN || len(e2.Moves()) != 5 {
		t.Fatalf("SetGame: %s %v", e2.StartFEN(), e2.Moves())
	}
}

func TestGoStoppedAndInfinite(t *testing.T) {
	e := newEngine(t, Options{})
	// A context already done ("go" and at once "stop", or the input
	// ended): the position is still evaluated once, with no error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := e.Go(ctx, clock.Limits{Infinite: true}, mcts.Progress{})
	if err != nil || res.Nodes < 1 {
		t.Fatalf("stopped at once: %d nodes, %v", res.Nodes, err)
	}
	checkLegal(t, e, res.BestMove)

	ctx, cancel = context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	res, err = e.Go(ctx, clock.Limits{Infinite: true}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(t0); el < 100*time.Millisecond || el > 5*time.Second {
		t.Fatalf("infinite search took %v", el)
	}
	checkLegal(t, e, res.BestMove)
}

func TestGoMoveTime(t *testing.T) {
	e := newEngine(t, Options{Threads: 2})
	t0 := time.Now()
	res, err := e.Go(context.Background(), clock.Limits{MoveTime: 100 * time.Millisecond}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(t0); el > 2*time.Second {
		t.Fatalf("movetime 100ms took %v", el)
	}
	checkLegal(t, e, res.BestMove)
	if _, err := e.Go(context.Background(), clock.Limits{Nodes: -1}, mcts.Progress{}); err == nil {
		t.Fatal("negative nodes accepted")
	}
}

func TestGoDrawnByRuleStillMoves(t *testing.T) {
	e := newEngine(t, Options{})
	// Knights out and back twice: the start position occurs a third time.
	var moves []string
	for range 2 {
		moves = append(moves, "g1f3", "g8f6", "f3g1", "f6g8")
	}
	if err := e.SetPosition("", moves); err != nil {
		t.Fatal(err)
	}
	if st := e.Status(); st != env.Threefold {
		t.Fatalf("status %v", st)
	}
	res, err := e.Go(context.Background(), clock.Limits{Nodes: 50}, mcts.Progress{})
	if err != nil || res.Nodes == 0 {
		t.Fatalf("a position drawn by repetition: %d nodes, %v (want a search and no error)", res.Nodes, err)
	}
	checkLegal(t, e, res.BestMove)
	// The drawn position's search used the game's tree: a game that goes
	// on elsewhere starts it afresh.
	if err := e.SetPosition("", []string{"e2e4"}); err != nil {
		t.Fatal(err)
	}
	if res, err = e.Go(context.Background(), clock.Limits{Nodes: 50}, mcts.Progress{}); err != nil || res.Nodes != 50 {
		t.Fatalf("after the drawn position: %d nodes, %v", res.Nodes, err)
	}
	checkLegal(t, e, res.BestMove)
	// Only the kings left: any move, a draw, no error.
	if err := e.SetPosition("4k3/8/8/8/8/8/8/4K3 w - - 0 1", nil); err != nil {
		t.Fatal(err)
	}
	res, err = e.Go(context.Background(), clock.Limits{Nodes: 50}, mcts.Progress{})
	if err != nil || res.RootWDL != [3]float32{0, 1, 0} {
		t.Fatalf("dead position: %+v, %v", res, err)
	}
	checkLegal(t, e, res.BestMove)
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
	res, err := e.Go(context.Background(), clock.Limits{Nodes: 20}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	checkLegal(t, e, res.BestMove)

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
	res, err = e.Go(context.Background(), clock.Limits{Nodes: 20}, mcts.Progress{})
	if err == nil || res.Nodes == 0 {
		t.Fatalf("Go with missing weights: %v, %d nodes", err, res.Nodes)
	}
	checkLegal(t, e, res.BestMove)
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

// In a position lost whatever White does (issue 29), the engine plays a
// move mated last: the search used to keep visiting the moves it had
// proven lost and never try the three the network gives zero priors,
// which allow a mate in one, and then played one of those, the untried
// moves looking better than the known losses.
func TestGoPlaysTheLongestDefence(t *testing.T) {
	e := newEngine(t, Options{})
	if err := e.SetPosition("rn2k2r/ppp2ppp/8/2|bp|p2R/2N1n1|b1/2|P|P4/PP1|qPPPP/2BQKB1R w Kkq - 1 11", nil); err != nil {
		t.Fatal(err)
	}
	res, err := e.Go(context.Background(), clock.Limits{Nodes: 20_000}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	if res.MateIn != -2 {
		t.Fatalf("plays %v, MateIn %d after %d visits; want mated in two", res.BestMove, res.MateIn, res.Nodes)
	}
	pos := e.Position()
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
