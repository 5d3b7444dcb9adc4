// Package engine is the game-playing session behind AliceZero's protocols
// (UCI, XBoard, the terminal game): the network or, without one, a plain
// search, the searcher and its tree, the game being played (a position with
// its history, so that repetitions count and the tree is reused from move
// to move) and the time management that turns clock readings into a
// search budget.
//
// Typical use:
//
//	e, err := engine.New(engine.Options{Weights: "checkpoints/run1"})
//	defer e.Close()
//	err = e.SetPosition("", []string{"e2e4", "d7d5"}) // "" = start position
//	res, err := e.Go(ctx, engine.Limits{WTime: time.Minute, BTime: time.Minute}, nil)
//	fmt.Println(res.BestMove)
//
// Settings take effect lazily: SetOptions records them, Ready (called by
// Go when needed) loads the network and builds the searcher. An Engine is
// not safe for concurrent use: a protocol runs Go on one goroutine and
// leaves the engine alone until it returns, stopping it through the
// context.
package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/train"
)

// Defaults and bounds of the options.
const (
	// DefaultVisits is the search budget per move when Go is given no
	// limit.
	DefaultVisits = 800
	// DefaultHashMB is the default size of the evaluation cache.
	DefaultHashMB = 64
	// MaxHashMB bounds the evaluation cache.
	MaxHashMB = 1 << 15
	// MaxThreads bounds the search's worker goroutines.
	MaxThreads = 256
	// DefaultMoveOverhead is the time kept back from a clock-based budget
	// for the protocol's own delays.
	DefaultMoveOverhead = 30 * time.Millisecond
	// cacheEntryBytes is the approximate size of one evaluation cache
	// entry (see mcts.Config.CacheEntries).
	cacheEntryBytes = 256
	// maxTreeNodes bounds a search tree (56 bytes a node, about 470 MB):
	// a long infinite search stops growing the tree there.
	maxTreeNodes = 1 << 23
)

// ErrNoLegalMove is returned by Go when the side to move has no legal move
// (the game is over by checkmate or stalemate).
var ErrNoLegalMove = errors.New("no legal move")

// Options configure an Engine. The zero value is a plain search of
// DefaultVisits visits a move on one thread in the default rules.
type Options struct {
	// Weights is a checkpoint file or a training run's folder (its newest
	// checkpoint). Empty: no network; the search then evaluates positions
	// by material (mcts.MaterialEvaluator), so that the engine plays at
	// once, if weakly.
	Weights string
	// Variant is the rule set; the zero value means env.Alice.
	Variant env.Variant
	// Threads is the number of search workers (mcts Config.Workers); 0
	// means 1.
	Threads int
	// HashMB is the evaluation cache's size in MiB; 0 means DefaultHashMB.
	HashMB int
	// Visits is the search budget per move when Go is given no limit; 0
	// means DefaultVisits.
	Visits int
	// EvalWorkers is the number of cores the network may use for one
	// batch; 0 means all (GOMAXPROCS).
	EvalWorkers int
	// MoveOverhead is kept back from budgets computed from a clock; 0
	// means DefaultMoveOverhead.
	MoveOverhead time.Duration
	// Seed fixes the search's random choices (tie-breaks; play uses no
	// noise).
	Seed uint64
}

// withDefaults returns o with its zero fields replaced by the defaults.
func (o Options) withDefaults() Options {
	if o.Variant.Name == "" {
		o.Variant = env.Alice
	}
	if o.Threads == 0 {
		o.Threads = 1
	}
	if o.HashMB == 0 {
		o.HashMB = DefaultHashMB
	}
	if o.Visits == 0 {
		o.Visits = DefaultVisits
	}
	if o.EvalWorkers == 0 {
		o.EvalWorkers = runtime.GOMAXPROCS(0)
	}
	if o.MoveOverhead == 0 {
		o.MoveOverhead = DefaultMoveOverhead
	}
	return o
}

