package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/alicezero/alicezero/configs"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/alphabeta"
	"github.com/alicezero/alicezero/mcts/engine"
	"github.com/alicezero/alicezero/mcts/reference"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/training"
	"github.com/alicezero/alicezero/train"
	"github.com/sourcegraph/conc/panics"
)

// figure is one line of the benchmark: a name, a unit and how to measure it.
type figure struct {
	name    string
	unit    string
	measure func(ctx context.Context) (float64, error)
}

func benchFigures() []figure {
	var pf pairedFigures
	return []figure{
		{"perft_nps", "nodes/s", measurePerft},
		{"encode_ns", "ns/position", measureEncode},
		{"nn_fast_pos_per_s", "positions/s", pf.inference(nnFast)},
		{"nn_fast_pos_per_s_b16", "positions/s", pf.inference(nnFastB16)},
		{"nn_fast_pos_per_s_1core", "positions/s", pf.inference(nnFast1Core)},
		{"nn_gorgonia_pos_per_s", "positions/s", pf.inference(nnGorgonia)},
		{"train_pos_per_s", "positions/s", pf.inference(nnTrain)},
		{"mcts_sims_per_s", "simulations/s", pf.search(0)},
		{"mcts_overhead_pct", "%", pf.search(1)},
		{"engine_visits_per_s", "visits/s", measureEngine(1, 1)},
		{"engine_visits_per_s_2threads", "visits/s", measureEngine(2, 2)},
		{"alphabeta_nodes_per_s", "nodes/s", measureAlphaBeta(1)},
		{"alphabeta_nodes_per_s_2threads", "nodes/s", measureAlphaBeta(2)},
		{"alphabeta_depth_speedup_2threads", "x", measureAlphaBetaDepthSpeedup},
		// The built-in network through the tree (named: the default
		// engine is the alpha-beta, the last figure's), so that the
		// figures compare with those measured before.
		{"tactics_solved_pct", "%", measureTactics(engine.Options{Weights: engine.BuiltinWeights})},
		{"tactics_solved_pct_guard", "%", measureTactics(engine.Options{Weights: engine.BuiltinWeights, Tactics: true})},
		{"tactics_solved_pct_alphabeta", "%", measureTactics(engine.Options{Search: engine.SearchAlphaBeta})},
	}
}

