package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/serve"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

func runServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", "", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (host:port); other than loopback it needs --token")
	weights := fs.String("weights", "", "the default engine's checkpoint file or run folder; none: the plain search (default: the built-in network)")
	runsDir := fs.String("runs-dir", "checkpoints", "folder of training runs to show (\"\" hides the training view)")
	token := fs.String("token", os.Getenv("ALICEZERO_TOKEN"), "access token every request must carry (default $ALICEZERO_TOKEN)")
	insecure := fs.Bool("insecure", false, "serve an address other machines reach without a token")
	searchers := fs.Int("searchers", 1, "searches run at once")
	queue := fs.Int("queue", 16, "searches that may wait for a searcher; more are refused")
	threads := fs.Int("threads", 1, "search threads of each search")
	visits := fs.Int("visits", 400, "visits of a search that sets no limit")
	maxVisits := fs.Int("max-visits", 100000, "the most visits one search may ask for")
	maxTime := fs.Duration("max-movetime", time.Minute, "the most time one search may ask for")
	sessions := fs.Int("sessions", 256, "visitors remembered at once (each with a game)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: alicezero serve [flags]\n\nServes a web page to play Alice Chess against the engine on both boards,\nanalyse positions, review PGN games and watch training runs, with its JSON\nAPI under /api/ (docs/API.md). Open the address it prints.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	if *threads < 1 || *threads > engine.MaxThreads {
		return fmt.Errorf("--threads: must lie in 1..%d, got %d", engine.MaxThreads, *threads)
	}
	// Zero would mean the server's default: refuse it here, where it was typed.
	for _, f := range []struct {
		name string
		v    int
	}{{"searchers", *searchers}, {"queue", *queue}, {"visits", *visits}, {"max-visits", *maxVisits}, {"sessions", *sessions}} {
		if f.v < 1 {
			return fmt.Errorf("--%s: must be at least 1, got %d", f.name, f.v)
		}
	}
	if *maxTime <= 0 {
		return fmt.Errorf("--max-movetime: must be positive, got %v", *maxTime)
	}
	load := serveLoader(*threads)
	// Load the default engine now: weights that do not load fail here, not
	// at the first move, and the page names what it plays (the built-in
	// network when no --weights is given).
	label, err := serveLabel(ctx, load, *weights)
	if err != nil {
		return fmt.Errorf("--weights: %w", err)
	}
	fmt.Fprintf(stdout, "Engine: %s\n", label)
	srv, err := serve.New(serve.Options{
		Load:           load,
		DefaultWeights: *weights,
		DefaultLabel:   label,
		RunsDir:        *runsDir,
		Token:          *token,
		Searchers:      *searchers,
		Queue:          *queue,
		MaxSessions:    *sessions,
		MaxVisits:      *maxVisits,
		MaxTime:        *maxTime,
		DefaultVisits:  *visits,
		Log:            stderr,
	})
	if err != nil {
		return err
	}
	return interrupted(ctx, srv.ListenAndServe(ctx, *addr, *insecure, stdout))
}

// serveLabel loads the default engine for the variant its weights were
// trained for (alice for the built-in network) and names it for the page:
// what plays that variant, and that the others get the plain search.
func serveLabel(ctx context.Context, load serve.Loader, weights string) (string, error) {
	name, err := engine.TrainedVariant(weights)
	if err != nil {
		return "", err
	}
	v := env.Alice
	if name != "" {
		if v, err = env.VariantByName(name); err != nil {
			return "", fmt.Errorf("weights trained for %q: %w", name, err)
		}
	}
	e, err := load(ctx, weights, v)
	if err != nil {
		return "", err
	}
	label := e.Describe()
	_ = e.Close() // loaded only to check and name it
	if strings.TrimSpace(weights) == engine.NoWeights {
		return label, nil
	}
	return label + " for " + v.Name + "; the plain search in the other variants", nil
}