// validate reports the first unusable option.
func (o Options) validate() error {
	if _, err := env.VariantByName(o.Variant.Name); err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	switch {
	case o.Threads < 1 || o.Threads > MaxThreads:
		return fmt.Errorf("engine: threads must lie in 1..%d, got %d", MaxThreads, o.Threads)
	case o.HashMB < 1 || o.HashMB > MaxHashMB:
		return fmt.Errorf("engine: hash must lie in 1..%d MB, got %d", MaxHashMB, o.HashMB)
	case o.Visits < 1:
		return fmt.Errorf("engine: visits must be at least 1, got %d", o.Visits)
	case o.EvalWorkers < 1 || o.EvalWorkers > 256:
		return fmt.Errorf("engine: evaluation workers must lie in 1..256, got %d", o.EvalWorkers)
	case o.MoveOverhead < 0:
		return fmt.Errorf("engine: move overhead must not be negative, got %v", o.MoveOverhead)
	}
	return nil
}

// Engine is one game-playing session. Build it with New and Close it when
// done.
type Engine struct {
	opts Options

	// The game: its set-up position and the current one (with history).
	startFEN string
	pos      *env.Position

	// The evaluator, built by Ready from loadedWeights (which equals
	// opts.Weights once loaded); fast is set when it is a network.
	eval          mcts.Evaluator
	fast          *model.FastEvaluator
	loadedWeights string
	netInfo       string
	haveEval      bool

	// The searcher (rebuilt when a setting it holds changes) and the tree
	// it searches, kept from move to move.
	searcher *mcts.Searcher
	tree     *mcts.Tree
}

// New returns an engine at the start position of opts.Variant. It loads
// nothing yet: the network is loaded by Ready, or by the first Go.
func New(opts Options) (*Engine, error) {
	opts = opts.withDefaults()
	if err := opts.validate(); err != nil {
		return nil, err
	}
	e := &Engine{opts: opts}
	pos, err := env.ParseFEN(env.StartFEN, opts.Variant)
	if err != nil {
		return nil, fmt.Errorf("engine: start position: %w", err)
	}
	e.pos, e.startFEN = pos, env.StartFEN
	return e, nil
}

// Options returns the engine's settings, defaults filled in.
func (e *Engine) Options() Options { return e.opts }

// SetOptions changes the settings (zero fields take their defaults). They
// take effect at the next Ready or Go. A change of variant starts a new
// game at the variant's start position. On error nothing changes.
func (e *Engine) SetOptions(o Options) error {
	o = o.withDefaults()
	if err := o.validate(); err != nil {
		return err
	}
	old := e.opts
	e.opts = o
	if o.Variant != old.Variant {
		e.NewGame()
		e.haveEval = false // a network's variant is checked when it loads
		e.dropSearcher()
	}
	if o.Threads != old.Threads || o.HashMB != old.HashMB || o.Visits != old.Visits {
		e.dropSearcher()
	}
	return nil
}

// Ready loads the network named by Options.Weights if it is not loaded
// yet and builds the searcher. If the network cannot be loaded, the
// engine falls back to the plain search (Options.Weights is cleared) and
// the error says why; the engine stays usable either way.
func (e *Engine) Ready() error {
	var loadErr error
	if !e.haveEval || e.loadedWeights != e.opts.Weights {
		if err := e.loadEvaluator(e.opts.Weights); err != nil {
			loadErr = err
			e.opts.Weights = ""
			if err := e.loadEvaluator(""); err != nil {
				return errors.Join(loadErr, err)
			}
		}
	}
	if e.searcher == nil {
		cfg := mcts.DefaultPlayConfig()
		cfg.Simulations = e.opts.Visits
		cfg.Workers = e.opts.Threads
		cfg.CacheEntries = max(1, e.opts.HashMB*(1<<20)/cacheEntryBytes)
		cfg.MaxTreeNodes = maxTreeNodes
		s, err := mcts.NewSearcher(e.eval, cfg)
		if err != nil {
			return errors.Join(loadErr, fmt.Errorf("engine: searcher: %w", err))
		}
		e.searcher = s
	}
	return loadErr
}

