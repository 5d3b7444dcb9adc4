package arena

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/conc/pool"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/player"
	"github.com/alicezero/alicezero/internal/progress"
	"github.com/alicezero/alicezero/internal/seed"
)

// Format is a tournament's pairing scheme.
type Format int

const (
	// Gauntlet pairs the first player with each of the others.
	Gauntlet Format = iota
	// RoundRobin pairs every player with every other.
	RoundRobin
)

func (f Format) String() string {
	if f == RoundRobin {
		return "roundrobin"
	}
	return "gauntlet"
}

// ParseFormat reads "gauntlet" or "roundrobin" (also "round-robin", "rr").
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "gauntlet":
		return Gauntlet, nil
	case "roundrobin", "round-robin", "rr":
		return RoundRobin, nil
	}
	return 0, fmt.Errorf("format %q: want gauntlet or roundrobin", s)
}

// ClockControl returns the time control of a per-game clock of base plus
// inc per move for both players.
func ClockControl(base, inc time.Duration) clock.Limits {
	return clock.Limits{WTime: base, BTime: base, WInc: inc, BInc: inc}
}

// ParseClock reads a per-game time control "BASE+INC" or "BASE", each a Go
// duration ("10s+0.1s", "1m30s") or a number of seconds ("10+0.1").
func ParseClock(s string) (base, inc time.Duration, err error) {
	b, i, hasInc := strings.Cut(s, "+")
	if base, err = parseSeconds(b); err != nil || base <= 0 {
		return 0, 0, fmt.Errorf("time control %q: want BASE+INC, e.g. 10s+0.1s", s)
	}
	if hasInc {
		if inc, err = parseSeconds(i); err != nil || inc < 0 {
			return 0, 0, fmt.Errorf("time control %q: want BASE+INC, e.g. 10s+0.1s", s)
		}
	}
	return base, inc, nil
}

func parseSeconds(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, err
	}
	return time.Duration(f * float64(time.Second)), nil
}

// Termination says how a game ended; it is written as the PGN tag.
type Termination string

const (
	TermCheckmate   Termination = "checkmate"
	TermStalemate   Termination = "stalemate"
	TermThreefold   Termination = "threefold repetition"
	TermFiftyMove   Termination = "fifty-move rule"
	TermDead        Termination = "dead position"
	TermAdjudicated Termination = "adjudication" // ply cap reached (a draw), or the scores' verdict
	TermTime        Termination = "time forfeit"
	TermIllegal     Termination = "illegal move"
	TermFailure     Termination = "engine failure" // crashed, hung up or failed to start
)

func terminationOf(st env.Status) Termination {
	switch st {
	case env.Checkmate:
		return TermCheckmate
	case env.Stalemate:
		return TermStalemate
	case env.Threefold:
		return TermThreefold
	case env.FiftyMove:
		return TermFiftyMove
	case env.DeadPosition:
		return TermDead
	case env.Adjudicated:
		return TermAdjudicated
	}
	return Termination(st.String())
}

