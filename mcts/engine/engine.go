package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/sourcegraph/conc/panics"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/alphabeta"
	"github.com/alicezero/alicezero/model"
)

// Defaults and bounds of the options.
const (
	// DefaultVisits is the search budget per move when Go is given no
	// limit.
	DefaultVisits = 800
	// MaxVisits bounds Options.Visits.
	MaxVisits = 1 << 30
	// MaxMultiPV bounds Options.MultiPV.
	MaxMultiPV = alphabeta.MaxMultiPV
	// DefaultHashMB is the default memory of the search (see
	// Options.HashMB): a 64 MiB evaluation cache and a tree of 192 MiB,
	// or the alpha-beta's transposition table.
	DefaultHashMB = 256
	// MaxHashMB bounds the search's memory.
	MaxHashMB = 1 << 15
	// MaxThreads bounds the search's worker goroutines.
	MaxThreads = 256
	// DefaultMoveOverhead is the time kept back from a clock-based budget
	// for the protocol's own delays.
	DefaultMoveOverhead = 30 * time.Millisecond
	// cacheEntryBytes is the approximate size of one evaluation cache
	// entry (see mcts.Config.CacheEntries).
	cacheEntryBytes = 256
	// cacheShare is the evaluation cache's share of Hash; the tree takes
	// the rest (mcts.Config.TreeBytes).
	cacheShare = 4
)

// ErrNoLegalMove is returned by Go when the side to move has no legal move
// (the game is over by checkmate or stalemate).
var ErrNoLegalMove = errors.New("no legal move")