// loadEvaluator replaces the evaluator with the network at path, or with
// the material evaluator when path is empty. On error the old one stays.
func (e *Engine) loadEvaluator(path string) error {
	var (
		eval mcts.Evaluator
		fast *model.FastEvaluator
		info string
	)
	if path == "" {
		eval = mcts.MaterialEvaluator{}
		info = "no network: plain search with a material evaluation"
	} else {
		file, err := train.ResolveCheckpoint(path)
		if err != nil {
			return fmt.Errorf("engine: weights %s: %w", path, err)
		}
		c, err := model.LoadCheckpoint(file)
		if err != nil {
			return fmt.Errorf("engine: weights: %w", err)
		}
		if v := c.Meta["variant"]; v != "" && v != e.opts.Variant.Name {
			return fmt.Errorf("engine: weights %s were trained for %s, not %s", file, v, e.opts.Variant.Name)
		}
		fast, err = model.NewFastEvaluator(c.Weights, model.FastOptions{Workers: e.opts.EvalWorkers})
		if err != nil {
			return fmt.Errorf("engine: weights %s: %w", file, err)
		}
		eval = fast
		preset := c.Preset
		if preset == "" {
			preset = c.Config().String()
		}
		info = fmt.Sprintf("network %s (%s, step %d)", file, preset, c.Step)
	}
	e.dropSearcher()
	if e.fast != nil {
		_ = e.fast.Close() // its searcher is gone; nothing else uses it
	}
	e.eval, e.fast, e.netInfo, e.haveEval, e.loadedWeights = eval, fast, info, true, path
	return nil
}

// dropSearcher forgets the searcher and its tree (their settings changed).
func (e *Engine) dropSearcher() {
	e.searcher, e.tree = nil, nil
}

// Network describes what evaluates positions: the checkpoint loaded, or
// the plain search. Before Ready it describes what Ready will load.
func (e *Engine) Network() string {
	if e.haveEval && e.loadedWeights == e.opts.Weights {
		return e.netInfo
	}
	if e.opts.Weights == "" {
		return "no network: plain search with a material evaluation"
	}
	return "network " + e.opts.Weights + " (not loaded yet)"
}

// Close releases the network's worker goroutines. The engine must not be
// used afterwards.
func (e *Engine) Close() error {
	e.dropSearcher()
	var err error
	if e.fast != nil {
		err = e.fast.Close()
		e.fast = nil
	}
	e.eval, e.haveEval = nil, false
	return err
}

// NewGame starts a new game at the variant's start position and forgets
// the search tree (the evaluation cache stays: it depends on the network
// only).
func (e *Engine) NewGame() {
	pos, err := env.ParseFEN(env.StartFEN, e.opts.Variant)
	if err != nil {
		return // the start position always parses (New checked it)
	}
	e.pos, e.startFEN = pos, env.StartFEN
	e.tree = nil
}

// SetPosition sets the game to the position fen ("" for the start
// position), in the rule book's notation ('|' marks board-B pieces), then
// plays moves (UCI notation). On error the game is unchanged; the error
// names the offending move.
func (e *Engine) SetPosition(fen string, moves []string) error {
	if fen == "" {
		fen = env.StartFEN
	}
	pos, err := env.ParseFEN(fen, e.opts.Variant)
	if err != nil {
		return fmt.Errorf("position: %w", err)
	}
	start := pos.FEN()
	for i, s := range moves {
		m, err := pos.ParseUCI(s)
		if err != nil {
			return fmt.Errorf("position: move %d (%s): %w", i+1, s, err)
		}
		pos.MakeMove(m)
	}
	e.pos, e.startFEN = pos, start
	return nil
}

// SetGame sets the game to a copy of pos, whose history (if any) counts
// for repetitions; the set-up position is the one before the history.
func (e *Engine) SetGame(pos *env.Position) error {
	if pos == nil {
		return errors.New("engine: SetGame: nil position")
	}
	if pos.Variant() != e.opts.Variant {
		return fmt.Errorf("engine: SetGame: position of variant %s, engine plays %s", pos.Variant().Name, e.opts.Variant.Name)
	}
	q := pos.Clone()
	for q.Ply() > 0 {
		q.UnmakeMove()
	}
	e.pos, e.startFEN = pos.Clone(), q.FEN()
	return nil
}

