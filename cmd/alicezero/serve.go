package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/serve"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts/engine"
)

func runServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", "", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (host:port); other than loopback it needs --token")
	weights := fs.String("weights", "", "the default engine's network, played through the tree search: builtin (the built-in network of the variant played), a checkpoint file or a run folder; none: the plain search (default: no network, the classical alpha-beta)")
	runsDir := fs.String("runs-dir", "checkpoints", "folder of training runs to show (\"\" hides the training view)")
	token := fs.String("token", os.Getenv("ALICEZERO_TOKEN"), "access token every request must carry (default $ALICEZERO_TOKEN)")
	insecure := fs.Bool("insecure", false, "serve an address other machines reach without a token")
	searchers := fs.Int("searchers", 1, "searches run at once")
	queue := fs.Int("queue", 16, "searches that may wait for a searcher; more are refused")
	threads := fs.Int("threads", 1, "search threads of each search")
	visits := fs.Int("visits", 400, fmt.Sprintf("visits of a search that sets no limit (the alpha-beta searches as long: %d nodes a visit)", engine.NodesPerVisit))
	maxVisits := fs.Int("max-visits", 100000, "the most visits one search may ask for (the alpha-beta: as long a search)")
	maxTime := clock.TimeFlag(fs, "max-movetime", time.Minute, "the most `time` one search may ask for: seconds (0.5) or a duration (500ms)")
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
	if err := checkListenAddr(*addr); err != nil {
		return fmt.Errorf("--addr %s: bad address: %w", *addr, err)
	}
	load := serveLoader(*threads)
	// Load the default engine now: weights that do not load fail here, not
	// at the first move, and the page names what it plays (the classical
	// alpha-beta when no --weights is given).
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
		Logger:         slog.New(slog.NewTextHandler(stderr, nil)),
	})
	if err != nil {
		return err
	}
	return interrupted(ctx, srv.ListenAndServe(ctx, *addr, *insecure, stdout))
}

// serveLabel loads the default engine for the variant its weights were
// trained for (alice for the built-in networks) and names it for the page:
// what plays that variant and what plays the others. With no network
// named, the alpha-beta plays every variant; the built-in networks play
// each its own; a checkpoint plays its variant, the plain search (the
// alpha-beta) the others.
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
	label := e.Network()
	_ = e.Close() // loaded only to check and name it
	switch strings.TrimSpace(weights) {
	case "", engine.NoWeights:
		return label, nil // the alpha-beta, in every variant
	case engine.BuiltinWeights:
		return label + " for " + v.Name + ", and each other variant's own built-in network", nil
	}
	return label + " for " + v.Name + "; the plain search (the alpha-beta) in the other variants", nil
}

// serveLoader builds the server's engines from mcts/engine, each
// searching with threads workers. An engine plays one variant: with
// weights "" the engine's default, the alpha-beta; else the network named
// where it was built for that variant, or the plain search, which then
// says why (a variant without a built-in network; weights of another
// variant are no error here, since a visitor picks the variant and the
// engine separately). Weights that cannot be loaded at all are an error.
func serveLoader(threads int) serve.Loader {
	return func(ctx context.Context, weights string, v env.Variant) (engine.Interface, error) {
		if strings.TrimSpace(weights) == "" {
			return readyEngine(engine.Options{Variant: v, Threads: threads})
		}
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
		return readyEngine(engine.Options{Network: net, Variant: v, Threads: threads})
	}
}

// readyEngine builds an engine of o and readies it (the network is loaded
// already; Ready builds the tree's searcher where the tree plays).
func readyEngine(o engine.Options) (engine.Interface, error) {
	e, err := engine.New(o)
	if err != nil {
		return nil, err
	}
	if err := e.Ready(); err != nil {
		_ = e.Close()
		return nil, err
	}
	return e, nil
}

// checkListenAddr refuses an address the server could not listen on, so
// that it is named as bad before anything else about it (a missing
// --token) is: host:port with a port of 0..65535 (or a service name), and
// a host that is empty (every interface), an IP address or a name — a
// name made of digits and dots only must be an IPv4 address
// (256.1.1.1 is none).
func checkListenAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%w (want host:port, e.g. 127.0.0.1:8080)", err)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return fmt.Errorf("port %q is not a port number 0..65535", port)
	}
	switch {
	case host == "":
		return nil
	case isIPAddr(host):
		return nil
	case strings.Trim(host, "0123456789.") == "":
		return fmt.Errorf("%s is not an IPv4 address (four numbers of 0..255)", host)
	case strings.ContainsAny(host, ":%/ ") || strings.HasPrefix(host, "-") || strings.HasPrefix(host, "."):
		return fmt.Errorf("%s is neither an IP address nor a host name", host)
	}
	return nil
}

// isIPAddr reports whether host is an IP address (an IPv6 one may name
// its zone, fe80::1%eth0).
func isIPAddr(host string) bool {
	_, err := netip.ParseAddr(host)
	return err == nil
}
