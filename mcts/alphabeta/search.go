package alphabeta

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/conc"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// Scores are centipawns from the side to move's view. A mate in p plies
// from the root scores ±(Mate-p).
const (
	Mate      = 30000
	mateBound = Mate - 2*maxPly // beyond it a score is a mate
	infinity  = Mate + 1
	maxPly    = 128
	// MaxDepth is the deepest nominal depth a search iterates to.
	MaxDepth = 100
	// DefaultHashMB is the transposition table's size unless configured.
	DefaultHashMB = 16
	// MaxMultiPV bounds Searcher.MultiPV.
	MaxMultiPV = 256
)

// Config configures a Searcher.
type Config struct {
	// HashMB is the transposition table's size in MiB (1 or more; 0: DefaultHashMB).
	HashMB int
	// Depth caps the nominal depth of the iterative deepening (0: MaxDepth).
	Depth int
	// Threads is the number of threads a search runs on (0: 1): one
	// searches and reports, the others search the same root beside it,
	// sharing its transposition table (see the package doc).
	Threads int
}

// MaxThreads bounds Config.Threads.
const MaxThreads = 256

// Line is one root move's principal variation with its exact score (a
// multi-PV search's lines).
type Line struct {
	Score  int // centipawns, side to move's view
	MateIn int
	PV     []env.Move // starts with the root move
}

// Info is one completed iteration of a search, for progress reports.
type Info struct {
	Depth, SelDepth int
	Score           int // centipawns; see Result.MateIn for mates
	MateIn          int
	Nodes           int64
	Elapsed         time.Duration
	Hashfull        int // permille
	PV              []env.Move
	// Lines are the MultiPV best root moves, best first (PV is Lines[0]'s);
	// valid until the searcher's next iteration.
	Lines []Line
}

// Result is the outcome of a search.
type Result struct {
	Move env.Move
	// Score is in centipawns from the side to move's view; a mate scores
	// ±(Mate - plies).
	Score int
	// MateIn is the proven mate's length in moves: positive when the side
	// to move mates, negative when it is mated, 0 when none was found.
	MateIn   int
	Depth    int // the deepest iteration completed
	SelDepth int
	Nodes    int64
	// PV is the principal variation, and Lines the MultiPV best root
	// moves, best first; both are valid until the searcher's next search
	// (they are its buffers).
	PV    []env.Move
	Lines []Line
}

// frame is the search's state at one ply.
type frame struct {
	moves   env.MoveList
	keys    [env.MaxMoves]int32
	killers [2]env.Move
	eval    int32
	nLegal  int // legal moves here, for the child's mobility term
	// excluded is the move a singular-extension search leaves out here.
	excluded env.Move
}

// Searcher is an iterative-deepening principal-variation search with a
// transposition table. It is reused from search to search and allocates
// nothing per node; it is not safe for concurrent use.
type Searcher struct {
	cfg Config
	tt  *table
	pos *env.Position
	// helpers search beside this searcher (Config.Threads), each a
	// Searcher of its own with this one's table and shared.
	helpers []*Searcher
	shared  *shared
	// helper is the searcher's place among the helpers (1, 2, ...); 0
	// for the one Search is called on.
	helper int
	// published is how many of this thread's nodes it has added to
	// shared.nodes (a search on several threads).
	published int64

	ctx          context.Context
	start        time.Time
	hardDeadline time.Time
	maxNodes     int64
	nodes        int64
	stopped      bool
	// firstIteration is set while depth 1 is searched: no limit stops it.
	firstIteration bool
	selDepth       int
	canPass        bool

	stack   [maxPly + 2]frame
	terms   termList // evaluate's buffer
	history [2][64][64]int32
	counter [64][64]env.Move
	pv      [maxPly + 2][maxPly + 2]env.Move
	pvLen   [maxPly + 2]int

	rootScores [env.MaxMoves]int32
	// The multi-PV lines of the last completed iteration, and the one
	// being searched.
	lines, next       [MaxMultiPV]Line
	linesBuf, nextBuf [MaxMultiPV][maxPly + 2]env.Move

	// MultiPV is the number of best root moves searched exactly, each with
	// its line (1 or 0: only the best, the fastest).
	MultiPV int

	// OnIteration, when set, is called after every completed iteration.
	OnIteration func(Info)
}

