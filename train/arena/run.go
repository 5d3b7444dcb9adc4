package arena

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/sourcegraph/conc/pool"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/player"
	"github.com/alicezero/alicezero/internal/progress"
)

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
	// limits are the players' own limits per move (Config.Nodes, MoveTime
	// and Overhead) and clocks their own clocks (Config.TimeControl), the
	// limit options of their specs applied (see playerLimits).
	limits []clock.Limits
	clocks []clock.Control
	// ownNodes marks the players whose spec sets a node limit of their
	// own (nodes=N above 0).
	ownNodes []bool
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
	match := clock.Limits{Nodes: cfg.Nodes, MoveTime: cfg.MoveTime, Overhead: cfg.Overhead}
	if err := checkTimeControl(match, cfg.TimeControl); err != nil {
		return nil, err
	}
	if cfg.SPRT != nil {
		if len(cfg.Players) != 2 {
			return nil, fmt.Errorf("an SPRT tests two players, got %d", len(cfg.Players))
		}
		if err := cfg.SPRT.Validate(); err != nil {
			return nil, fmt.Errorf("sprt: %w", err)
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
		_, ownNodes := s.Lookup("nodes")
		s, lim, tc, err := playerLimits(s, match, cfg.TimeControl)
		if err != nil {
			return nil, err
		}
		r.specs = append(r.specs, s)
		r.limits = append(r.limits, lim)
		r.ownNodes = append(r.ownNodes, ownNodes && lim.Nodes > 0)
		r.clocks = append(r.clocks, tc)
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

// checkTimeControl refuses what a match cannot play: negative limits or
// clocks, an increment without a clock, a repeating time control.
func checkTimeControl(lim clock.Limits, tc clock.Control) error {
	switch {
	case lim.Validate() != nil || tc.Base < 0 || tc.Inc < 0:
		return errors.New("time control limits must be ≥ 0")
	case tc.Base == 0 && tc.Inc > 0:
		return errors.New("a clock increment needs a base time")
	case tc.Moves != 0:
		return errors.New("time control: moves per period are not supported in matches (the clock is for the whole game)")
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
		p, err := r.get(ctx, first, i)
		if err != nil {
			return nil, err
		}
		if ni, ok := p.(player.NodeIgnorer); ok && r.ownNodes[i] {
			return nil, fmt.Errorf("player %q: nodes=%d would be ignored: %s", r.specs[i].Text, r.limits[i].Nodes, ni.IgnoresNodes())
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
