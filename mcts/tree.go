package mcts

import (
	"fmt"
	"iter"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"time"
	"unsafe"

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

// node is one position of the tree, made when a playout first reaches
// it. Nodes live in a flat node pool (Tree.nodes) and name each other by
// index. An expanded node's moves are its edges, contiguous in the edge
// pool (Tree.edges); the children made so far form a list in edge order
// (child, then each one's sibling), as lc0 stores them: a move costs an
// edge of 8 bytes until a playout tries it, and a node of 56 once one
// has. Values are sums over the node's visits of W-L (and D) from the
// view of the side to move at the node.
type node struct {
	wl           float64
	d            float64
	nnWL         float32 // the network's W-L here (own view); exact value if terminal
	visitedPrior float32 // sum of the priors of children with visits
	n            int32   // completed visits
	inflight     int32   // playouts through here awaiting evaluation
	edges        int32   // index of the first of the node's nEdges edges
	child        int32   // the first child (lowest edge offset); -1 if none
	sibling      int32   // the parent's next child (higher edge offset); -1 if none
	nEdges       uint16
	edge         uint16 // offset among the parent's edges of the move leading here
	dist         uint16 // plies to the end of a proven result
	state        uint8
	proof        int8
}

// edge is one legal move of an expanded node and its prior P(parent,
// move), noise included at the root.
type edge struct {
	move  env.Move
	prior float32
}

// Sizes of a node and an edge in the pools, in bytes.
const (
	nodeBytes = int(unsafe.Sizeof(node{}))
	edgeBytes = int(unsafe.Sizeof(edge{}))
)

// Tree is the search tree of one game: its root position, the node and
// edge pools (reused from move to move and game to game), and the game's
// random generator. Make one with Searcher.NewTree. A Tree is used by one
// search at a time; between searches the owner advances it with Advance.
type Tree struct {
	s    *Searcher
	cfg  *Config
	root *env.Position // the position searched
	work *env.Position // the playout position: equal to root between playouts

	nodes []node // nodes[0] is the root
	edges []edge
	// The spare pools a rebuild compacts the tree into (see rebuild).
	spareNodes []node
	spareEdges []edge
	bounded    bool // Config.TreeBytes set: the pools never grow
	rng        *rand.Rand
	busy       atomic.Bool

	// The current search.
	budget     int  // playouts this search may start
	started    int  // playouts started (in flight or done)
	inFlight   int  // leaves awaiting evaluation
	edgesOwed  int  // edges the leaves in flight will take when expanded
	collisions int  // collision paths holding virtual loss
	playouts   int  // playouts completed
	stopped    bool // start no more playouts
	small      bool // playout-cap randomisation picked a small search
	useGumbel  bool
	noise      bool // root noise allowed (Dirichlet or Gumbel, as configured)
	depthSum   int
	selDepth   int
	// recycleBy, if set, is when the search ends: a full tree is not
	// recycled when the rebuild would not be over by then.
	recycleBy time.Time
	recycles  int // rebuilds of a full tree since the tree was made

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
	kids    [env.MaxMoves]int32 // children's view: the child node per edge offset, or -1
	dirBuf  []float64
	probeML env.MoveList
	probe2  [2]env.MoveList // the mate-in-two probe's replies and their moves
	// The rebuild's scratch: the subtree walk's stack and the visit
	// histogram that picks what to keep.
	walk []int32
	hist [histBuckets]keptCost
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
	if b := s.cfg.TreeBytes; b > 0 {
		// Bounded pools are reserved at their bound once and never grow
		// (see alloc): their pages cost memory only as the tree reaches
		// them.
		nodes, edges := poolSizes(b)
		t.bounded = true
		t.nodes, t.edges = make([]node, 0, nodes), make([]edge, 0, edges)
		t.spareNodes, t.spareEdges = make([]node, 0, nodes/2), make([]edge, 0, edges/2)
	}
	t.resetNodes()
	return t, nil
}

// poolSizes splits a tree's memory budget of bytes: two thirds for the
// pools the tree grows in, a third for the spare pools, of half their
// size, that a rebuild compacts it into; in each, a quarter of the bytes
// for nodes and the rest for edges (the pools fill together at about 21
// moves a position; an opening position has about 30). It returns the
// capacities of the growing pools.
func poolSizes(bytes int) (nodes, edges int) {
	grow := bytes / 3 * 2
	nodes = min(grow/4/nodeBytes, math.MaxInt32)
	edges = min((grow-grow/4)/edgeBytes, math.MaxInt32)
	return nodes, edges
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

// Size returns the number of nodes in the tree (positions reached by a
// playout).
func (t *Tree) Size() int { return len(t.nodes) }

// Bytes returns the memory the tree's nodes and edges take.
func (t *Tree) Bytes() int { return len(t.nodes)*nodeBytes + len(t.edges)*edgeBytes }

func (t *Tree) resetNodes() {
	t.nodes = append(t.nodes[:0], node{edges: -1, child: -1, sibling: -1})
	t.edges = t.edges[:0]
	t.priorsSaved = false
}

// Advance plays m at the root. With Config.ReuseTree the subtree of m is
// kept (its visits and values carry over; a bounded tree keeps what fits
// its spare pools, its most visited part); otherwise the tree starts
// afresh.
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
		for off, c := range t.childrenOf(0) {
			if t.edges[r.edges+int32(off)].move == mv {
				child = c
				break
			}
		}
	}
	t.root.MakeMove(mv)
	t.work.MakeMove(mv)
	if child >= 0 && t.nodes[child].state != stUnexpanded {
		t.rebuild(child)
	} else {
		t.resetNodes()
	}
	t.priorsSaved = false
	return nil
}

