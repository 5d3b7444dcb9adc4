package uci

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/enginetest"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/lines"
	"github.com/alicezero/alicezero/internal/syncbuf"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// outLines splits what out holds into lines.
func outLines(out *syncbuf.Buffer) []string {
	return strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
}

// script runs the loop on input until the input ends and returns the
// output lines.
func script(t *testing.T, e engine.Interface, input string) []string {
	t.Helper()
	var out syncbuf.Buffer
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), e, strings.NewReader(input), &out) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("Run did not return; output so far:\n%s", strings.Join(outLines(&out), "\n"))
	}
	return outLines(&out)
}

func has(lines []string, pred func(string) bool) bool {
	for _, l := range lines {
		if pred(l) {
			return true
		}
	}
	return false
}

func prefixed(p string) func(string) bool {
	return func(l string) bool { return strings.HasPrefix(l, p) }
}

func TestHandshake(t *testing.T) {
	out := script(t, enginetest.New(), "uci\nisready\n")
	want := []string{"id name AliceZero", "option name UCI_Variant type combo default alice var alice var alice-ep var alice-black-b var alice-null var alice-optional-transfer var alice-stone var alice-mini var alice-3",
		"option name MultiPV type spin default 1 min 1 max 256", "option name UCI_ShowWDL type check default false", "uciok", "readyok"}
	for _, w := range want {
		if !has(out, func(l string) bool { return l == w }) {
			t.Errorf("no %q in:\n%s", w, strings.Join(out, "\n"))
		}
	}
}