// New returns a searcher with its own transposition table.
func New(cfg Config) (*Searcher, error) {
	if cfg.HashMB == 0 {
		cfg.HashMB = DefaultHashMB
	}
	if cfg.HashMB < 1 || cfg.HashMB > 1<<16 {
		return nil, fmt.Errorf("alphabeta: hash %d MB out of range 1..65536", cfg.HashMB)
	}
	if cfg.Depth == 0 {
		cfg.Depth = MaxDepth
	}
	if cfg.Depth < 1 || cfg.Depth > MaxDepth {
		return nil, fmt.Errorf("alphabeta: depth %d out of range 1..%d", cfg.Depth, MaxDepth)
	}
	if cfg.Threads == 0 {
		cfg.Threads = 1
	}
	if cfg.Threads < 1 || cfg.Threads > MaxThreads {
		return nil, fmt.Errorf("alphabeta: threads %d out of range 1..%d", cfg.Threads, MaxThreads)
	}
	s := &Searcher{cfg: cfg, tt: newTable(cfg.HashMB), pos: env.NewPosition(env.Alice), shared: &shared{}}
	for i := 1; i < cfg.Threads; i++ {
		s.helpers = append(s.helpers, &Searcher{cfg: cfg, tt: s.tt, pos: env.NewPosition(env.Alice), shared: s.shared, helper: i})
	}
	return s, nil
}

// shared is what the threads of a search share besides the table.
type shared struct {
	stop  atomic.Bool  // the main search is over: the helpers stop
	nodes atomic.Int64 // every thread's nodes, published every 1024
	// budget is the search's node limit (0: none), which the helpers
	// keep too, so that a main thread held off the processor does not
	// let them run past it.
	budget int64
}

// NewGame forgets what earlier searches learnt: the transposition table
// and the move-ordering statistics.
func (s *Searcher) NewGame() {
	s.tt.clear()
	s.forget()
	for _, h := range s.helpers {
		h.forget()
	}
}

// forget clears the move-ordering statistics.
func (s *Searcher) forget() {
	s.history = [2][64][64]int32{}
	s.counter = [64][64]env.Move{}
	for i := range s.stack {
		s.stack[i].killers = [2]env.Move{}
	}
}

// Search searches pos (left unchanged) within limits and returns the best
// move found. It needs a position with a legal move.
//
// With helpers (Config.Threads), they search the same position until
// this searcher's search ends; its result is the search's, and its
// node counts include theirs.
func (s *Searcher) Search(ctx context.Context, pos *env.Position, limits clock.Limits) (Result, error) {
	if err := limits.Validate(); err != nil {
		return Result{}, fmt.Errorf("alphabeta: %w", err)
	}
	s.tt.newSearch()
	if len(s.helpers) == 0 {
		return s.run(ctx, pos, limits)
	}
	s.shared.stop.Store(false)
	s.shared.nodes.Store(0)
	s.shared.budget = limits.Nodes
	var wg conc.WaitGroup
	for _, h := range s.helpers {
		wg.Go(func() {
			// A helper's only error is the main search's too: no legal move.
			_, _ = h.run(context.Background(), pos, clock.Limits{Infinite: true})
		})
	}
	res, err := s.run(ctx, pos, limits)
	s.shared.stop.Store(true)
	wg.Wait()
	for _, h := range s.helpers {
		res.Nodes += h.nodes
	}
	return res, err
}