func runBench(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", "", stderr)
	only := fs.String("only", "", "comma-separated figure names to measure (default: all)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	want := map[string]bool{}
	for _, n := range strings.Split(*only, ",") {
		if n = strings.TrimSpace(n); n != "" {
			want[n] = true
		}
	}
	known := map[string]bool{}
	var names []string
	for _, f := range benchFigures() {
		known[f.name] = true
		names = append(names, f.name)
	}
	for n := range want {
		if !known[n] {
			return fmt.Errorf("--only: unknown figure %q (the figures: %s)", n, strings.Join(names, ", "))
		}
	}
	fmt.Fprintf(stdout, "# alicezero bench: %s/%s, %d CPUs, %s\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	for _, f := range benchFigures() {
		if len(want) > 0 && !want[f.name] {
			continue
		}
		v, err := measureOrStop(ctx, f.measure)
		if err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		fmt.Fprintf(stdout, "%s: %s %s\n", f.name, formatFigure(v), f.unit)
	}
	return nil
}

// measureOrStop runs measure and returns its figure, or ctx's error as
// soon as ctx ends. Some measurements cannot stop midway (the network's
// timed loops run to their end): such a one is left to finish on its own
// goroutine while the command exits.
func measureOrStop(ctx context.Context, measure func(context.Context) (float64, error)) (float64, error) {
	type result struct {
		v   float64
		err error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		if p := panics.Try(func() { r.v, r.err = measure(ctx) }); p != nil {
			r.err = p.AsError()
		}
		done <- r
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// measurePerft counts the start position to depth 6 on one goroutine, with
// bulk counting at the leaves.
func measurePerft(ctx context.Context) (float64, error) {
	pos := env.NewPosition(env.Alice)
	start := time.Now()
	n := pos.Perft(6)
	return float64(n) / time.Since(start).Seconds(), ctx.Err()
}

// measureAlphaBeta is the classical alpha-beta's speed on threads
// threads from the start position: two million nodes a thread, the
// quiescence search's included, with its default table.
func measureAlphaBeta(threads int) func(ctx context.Context) (float64, error) {
	return func(ctx context.Context) (float64, error) {
		s, err := alphabeta.New(alphabeta.Config{Threads: threads})
		if err != nil {
			return 0, err
		}
		start := time.Now()
		r, err := s.Search(ctx, env.NewPosition(env.Alice), clock.Limits{Nodes: int64(threads) * 2_000_000})
		if err != nil {
			return 0, err
		}
		return float64(r.Nodes) / time.Since(start).Seconds(), ctx.Err()
	}
}

// depthPositions are the positions of the time-to-depth figure: the start
// and three openings (none with a forced mate, which ends a search early).
var depthPositions = []string{
	"",
	"d2d4 d7d5 c1f4 c8f5 e2e3 e7e6 b1c3",
	"e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3",
	"c2c4 e7e5 b1c3 g8f6 g2g3",
}

// depthSpeedupDepth is the depth searched: 0.5 to 3 s a position on one
// thread of the machine of docs/PERFORMANCE.md.
const depthSpeedupDepth = 13

// measureAlphaBetaDepthSpeedup is how much sooner two threads than one
// complete the alpha-beta's iteration of depthSpeedupDepth, over
// depthPositions, each searched from a new game: the time one thread
// takes over the time two take, summed over the positions.
func measureAlphaBetaDepthSpeedup(ctx context.Context) (float64, error) {
	var took [2]time.Duration
	for i, threads := range []int{1, 2} {
		s, err := alphabeta.New(alphabeta.Config{Threads: threads})
		if err != nil {
			return 0, err
		}
		for _, moves := range depthPositions {
			pos := env.NewPosition(env.Alice)
			if _, err := pos.PlayUCI(strings.Fields(moves)); err != nil {
				return 0, err
			}
			s.NewGame()
			start := time.Now()
			if _, err := s.Search(ctx, pos, clock.Limits{Depth: depthSpeedupDepth}); err != nil {
				return 0, err
			}
			took[i] += time.Since(start)
		}
	}
	return took[0].Seconds() / took[1].Seconds(), ctx.Err()
}

// measureEncode encodes a middle-game position repeatedly for half a second.
func measureEncode(ctx context.Context) (float64, error) {
	pos := env.NewPosition(env.Alice)
	if _, err := pos.PlayUCI(strings.Fields("e2e4 d7d5 f1e2 d5e4 g1f3 g8f6")); err != nil {
		return 0, err
	}
	buf := make([]float32, env.InputSize)
	n := 0
	start := time.Now()
	for time.Since(start) < 500*time.Millisecond && ctx.Err() == nil {
		for i := 0; i < 1000; i++ {
			pos.Encode(buf)
		}
		n += 1000
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n), ctx.Err()
}

// formatFigure prints large figures whole and small ones to three
// significant digits, so lines stay easy to compare by eye.
func formatFigure(v float64) string {
	if v >= 1000 || v <= -1000 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// pairedFigures measures figures that come in groups once and hands out
// each, so that side-by-side figures come from the same run.
type pairedFigures struct {
	nn           [nnFigures]float64
	mcts         [2]float64
	nnOK, mctsOK bool
}

// The network figures.
const (
	nnFast      = iota // the fast path, batch 64, all cores
	nnFastB16          // batch 16, all cores
	nnFast1Core        // batch 64, one core
	nnTrain            // training steps of the default configuration
	nnGorgonia         // the gorgonia graph, batch 64
	nnFigures
)

// The network figures: the default configuration's network and training
// settings; the fast path (batch 64 and 16 on all cores, batch 64 on one)
// and training steps measured interleaved, so that their ratios are fair
// on a shared machine, then the gorgonia graph at batch 64.
func (f *pairedFigures) inference(i int) func(context.Context) (float64, error) {
	return func(ctx context.Context) (float64, error) {
		if !f.nnOK {
			cfg, arch, err := defaultRun()
			if err != nil {
				return 0, err
			}
			tc, err := cfg.ModelTrainConfig()
			if err != nil {
				return 0, err
			}
			sp, err := training.MeasureSpeeds(arch, tc, 4*time.Second)
			if err != nil {
				return 0, err
			}
			f.nn[nnFast], f.nn[nnFastB16], f.nn[nnFast1Core], f.nn[nnTrain] = sp.Fast, sp.FastB16, sp.Fast1Core, sp.Train
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			if _, f.nn[nnGorgonia], err = training.MeasureInference(arch, 64, 3*time.Second); err != nil {
				return 0, err
			}
			f.nnOK = true
		}
		return f.nn[i], ctx.Err()
	}
}

// The search figures: self-play as the default configuration plays it
// (its network, games at once and batch size), an untrained network.
func (f *pairedFigures) search(i int) func(context.Context) (float64, error) {
	return func(ctx context.Context) (float64, error) {
		if !f.mctsOK {
			cfg, arch, err := defaultRun()
			if err != nil {
				return 0, err
			}
			w, err := model.NewWeights(arch, 1)
			if err != nil {
				return 0, err
			}
			eval, err := model.NewFastEvaluator(w, model.FastOptions{})
			if err != nil {
				return 0, err
			}
			defer eval.Close()
			var sims, overhead float64
			sims, overhead, err = mcts.MeasureSelfPlay(ctx, eval, cfg.MCTSConfig(), cfg.SelfPlay.ParallelGames, cfg.SelfPlay.BatchSize, 10*time.Second)
			if err != nil {
				return 0, err
			}
			f.mcts, f.mctsOK = [2]float64{sims, overhead}, true
		}
		return f.mcts[i], ctx.Err()
	}
}

// defaultRun returns the embedded default configuration and its network's
// architecture: what a bare "alicezero train" runs.
func defaultRun() (*train.Config, model.Config, error) {
	cfg, err := train.BuiltinConfig(configs.Default)
	if err != nil {
		return nil, model.Config{}, err
	}
	arch, err := model.Preset(cfg.Model.Preset)
	return cfg, arch, err
}

// engineLines are the positions engine_visits_per_s searches: the opening
// move of the issue that asked for the figure and three middlegames from
// equal-time games against the alpha-beta reference.
var engineLines = []string{
	"e4 d5",
	"e3 g5 Qg4 Nh6 Qf5 h5 Qc5 a6",
	"g4 Na6 b3 d6 Nf3 Qd3 a3 e5",
	"e3 g5 Qg4 Nh6 Qxg5 d6 Qxe7 Qd3",
}

// measureEngine is the tree search's speed as a GUI sees it: the
// built-in network (named: with none named the alpha-beta plays, whose
// speed is alphabeta_nodes_per_s) with threads search threads on cores
// cores, one second a position (the tree search alone, without the
// tactical guard), visits over time summed over engineLines.
func measureEngine(threads, cores int) func(context.Context) (float64, error) {
	return func(ctx context.Context) (float64, error) { return engineVisits(ctx, threads, cores) }
}

func engineVisits(ctx context.Context, threads, cores int) (float64, error) {
	e, err := engine.New(engine.Options{Weights: engine.BuiltinWeights, Threads: threads, EvalWorkers: cores})
	if err != nil {
		return 0, err
	}
	defer e.Close()
	var visits int
	var spent time.Duration
	for _, line := range engineLines {
		e.NewGame()
		pos := env.NewPosition(env.Alice)
		for _, san := range strings.Fields(line) {
			m, err := pos.ParseMove(san)
			if err != nil {
				return 0, fmt.Errorf("engine line %q: %w", line, err)
			}
			pos.MakeMove(m)
		}
		t0 := time.Now()
		res, err := e.Go(ctx, env.GameOf(pos), clock.Limits{MoveTime: time.Second}, mcts.Progress{})
		if err != nil {
			return 0, err
		}
		visits, spent = visits+res.Nodes, spent+time.Since(t0)
	}
	return float64(visits) / spent.Seconds(), ctx.Err()
}

// tacticsMoveTime is what each tactic of the suite gets: the move time of
// the equal-time matches its positions come from.
const tacticsMoveTime = 100 * time.Millisecond

// measureTactics is the share of the tactics suite (reference.Suite) the
// engine of options o solves at
// tacticsMoveTime a position, on one thread and one core. A solution is
// checked by the mate finder, not compared with the suite's move: any mate
// as short, or any move that escapes the mate, counts.
func measureTactics(o engine.Options) func(context.Context) (float64, error) {
	return func(ctx context.Context) (float64, error) {
		suite, err := reference.Suite()
		if err != nil {
			return 0, err
		}
		if len(suite) == 0 {
			return 0, errors.New("the tactics suite is empty")
		}
		o.EvalWorkers = 1
		e, err := engine.New(o)
		if err != nil {
			return 0, err
		}
		defer e.Close()
		finder := reference.NewMateFinder()
		solved := 0
		for _, t := range suite {
			game := env.NewGame(t.Pos.Variant())
			game.StartFEN = t.Pos.FEN()
			res, err := e.Go(ctx, game, clock.Limits{MoveTime: tacticsMoveTime}, mcts.Progress{})
			if err != nil {
				return 0, fmt.Errorf("tactic %q: %w", t.ID, err)
			}
			ok, err := finder.Solves(ctx, t, res.BestMove)
			if err != nil {
				return 0, err
			}
			if ok {
				solved++
			}
		}
		return 100 * float64(solved) / float64(len(suite)), ctx.Err()
	}
}