// Bad input is answered with an error naming it briefly, and the engine
// stays up.
func TestBadInput(t *testing.T) {
	huge := strings.Repeat("x", lines.DefaultMax+10)
	longWord := strings.Repeat("y", 5000)
	for _, tt := range []struct {
		name, input, want string
	}{
		{"unknown command", "frobnicate the board\n", `info string error unknown command "frobnicate"`},
		{"long unknown word", longWord + "\n", `info string error unknown command "` + strings.Repeat("y", 40) + `..."`},
		{"skipped words", "hello there isready\n", `info string error unknown command "hello there" skipped`},
		{"line over the limit", "position startpos moves " + huge + "\n", "info string error line too long"},
		{"illegal move", "position startpos moves e2e5\n", "info string error position: move 1 (e2e5)"},
		{"bad option", "setoption name Threads value lots\n", `info string error setoption Threads: "lots" is not a whole number`},
		{"unknown option", "setoption name Colour value blue\n", `info string error setoption: unknown option "Colour"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := script(t, enginetest.New(), tt.input+"isready\n")
			if !has(out, prefixed(tt.want)) {
				t.Errorf("no %q in:\n%.2000s", tt.want, strings.Join(out, "\n"))
			}
			if out[len(out)-1] != "readyok" {
				t.Errorf("the engine did not answer isready after the bad input; last line %.200q", out[len(out)-1])
			}
			for _, l := range out {
				if len(l) > 300 {
					t.Errorf("a %d-byte line echoes the input", len(l))
				}
			}
		})
	}
}

// The first go says what plays; later ones say nothing more while it
// stays the same.
func TestSaysWhoPlaysOnce(t *testing.T) {
	e := enginetest.New()
	e.Description = "the test network"
	out := script(t, e, "go nodes 1\nposition startpos moves e2e4\ngo nodes 1\n")
	var said []string
	for _, l := range out {
		if strings.HasPrefix(l, "info string playing with") {
			said = append(said, l)
		}
	}
	if len(said) != 1 || said[0] != "info string playing with the test network" || !strings.HasPrefix(out[0], "info string playing with") {
		t.Errorf("the engine said who plays %d times (%q); output:\n%s", len(said), said, strings.Join(out, "\n"))
	}
}

// A position without a legal move is answered as Stockfish does, with no
// error text; a bestmove follows every go.
func TestGameOverAnswer(t *testing.T) {
	for _, tt := range []struct {
		name, fen, info string
	}{
		{"checkmate", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "info depth 0 score mate 0"},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "info depth 0 score cp 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := enginetest.New()
			pos, err := env.ParseFEN(tt.fen, env.Alice)
			if err != nil {
				t.Fatal(err)
			}
			if st := pos.Status(); !st.IsOver() {
				t.Fatalf("%s is not over (%v)", tt.fen, st)
			}
			out := script(t, e, "position fen "+tt.fen+"\ngo nodes 100\n")
			if want := "info string playing with fake network\n" + tt.info + "\nbestmove (none)"; strings.Join(out, "\n") != want {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(out, "\n"), want)
			}
		})
	}
}

// TestGoLimits: a go whose limit cannot be read (ignored, below) is
// answered with an error and not searched at all, as bad input is.
func TestGoLimits(t *testing.T) {
	const ignored = "go ignored"
	for _, tt := range []struct {
		words string
		want  clock.Limits
		err   string
	}{
		{"nodes 500", clock.Limits{Nodes: 500}, ""},
		{"nodes 0", clock.Limits{}, "nodes must be at least 1, got 0; " + ignored},
		{"nodes -1", clock.Limits{}, "nodes must be at least 1, got -1; " + ignored},
		{"nodes many", clock.Limits{}, `nodes: "many" is not a number; ` + ignored},
		{"movetime 0", clock.Limits{}, "movetime must be at least 1 ms, got 0; " + ignored},
		{"movetime -5", clock.Limits{}, "movetime must be at least 1 ms, got -5; " + ignored},
		{"nodes 100 movetime", clock.Limits{}, "movetime needs a value; " + ignored},
		{"movetime 250", clock.Limits{MoveTime: 250 * time.Millisecond}, ""},
		{"wtime 60000 btime -20 winc 1000 binc 1000 movestogo 5", clock.Limits{WTime: time.Minute, BTime: time.Millisecond,
			WInc: time.Second, BInc: time.Second, MovesToGo: 5}, ""},
		{"depth 5 nodes 10", clock.Limits{Depth: 5, Nodes: 10}, ""},
		{"searchmoves e2e4 d2d4 nodes 7", clock.Limits{Nodes: 7}, "searchmoves is not supported"},
		{"fast please", clock.Limits{}, `unknown word "fast"`},
	} {
		e := enginetest.New()
		out := script(t, e, "go "+tt.words+"\n")
		lims := e.Limits()
		rejected := strings.Contains(tt.err, ignored)
		if rejected {
			if len(lims) != 0 || has(out, prefixed("bestmove ")) {
				t.Errorf("go %s: searched %+v despite the bad limit:\n%s", tt.words, lims, strings.Join(out, "\n"))
			}
		} else if len(lims) != 1 || lims[0] != tt.want {
			t.Errorf("go %s: limits %+v, want %+v", tt.words, lims, tt.want)
		}
		gotErr := has(out, prefixed("info string error"))
		if (tt.err != "") != gotErr || (tt.err != "" && !has(out, func(l string) bool { return strings.Contains(l, tt.err) })) {
			t.Errorf("go %s: output\n%s\nwant error %q", tt.words, strings.Join(out, "\n"), tt.err)
		}
		if !rejected && !has(out, prefixed("bestmove ")) {
			t.Errorf("go %s: no bestmove", tt.words)
		}
	}
}

// A depth limit reaches the alpha-beta, which iterates to it; the tree
// search, which has no depth, runs the Visits budget and says so.
func TestGoDepth(t *testing.T) {
	for _, tt := range []struct {
		kind, words string
		want        clock.Limits
		note        string
	}{
		{engine.SearchAlphaBeta, "go depth 6", clock.Limits{Depth: 6}, ""},
		{engine.SearchAlphaBeta, "go depth 6 movetime 500", clock.Limits{Depth: 6, MoveTime: 500 * time.Millisecond}, ""},
		{engine.SearchMCTS, "go depth 6", clock.Limits{Depth: 6}, "info string depth limits are not supported by the tree search (it has no fixed depth); searching 800 visits"},
		{engine.SearchMCTS, "go depth 6 nodes 100", clock.Limits{Depth: 6, Nodes: 100}, ""},
	} {
		e := enginetest.New()
		e.Kind = tt.kind
		out := script(t, e, tt.words+"\n")
		noted := has(out, func(l string) bool { return strings.HasPrefix(l, "info string depth") })
		if len(e.Limits()) != 1 || e.Limits()[0] != tt.want || noted != (tt.note != "") || tt.note != "" && !has(out, func(l string) bool { return l == tt.note }) {
			t.Errorf("%s: %s searched %+v, said\n%s\nwant %+v and note %q", tt.kind, tt.words, e.Limits(), strings.Join(out, "\n"), tt.want, tt.note)
		}
	}
}

// With MultiPV each root move has a line with its own score, WDL and
// line, best first.
func TestMultiPVCarriesEachMovesWDL(t *testing.T) {
	e := enginetest.New()
	pos := env.NewPosition(env.Alice)
	mv := func(s string) env.Move {
		m, err := pos.ParseUCI(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	e4, d4, nf3 := mv("e2e4"), mv("d2d4"), mv("g1f3")
	e.Search = func(ctx context.Context, p *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
		children := []mcts.ChildStat{
			{Move: nf3, Visits: 10, Q: -0.2, WDL: [3]float32{0.1, 0.6, 0.3}, PV: []env.Move{nf3}},
			{Move: e4, Visits: 50, Q: 0.3, WDL: [3]float32{0.5, 0.3, 0.2}, PV: []env.Move{e4}},
			{Move: d4, Visits: 30, Q: 0.1, WDL: [3]float32{0.3, 0.5, 0.2}, PV: []env.Move{d4}},
		}
		in := mcts.Info{Depth: 3, SelDepth: 5, Nodes: 90, PV: []env.Move{e4}, Value: 0.25, WDL: [3]float32{0.45, 0.35, 0.2}, Children: children, Final: true}
		progress.Report(in)
		return mcts.Result{BestMove: e4, PV: []env.Move{e4}, Nodes: 90, Children: children}, nil
	}
	out := script(t, e, "setoption name MultiPV value 3\nsetoption name UCI_ShowWDL value true\ngo nodes 90\n")
	want := []string{
		"info string playing with fake network",
		"info depth 3 seldepth 5 multipv 1 score cp 57 wdl 500 300 200 nodes 90 nps 0 time 0 pv e2e4",
		"info depth 3 seldepth 5 multipv 2 score cp 18 wdl 300 500 200 nodes 90 nps 0 time 0 pv d2d4",
		"info depth 3 seldepth 5 multipv 3 score cp -36 wdl 100 600 300 nodes 90 nps 0 time 0 pv g1f3",
		"bestmove e2e4",
	}
	if strings.Join(out, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(out, "\n"), strings.Join(want, "\n"))
	}
}

// When the input ends during a search, the search is stopped and its best
// move so far goes out before Run returns.
func TestEndOfInputDuringGo(t *testing.T) {
	e := enginetest.New()
	stopped := false
	e.Search = func(ctx context.Context, p *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
		<-ctx.Done()
		stopped = true
		m, _ := p.ParseUCI("g1f3")
		return mcts.Result{BestMove: m, PV: []env.Move{m}, Nodes: 1234}, nil
	}
	out := script(t, e, "position startpos\ngo nodes 100000000\n")
	if !stopped || out[len(out)-1] != "bestmove g1f3" {
		t.Fatalf("stopped %v, output:\n%s", stopped, strings.Join(out, "\n"))
	}
}

// A panic in the engine is reported, and a legal bestmove still follows.
func TestPanicInSearch(t *testing.T) {
	e := enginetest.New()
	e.Search = func(context.Context, *env.Position, clock.Limits, mcts.Progress) (mcts.Result, error) {
		panic("the network caught fire")
	}
	out := script(t, e, "go nodes 10\nucinewgame\nisready\n")
	if !has(out, prefixed("info string error internal error: the network caught fire")) {
		t.Errorf("panic not reported:\n%s", strings.Join(out, "\n"))
	}
	if !has(out, func(l string) bool { return strings.HasPrefix(l, "bestmove ") && l != "bestmove (none)" }) {
		t.Errorf("no legal bestmove:\n%s", strings.Join(out, "\n"))
	}
	if out[len(out)-1] != "readyok" {
		t.Errorf("not ready after the panic:\n%s", strings.Join(out, "\n"))
	}
}

func TestStopAndQuit(t *testing.T) {
	e := enginetest.New()
	pr, pw := io.Pipe()
	var out syncbuf.Buffer
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), e, pr, &out) }()
	io.WriteString(pw, "go infinite\nisready\n")
	waitFor(t, &out, "readyok")
	io.WriteString(pw, "stop\n")
	waitFor(t, &out, "bestmove ")
	io.WriteString(pw, "quit\n")
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("quit did not end the loop")
	}
	pw.Close()
}

func waitFor(t *testing.T, out *syncbuf.Buffer, prefix string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if has(outLines(out), prefixed(prefix)) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no %q; output:\n%s", prefix, strings.Join(outLines(out), "\n"))
}

func TestOptions(t *testing.T) {
	e := enginetest.New()
	script(t, e, "setoption name Weights value /tmp/run\nsetoption name Threads value 4\nsetoption name Move Overhead value 0\nsetoption name UCI_Variant value alice-ep\n")
	o := e.Options()
	if o.Weights != "/tmp/run" || o.Threads != 4 || o.MoveOverhead <= 0 || o.Variant != env.AliceEP {
		t.Errorf("options %+v", o)
	}
	script(t, e, "setoption name Weights value <empty>\n")
	if e.Options().Weights != "" {
		t.Errorf("Weights <empty> gave %q", e.Options().Weights)
	}
}

// A network that cannot be loaded is reported at isready, and go is
// refused while it stands (no search, "bestmove (none)"); once Ready
// succeeds go searches again.
func TestGoRefusedWhileTheNetworkCannotLoad(t *testing.T) {
	e := enginetest.New()
	e.ReadyErr = errors.New("engine: weights: /x.azck does not exist")
	out := script(t, e, "isready\ngo nodes 5\n")
	if !has(out, func(l string) bool { return l == "info string error engine: weights: /x.azck does not exist" }) {
		t.Errorf("isready did not report the failure:\n%s", strings.Join(out, "\n"))
	}
	if !has(out, func(l string) bool {
		return strings.HasPrefix(l, "info string error go refused: engine: weights: /x.azck does not exist; set Weights")
	}) || out[len(out)-1] != "bestmove (none)" || len(e.Limits()) != 0 {
		t.Errorf("go with a network that cannot load searched %d times:\n%s", len(e.Limits()), strings.Join(out, "\n"))
	}
	e.ReadyErr = nil
	out = script(t, e, "go nodes 5\n")
	if last := out[len(out)-1]; last == "bestmove (none)" || !strings.HasPrefix(last, "bestmove ") || len(e.Limits()) != 1 {
		t.Errorf("go once the network loads: %d searches:\n%s", len(e.Limits()), strings.Join(out, "\n"))
	}
}

// The loop keeps the game: each go hands the engine the position set up
// last with the moves played from it; a position refused leaves it as it
// was; ucinewgame and a new UCI_Variant start a new game at the start.
func TestGoSearchesTheGameSetUp(t *testing.T) {
	const fen = "rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	e := enginetest.New()
	script(t, e, "position startpos moves e2e4 d7d5\ngo nodes 10\n"+
		"position fen "+fen+" moves d7d5\ngo nodes 10\n"+
		"position startpos moves e2e5\ngo nodes 10\n"+
		"ucinewgame\ngo nodes 10\n"+
		"position startpos moves e2e4\nsetoption name UCI_Variant value alice-ep\ngo nodes 10\n")
	want := []struct {
		v     env.Variant
		start string
		moves string
	}{
		{env.Alice, env.StartFEN, "e2e4 d7d5"},
		{env.Alice, fen, "d7d5"},
		{env.Alice, fen, "d7d5"},
		{env.Alice, env.StartFEN, ""},
		{env.AliceEP, env.AliceEP.StartFEN(), ""},
	}
	games := e.Games()
	if len(games) != len(want) {
		t.Fatalf("%d searches, want %d", len(games), len(want))
	}
	for i, g := range games {
		var moves []string
		for _, m := range g.Moves {
			moves = append(moves, m.UCI())
		}
		if w := want[i]; g.Variant != w.v || g.StartFEN != w.start || strings.Join(moves, " ") != w.moves {
			t.Errorf("go %d searched %s %q moves %q, want %s %q moves %q", i+1, g.Variant.Name, g.StartFEN, moves, w.v.Name, w.start, w.moves)
		}
	}
	if e.NewGames() != 1 {
		t.Errorf("ucinewgame reached the engine %d times, want once", e.NewGames())
	}
}
