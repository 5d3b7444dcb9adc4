package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/pychess"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts/engine"
)

// pychessTokenEnv names the environment variable holding the BOT token
// when --token is not given (a command line is visible to other users).
const pychessTokenEnv = "ALICEZERO_PYCHESS_TOKEN"

func runPychess(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("pychess", "", stderr)
	token := fs.String("token", "", "the BOT account's API token (default: $"+pychessTokenEnv+")")
	server := fs.String("server", pychess.DefaultServer, "the pychess server")
	weights := fs.String("weights", "", weightsHelp)
	variants := fs.String("variants", "alice", "comma-separated pychess variants to accept (known: "+strings.Join(pychess.VariantNames(), ", ")+")")
	maxGames := fs.Int("max-games", 1, "most games played at once (each has its own search)")
	minTC := fs.String("min-tc", "1+0", "fastest time control accepted, MINUTES+SECONDS as pychess writes them, or with units (5m+3s) (compared by base + 40 increments, as pychess classes speeds)")
	maxTC := fs.String("max-tc", "60+60", "slowest time control accepted (\"\": no limit)")
	pgnDir := fs.String("pgn-dir", "pychess-games", "folder for each finished game's PGN (\"\": keep none)")
	visits := fs.Int("visits", 0, fmt.Sprintf("most visits per move (the alpha-beta searches as long: %d nodes a visit; 0: as many as the clock allows)", engine.NodesPerVisit))
	threads := fs.Int("threads", 1, "search threads per game")
	overhead := clock.TimeFlag(fs, "move-overhead", pychess.DefaultOverhead, "`time` kept back per move for the trip to the server: seconds (0.3) or a duration (300ms)")
	upgrade := fs.Bool("upgrade", false, "make the account a BOT account and exit (only for an account that never played a game; cannot be undone)")
	verbose := fs.Bool("v", false, "log every move")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: alicezero pychess [flags]\n\nPlays on pychess.org as a BOT: accepts challenges that fit, plays them with\nthe engine, and writes each game as PGN. Stop it with Ctrl-C; games in\nprogress are resumed when it starts again.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	if *token == "" {
		*token = os.Getenv(pychessTokenEnv)
	}
	if *token == "" {
		return fmt.Errorf("no API token: give --token or set %s (see README, \"Playing on pychess.org\")", pychessTokenEnv)
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	names := strings.Split(*variants, ",")
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	client, err := pychess.NewClient(*server, *token, pychess.ClientOptions{Variants: names, Logger: log, UserAgent: "alicezero-pychess"})
	if err != nil {
		return err
	}
	if *upgrade {
		if err := client.UpgradeToBot(ctx); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "the account is now a BOT account")
		return nil
	}

	cfg := pychess.Config{
		Variants: names, MaxGames: *maxGames, PGNDir: *pgnDir, Logger: log,
		Clock: pychess.Clock{Overhead: *overhead},
	}
	if cfg.MinTC, err = pychess.ParseTimeControl(*minTC); err != nil {
		return fmt.Errorf("--min-tc: %w", err)
	}
	if *maxTC != "" {
		if cfg.MaxTC, err = pychess.ParseTimeControl(*maxTC); err != nil {
			return fmt.Errorf("--max-tc: %w", err)
		}
		if pychess.Estimate(cfg.MaxTC) < pychess.Estimate(cfg.MinTC) {
			return fmt.Errorf("--max-tc %s is faster than --min-tc %s: the slowest time control accepted must be at least the fastest (pychess compares base + 40 increments, MINUTES+SECONDS)", *maxTC, *minTC)
		}
	}
	if *maxGames < 1 {
		return fmt.Errorf("--max-games must be at least 1, got %d", *maxGames)
	}
	if *visits < 0 {
		return fmt.Errorf("--visits must not be negative, got %d", *visits)
	}
	cfg.Visits = *visits
	engines, err := startEngines(*maxGames, engine.Options{Weights: *weights, Threads: *threads})
	if err != nil {
		return err
	}
	defer closeEngines(engines)
	bot, err := pychess.New(client, engines, cfg)
	if err != nil {
		return err
	}
	log.Info("engine ready", "network", engines[0].Network())
	return bot.Run(ctx)
}

// startEngines builds n engines (one per game played at once) and loads
// their network now, so that a bad --weights stops the command before it
// accepts a game. On error none is left open.
func startEngines(n int, opts engine.Options) ([]engine.Interface, error) {
	var es []engine.Interface
	for range n {
		e, err := engine.New(opts)
		if err == nil {
			err = e.Ready()
			es = append(es, e)
		}
		if err != nil {
			closeEngines(es)
			return nil, err
		}
	}
	return es, nil
}

// closeEngines releases the engines.
func closeEngines(es []engine.Interface) {
	for _, e := range es {
		_ = e.Close() // nothing is left to do with an engine that fails to close
	}
}