// serveLoader builds the server's engines from mcts/engine, each
// searching with threads workers. An engine plays one variant: the network
// named where it was built for that variant, else the plain search, which
// then says why (weights "" are the built-in network, which plays alice
// only; weights of another variant are no error here, since a visitor
// picks the variant and the engine separately). Weights that cannot be
// loaded at all are an error.
func serveLoader(threads int) serve.Loader {
	return func(ctx context.Context, weights string, v env.Variant) (serve.Engine, error) {
		net, err := engine.LoadNetwork(weights, v)
		if errors.Is(err, engine.ErrOtherVariant) {
			plain, perr := engine.LoadNetwork(engine.NoWeights, v)
			if perr != nil {
				return nil, errors.Join(err, perr)
			}
			plain.Description += " (no network for " + v.Name + ": " + err.Error() + ")"
			net, err = plain, nil
		}
		if err != nil {
			return nil, err
		}
		e, err := engine.New(engine.Options{Network: net, Variant: v, Threads: threads})
		if err != nil {
			return nil, err
		}
		// Ready builds the searcher; the network is loaded already.
		if err := e.Ready(); err != nil {
			_ = e.Close()
			return nil, err
		}
		return &serveEngine{e: e}, nil
	}
}

// serveEngine is a mcts/engine session behind serve.Engine.
type serveEngine struct {
	e *engine.Engine
}

func (s *serveEngine) Describe() string { return s.e.Network() }
func (s *serveEngine) Close() error     { return s.e.Close() }

// reportInterval is how often a running search reports to the page.
const reportInterval = 250 * time.Millisecond

// Search searches pos within lim, reporting the root's statistics (its
// moves' visits included) every reportInterval.
func (s *serveEngine) Search(ctx context.Context, pos *env.Position, lim serve.Limits, report func(serve.Info)) (serve.Info, error) {
	if err := s.e.SetGame(pos); err != nil {
		return serve.Info{}, err
	}
	start := time.Now()
	// The clocks of a timed game go to the engine's time manager as UCI's
	// wtime/btime/winc/binc do; with no bound at all the search runs
	// until the visitor stops it.
	el := lim.ClockLimits()
	progress := mcts.Progress{Interval: reportInterval}
	if report != nil {
		progress.Report = func(in mcts.Info) {
			if !in.Final {
				report(infoOfReport(in))
			}
		}
	}
	res, err := s.e.Go(ctx, el, progress)
	if err != nil && (res.Nodes == 0 || errors.Is(err, engine.ErrNoLegalMove)) {
		return serve.Info{BestMove: res.BestMove, PV: res.PV, Final: true}, err
	}
	in := infoOf(res, time.Since(start))
	in.Final = true
	return in, nil
}

// infoOfReport turns a progress report into the page's form.
func infoOfReport(in mcts.Info) serve.Info {
	out := serve.Info{Nodes: in.Nodes, Elapsed: in.Elapsed, Depth: in.Depth, SelDepth: in.SelDepth, WDL: wdl64(in.WDL),
		MateIn: in.MateIn, PV: in.PV}
	if len(in.PV) > 0 {
		out.BestMove = in.PV[0]
	}
	out.Top = moveStats(in.Children)
	return out
}

// infoOf turns a search result into the page's form.
func infoOf(res mcts.Result, elapsed time.Duration) serve.Info {
	return serve.Info{Nodes: res.Nodes, Elapsed: elapsed, Depth: res.Depth, SelDepth: res.SelDepth, WDL: wdl64(res.RootWDL),
		MateIn: res.MateIn, BestMove: res.BestMove, PV: res.PV, Top: moveStats(res.Children)}
}

func moveStats(children []mcts.ChildStat) []serve.MoveStat {
	out := make([]serve.MoveStat, 0, len(children))
	for _, c := range children {
		out = append(out, serve.MoveStat{Move: c.Move, Visits: c.Visits, Q: float64(c.Q), Prior: float64(c.Prior), MateIn: c.MateIn})
	}
	return out
}

func wdl64(w [3]float32) [3]float64 { return [3]float64{float64(w[0]), float64(w[1]), float64(w[2])} }