// Config describes a match or tournament.
type Config struct {
	// Players are player specs (see package player); they are also the
	// players' names.
	Players []string
	// Registry makes players from specs; nil means NewRegistry().
	Registry *player.Registry
	Format   Format
	// Games is the number of games per pairing, rounded up to even: each
	// opening is played twice, once with each player as White.
	Games int
	// Openings are played in order, cycling; nil means the built-in set.
	Openings []Opening
	// Concurrency is the number of games played at once (≤ 0: 1). Each
	// concurrent game has its own player instances.
	Concurrency int
	// TimeControl is how long players may think. Per-move limits (Nodes,
	// MoveTime) and a per-game clock may be combined: WTime and BTime are
	// then the clocks at the start of a game (equal), WInc and BInc the
	// increments, and a player whose clock runs out loses on time.
	// Overhead is passed to the players as it is. The zero value sets no
	// limit (reference players then search to their depth, UCI engines get
	// DefaultEngineMoveTime).
	TimeControl clock.Limits
	// PlyCap ends a game still going after this many plies (counted from
	// the opening's set-up position) as a draw recorded as adjudication;
	// 0 means no cap.
	PlyCap  int
	Variant env.Variant
	// Seed seeds the players that take seeds (each game gets its own seed
	// derived from it and the game's number).
	Seed uint64
	// TimeMargin is the grace allowed past a move time or a clock before
	// a player loses on time.
	TimeMargin time.Duration
	// MoveTimeout bounds one move when neither a move time nor a clock
	// does (0: no bound); a player past it loses on time.
	MoveTimeout time.Duration
	// StartTimeout bounds a player's start-up (a UCI engine's uciok);
	// 0 means DefaultStartTimeout.
	StartTimeout time.Duration
	// Draw and Resign, when set, adjudicate games by the players' scores
	// (players that implement player.Scorer; a move without a score
	// restarts the count), recorded as adjudication. Off by default.
	Draw   *DrawRule
	Resign *ResignRule
	// SPRT, when set, tests the first player against the second (exactly
	// two players) and stops the match once it decides.
	SPRT *SPRT
	// Anchor names the player rated 0 in the rating list; "" means the
	// first.
	Anchor string
	// Event and Site fill the PGN tags; "" gives "AliceZero arena" and "?".
	Event, Site string
	// Progress receives the progress (package internal/progress: a bar on
	// a terminal, plain lines elsewhere); nil shows none.
	Progress io.Writer
	// Log receives failures (illegal moves, crashes) and engines' stderr;
	// nil discards them.
	Log io.Writer
	// OnGame, when set, is called after each finished game, one call at a
	// time.
	OnGame func(GameRecord)
}

// GameRecord is one finished game.
type GameRecord struct {
	// Number is the game's place in the schedule, from 1.
	Number int
	// Pairing indexes Result.Pairings; White and Black index the players.
	Pairing      int
	White, Black int
	Opening      Opening
	// Game holds the PGN tags and all moves, the opening's included.
	Game        *env.Game
	Result      env.Result
	Termination Termination
	// Detail explains a forfeit (the player's error) or a score
	// adjudication; "" otherwise.
	Detail string
	// Overrun is, for a loss on time, how far the move went past the
	// loser's move time or clock (the margin included in it).
	Overrun time.Duration
}

// PairingResult is the record of one pairing from player A's side.
type PairingResult struct {
	A, B                 int
	NameA, NameB         string
	Wins, Draws, Losses  int
	Games                int
	Score                float64 // A's points per game
	Elo                  EloEstimate
	LOS                  float64 // likelihood that A is stronger
	Adjudicated, Forfeit int     // games ended by the ply cap, by time/illegal move/failure
}

// PlayerRating is one line of the rating list.
type PlayerRating struct {
	Name      string
	Elo       float64 // maximum-likelihood rating, anchor = 0
	Low, High float64 // 95% interval
	Games     int
	Points    float64
	Score     float64 // points per game
}

// SPRTResult is the state of the match's SPRT at its end.
type SPRTResult struct {
	SPRT
	LLR, Lower, Upper float64
	Decision          SPRTDecision
}

// Result is the outcome of Run.
type Result struct {
	Players []string
	Format  Format
	// Planned is the number of games scheduled; fewer were played when an
	// SPRT decided early or the match was interrupted.
	Planned     int
	Games       []GameRecord // finished games, in schedule order
	Pairings    []PairingResult
	Ratings     []PlayerRating // in player order
	Anchor      int
	SPRT        *SPRTResult
	Interrupted bool
}

// task is one scheduled game.
type task struct {
	number       int
	pairing      int
	white, black int
	opening      int
}

// slot is the players of one concurrent game lane, made on first use.
type slot struct {
	players []player.Player
}

type runner struct {
	cfg   Config
	specs []player.Spec
	// tcs are the players' own time controls: Config.TimeControl with
	// the limit options of their specs applied (see playerLimits).
	tcs      []clock.Limits
	setup    player.Setup
	openings []Opening
	starts   []*env.Position
	pairs    [][2]int

	mu      sync.Mutex
	records []*GameRecord
	bar     *progress.Bar
	sprtWDL [3]int
	sprt    *SPRTResult
	stop    context.CancelFunc
}