// run is one thread's search: the iterative deepening. A helper searches
// one line with no limit but the stop, skipping some depths (skips) so
// that the threads do not all search the same iteration at once.
func (s *Searcher) run(ctx context.Context, pos *env.Position, limits clock.Limits) (Result, error) {
	s.pos.CopyFrom(pos)
	s.ctx = ctx
	s.start = time.Now()
	s.nodes, s.published, s.stopped, s.selDepth = 0, 0, false, 0
	s.maxNodes = limits.Nodes
	s.hardDeadline = time.Time{}
	target, most := limits.Window(pos.SideToMove())
	if most > 0 {
		s.hardDeadline = s.start.Add(most)
	}
	// alice-null's repetitions look through a pass (see env.MakePass).
	s.canPass = pos.Variant().Name != env.AliceNull.Name
	for c := range s.history {
		for f := range s.history[c] {
			for t := range s.history[c][f] {
				s.history[c][f][t] /= 2
			}
		}
	}

	root := &s.stack[0]
	s.pos.LegalMoves(&root.moves)
	if root.moves.N == 0 {
		return Result{}, fmt.Errorf("alphabeta: no legal move in %s", pos.FEN())
	}
	root.nLegal = root.moves.N
	root.eval = s.evaluate(root.moves.N, 0)
	if e, ok := s.tt.probe(s.pos.Hash()); ok {
		moveToFront(&root.moves, e.move)
	}
	for i := range root.moves.N {
		s.rootScores[i] = -infinity
	}

	res := Result{Move: root.moves.Moves[0]}
	nLines := max(1, min(s.MultiPV, MaxMultiPV, root.moves.N))
	if s.helper > 0 {
		nLines = 1
	}
	maxDepth := s.cfg.Depth
	if limits.Depth > 0 {
		maxDepth = min(maxDepth, limits.Depth)
	}
	var score int32
	tm := timeManager{target: target, most: most}
	for depth := 1; depth <= maxDepth; depth++ {
		if s.skips(depth) {
			continue
		}
		s.firstIteration = depth == 1 && s.helper == 0
		done := 0 // lines of this iteration searched fully
		for k := range nLines {
			last := score
			if k > 0 {
				last = int32(s.lines[k].Score) // the same line an iteration ago
			}
			v, best, ok := s.aspiration(depth, last, k)
			if !ok {
				break
			}
			s.nextBuf[k][0] = best
			n := copy(s.nextBuf[k][:], s.pv[0][:s.pvLen[0]])
			s.next[k] = Line{Score: int(v), MateIn: mateIn(v), PV: s.nextBuf[k][:max(n, 1)]}
			moveTo(&root.moves, s.rootScores[:], best, k) // the best k+1 are fixed: the rest next
			done++
			if s.stopped {
				break
			}
		}
		if done > 1 {
			// Each line was searched apart, and an unstable search can
			// score a later line above an earlier one: rank them.
			for i := 1; i < done; i++ {
				for j := i; j > 0 && s.next[j].Score > s.next[j-1].Score; j-- {
					s.next[j], s.next[j-1] = s.next[j-1], s.next[j]
				}
			}
			for k := range done {
				moveTo(&root.moves, s.rootScores[:], s.next[k].PV[0], k)
			}
		}
		if done > 0 {
			// A cut iteration's lines replace the last one's as far as they
			// go; the rest keep the last iteration's order below them.
			kept := 0
			if done < nLines && res.Depth > 0 {
				kept = s.keepLines(done, nLines)
			}
			nLines = done + kept
			copyLines(&s.lines, &s.linesBuf, &s.next, nLines)
			l := s.lines[0]
			tm.iterationDone(depth, l.PV[0] != res.Move, int32(l.Score), score)
			score = int32(l.Score)
			res.Move, res.Score, res.Depth, res.MateIn = l.PV[0], l.Score, depth, l.MateIn
			res.PV = l.PV
			res.Lines = s.lines[:nLines]
		}
		if s.stopped {
			break
		}
		if s.OnIteration != nil { // never set on a helper
			s.OnIteration(Info{Depth: depth, SelDepth: s.selDepth, Score: res.Score, MateIn: res.MateIn,
				Nodes: s.nodes - s.published + s.shared.nodes.Load(), Elapsed: time.Since(s.start), Hashfull: s.tt.hashfull(), PV: res.PV, Lines: res.Lines})
		}
		if !limits.Infinite {
			if root.moves.N == 1 && most > 0 {
				break // the only move: no time to spend on it
			}
			if nLines == 1 && res.MateIn != 0 && depth >= 2*abs(res.MateIn)+2 {
				break // no shorter mate and no longer defence to find
			}
			if tm.enough(time.Since(s.start)) {
				break
			}
		}
	}
	res.SelDepth, res.Nodes = s.selDepth, s.nodes
	if res.Depth == 0 {
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("alphabeta: %w", err)
		}
	}
	return res, nil
}

