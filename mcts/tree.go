package mcts

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"

	"github.com/alicezero/alicezero/env"
)

// Node states.
const (
	stUnexpanded uint8 = iota // never reached by a playout
	stPending                 // its evaluation is in flight
	stExpanded                // has children
	stTerminal                // the game is over here (by the rules)
)

// Proofs: a node whose game-theoretic value is known exactly (MCTS-solver).
const (
	proofNone int8 = iota
	proofWin       // the side to move at the node wins (mates) in dist plies
	proofLoss      // the side to move is mated in dist plies
	proofDraw      // a forced draw
)

// node is one position of the tree. Nodes live in a flat node pool (Tree.nodes)
// and name each other by index; the children of a node are contiguous.
// Values are sums over the node's visits of W-L (and D) from the view of
// the side to move at the node.
type node struct {
	wl           float64
	d            float64
	move         env.Move // the move from the parent
	prior        float32  // P(parent, move), noise included at the root
	nnWL         float32  // the network's W-L here (own view); exact value if terminal
	visitedPrior float32  // sum of the priors of children with visits
	n            int32    // completed visits
	inflight     int32    // playouts through here awaiting evaluation
	first        int32    // index of the first child; -1 if none
	nChild       uint16
	dist         uint16 // plies to the end of a proven result
	state        uint8
	proof        int8
}

// Tree is the search tree of one game: its root position, the node pool
// (reused from move to move and game to game), and the game's random
// generator. Make one with Searcher.NewTree. A Tree is used by one search
// at a time; between searches the owner advances it with Advance.
type Tree struct {
	s    *Searcher
	cfg  *Config
	root *env.Position // the position searched
	work *env.Position // the playout position: equal to root between playouts

	nodes []node // nodes[0] is the root
	spare []node // the other pool, for compaction on Advance
	rng   *rand.Rand
	busy  atomic.Bool

	// The current search.
	budget    int  // playouts this search may start
	started   int  // playouts started (in flight or done)
	inFlight  int  // leaves awaiting evaluation
	playouts  int  // playouts completed
	stopped   bool // start no more playouts
	small     bool // playout-cap randomisation picked a small search
	useGumbel bool
	noise     bool // root noise allowed (Dirichlet or Gumbel, as configured)
	depthSum  int
	selDepth  int

	// SearchBatch's per-batch counts.
	batchLeaves int
	batchColl   int
	// sitOut marks a tree whose leaves are in the batch being evaluated
	// while the next one is gathered (see runGroup).
	sitOut bool

	// Root priors as they were before Dirichlet noise.
	savedPriors []float32
	priorsSaved bool

	// Gumbel root state: per root child.
	gLogits []float32 // log prior
	gNoise  []float32 // Gumbel sample (0 without noise)
	gVisits []int32   // playouts dispatched this search
	gSeq    []int32   // sequential halving: visit count each playout targets
	gSims   int       // root playouts dispatched this search

	qbuf    [env.MaxMoves]float32
	wbuf    [env.MaxMoves]float64
	scratch [env.MaxMoves]float32
	dirBuf  []float64
	probeML env.MoveList
	probe2  [2]env.MoveList // the mate-in-two probe's replies and their moves
}

// NewTree returns a tree for searching pos (copied) with this searcher's
// settings; seed fixes the tree's random choices (noise, playout caps, move
// sampling).
func (s *Searcher) NewTree(pos *env.Position, seed uint64) (*Tree, error) {
	if pos == nil {
		return nil, fmt.Errorf("mcts: NewTree: nil position")
	}
	t := &Tree{
		s:    s,
		cfg:  &s.cfg,
		root: pos.Clone(),
		work: pos.Clone(),
		rng:  newRand(seed),
	}
	if m := s.cfg.MaxTreeNodes; m > 0 {
		// A bounded pool is reserved at its bound once and never grows
		// (see alloc): the pages cost memory only as the tree reaches
		// them.
		t.nodes = make([]node, 0, m)
	}
	t.resetNodes()
	return t, nil
}

// Reseed restarts the tree's random generator from seed.
func (t *Tree) Reseed(seed uint64) { t.rng = newRand(seed) }

// Reset makes pos (copied) the root and discards the tree, keeping the
// pools' memory. The random generator continues.
func (t *Tree) Reset(pos *env.Position) error {
	if pos == nil {
		return fmt.Errorf("mcts: Reset: nil position")
	}
	if !t.busy.CompareAndSwap(false, true) {
		return fmt.Errorf("mcts: Reset: %w", ErrTreeBusy)
	}
	defer t.busy.Store(false)
	t.root.CopyFrom(pos)
	t.work.CopyFrom(pos)
	t.resetNodes()
	return nil
}

// Position returns a copy of the root position.
func (t *Tree) Position() *env.Position { return t.root.Clone() }