// Options configure an Engine. The zero value is the default engine, the
// classical alpha-beta with no network (SearchAuto), searching about as
// long as DefaultVisits visits of the tree a move on one thread in the
// default rules: the one set of defaults of every way to play, from the
// terminal game to the arena's ckpt players.
type Options struct {
	// Weights names the network as LoadNetwork reads it: "" for none (the
	// alpha-beta plays; under SearchMCTS the built-in network, see
	// LoadNetwork), BuiltinWeights for the built-in network, NoWeights for
	// the plain search, a checkpoint file or a training run's folder (its
	// newest checkpoint). A network named plays through the tree search.
	Weights string
	// Network, if set, is used instead of Weights: weights the caller
	// holds in memory (see InMemory).
	Network *Network
	// Variant is the rule set; the zero value means env.Alice.
	Variant env.Variant
	// Threads is the number of threads a search runs on: the tree
	// search's workers (mcts Config.Workers), the alpha-beta's threads
	// sharing its table (alphabeta Config.Threads); 0 means 1.
	Threads int
	// HashMB is the search's memory in MiB; 0 means DefaultHashMB: the
	// alpha-beta's transposition table, or for the tree search a quarter
	// the evaluation cache and the rest the search tree, which a
	// search that fills it recycles, keeping its most visited part, so a
	// search of any length goes on adding visits (about 1,500 visits a
	// MiB of HashMB before the first recycling; TreeBytes in package
	// mcts). The tree takes at least mcts.MinTreeBytes.
	HashMB int
	// Visits is the search budget per move when Go is given no limit, in
	// the tree's visits (the alpha-beta searches as long: VisitNodes); 0
	// means DefaultVisits.
	Visits int
	// Gumbel selects Gumbel root search for searches with a node budget
	// (sound at a few dozen visits); time-limited searches use PUCT.
	// GumbelK is how many root moves it considers (0: the search's
	// default).
	Gumbel  bool
	GumbelK int
	// EvalWorkers is the number of cores the network may use for one
	// batch; 0 means all (GOMAXPROCS).
	EvalWorkers int
	// MoveOverhead is kept back from budgets computed from a clock; 0
	// means DefaultMoveOverhead.
	MoveOverhead time.Duration
	// Seed fixes the search's random choices (tie-breaks; play uses no
	// noise).
	Seed uint64
	// MultiPV is how many best root moves the alpha-beta searches exactly,
	// each reported with its line as a progress Info's Children (the tree
	// reports every root move whatever it is); 0 means 1.
	MultiPV int
	// Search is the search Go runs: SearchAuto ("": the tree search where
	// a network is named, else the alpha-beta), SearchMCTS, the tree
	// search guided by the network, or SearchAlphaBeta, the classical
	// alpha-beta with HashMB for its transposition table.
	Search string
	// Tactics turns on the tactical guard of timed searches: an exact
	// alpha-beta beside the tree for short forced mates (tactics.go). It
	// is off by default until an equal-time match shows that it wins
	// (docs/EVALUATION.md).
	Tactics bool
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
	if o.Search == "" {
		o.Search = SearchAuto
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

// namesNetwork reports whether o names a network to play: weights in
// memory, or BuiltinWeights, a checkpoint or a run folder by name.
func (o Options) namesNetwork() bool {
	if o.Network != nil {
		return o.Network.Weights != nil
	}
	return !unnamed(o.Weights) && strings.TrimSpace(o.Weights) != NoWeights
}

// unloaded returns the network o names when it takes no loading: none at
// all where no weights are named and the tree is not asked for (the
// alpha-beta plays), the plain search for NoWeights; else nil.
func (o Options) unloaded() *Network {
	switch {
	case o.Network != nil:
		return nil
	case unnamed(o.Weights) && o.Search != SearchMCTS:
		return &Network{Description: alphaBetaSearch}
	case strings.TrimSpace(o.Weights) == NoWeights:
		return plainSearch()
	}
	return nil
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
	case o.Visits < 1 || o.Visits > MaxVisits:
		return fmt.Errorf("engine: visits must lie in 1..%d, got %d", MaxVisits, o.Visits)
	case o.EvalWorkers < 1 || o.EvalWorkers > 256:
		return fmt.Errorf("engine: evaluation workers must lie in 1..256, got %d", o.EvalWorkers)
	case o.MoveOverhead < 0:
		return fmt.Errorf("engine: move overhead must not be negative, got %v", o.MoveOverhead)
	case o.MultiPV < 0 || o.MultiPV > MaxMultiPV:
		return fmt.Errorf("engine: MultiPV must lie in 1..%d, got %d", MaxMultiPV, o.MultiPV)
	case !slices.Contains(Searches(), o.Search):
		return fmt.Errorf("engine: search %q is not one of %s", o.Search, strings.Join(Searches(), ", "))
	}
	return nil
}

// Engine is one game-playing session. Build it with New and Close it when
// done.
type Engine struct {
	opts Options

	// The network and its evaluator; loaded is false when a change of
	// Weights, Network or Variant awaits Ready.
	net    *Network
	eval   mcts.Evaluator
	fast   *model.FastEvaluator
	loaded bool
	// loadErr is why the network named could not be loaded, while the
	// plain search stands in for it (Ready reports it).
	loadErr error

	// The searcher (rebuilt when a setting it holds changes) and the tree
	// it searches, kept from move to move.
	searcher *mcts.Searcher
	tree     *mcts.Tree
	// guard is the tactical alpha-beta of timed searches (tactics.go),
	// made at the first.
	guard *guard
	// ab is the alpha-beta (runsAlphaBeta), made before its first search
	// (alphaBeta); its table lives from move to move.
	ab *alphabeta.Searcher
}

// New returns an engine of opts, its network loaded: a missing, damaged
// or foreign network is an error here, where a command can report it
// before it starts (later changes of Weights fall back to the plain
// search instead, see Ready).
func New(opts Options) (*Engine, error) {
	opts = opts.withDefaults()
	if err := opts.validate(); err != nil {
		return nil, err
	}
	e := &Engine{opts: opts}
	if err := e.load(); err != nil {
		return nil, err
	}
	if e.runsAlphaBeta() {
		if _, err := e.alphaBeta(); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// Options returns the engine's settings, defaults filled in.
func (e *Engine) Options() Options { return e.opts }

// SetOptions changes the settings (zero fields take their defaults). They
// take effect at the next Ready or Go. A change of variant starts a new
// game (NewGame). On error nothing changes.
func (e *Engine) SetOptions(o Options) error {
	o = o.withDefaults()
	if err := o.validate(); err != nil {
		return err
	}
	old := e.opts
	e.opts = o
	if o.Variant != old.Variant {
		e.NewGame()
		e.loaded = false // a network's variant is checked when it loads
		e.dropSearcher()
	}
	if o.Weights != old.Weights || o.Network != old.Network || o.Threads != old.Threads {
		e.loaded = false // the evaluator is built for the threads that call it
	}
	if o.Network == nil && unnamed(o.Weights) && (o.Search == SearchMCTS) != (old.Search == SearchMCTS) {
		e.loaded = false // no weights named: the built-in network for the tree, none else
	}
	if o.Threads != old.Threads || o.HashMB != old.HashMB || o.Visits != old.Visits || o.Gumbel != old.Gumbel || o.GumbelK != old.GumbelK {
		e.dropSearcher()
	}
	if o.HashMB != old.HashMB || o.Threads != old.Threads {
		e.ab = nil
	}
	return nil
}

// Ready loads the network the options name if it is not loaded yet and
// builds the searcher. If the network cannot be loaded, the engine falls
// back to the plain search and the error says why, at this call and every
// later one until a change of options loads a network; the engine stays
// usable either way (a front end decides whether to search without the
// network named). The options keep the weights named, so that a later
// change that makes them fit (a GUI switching back to the variant they
// were trained for) loads them.
func (e *Engine) Ready() error {
	if !e.loaded {
		e.loadErr = nil
		if err := e.load(); err != nil {
			e.loadErr = err
			plain := plainSearch()
			plain.Description += " (the weights named could not be loaded: " + err.Error() + ")"
			if err := e.install(plain); err != nil {
				return errors.Join(e.loadErr, err)
			}
		}
	}
	loadErr := e.loadErr
	if e.searcher == nil && !e.runsAlphaBeta() {
		// The tree's memory is taken only where the tree runs.
		cfg := mcts.DefaultPlayConfig()
		cfg.Simulations = e.opts.Visits
		cfg.Workers = e.opts.Threads
		cfg.Gumbel = e.opts.Gumbel
		if e.opts.GumbelK > 0 {
			cfg.GumbelK = e.opts.GumbelK
		}
		cfg.CacheEntries, cfg.TreeBytes = searchMemory(e.opts.HashMB)
		s, err := mcts.NewSearcher(e.eval, cfg)
		if err != nil {
			return errors.Join(loadErr, fmt.Errorf("engine: searcher: %w", err))
		}
		e.searcher = s
	}
	if e.runsAlphaBeta() {
		if _, err := e.alphaBeta(); err != nil {
			return errors.Join(loadErr, err)
		}
	}
	return loadErr
}

// load replaces the network with the one the options name. On error the
// old one stays.
func (e *Engine) load() error {
	net := e.opts.Network
	if n := e.opts.unloaded(); n != nil {
		net = n
	} else if net == nil {
		var err error
		if net, err = LoadNetwork(e.opts.Weights, e.opts.Variant); err != nil {
			return fmt.Errorf("engine: %w", err)
		}
	} else if err := net.fits(e.opts.Variant); err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	return e.install(net)
}

// install makes net the engine's network.
func (e *Engine) install(net *Network) error {
	eval, fast, err := net.evaluator(e.opts.Variant, e.opts.EvalWorkers, e.opts.Threads)
	if err != nil {
		return err
	}
	e.dropSearcher()
	if e.fast != nil {
		_ = e.fast.Close() // its searcher is gone; nothing else uses it
	}
	e.net, e.eval, e.fast, e.loaded = net, eval, fast, true
	return nil
}

// dropSearcher forgets the searcher and its tree (their settings changed).
func (e *Engine) dropSearcher() {
	e.searcher, e.tree = nil, nil
}

// Network describes what plays: the network loaded (through the tree
// search), the alpha-beta, or the plain tree search. When a change of
// weights awaits Ready it says so.
func (e *Engine) Network() string {
	ab := e.runsAlphaBeta()
	net := e.net
	if !e.loaded {
		// What the options name, where it takes no loading.
		switch net = e.opts.unloaded(); {
		case net != nil:
		case e.opts.Network != nil && e.opts.Network.Weights == nil:
			net = e.opts.Network
		case ab:
			return alphaBetaSearch // Search alphabeta: the network named is not asked
		case e.opts.Network != nil:
			return e.opts.Network.Description + " (not loaded yet)"
		case unnamed(e.opts.Weights):
			return "the default network (not loaded yet)"
		default:
			return "network " + e.opts.Weights + " (not loaded yet)"
		}
	}
	switch {
	case net.Weights == nil && !ab:
		return strings.Replace(net.Description, plainAlphaBeta, plainTree, 1)
	case net.Weights != nil && ab:
		return alphaBetaSearch // Search alphabeta: the network is not asked
	}
	return net.Description
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
	e.eval, e.loaded = nil, false
	return err
}

// Reseed changes the seed of the search's random choices, from the next
// search on.
func (e *Engine) Reseed(seed uint64) {
	e.opts.Seed = seed
	if e.tree != nil {
		e.tree.Reseed(seed)
	}
}

// NewGame starts a new game: the search tree starts afresh with the
// engine's seed and the alpha-beta's table is cleared, so that a game does
// not depend on the games before it (the evaluation cache stays: it
// depends on the network only).
func (e *Engine) NewGame() {
	if e.ab != nil {
		e.ab.NewGame() // clears its table only if a search wrote to it
	}
	if e.tree != nil {
		if err := e.tree.Reset(env.NewPosition(e.opts.Variant)); err != nil {
			e.tree = nil
			return
		}
		e.tree.Reseed(e.opts.Seed)
	}
}

// position returns the position game reaches, its history kept for
// repetitions: the set-up position ("" for the variant's start), then the
// moves, each of which must be legal where it is played (matched as
// env.MoveList.Find matches: by its squares, promotion and, where a square
// may hold men on several boards, its boards).
func (e *Engine) position(game *env.Game) (*env.Position, error) {
	if game == nil {
		return nil, errors.New("engine: no game to search")
	}
	if game.Variant != e.opts.Variant {
		return nil, fmt.Errorf("engine: a game of variant %s, the engine plays %s", game.Variant.Name, e.opts.Variant.Name)
	}
	pos, err := game.FinalPosition()
	if err != nil {
		return nil, fmt.Errorf("engine: game: %w", err)
	}
	return pos, nil
}

// Go searches the position game reaches within lim and returns the
// search's result. The game's moves count for repetitions, and a game
// that continues the one searched last (the same set-up position, more
// moves) keeps the tree's subtree of the moves since, or the alpha-beta's
// table; a game with an illegal move, or of another variant, is an error,
// and nothing is searched. progress.Report, if set, receives progress
// reports (from the search's goroutines, never concurrently with itself)
// every progress.Interval and once at the end. lim.Overhead, if zero, takes
// Options.MoveOverhead; with no limit at all the search runs
// Options.Visits visits.
//
// Go never panics: a panic in the search or in the report callback is
// turned into an error. A search stopped before it evaluated anything
// still evaluates the position once and plays the network's choice. When
// the side to move has a legal move, the Result's BestMove is always one
// of them: if the search fails, BestMove is the first legal move,
// PV holds just it, Nodes is 0, and the error says what went wrong. A
// position already drawn by rule (repetition, fifty moves) is searched as
// if the game went on, so that the move is a real choice; a dead position
// gets its first legal move and a drawn WDL. When there is no legal move
// the error wraps ErrNoLegalMove and BestMove is env.NoMove. A network
// that could not be loaded is reported the same way (as Ready reports
// it), alongside the plain search's result.
func (e *Engine) Go(ctx context.Context, game *env.Game, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
	start := time.Now()
	pos, err := e.position(game)
	if err != nil {
		return mcts.Result{}, err
	}
	return e.goFrom(ctx, start, pos, lim, progress)
}

// goFrom is Go once the game is a position, pos, which the search may use
// as its own; the move's time counts from start.
func (e *Engine) goFrom(ctx context.Context, start time.Time, pos *env.Position, lim clock.Limits, progress mcts.Progress) (res mcts.Result, err error) {
	var ml env.MoveList
	pos.LegalMoves(&ml)
	if ml.N == 0 {
		return mcts.Result{}, fmt.Errorf("engine: %w (%s)", ErrNoLegalMove, pos.Status())
	}
	fallback := func(err error) (mcts.Result, error) {
		m := ml.Moves[0]
		return mcts.Result{BestMove: m, PV: []env.Move{m}}, err
	}
	if err := lim.Validate(); err != nil {
		return fallback(fmt.Errorf("engine: %w", err))
	}
	if lim.Overhead == 0 {
		lim.Overhead = e.opts.MoveOverhead
	}
	var readyErr error
	if !e.runsAlphaBeta() {
		readyErr = e.Ready() // the alpha-beta needs no network
	}
	budget := lim.Budget(pos.SideToMove())
	if e.runsAlphaBeta() {
		// The alpha-beta's time manager may run past the budget when the
		// position asks for it, to the window's end.
		_, budget = lim.Window(pos.SideToMove())
	}
	if budget > 0 {
		// The budget counts from now, not from when the search starts:
		// setting up the tree (loading a network, advancing a kept tree)
		// is part of the move's time.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, start.Add(budget))
		defer cancel()
	}
	if r := panics.Try(func() { res, err = e.search(ctx, pos, lim, progress, readyErr) }); r != nil {
		e.tree = nil // it may be half updated
		return fallback(fmt.Errorf("engine: internal error: %v", r.Value))
	}
	if ml.Contains(res.BestMove) {
		return res, err // err: at most a network that failed to load
	}
	if err == nil {
		err = fmt.Errorf("engine: the search returned %v, not a legal move", res.BestMove)
	}
	return fallback(err)
}

// search runs Go's search of pos, once Ready has run (readyErr is what it
// returned). A Result with a BestMove is valid; err then reports at most
// a network that failed to load (and the plain search took over).
func (e *Engine) search(ctx context.Context, pos *env.Position, lim clock.Limits, progress mcts.Progress, readyErr error) (mcts.Result, error) {
	st := pos.Status()
	if st == env.DeadPosition {
		// Nothing can change the result: any move will do.
		var ml env.MoveList
		pos.LegalMoves(&ml)
		m := ml.Moves[0]
		return mcts.Result{BestMove: m, PV: []env.Move{m}, RootWDL: [3]float32{0, 1, 0}}, readyErr
	}
	if e.runsAlphaBeta() {
		root := pos
		if st == env.Threefold || st == env.FiftyMove {
			// Drawn by rule, yet the GUI asks for a move: as below.
			var err error
			if root, err = withoutHistory(pos); err != nil {
				return mcts.Result{}, errors.Join(readyErr, fmt.Errorf("engine: %w", err))
			}
		}
		res, err := e.searchAlphaBeta(ctx, root, lim, progress)
		return res, errors.Join(readyErr, err)
	}
	if e.searcher == nil {
		return mcts.Result{}, readyErr
	}
	root := pos
	switch st {
	case env.Threefold, env.FiftyMove:
		// Drawn by rule, yet the GUI asks for a move: search the position
		// without its history (and with a fresh fifty-move count). The
		// game's tree starts afresh there, in its own pools, so that the
		// search stays within Hash (a game that goes on after the draw
		// then starts its tree afresh too).
		fresh, err := withoutHistory(pos)
		if err != nil {
			return mcts.Result{}, errors.Join(readyErr, fmt.Errorf("engine: %w", err))
		}
		if e.tree == nil {
			e.tree, err = e.searcher.NewTree(fresh, e.opts.Seed)
		} else {
			err = e.tree.Reset(fresh)
		}
		if err != nil {
			e.tree = nil
			return mcts.Result{}, errors.Join(readyErr, fmt.Errorf("engine: %w", err))
		}
		res, err := e.searcher.Search(ctx, e.tree, lim, progress)
		if err != nil {
			return res, errors.Join(readyErr, fmt.Errorf("engine: %w", err))
		}
		return res, readyErr
	}
	var err error
	switch {
	case e.tree == nil:
		e.tree, err = e.searcher.NewTree(root, e.opts.Seed)
	case !keepable(e.tree, lim.Budget(root.SideToMove())):
		err = e.tree.Reset(root)
	default:
		err = e.tree.SetPosition(root)
	}
	if err != nil {
		e.tree = nil
		return mcts.Result{}, errors.Join(readyErr, fmt.Errorf("engine: %w", err))
	}
	budget := lim.Budget(root.SideToMove())
	guarded := e.opts.Tactics && budget > 0 && !lim.Infinite
	treeCtx := ctx
	if guarded {
		if e.guard == nil {
			if e.guard, err = newGuard(); err != nil {
				return mcts.Result{}, errors.Join(readyErr, fmt.Errorf("engine: %w", err))
			}
		}
		t0 := time.Now()
		if m, n, ok := e.guard.findMate(ctx, root, time.Duration(float64(budget)*guardMateShare)); ok {
			res := mcts.Result{BestMove: m, PV: []env.Move{m}, MateIn: n, Proven: true, RootValue: 1, RootWDL: [3]float32{1, 0, 0}}
			if progress.Report != nil {
				progress.Report(mcts.Info{Depth: 2*n - 1, SelDepth: 2*n - 1, Elapsed: time.Since(t0), Value: 1, WDL: res.RootWDL, MateIn: n, PV: res.PV, Final: true})
			}
			return res, readyErr
		}
		if deadline, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			treeCtx, cancel = context.WithDeadline(ctx, deadline.Add(-time.Duration(float64(budget)*guardCheckShare)))
			defer cancel()
		}
	}
	res, err := e.searcher.Search(treeCtx, e.tree, lim, progress)
	if err == nil && guarded {
		deadline, _ := ctx.Deadline()
		if m := e.guard.check(ctx, root, res, deadline); m != res.BestMove {
			res.BestMove, res.PV = m, []env.Move{m}
			for _, c := range res.Children {
				if c.Move == m && len(c.PV) > 0 {
					res.PV = c.PV
				}
			}
		}
	}
	if errors.Is(err, mcts.ErrNoResult) && treeCtx.Err() != nil {
		// Stopped before the root was evaluated ("go" then at once
		// "stop", or the input ended): one evaluation still gives the
		// network's own choice, which is better than none.
		res, err = e.searcher.Search(context.WithoutCancel(ctx), e.tree, clock.Limits{Nodes: 1}, progress)
	}
	if err != nil {
		return res, errors.Join(readyErr, fmt.Errorf("engine: %w", err))
	}
	return res, readyErr
}

// keepable reports whether a timed search of budget keeps tree from the
// last move: keeping a subtree (mcts.Tree.Advance) is counted in the
// move's time, and may take at most half of it. Untimed searches (nodes,
// infinite) keep whatever the tree holds; a tree that fills its pools is
// recycled by the search itself.
func keepable(tree *mcts.Tree, budget time.Duration) bool {
	return budget <= 0 || tree.RebuildCost() <= budget/2
}

// searchMemory splits hashMB MiB of search memory between the evaluation
// cache (its entries) and the tree (its bytes).
func searchMemory(hashMB int) (cacheEntries, treeBytes int) {
	bytes := hashMB << 20
	cache := bytes / cacheShare
	return max(1, cache/cacheEntryBytes), max(mcts.MinTreeBytes, bytes-cache)
}

// withoutHistory returns pos as a fresh game: no earlier positions to
// repeat, the fifty-move count at zero.
func withoutHistory(pos *env.Position) (*env.Position, error) {
	fields := strings.Fields(pos.FEN())
	if len(fields) >= 5 {
		fields[4] = "0"
	}
	return env.ParseFEN(strings.Join(fields, " "), pos.Variant())
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