// childrenOf iterates over node idx's children: each one's edge offset and
// node index, in edge order.
func (t *Tree) childrenOf(idx int32) iter.Seq2[int, int32] {
	return func(yield func(int, int32) bool) {
		for c := t.nodes[idx].child; c >= 0; c = t.nodes[c].sibling {
			if !yield(int(t.nodes[c].edge), c) {
				return
			}
		}
	}
}

// children fills t.kids with node idx's child node per edge offset (-1
// for a move no playout has tried) and returns its edges and that view.
func (t *Tree) children(idx int32) ([]edge, []int32) {
	nd := &t.nodes[idx]
	es := t.edges[nd.edges : nd.edges+int32(nd.nEdges)]
	kids := t.kids[:len(es)]
	for i := range kids {
		kids[i] = -1
	}
	for off, c := range t.childrenOf(idx) {
		kids[off] = c
	}
	return es, kids
}

// childAt returns node p's child for its edge offset off, or -1.
func (t *Tree) childAt(p int32, off int) int32 {
	for o, c := range t.childrenOf(p) {
		if o >= off {
			if o == off {
				return c
			}
			break
		}
	}
	return -1
}

// addChild makes the node of node p's move at edge offset off (which has
// none yet) and links it into p's children in edge order.
func (t *Tree) addChild(p int32, off int) int32 {
	c := t.allocNodes(1)
	t.nodes[c] = node{edges: -1, child: -1, sibling: -1, edge: uint16(off)}
	prev := int32(-1)
	for o, x := range t.childrenOf(p) {
		if o > off {
			break
		}
		prev = x
	}
	if prev < 0 {
		t.nodes[c].sibling, t.nodes[p].child = t.nodes[p].child, c
	} else {
		t.nodes[c].sibling, t.nodes[prev].sibling = t.nodes[prev].sibling, c
	}
	return c
}

// childOrAdd returns node p's child at edge offset off, making it if need
// be.
func (t *Tree) childOrAdd(p int32, off int) int32 {
	if c := t.childAt(p, off); c >= 0 {
		return c
	}
	return t.addChild(p, off)
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
		// pos continues the root's game when both were set up from the
		// same position and the root's moves begin pos's: the root is
		// then pos as it stood k moves ago, history and all.
		g, r := env.GameOf(pos), env.GameOf(t.root)
		if g.StartFEN == r.StartFEN && slices.Equal(g.Moves[:len(r.Moves)], r.Moves) {
			for _, m := range g.Moves[len(r.Moves):] {
				if err := t.Advance(m); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return t.Reset(pos)
}

// allocNodes appends n fresh nodes to the node pool and returns the
// first's index; allocEdges does the same for edges. Bounded pools
// (Config.TreeBytes) were reserved at their bound and are never copied:
// the search recycles a full tree instead (hasRoom, recycle). Growing a
// pool by doubling copies it whole in one memmove, which the runtime
// cannot preempt: where fresh pages fault in slowly (14 µs a page on the
// 2-core VM of docs/PERFORMANCE.md) such a copy held every goroutine of
// the process at the collector's next stop-the-world for up to a second.
// Unbounded pools (self-play's small trees) grow as slices do.
func (t *Tree) allocNodes(n int) int32 {
	first := len(t.nodes)
	t.nodes = slices.Grow(t.nodes, n)[:first+n]
	return int32(first)
}

func (t *Tree) allocEdges(n int) int32 {
	first := len(t.edges)
	t.edges = slices.Grow(t.edges, n)[:first+n]
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