// maxBuiltinOpenings bounds the built-in set a match generates; longer
// matches cycle through it.
const maxBuiltinOpenings = 2000

// Run plays the match. Every player is started once before the first game,
// so that a bad spec or an engine that does not start is an error before
// any game is played. A player that crashes, hangs or plays an illegal move
// loses that game (the failure goes to Config.Log) and is restarted for
// the next. When ctx ends Run returns the games finished so far with an
// error.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	r, err := newRunner(cfg)
	if err != nil {
		return nil, err
	}
	return r.run(ctx)
}

func newRunner(cfg Config) (*runner, error) {
	if len(cfg.Players) < 2 {
		return nil, errors.New("a match needs at least two players")
	}
	if cfg.Registry == nil {
		reg, err := NewRegistry()
		if err != nil {
			return nil, err
		}
		cfg.Registry = reg
	}
	if cfg.Variant.Name == "" {
		cfg.Variant = env.Alice
	}
	if cfg.Games < 1 {
		return nil, fmt.Errorf("games per pairing must be ≥ 1, got %d", cfg.Games)
	}
	cfg.Games += cfg.Games % 2
	cfg.Concurrency = max(cfg.Concurrency, 1)
	if cfg.PlyCap < 0 {
		return nil, fmt.Errorf("ply cap must be ≥ 0, got %d", cfg.PlyCap)
	}
	if err := checkTimeControl(cfg.TimeControl); err != nil {
		return nil, err
	}
	if cfg.SPRT != nil {
		if len(cfg.Players) != 2 {
			return nil, fmt.Errorf("an SPRT tests two players, got %d", len(cfg.Players))
		}
		if err := cfg.SPRT.Validate(); err != nil {
			return nil, err
		}
	}
	if cfg.Log != nil {
		// Engines' stderr and the runner's reports arrive concurrently.
		cfg.Log = &lockedWriter{w: cfg.Log}
	}
	// Games at once share the cores: one player of each game thinks at a
	// time.
	cores := max(1, runtime.GOMAXPROCS(0)/cfg.Concurrency)
	r := &runner{cfg: cfg, setup: player.Setup{Variant: cfg.Variant, Log: cfg.Log, StartTimeout: cfg.StartTimeout, Cores: cores}}
	seen := map[string]bool{}
	for _, text := range cfg.Players {
		s, err := cfg.Registry.Check(text)
		if err != nil {
			return nil, err
		}
		if seen[text] {
			return nil, fmt.Errorf("player %q given twice (names must differ: e.g. random:seed=1, random:seed=2)", text)
		}
		seen[text] = true
		s, tc, err := playerLimits(s, cfg.TimeControl)
		if err != nil {
			return nil, err
		}
		if err := tc.Validate(); err != nil {
			return nil, fmt.Errorf("player %q: %w", text, err)
		}
		r.specs = append(r.specs, s)
		r.tcs = append(r.tcs, tc)
	}
	if cfg.Anchor != "" && !seen[cfg.Anchor] {
		return nil, fmt.Errorf("rating anchor %q is not one of the players", cfg.Anchor)
	}
	n := len(cfg.Players)
	if cfg.Format == RoundRobin {
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				r.pairs = append(r.pairs, [2]int{i, j})
			}
		}
	} else {
		for j := 1; j < n; j++ {
			r.pairs = append(r.pairs, [2]int{0, j})
		}
	}
	r.openings = cfg.Openings
	if len(r.openings) == 0 {
		ops, err := BuiltinOpenings(min(cfg.Games/2, maxBuiltinOpenings), cfg.Variant)
		if err != nil {
			return nil, err
		}
		r.openings = ops
	}
	for _, o := range r.openings {
		pos, err := o.Position(cfg.Variant)
		if err != nil {
			return nil, err
		}
		if st := pos.Status(); st.IsOver() {
			return nil, fmt.Errorf("opening %s: the game is already over (%v)", o.Name, st)
		}
		r.starts = append(r.starts, pos)
	}
	return r, nil
}