// Position returns a copy of the current position, with its history.
func (e *Engine) Position() *env.Position { return e.pos.Clone() }

// StartFEN returns the FEN of the position the game was set up from.
func (e *Engine) StartFEN() string { return e.startFEN }

// Moves returns the moves played since the set-up position.
func (e *Engine) Moves() []env.Move {
	q := e.pos.Clone()
	moves := make([]env.Move, q.Ply())
	for i := len(moves) - 1; i >= 0; i-- {
		moves[i] = q.LastMove()
		q.UnmakeMove()
	}
	return moves
}

// Game returns the game so far as a PGN game (moves and, when it is over,
// the result), for env.WritePGN.
func (e *Engine) Game() *env.Game {
	g := env.NewGame(e.opts.Variant)
	g.StartFEN = e.startFEN
	g.Moves = e.Moves()
	g.Result = e.pos.Outcome(e.pos.Status())
	return g
}

// Play plays m, which must be legal in the current position (it is
// matched by its squares and promotion).
func (e *Engine) Play(m env.Move) error {
	var ml env.MoveList
	e.pos.LegalMoves(&ml)
	for _, x := range ml.Slice() {
		if x.From() == m.From() && x.To() == m.To() && x.Promotion() == m.Promotion() {
			e.pos.MakeMove(x)
			return nil
		}
	}
	return &env.MoveError{Move: m.UCI(), FEN: e.pos.FEN(), Reason: "illegal move"}
}

// PlayText reads a move typed by a person (UCI notation or SAN) and plays
// it if it is legal.
func (e *Engine) PlayText(s string) (env.Move, error) {
	m, err := e.pos.ParseMove(s)
	if err != nil {
		return env.NoMove, err
	}
	e.pos.MakeMove(m)
	return m, nil
}

// Undo takes back the last move; it reports false when no move has been
// played since the set-up position.
func (e *Engine) Undo() (env.Move, bool) {
	if e.pos.Ply() == 0 {
		return env.NoMove, false
	}
	m := e.pos.LastMove()
	e.pos.UnmakeMove()
	return m, true
}

// Status returns the state of play of the current position.
func (e *Engine) Status() env.Status { return e.pos.Status() }

// Go searches the current position within lim and returns the search's
// result. info, if not nil, receives progress reports (from the search's
// goroutines, never concurrently with itself).
//
// When the side to move has a legal move, the Result's BestMove is always
// one of them: if the search fails (or is stopped before it evaluated
// anything, or the position is already drawn by rule), BestMove is the
// first legal move, PV holds just it, Nodes is 0, and the error says what
// went wrong. When there is no legal move the error wraps ErrNoLegalMove
// and BestMove is env.NoMove. A failure to load the network is reported
// the same way, alongside the plain search's result.
func (e *Engine) Go(ctx context.Context, lim Limits, info func(mcts.Info)) (mcts.Result, error) {
	var ml env.MoveList
	e.pos.LegalMoves(&ml)
	if ml.N == 0 {
		return mcts.Result{}, fmt.Errorf("engine: %w (%s)", ErrNoLegalMove, e.pos.Status())
	}
	fallback := func(err error) (mcts.Result, error) {
		m := ml.Moves[0]
		return mcts.Result{BestMove: m, PV: []env.Move{m}}, err
	}
	if err := lim.validate(); err != nil {
		return fallback(err)
	}
	readyErr := e.Ready()
	if e.searcher == nil {
		return fallback(readyErr)
	}
	var err error
	if e.tree == nil {
		e.tree, err = e.searcher.NewTree(e.pos, e.opts.Seed)
	} else {
		err = e.tree.SetPosition(e.pos)
	}
	if err != nil {
		e.tree = nil
		return fallback(errors.Join(readyErr, fmt.Errorf("engine: %w", err)))
	}
	sl := mcts.Limits{
		Nodes:        lim.Nodes,
		Time:         lim.Budget(e.pos.SideToMove(), e.opts.MoveOverhead),
		Infinite:     lim.Infinite,
		Info:         info,
		InfoInterval: lim.InfoInterval,
	}
	if sl.Infinite {
		sl.Nodes, sl.Time = 0, 0
	} else if sl.Nodes == 0 && sl.Time == 0 {
		sl.Nodes = e.opts.Visits
	}
	res, err := e.searcher.Search(ctx, e.tree, sl)
	if err != nil {
		return fallback(errors.Join(readyErr, fmt.Errorf("engine: %w", err)))
	}
	if !ml.Contains(res.BestMove) {
		return fallback(errors.Join(readyErr, fmt.Errorf("engine: the search returned %v, not a legal move", res.BestMove)))
	}
	return res, readyErr
}