// skips reports whether a helper leaves out the iteration of depth: the
// n-th helper skips runs of size 1 + (n-1)/2 depths in turn, starting
// with depth n, so that with two threads the helper searches the even
// depths and the main search all of them.
func (s *Searcher) skips(depth int) bool {
	if s.helper == 0 {
		return false
	}
	size := 1 + (s.helper-1)/2
	return (depth+s.helper-1)/size%2 == 1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// mateIn converts a score to a mate's length in moves (0: no mate).
func mateIn(v int32) int {
	switch {
	case v >= mateBound:
		return int(Mate-v+1) / 2
	case v <= -mateBound:
		return -int(Mate+v) / 2
	}
	return 0
}

// aspiration searches the root at depth in a window around the last
// score, widening it until the score falls inside. ok reports a result
// usable after a stop: the iteration's best move was searched fully.
//
// It searches the root moves from first on: the lines before it are the
// better ones of a multi-PV search.
func (s *Searcher) aspiration(depth int, last int32, first int) (score int32, best env.Move, ok bool) {
	alpha, beta := int32(-infinity), int32(infinity)
	delta := int32(25)
	if depth >= 4 && last > -mateBound && last < mateBound {
		alpha, beta = max(last-delta, -infinity), min(last+delta, infinity)
	}
	for {
		v, m, full := s.searchRoot(depth, alpha, beta, first)
		if s.stopped {
			// A move searched fully that beat the window's floor is at
			// least as good as the last iteration's.
			return v, m, full && m != env.NoMove && v > alpha
		}
		switch {
		case v <= alpha:
			beta = (alpha + beta) / 2
			alpha = max(v-delta, -infinity)
		case v >= beta:
			beta = min(v+delta, infinity)
		default:
			return v, m, true
		}
		delta += delta / 2
		if delta > 1000 {
			alpha, beta = -infinity, infinity
		}
	}
}

// searchRoot searches every root move, the best of the last iteration
// first. full reports that the returned move was searched fully.
func (s *Searcher) searchRoot(depth int, alpha, beta int32, first int) (best int32, bestMove env.Move, full bool) {
	root := &s.stack[0]
	ml := &root.moves
	// Stable insertion sort by the last iteration's scores.
	for i := first + 1; i < ml.N; i++ {
		m, v := ml.Moves[i], s.rootScores[i]
		j := i
		for ; j > first && s.rootScores[j-1] < v; j-- {
			ml.Moves[j], s.rootScores[j] = ml.Moves[j-1], s.rootScores[j-1]
		}
		ml.Moves[j], s.rootScores[j] = m, v
	}
	s.pvLen[0] = 0
	best = -infinity
	for i := first; i < ml.N; i++ {
		m := ml.Moves[i]
		s.pos.MakeMove(m)
		var v int32
		if i == first {
			v = -s.search(depth-1, 1, -beta, -alpha, true, false)
		} else {
			v = -s.search(depth-1, 1, -alpha-1, -alpha, false, false)
			if v > alpha && v < beta && !s.stopped {
				v = -s.search(depth-1, 1, -beta, -alpha, true, false)
			}
		}
		s.pos.UnmakeMove()
		if s.stopped {
			return best, bestMove, bestMove != env.NoMove
		}
		if v > alpha || i == first {
			s.rootScores[i] = v
		} else {
			s.rootScores[i] = -infinity + 1 // below the best: order by nothing else
		}
		if v > best {
			best, bestMove = v, m
			s.updatePV(0, m)
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return best, bestMove, true
}

// moveTo moves m to index k of the root list, with its score, keeping the
// order of the others.
func moveTo(ml *env.MoveList, scores []int32, m env.Move, k int) {
	for i := k; i < ml.N; i++ {
		if ml.Moves[i] == m {
			v := scores[i]
			copy(ml.Moves[k+1:i+1], ml.Moves[k:i])
			copy(scores[k+1:i+1], scores[k:i])
			ml.Moves[k], scores[k] = m, v
			return
		}
	}
}

// keepLines moves the last iteration's lines that the first done lines
// of this one do not name to the places after them, among the first n,
// and returns how many it kept.
func (s *Searcher) keepLines(done, n int) int {
	kept := 0
	for k := 0; k < n && done+kept < n; k++ {
		l := s.lines[k]
		dup := false
		for j := range done {
			dup = dup || s.next[j].PV[0] == l.PV[0]
		}
		if !dup {
			s.next[done+kept] = l
			s.nextBuf[done+kept] = s.linesBuf[k]
			s.next[done+kept].PV = s.nextBuf[done+kept][:len(l.PV)]
			kept++
		}
	}
	return kept
}

// copyLines makes the first n lines of src the current ones, in dst's
// buffers.
func copyLines(dst *[MaxMultiPV]Line, buf *[MaxMultiPV][maxPly + 2]env.Move, src *[MaxMultiPV]Line, n int) {
	for k := range n {
		l := src[k]
		l.PV = buf[k][:copy(buf[k][:], l.PV)]
		dst[k] = l
	}
}

func moveToFront(ml *env.MoveList, m env.Move) {
	for i := 0; i < ml.N; i++ {
		if ml.Moves[i] == m {
			copy(ml.Moves[1:i+1], ml.Moves[:i])
			ml.Moves[0] = m
			return
		}
	}
}

func (s *Searcher) updatePV(ply int, m env.Move) {
	s.pv[ply][ply] = m
	n := copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
	s.pvLen[ply] = ply + 1 + n
}

// checkStop polls the clock and the context every 1024 nodes, the node
// budget (every thread's nodes) at every node. On several threads each
// publishes its nodes every 1024; a helper then polls the main search's
// stop and the budget.
func (s *Searcher) checkStop() bool {
	if s.stopped {
		return true
	}
	if s.firstIteration {
		return false // a search always completes depth 1: a move searched, whatever the limits
	}
	if s.maxNodes > 0 && s.nodes-s.published+s.shared.nodes.Load() >= s.maxNodes {
		s.stopped = true
		return true
	}
	if (s.helper > 0 || len(s.helpers) > 0) && s.nodes-s.published >= 1024 {
		all := s.shared.nodes.Add(s.nodes - s.published)
		s.published = s.nodes
		if s.helper > 0 {
			s.stopped = s.shared.stop.Load() || s.shared.budget > 0 && all >= s.shared.budget
			return s.stopped
		}
	}
	if s.helper > 0 {
		return false // a helper polls only when it publishes
	}
	if s.nodes&1023 != 0 {
		return false
	}
	if s.ctx.Err() != nil || !s.hardDeadline.IsZero() && time.Now().After(s.hardDeadline) {
		s.stopped = true
	}
	return s.stopped
}

// lmr[d][n] is the late-move reduction at depth d for the n-th move.
var lmr = func() (t [64][64]int) {
	for d := 1; d < 64; d++ {
		for n := 1; n < 64; n++ {
			t[d][n] = int(0.75 + math.Log(float64(d))*math.Log(float64(n))/2.25)
		}
	}
	return t
}()

// search is the negamax principal-variation search below the root.
func (s *Searcher) search(depth, ply int, alpha, beta int32, pvNode, afterPass bool) int32 {
	s.pvLen[ply] = ply
	if ply >= maxPly {
		return s.evaluate(0, 0)
	}
	if s.checkStop() {
		return 0
	}
	pos := s.pos
	if pos.Repetitions() >= 1 || pos.HalfmoveClock() == 0 && pos.OnlyKings() {
		return 0
	}
	// Mate-distance pruning: no line from here beats a mate found nearer
	// the root.
	alpha = max(alpha, -Mate+int32(ply))
	beta = min(beta, Mate-int32(ply)-1)
	if alpha >= beta {
		return alpha
	}
	inCheck := pos.InCheck()
	if inCheck {
		depth++
	}
	if depth <= 0 {
		return s.quiesce(ply, alpha, beta)
	}
	s.nodes++
	s.selDepth = max(s.selDepth, ply)

	key := pos.Hash()
	f := &s.stack[ply]
	excluded := f.excluded // set for a singular-extension search of this node
	ttMove, ttDepth, ttBound, ttScore := env.NoMove, 0, boundNone, int32(0)
	if e, ok := s.tt.probe(key); ok && excluded == env.NoMove {
		ttMove, ttDepth, ttBound = e.move, int(e.depth), e.bound()
		ttScore = fromTT(int32(e.score), ply)
		if !pvNode && int(e.depth) >= depth && cuts(e.bound(), ttScore, alpha, beta) {
			return ttScore
		}
	}

	ml := &f.moves
	pos.LegalMoves(ml)
	f.nLegal = ml.N
	if ml.N == 0 {
		if inCheck {
			return -Mate + int32(ply)
		}
		return 0
	}
	if pos.HalfmoveClock() >= 100 {
		return 0
	}
	us := pos.SideToMove()
	eval := int32(-infinity)
	if !inCheck {
		eval = s.evaluate(ml.N, s.stack[ply-1].nLegal)
	}
	f.eval = eval
	improving := ply >= 2 && !inCheck && eval > s.stack[ply-2].eval
	s.stack[ply+1].killers = [2]env.Move{}

	if !pvNode && !inCheck && excluded == env.NoMove && beta < mateBound && beta > -mateBound {
		// Reverse futility: far enough above beta, a shallow search will
		// not fall below it.
		if depth <= 5 && eval-int32(100*depth) >= beta {
			return eval
		}
		// Null move: if passing still holds beta, a real move will.
		if s.canPass && !afterPass && depth >= 3 && eval >= beta && hasPieces(pos, us) {
			r := 3 + depth/4 + int(min((eval-beta)/200, 3))
			pos.MakePass()
			v := -s.search(depth-1-r, ply+1, -beta, -beta+1, false, true)
			pos.UnmakeMove()
			if s.stopped {
				return 0
			}
			if v >= beta {
				return min(v, mateBound-1)
			}
		}
	}

	// Internal iterative reduction: a node the table knows no move for is
	// searched a ply shallower (its move ordering is poor; the next
	// iteration finds the move here).
	if depth >= 4 && ttMove == env.NoMove {
		depth--
	}

	// Singular extension: when the table's move is the only one that
	// holds its score (every other move, searched shallower, falls well
	// below it), it is searched a ply deeper; when another also holds a
	// score above beta, the node cuts off (multi-cut).
	singular := false
	if excluded == env.NoMove && ply > 0 && depth >= 7 && ttMove != env.NoMove && ttBound != boundUpper &&
		ttDepth >= depth-3 && ttScore > -mateBound && ttScore < mateBound {
		sBeta := ttScore - int32(2*depth)
		f.excluded = ttMove
		v := s.search((depth-1)/2, ply, sBeta-1, sBeta, false, afterPass)
		f.excluded = env.NoMove
		if s.stopped {
			return 0
		}
		if v < sBeta {
			singular = true
		} else if sBeta >= beta {
			return sBeta
		}
		// That search used this ply's list and state: set them again.
		pos.LegalMoves(ml)
		f.nLegal, f.eval = ml.N, eval
		s.stack[ply+1].killers = [2]env.Move{}
	}

	s.scoreMoves(ply, ttMove, false)
	var counter env.Move
	if last := pos.LastMove(); last != env.NoMove {
		counter = s.counter[last.From()][last.To()]
	}
	best, bestMove := int32(-infinity), env.NoMove
	var quiets [64]env.Move
	nQuiets, searched := 0, 0
	for i := 0; i < ml.N; i++ {
		m := s.pick(ply, i, ml.N)
		if m == excluded {
			continue
		}
		tactical := pos.Captured(m) != env.NoPiece || m.Promotion() != env.NoKind
		killer := m == f.killers[0] || m == f.killers[1] || m == counter
		pos.MakeMove(m)
		givesCheck := pos.InCheck()
		quiet := !tactical && !givesCheck && !inCheck
		if !pvNode && quiet && searched > 0 && best > -mateBound {
			// Late-move pruning and futility: at low depth, quiet moves
			// far down the ordering or far below alpha are not tried.
			lmpCount := 3 + depth*depth
			if !improving {
				lmpCount /= 2
			}
			if depth <= 4 && searched >= lmpCount || depth <= 2 && eval+int32(120*depth) <= alpha {
				pos.UnmakeMove()
				continue
			}
		}
		newDepth := depth - 1
		if singular && m == ttMove {
			newDepth++
		}
		var v int32
		if searched == 0 {
			v = -s.search(newDepth, ply+1, -beta, -alpha, pvNode, false)
		} else {
			r := 0
			if depth >= 3 && quiet && searched >= 2 {
				r = lmr[min(depth, 63)][min(searched, 63)]
				if pvNode {
					r--
				}
				if !improving {
					r++
				}
				if killer {
					r--
				}
				r -= int(s.history[us][m.From()][m.To()] / (historyMax / 2))
				r = max(0, min(r, newDepth-1))
			}
			v = -s.search(newDepth-r, ply+1, -alpha-1, -alpha, false, false)
			if v > alpha && r > 0 && !s.stopped {
				v = -s.search(newDepth, ply+1, -alpha-1, -alpha, false, false)
			}
			if pvNode && v > alpha && v < beta && !s.stopped {
				v = -s.search(newDepth, ply+1, -beta, -alpha, true, false)
			}
		}
		pos.UnmakeMove()
		if s.stopped {
			return 0
		}
		searched++
		if v > best {
			best = v
			if v > alpha {
				bestMove = m
				alpha = v
				if pvNode {
					s.updatePV(ply, m)
				}
				if v >= beta {
					if !tactical {
						s.rewardQuiet(ply, us, m, depth, quiets[:nQuiets])
					}
					break
				}
			}
		}
		if !tactical && nQuiets < len(quiets) {
			quiets[nQuiets] = m
			nQuiets++
		}
	}
	if excluded != env.NoMove {
		if searched == 0 {
			return alpha // the excluded move was the only one
		}
		return best // a result without the node's best move: not stored
	}
	bound := boundUpper
	switch {
	case best >= beta:
		bound = boundLower
	case bestMove != env.NoMove:
		bound = boundExact
	}
	s.tt.store(key, bestMove, toTT(best, ply), depth, bound)
	return best
}

// quiesce searches captures and promotions (every evasion when in check)
// until the position is quiet, so that no leaf is scored in the middle of
// an exchange.
func (s *Searcher) quiesce(ply int, alpha, beta int32) int32 {
	s.pvLen[ply] = ply
	s.nodes++
	s.selDepth = max(s.selDepth, ply)
	if ply >= maxPly {
		return s.evaluate(0, 0)
	}
	if s.checkStop() {
		return 0
	}
	pos := s.pos
	f := &s.stack[ply]
	ml := &f.moves
	pos.LegalMoves(ml)
	f.nLegal = ml.N
	inCheck := pos.InCheck()
	if ml.N == 0 {
		if inCheck {
			return -Mate + int32(ply)
		}
		return 0
	}
	if pos.HalfmoveClock() >= 100 || pos.HalfmoveClock() == 0 && pos.OnlyKings() {
		return 0
	}
	key := pos.Hash()
	ttMove := env.NoMove
	if e, ok := s.tt.probe(key); ok {
		ttMove = e.move
		// Off the principal variation (a null window) the entry may cut.
		if v := fromTT(int32(e.score), ply); beta-alpha == 1 && cuts(e.bound(), v, alpha, beta) {
			return v
		}
	}
	alpha0 := alpha
	best := int32(-infinity)
	stand := int32(0)
	if !inCheck {
		stand = s.evaluate(ml.N, s.stack[ply-1].nLegal)
		if stand >= beta {
			return stand
		}
		alpha = max(alpha, stand)
		best = stand
	}
	if !inCheck && ttMove != env.NoMove && pos.Captured(ttMove) == env.NoPiece && ttMove.Promotion() == env.NoKind {
		ttMove = env.NoMove // a quiet move the main search stored: not searched here
	}
	n := s.scoreMoves(ply, ttMove, !inCheck)
	bestMove := env.NoMove
	for i := 0; i < n; i++ {
		m := s.pick(ply, i, n)
		if !inCheck && m.Promotion() == env.NoKind {
			// Delta pruning: even winning the man outright leaves us
			// below alpha.
			if victim := pos.Captured(m); victim != env.NoPiece && stand+pieceValue[victim.Kind()]+200 <= alpha {
				continue
			}
		}
		pos.MakeMove(m)
		v := -s.quiesce(ply+1, -beta, -alpha)
		pos.UnmakeMove()
		if s.stopped {
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				bestMove = m
				s.updatePV(ply, m)
				if v >= beta {
					break
				}
			}
		}
	}
	bound := boundUpper
	switch {
	case best >= beta:
		bound = boundLower
	case best > alpha0:
		bound = boundExact
	}
	s.tt.store(key, bestMove, toTT(best, ply), 0, bound)
	return best
}

// Move-ordering keys.
const (
	keyTT      = 1 << 30
	keyCapture = 1 << 24
	keyKiller  = 1 << 23
	keyCounter = 1 << 22
	historyMax = 1 << 20
)

// scoreMoves gives every move of ply's list its ordering key; with
// tacticalOnly it keeps only the captures and promotions, first in the
// list, and returns how many there are.
func (s *Searcher) scoreMoves(ply int, ttMove env.Move, tacticalOnly bool) int {
	f := &s.stack[ply]
	ml := &f.moves
	pos := s.pos
	us := pos.SideToMove()
	var counter env.Move
	if last := pos.LastMove(); last != env.NoMove {
		counter = s.counter[last.From()][last.To()]
	}
	n := 0
	for i := 0; i < ml.N; i++ {
		m := ml.Moves[i]
		var k int32
		switch victim := pos.Captured(m); {
		case m == ttMove:
			k = keyTT
		case victim != env.NoPiece || m.Promotion() != env.NoKind:
			k = keyCapture
			if victim != env.NoPiece {
				x, _ := pos.MoveBoards(m)
				attacker := pos.PieceOn(m.From(), x)
				k += 16*pieceValue[victim.Kind()] - pieceValue[attacker.Kind()]/10
			}
			if p := m.Promotion(); p != env.NoKind {
				k += pieceValue[p]
			}
		case tacticalOnly:
			continue
		case m == f.killers[0]:
			k = keyKiller
		case m == f.killers[1]:
			k = keyKiller - 1
		case m == counter:
			k = keyCounter
		default:
			k = s.history[us][m.From()][m.To()]
		}
		ml.Moves[n], f.keys[n] = m, k
		n++
	}
	if !tacticalOnly {
		ml.N = n
	}
	return n
}

// pick moves the best-keyed move among i..n-1 of ply's list to i and
// returns it (a selection sort step: most nodes cut off after a few).
func (s *Searcher) pick(ply, i, n int) env.Move {
	f := &s.stack[ply]
	ml := &f.moves
	bi := i
	for j := i + 1; j < n; j++ {
		if f.keys[j] > f.keys[bi] {
			bi = j
		}
	}
	ml.Moves[i], ml.Moves[bi] = ml.Moves[bi], ml.Moves[i]
	f.keys[i], f.keys[bi] = f.keys[bi], f.keys[i]
	return ml.Moves[i]
}

// rewardQuiet records a quiet move that cut off: a killer of its ply, the
// counter to the opponent's last move, a history bonus; the quiet moves
// tried before it get the same as a malus.
func (s *Searcher) rewardQuiet(ply int, us env.Colour, m env.Move, depth int, tried []env.Move) {
	f := &s.stack[ply]
	if f.killers[0] != m {
		f.killers[1], f.killers[0] = f.killers[0], m
	}
	if last := s.pos.LastMove(); last != env.NoMove {
		s.counter[last.From()][last.To()] = m
	}
	bonus := int32(min(depth*depth, 400))
	s.addHistory(us, m, bonus)
	for _, q := range tried {
		s.addHistory(us, q, -bonus)
	}
}

// addHistory moves a history score toward ±historyMax, the more slowly
// the nearer it is.
func (s *Searcher) addHistory(us env.Colour, m env.Move, bonus int32) {
	h := &s.history[us][m.From()][m.To()]
	b := bonus * 32
	*h += b - *h*abs32(b)/historyMax
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// hasPieces reports whether side c has a man other than pawns and king:
// without one, zugzwang makes passing unsafe.
func hasPieces(pos *env.Position, c env.Colour) bool {
	for k := env.Knight; k < env.King; k++ {
		if pos.Pieces(c, k) != 0 {
			return true
		}
	}
	return false
}

// cuts reports whether a stored score v with its bound settles a search
// of the window (alpha, beta): exact, or a bound beyond the window.
func cuts(bound uint8, v, alpha, beta int32) bool {
	switch bound {
	case boundExact:
		return true
	case boundLower:
		return v >= beta
	case boundUpper:
		return v <= alpha
	}
	return false
}