// checkTimeControl refuses what a match cannot play: negative limits,
// unequal clocks, an increment without a clock, a repeating time control,
// an infinite search.
func checkTimeControl(tc clock.Limits) error {
	switch {
	case tc.Validate() != nil:
		return errors.New("time control limits must be ≥ 0")
	case tc.WTime != tc.BTime || tc.WInc != tc.BInc:
		return errors.New("time control: both players get the same clock and increment")
	case tc.WTime == 0 && tc.WInc > 0:
		return errors.New("a clock increment needs a base time")
	case tc.MovesToGo != 0:
		return errors.New("time control: moves to go are not supported in matches (the clock is for the whole game)")
	case tc.Infinite:
		return errors.New("time control: a match cannot search without limits")
	}
	return nil
}

func (r *runner) schedule() []task {
	var tasks []task
	for k := 0; k < r.cfg.Games/2; k++ {
		for p, pair := range r.pairs {
			for c := 0; c < 2; c++ {
				t := task{number: len(tasks) + 1, pairing: p, white: pair[c], black: pair[1-c], opening: k % len(r.openings)}
				tasks = append(tasks, t)
			}
		}
	}
	return tasks
}

func (r *runner) run(ctx context.Context) (*Result, error) {
	tasks := r.schedule()
	r.records = make([]*GameRecord, len(tasks))
	if r.cfg.SPRT != nil {
		lo, hi := r.cfg.SPRT.Bounds()
		r.sprt = &SPRTResult{SPRT: *r.cfg.SPRT, Lower: lo, Upper: hi}
	}

	// Start every player once, before any game, to report bad ones early.
	slots := make(chan *slot, r.cfg.Concurrency)
	first := &slot{players: make([]player.Player, len(r.specs))}
	defer func() {
		close(slots)
		for s := range slots {
			r.closeSlot(s)
		}
	}()
	slots <- first
	for i := range r.specs {
		if _, err := r.get(ctx, first, i); err != nil {
			return nil, err
		}
	}
	for i := 1; i < r.cfg.Concurrency && i < len(tasks); i++ {
		slots <- &slot{players: make([]player.Player, len(r.specs))}
	}

	r.bar = progress.New(r.cfg.Progress, len(tasks), "arena", "games")

	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	r.stop = stop
	p := pool.New().WithMaxGoroutines(r.cfg.Concurrency)
	for _, t := range tasks {
		if runCtx.Err() != nil {
			break
		}
		p.Go(func() {
			if runCtx.Err() != nil {
				return
			}
			s := <-slots
			defer func() { slots <- s }()
			if rec, ok := r.play(runCtx, s, t); ok {
				r.record(rec)
			}
		})
	}
	p.Wait()
	r.bar.Finish()

	res := r.result(len(tasks))
	if err := ctx.Err(); err != nil {
		res.Interrupted = true
		return res, fmt.Errorf("interrupted after %d of %d games: %w", len(res.Games), len(tasks), err)
	}
	return res, nil
}

// get returns the slot's instance of player i, making it if needed.
func (r *runner) get(ctx context.Context, s *slot, i int) (player.Player, error) {
	if p := s.players[i]; p != nil {
		return p, nil
	}
	p, err := r.cfg.Registry.New(ctx, r.specs[i], r.setup)
	if err != nil {
		return nil, err
	}
	s.players[i] = p
	return p, nil
}

// discard closes the slot's instance of player i after a failure, so that
// the next game starts a fresh one.
func (r *runner) discard(s *slot, i int) {
	if p := s.players[i]; p != nil {
		if err := p.Close(); err != nil {
			r.logf("closing %s: %v", r.specs[i].Text, err)
		}
		s.players[i] = nil
	}
}

func (r *runner) closeSlot(s *slot) {
	for i := range s.players {
		r.discard(s, i)
	}
}