// Ply returns the root position's ply.
func (t *Tree) Ply() int { return t.root.Ply() }

// Status returns the state of play at the root, with the configured ply
// cap.
func (t *Tree) Status() env.Status { return t.root.StatusWithCap(t.cfg.PlyCap) }

// Size returns the number of nodes in the tree.
func (t *Tree) Size() int { return len(t.nodes) }

// RootVisits returns the root's visit count.
func (t *Tree) RootVisits() int { return int(t.nodes[0].n) }

func (t *Tree) resetNodes() {
	t.nodes = append(t.nodes[:0], node{first: -1})
	t.priorsSaved = false
}

// Advance plays m at the root. With Config.ReuseTree the subtree of m is
// kept (its visits and values carry over); otherwise the tree starts afresh.
func (t *Tree) Advance(m env.Move) error {
	if !t.busy.CompareAndSwap(false, true) {
		return fmt.Errorf("mcts: Advance: %w", ErrTreeBusy)
	}
	defer t.busy.Store(false)
	var ml env.MoveList
	t.root.LegalMoves(&ml)
	mv, ok := ml.Find(m)
	if !ok {
		return fmt.Errorf("mcts: Advance %s: %w", m.UCI(), ErrIllegalMove)
	}
	child := int32(-1)
	if r := &t.nodes[0]; t.cfg.ReuseTree && r.state == stExpanded {
		for i := r.first; i < r.first+int32(r.nChild); i++ {
			if t.nodes[i].move == mv {
				child = i
				break
			}
		}
	}
	t.root.MakeMove(mv)
	t.work.MakeMove(mv)
	if child >= 0 && t.nodes[child].state != stUnexpanded {
		t.compact(child)
	} else {
		t.resetNodes()
	}
	t.priorsSaved = false
	return nil
}

// compact copies the subtree of node c into the spare pool (breadth
// first, so children stay contiguous) and makes it the tree.
func (t *Tree) compact(c int32) {
	if cap(t.spare) < len(t.nodes) {
		// The subtree is no larger than the tree. A bounded tree's
		// spare is reserved at the bound, as its pool is.
		t.spare = make([]node, 0, max(len(t.nodes), t.cfg.MaxTreeNodes))
	}
	dst := append(t.spare[:0], t.nodes[c])
	dst[0].prior = 0
	for i := 0; i < len(dst); i++ {
		dst[i].inflight = 0
		if dst[i].state == stPending {
			dst[i].state = stUnexpanded
		}
		if nc := int32(dst[i].nChild); nc > 0 {
			old := dst[i].first
			nf := int32(len(dst))
			dst = append(dst, t.nodes[old:old+nc]...)
			dst[i].first = nf
		}
	}
	t.spare = t.nodes[:0]
	t.nodes = dst
}

// SetPosition makes pos the root. If pos continues the root's game by a few
// moves, the tree advances through them (keeping subtrees under ReuseTree);
// otherwise it is reset.
func (t *Tree) SetPosition(pos *env.Position) error {
	if pos == nil {
		return fmt.Errorf("mcts: SetPosition: nil position")
	}
	k := pos.Ply() - t.root.Ply()
	if t.cfg.ReuseTree && k >= 0 && k <= 32 && pos.Variant() == t.root.Variant() {
		q := pos.Clone()
		moves := make([]env.Move, k)
		for i := k - 1; i >= 0; i-- {
			moves[i] = q.LastMove()
			q.UnmakeMove()
		}
		if q.Hash() == t.root.Hash() && q.HalfmoveClock() == t.root.HalfmoveClock() &&
			q.Repetitions() == t.root.Repetitions() && q.FEN() == t.root.FEN() {
			for _, m := range moves {
				if err := t.Advance(m); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return t.Reset(pos)
}

// alloc appends n fresh nodes to the pool and returns the first's index.
// A bounded pool (Config.MaxTreeNodes) was reserved at its bound and is
// never copied: growing one by doubling copies up to the whole tree in
// one memmove, which the runtime cannot preempt. Where fresh pages fault
// in slowly (14 µs a page on the 2-core VM of docs/PERFORMANCE.md) such
// a copy held every goroutine of the process at the collector's next
// stop-the-world for up to a second. An unbounded pool (self-play's
// small trees) grows as slices do.
func (t *Tree) alloc(n int) int32 {
	first := len(t.nodes)
	t.nodes = slices.Grow(t.nodes, n)[:first+n]
	return int32(first)
}

// statusOf is env's Status for a position whose legal moves (nLegal) and
// repetition count are already known.
func statusOf(p *env.Position, nLegal, reps, plyCap int) env.Status {
	st := p.StatusGiven(nLegal, reps)
	if st == env.Ongoing && plyCap > 0 && p.Ply() >= plyCap {
		return env.Adjudicated
	}
	return st
}
