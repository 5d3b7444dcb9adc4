package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/player"
	"github.com/alicezero/alicezero/mcts/engine"
	"github.com/alicezero/alicezero/train/arena"
)

// arenaRegistry returns the player kinds the arena command knows: the
// built-in ones (random, ab, uci) and those of this program.
// arenaRegistry is the arena's registry plus the network checkpoints.
func arenaRegistry() (*player.Registry, error) {
	reg, err := arena.NewRegistry()
	if err != nil {
		return nil, err
	}
	if err := engine.Register(reg); err != nil {
		return nil, err
	}
	return reg, nil
}

// defaultArenaOverhead is what each in-process player keeps back from a
// move's time. They run in the arena's process, so no protocol delay is
// theirs to cover, only a search's last batch and the scheduler; the same
// figure for all keeps the time equal (left to themselves the engine
// kept back 30 ms of a 100 ms move, the alpha-beta nothing).
const defaultArenaOverhead = 10 * time.Millisecond

func runArena(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	reg, err := arenaRegistry()
	if err != nil {
		return err
	}
	fs := newFlagSet("arena", "PLAYER PLAYER...", stderr)
	format := fs.String("format", "gauntlet", "gauntlet (the first player against each other) or roundrobin")
	games := fs.Int("games", 10, "games per pairing, rounded up to even (each opening with both colours)")
	openingsPath := fs.String("openings", "", "opening file: EPD/FEN lines or PGN (default: the built-in balanced set)")
	concurrency := fs.Int("concurrency", runtime.GOMAXPROCS(0), "games played at once")
	movetime := clock.TimeFlag(fs, "movetime", 0, "`time` per move: seconds (0.5) or a duration (100ms)")
	nodes := fs.Int64("nodes", 0, "nodes per move (a tree search's visits, an alpha-beta's nodes)")
	tc := fs.String("tc", "", "per-game clock BASE+INC, e.g. 10s+0.1s, 3m+2s or 180+2 (bare numbers: seconds, as PGN); running out loses")
	plies := fs.Int("plies", 400, "ply cap: a game still going after it is an adjudicated draw (0: none)")
	pgnPath := fs.String("pgn", "", "append the games to this PGN file as they finish (created if missing; the games it holds are kept, as cutechess's -pgnout does)")
	jsonPath := fs.String("json", "", "write the ratings, the pairings and the SPRT's verdict to this JSON file (replacing it)")
	drawFlag := fs.String("draw", "", "movenumber=N,movecount=N,score=CP: adjudicate a draw once both players' scores stay within ±CP for N moves each, from move movenumber on (off by default)")
	resignFlag := fs.String("resign", "", "movecount=N,score=CP[,twosided=true]: adjudicate a loss for a player whose score stays at -CP or below for N moves (off by default)")
	sprtFlag := fs.String("sprt", "", "elo0,elo1,alpha,beta: stop a two-player match once the SPRT decides")
	seed := fs.Uint64("seed", 0, "seed of the players' randomness (random movers, ab noise and tie-breaks)")
	variant := fs.String("variant", env.Alice.Name, "rule set: "+variantNames)
	anchor := fs.String("anchor", "", "player rated 0 in the rating list (default: the first)")
	margin := clock.TimeFlag(fs, "timemargin", 200*time.Millisecond, "grace `time` past a move time or clock before a loss on time")
	overhead := clock.TimeFlag(fs, "overhead", defaultArenaOverhead, "`time` every in-process player (net, ckpt, ab) keeps back from its move time or clock for its own delays, the same for all (0: each its own default); UCI engines keep their own Move Overhead")
	moveTimeout := clock.TimeFlag(fs, "movetimeout", 10*time.Minute, "longest `time` a move may take when no move time or clock bounds it (0: no limit)")
	startTimeout := clock.TimeFlag(fs, "starttimeout", arena.DefaultStartTimeout, "`time` an engine may take to answer uciok and readyok")
	event := fs.String("event", "", "PGN Event tag (default \"AliceZero arena\")")
	progress := fs.Bool("progress", true, "show a progress bar on stderr")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: alicezero arena [flags] PLAYER PLAYER...\n\nPlays a gauntlet or round robin and prints W/D/L, Elo with 95%% intervals,\nLOS and a rating list. Flags may come before or after the players.\n\nPlayers:\n%s\nAny player also takes its own limits, replacing the flags of the same\nname for it alone: movetime=D, nodes=N, tc=BASE+INC (0 or tc=none: no\nlimit), e.g. \"uci:/opt/fsf,tc=10+0.1\" \"net:nodes=400\".\n\nFlags:\n", reg.Usage())
		fs.PrintDefaults()
	}

	// Flags may follow the players: parse, take a player, parse the rest.
	var players []string
	for rest := args; ; {
		if err := parseFlags(fs, rest); err != nil {
			return err
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		players = append(players, rest[0])
		rest = rest[1:]
	}
	if len(players) < 2 {
		return usageError(fs, "want at least two players, got %d", len(players))
	}
	if err := checkArenaNumbers(*games, *concurrency, *plies, *nodes); err != nil {
		return err
	}

	cfg := arena.Config{
		Players:      players,
		Registry:     reg,
		Games:        *games,
		Concurrency:  *concurrency,
		PlyCap:       *plies,
		Seed:         *seed,
		Anchor:       *anchor,
		TimeMargin:   *margin,
		MoveTimeout:  *moveTimeout,
		StartTimeout: *startTimeout,
		Event:        *event,
		Log:          stderr,
	}
	if cfg.Format, err = arena.ParseFormat(*format); err != nil {
		return err
	}
	if cfg.Variant, err = lookupVariant(*variant); err != nil {
		return err
	}
	if *tc != "" {
		if cfg.TimeControl, err = arena.ParseClock(*tc); err != nil {
			return fmt.Errorf("--tc: %w", err)
		}
	}
	cfg.Nodes, cfg.MoveTime, cfg.Overhead = *nodes, *movetime, *overhead
	if *drawFlag != "" {
		d, err := arena.ParseDrawRule(*drawFlag)
		if err != nil {
			return err
		}
		cfg.Draw = &d
	}
	if *resignFlag != "" {
		r, err := arena.ParseResignRule(*resignFlag)
		if err != nil {
			return err
		}
		cfg.Resign = &r
	}
	if *sprtFlag != "" {
		s, err := arena.ParseSPRT(*sprtFlag)
		if err != nil {
			return fmt.Errorf("--sprt %s: %w", *sprtFlag, err)
		}
		cfg.SPRT = &s
	}
	if *openingsPath != "" {
		if cfg.Openings, err = arena.LoadOpenings(*openingsPath, cfg.Variant); err != nil {
			return err
		}
	}
	if *progress {
		cfg.Progress = stderr
	}

	// Create the output files first: a bad path fails before the games.
	var pgnFile, jsonFile *os.File
	if *pgnPath != "" {
		if pgnFile, err = appendPGN(*pgnPath); err != nil {
			return fmt.Errorf("--pgn: %w", err)
		}
		defer pgnFile.Close()
	}
	if *jsonPath != "" {
		if jsonFile, err = os.Create(*jsonPath); err != nil {
			return err
		}
		defer jsonFile.Close()
	}
	// Games go to the PGN file as they finish (in finishing order; the
	// Round tag is the schedule's number), so an interrupted match keeps
	// them.
	var pgnErr error
	var pgnMu sync.Mutex
	if pgnFile != nil {
		cfg.OnGame = func(g arena.GameRecord) {
			pgnMu.Lock()
			defer pgnMu.Unlock()
			if pgnErr == nil {
				pgnErr = env.WritePGN(pgnFile, g.Game)
			}
		}
	}

	res, runErr := arena.Run(ctx, cfg)
	if res == nil {
		return runErr
	}
	if err := res.WriteReport(stdout); err != nil {
		return err
	}
	var errs []error
	if pgnFile != nil {
		pgnMu.Lock()
		errs = append(errs, pgnErr, pgnFile.Close())
		pgnMu.Unlock()
	}
	if jsonFile != nil {
		errs = append(errs, res.WriteJSON(jsonFile), jsonFile.Close())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	if runErr != nil {
		return runErr
	}
	if forfeits := countForfeits(res, *margin); forfeits != "" {
		fmt.Fprintf(stderr, "note: %s (details above)\n", forfeits)
	}
	return nil
}

// appendPGN opens path to add games after those it holds (created if
// missing); a file that does not end with a blank line gets one first, so
// that the games stay apart.
func appendPGN(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && st.Size() > 0 {
		tail := make([]byte, min(st.Size(), 2))
		if _, err = f.ReadAt(tail, st.Size()-int64(len(tail))); err == nil {
			pad := "\n\n"
			switch {
			case string(tail) == "\n\n":
				pad = ""
			case tail[len(tail)-1] == '\n':
				pad = "\n"
			}
			_, err = f.WriteString(pad)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkArenaNumbers refuses the arena's whole-number flags out of range,
// naming the flag and the value.
func checkArenaNumbers(games, concurrency, plies int, nodes int64) error {
	for _, c := range []struct {
		flag string
		v    int64
		min  int64
		want string
	}{
		{"--games", int64(games), 1, "at least 1 game per pairing"},
		{"--concurrency", int64(concurrency), 1, "at least 1 game at once"},
		{"--plies", int64(plies), 0, "a ply cap ≥ 0 (0: none)"},
		{"--nodes", nodes, 0, "a number of nodes ≥ 0 (0: none)"},
	} {
		if c.v < c.min {
			return fmt.Errorf("%s %d: want %s", c.flag, c.v, c.want)
		}
	}
	return nil
}

// countForfeits summarises games lost by time (with how far over their
// time the moves went), illegal moves or failures.
func countForfeits(res *arena.Result, margin time.Duration) string {
	n := map[arena.Termination]int{}
	var least, most time.Duration
	for _, g := range res.Games {
		switch g.Termination {
		case arena.TermTime:
			if n[g.Termination] == 0 || g.Overrun < least {
				least = g.Overrun
			}
			most = max(most, g.Overrun)
			fallthrough
		case arena.TermIllegal, arena.TermFailure:
			n[g.Termination]++
		}
	}
	var parts []string
	for _, t := range []arena.Termination{arena.TermTime, arena.TermIllegal, arena.TermFailure} {
		if n[t] == 0 {
			continue
		}
		part := fmt.Sprintf("%d lost by %s", n[t], t)
		if t == arena.TermTime {
			over := arena.Precise(most).String()
			if arena.Precise(least) != arena.Precise(most) {
				over = arena.Precise(least).String() + " to " + over
			}
			part += fmt.Sprintf(" (%s over the time allowed, --timemargin %v included)", over, margin)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}