func (r *runner) logf(format string, args ...any) {
	if r.cfg.Log != nil {
		fmt.Fprintf(r.cfg.Log, format+"\n", args...)
	}
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// gameSeed derives a player's seed for one game from the match seed.
func gameSeed(matchSeed uint64, game, colour int) uint64 {
	return seed.Derive(matchSeed, "game", uint64(game), uint64(colour))
}

// play plays one game; ok is false when the match was stopped during it.
func (r *runner) play(ctx context.Context, s *slot, t task) (rec GameRecord, ok bool) {
	cfg := &r.cfg
	rec = GameRecord{Number: t.number, Pairing: t.pairing, White: t.white, Black: t.black, Opening: r.openings[t.opening]}
	pos := r.starts[t.opening].Clone()
	scratch := pos.Clone()
	moves := append([]env.Move(nil), rec.Opening.Moves...)
	date := time.Now()
	sides := [2]int{t.white, t.black} // by env.Colour

	finish := func(res env.Result, term Termination, detail string) (GameRecord, bool) {
		rec.Result, rec.Termination, rec.Detail = res, term, detail
		rec.Game = r.pgnGame(rec, moves, date)
		if detail != "" && term != TermAdjudicated {
			r.logf("game %d (%s vs %s): %s: %s", t.number, cfg.Players[t.white], cfg.Players[t.black], term, detail)
		}
		return rec, true
	}
	loses := func(c env.Colour) env.Result {
		if c == env.White {
			return env.BlackWins
		}
		return env.WhiteWins
	}

	var ps [2]player.Player
	for c := env.White; c <= env.Black; c++ {
		p, err := r.get(ctx, s, sides[c])
		if err == nil {
			if sd, ok := p.(player.Seeder); ok {
				sd.Seed(gameSeed(cfg.Seed, t.number, int(c)))
			}
			if err = p.NewGame(ctx); err != nil {
				r.discard(s, sides[c])
			}
		}
		if ctx.Err() != nil {
			return rec, false
		}
		if err != nil {
			return finish(loses(c), TermFailure, err.Error())
		}
		ps[c] = p
	}

	// Each side has its own time control (per-player limits); a side's
	// clock counts when its base time is positive.
	tcs := [2]clock.Limits{r.tcs[t.white], r.tcs[t.black]} // by env.Colour
	clocked := [2]bool{tcs[env.White].WTime > 0, tcs[env.Black].WTime > 0}
	clocks := [2]time.Duration{tcs[env.White].WTime, tcs[env.Black].WTime}
	adj := adjudicator{draw: cfg.Draw, resign: cfg.Resign}
	var ml env.MoveList
	for {
		if st := pos.StatusWithCap(cfg.PlyCap); st.IsOver() {
			return finish(pos.Outcome(st), terminationOf(st), "")
		}
		c := pos.SideToMove()
		tc := tcs[c]
		limits := clock.Limits{Nodes: tc.Nodes, MoveTime: tc.MoveTime, Overhead: tc.Overhead}
		// allowed is the move's time (its move time or the clock left,
		// whichever is less), hard the longest it may take before it
		// loses on time: allowed plus the margin.
		var allowed, hard time.Duration
		var what string
		switch {
		case clocked[c]:
			// The opponent's clock is passed when it has one (0: none).
			for _, side := range []env.Colour{env.White, env.Black} {
				if clocked[side] {
					left, inc := clocks[side], tcs[side].WInc
					if side == env.White {
						limits.WTime, limits.WInc = left, inc
					} else {
						limits.BTime, limits.BInc = left, inc
					}
				}
			}
			allowed, what = max(clocks[c], 0), "clock"
			if tc.MoveTime > 0 && tc.MoveTime < allowed {
				allowed, what = tc.MoveTime, "move time"
			}
			hard = allowed + cfg.TimeMargin
		case tc.MoveTime > 0:
			allowed, what = tc.MoveTime, "move time"
			hard = allowed + cfg.TimeMargin
		default:
			allowed, what = cfg.MoveTimeout, "move timeout"
			hard = cfg.MoveTimeout
		}
		// onTime describes a loss on time and records its overrun.
		onTime := func(name string, elapsed time.Duration) (GameRecord, bool) {
			rec.Overrun = max(elapsed-allowed, 0)
			detail := fmt.Sprintf("%s took %v, %v over its %v %s", name, elapsed.Round(time.Millisecond), rec.Overrun.Round(time.Millisecond), allowed.Round(time.Millisecond), what)
			if hard > allowed {
				detail += fmt.Sprintf(" (the margin is %v: --timemargin)", cfg.TimeMargin)
			}
			return finish(loses(c), TermTime, detail)
		}
		moveCtx, cancel := ctx, context.CancelFunc(func() {})
		if hard > 0 {
			moveCtx, cancel = context.WithTimeout(ctx, hard)
		}
		scratch.CopyFrom(pos)
		start := time.Now()
		m, err := ps[c].Move(moveCtx, scratch, limits)
		elapsed := time.Since(start)
		timedOut := moveCtx.Err() != nil
		cancel()
		if ctx.Err() != nil {
			return rec, false
		}
		name := cfg.Players[sides[c]]
		if err != nil {
			r.discard(s, sides[c])
			var ime *player.IllegalMoveError
			switch {
			case errors.As(err, &ime):
				return finish(loses(c), TermIllegal, err.Error())
			case timedOut:
				return onTime(name, elapsed)
			}
			return finish(loses(c), TermFailure, err.Error())
		}
		if hard > 0 && elapsed > hard {
			r.discard(s, sides[c])
			return onTime(name, elapsed)
		}
		pos.LegalMoves(&ml)
		if !ml.Contains(m) {
			r.discard(s, sides[c])
			err := &player.IllegalMoveError{Player: name, Move: m.UCI(), Err: fmt.Errorf("not legal in %s", pos.FEN())}
			return finish(loses(c), TermIllegal, err.Error())
		}
		if clocked[c] {
			clocks[c] += tc.WInc - elapsed
		}
		pos.MakeMove(m)
		moves = append(moves, m)
		if adj.draw != nil || adj.resign != nil {
			if st := pos.Status(); !st.IsOver() {
				if res, why, ok := adj.observe(pos, c, ps[c]); ok {
					return finish(res, TermAdjudicated, why)
				}
			}
		}
	}
}

// pgnGame builds the PGN record of a game.
func (r *runner) pgnGame(rec GameRecord, moves []env.Move, date time.Time) *env.Game {
	cfg := &r.cfg
	g := env.NewGame(cfg.Variant)
	g.StartFEN = rec.Opening.FEN
	g.Moves = moves
	g.Result = rec.Result
	event, site := cfg.Event, cfg.Site
	if event == "" {
		event = "AliceZero arena"
	}
	if site == "" {
		site = "?"
	}
	g.SetTag("Event", event)
	g.SetTag("Site", site)
	g.SetTag("Date", date.Format("2006.01.02"))
	g.SetTag("Round", strconv.Itoa(rec.Number))
	g.SetTag("White", cfg.Players[rec.White])
	g.SetTag("Black", cfg.Players[rec.Black])
	g.SetTag("Termination", string(rec.Termination))
	g.SetTag("PlyCount", strconv.Itoa(len(moves)))
	// One TimeControl tag when both sides had the same clock, else one
	// per side (cutechess's WhiteTimeControl and BlackTimeControl).
	wtc, btc := pgnTimeControl(r.tcs[rec.White]), pgnTimeControl(r.tcs[rec.Black])
	switch {
	case wtc == btc && wtc != "-":
		g.SetTag("TimeControl", wtc)
	case wtc != btc:
		g.SetTag("WhiteTimeControl", wtc)
		g.SetTag("BlackTimeControl", btc)
	}
	g.SetTag("Opening", rec.Opening.Name)
	return g
}

// record stores a finished game, advances the progress bar and the SPRT.
func (r *runner) record(rec GameRecord) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records[rec.Number-1] = &rec
	r.bar.Add(1)
	if r.sprt != nil {
		switch score := pointsOf(rec, 0); score {
		case 1:
			r.sprtWDL[0]++
		case 0.5:
			r.sprtWDL[1]++
		default:
			r.sprtWDL[2]++
		}
		w, d, l := r.sprtWDL[0], r.sprtWDL[1], r.sprtWDL[2]
		r.sprt.LLR = r.sprt.SPRT.LLR(w, d, l)
		if r.sprt.Decision == SPRTContinue {
			if r.sprt.Decision = r.sprt.Decide(w, d, l); r.sprt.Decision != SPRTContinue {
				r.stop()
			}
		}
	}
	if r.cfg.OnGame != nil {
		r.cfg.OnGame(rec)
	}
}