// Limits bound one search. With no field set the search runs
// Options.Visits visits.
type Limits struct {
	// Nodes is the most visits (playouts) to search; 0: no bound.
	Nodes int
	// MoveTime is the time to spend on this move; 0: no bound.
	MoveTime time.Duration
	// WTime and BTime are the clocks' remaining times, WInc and BInc the
	// increments, MovesToGo the moves to the next time control (0: the
	// rest of the game). They are used when the side to move's clock is
	// set.
	WTime, BTime time.Duration
	WInc, BInc   time.Duration
	MovesToGo    int
	// Infinite searches until the context ends (UCI "go infinite").
	Infinite bool
	// InfoInterval is the time between progress reports (0: 1 s).
	InfoInterval time.Duration
}

func (l Limits) validate() error {
	if l.Nodes < 0 || l.MoveTime < 0 || l.WTime < 0 || l.BTime < 0 || l.WInc < 0 || l.BInc < 0 || l.MovesToGo < 0 || l.InfoInterval < 0 {
		return fmt.Errorf("engine: negative search limit in %+v", l)
	}
	return nil
}

// Budget is the time the side to move should spend: with a clock, a share
// of the remaining time (a 30th, or 1/movestogo when fewer moves remain to
// the time control) plus three quarters of the increment, never more than
// half the remaining time, less overhead for the protocol's delays; else
// MoveTime (less a little overhead, at most a fifth of it). Zero means no
// time bound.
func (l Limits) Budget(side env.Colour, overhead time.Duration) time.Duration {
	left, inc := l.WTime, l.WInc
	if side == env.Black {
		left, inc = l.BTime, l.BInc
	}
	if left <= 0 {
		if l.MoveTime <= 0 {
			return 0
		}
		return max(l.MoveTime-min(overhead, l.MoveTime/5), time.Millisecond)
	}
	moves := l.MovesToGo
	if moves <= 0 || moves > 30 {
		moves = 30
	}
	b := left/time.Duration(moves) + inc*3/4
	b = min(b, left/2)
	if b > 2*overhead {
		b -= overhead
	} else {
		b /= 2
	}
	if l.MoveTime > 0 {
		b = min(b, l.MoveTime)
	}
	return max(b, time.Millisecond)
}

// Centipawns maps a value (W-L in [-1, 1], side to move's view) to the
// centipawn scale GUIs expect, with lc0's formula
// cp = 111.714640912·tan(1.5620688421·v): 0.5 is about +1.1 pawns, 0.9
// about +6.7, ±1 (a proven result) ±128. The result is clamped to ±12800.
func Centipawns(v float32) int {
	x := float64(v)
	if math.IsNaN(x) {
		return 0
	}
	x = max(-1, min(1, x))
	cp := math.Round(111.714640912 * math.Tan(1.5620688421*x))
	return int(max(-12800, min(12800, cp)))
}

// WDLPermille converts a win/draw/loss triple to permille summing to 1000
// (the draw share takes the rounding).
func WDLPermille(wdl [3]float32) (w, d, l int) {
	sum := float64(wdl[0]) + float64(wdl[1]) + float64(wdl[2])
	if !(sum > 0) || math.IsInf(sum, 0) {
		return 0, 1000, 0
	}
	w = int(math.Round(1000 * float64(wdl[0]) / sum))
	l = int(math.Round(1000 * float64(wdl[2]) / sum))
	w, l = max(0, min(1000, w)), max(0, min(1000-w, l))
	return w, 1000 - w - l, l
}