// pointsOf returns player i's points in a game it played.
func pointsOf(rec GameRecord, i int) float64 {
	switch {
	case rec.Result == env.Draw:
		return 0.5
	case rec.Result == env.WhiteWins && rec.White == i, rec.Result == env.BlackWins && rec.Black == i:
		return 1
	}
	return 0
}

func (r *runner) result(planned int) *Result {
	res := &Result{Players: r.cfg.Players, Format: r.cfg.Format, Planned: planned, SPRT: r.sprt}
	for _, rec := range r.records {
		if rec != nil {
			res.Games = append(res.Games, *rec)
		}
	}
	for i, name := range r.cfg.Players {
		if name == r.cfg.Anchor {
			res.Anchor = i
		}
	}
	res.Pairings, res.Ratings = Tabulate(r.cfg.Players, r.pairs, res.Games, res.Anchor)
	return res
}

// Tabulate computes the per-pairing statistics and the rating list of a
// set of games between players (pairs lists the pairings, A first).
func Tabulate(players []string, pairs [][2]int, games []GameRecord, anchor int) ([]PairingResult, []PlayerRating) {
	prs := make([]PairingResult, len(pairs))
	index := map[[2]int]int{}
	for p, pair := range pairs {
		prs[p] = PairingResult{A: pair[0], B: pair[1], NameA: players[pair[0]], NameB: players[pair[1]]}
		index[pair] = p
	}
	ratings := make([]PlayerRating, len(players))
	for i, name := range players {
		ratings[i].Name = name
	}
	for _, g := range games {
		p, ok := index[[2]int{g.White, g.Black}]
		if !ok {
			if p, ok = index[[2]int{g.Black, g.White}]; !ok {
				continue
			}
		}
		pr := &prs[p]
		switch pointsOf(g, pr.A) {
		case 1:
			pr.Wins++
		case 0.5:
			pr.Draws++
		default:
			pr.Losses++
		}
		switch g.Termination {
		case TermAdjudicated:
			pr.Adjudicated++
		case TermTime, TermIllegal, TermFailure:
			pr.Forfeit++
		}
		for _, i := range []int{g.White, g.Black} {
			ratings[i].Games++
			ratings[i].Points += pointsOf(g, i)
		}
	}
	scores := make([]PairScore, 0, len(prs))
	for p := range prs {
		pr := &prs[p]
		pr.Games = pr.Wins + pr.Draws + pr.Losses
		pr.Score = Score(pr.Wins, pr.Draws, pr.Losses)
		pr.Elo = EloDiff(pr.Wins, pr.Draws, pr.Losses)
		pr.LOS = LOS(pr.Wins, pr.Losses)
		scores = append(scores, PairScore{A: pr.A, B: pr.B, Games: pr.Games, PointsA: float64(pr.Wins) + 0.5*float64(pr.Draws)})
	}
	fit, err := FitRatings(len(players), scores, anchor)
	for i := range ratings {
		rt := &ratings[i]
		if rt.Games > 0 {
			rt.Score = rt.Points / float64(rt.Games)
		}
		if err == nil {
			rt.Elo = fit.Elo[i]
			rt.Low, rt.High = fit.CI95(i)
		}
	}
	return prs, ratings
}
