package mcts

import (
	"math"
	"slices"

	"github.com/alicezero/alicezero/env"
)

// leafSlot is one playout in flight: the path from the root (node
// pool indices), and for a leaf awaiting evaluation its legal moves, their
// policy indices and its cache key.
type leafSlot struct {
	t         *Tree
	path      []int32
	rootChild int32 // Gumbel root: the root child counted in gVisits, or -1
	key       uint64
	ml        env.MoveList
	idx       [env.MaxMoves]int16
}

type gatherResult uint8

const (
	gotNothing   gatherResult = iota // the tree cannot start a playout now
	gotLeaf                          // slot holds a leaf to evaluate; planes written
	gotCollision                     // slot holds a collision path (virtual loss applied)
)

// canDispatch reports whether the tree may start another playout. A
// proven root needs no more search. A full tree waits for its leaves in
// flight, then is recycled (see makeRoom).
func (t *Tree) canDispatch() bool {
	if t.stopped || t.started >= t.budget || t.nodes[0].proof != proofNone {
		return false
	}
	return t.hasRoom() || t.quiescent()
}

// done reports whether the search is over: nothing more to start and
// nothing in flight.
func (t *Tree) done() bool { return t.inFlight == 0 && !t.canDispatch() }

// maxImmediate bounds the playouts one gather completes without the
// network before it returns, so that callers see their stop conditions.
const maxImmediate = 1024

// gather runs playouts until one needs the network (its planes are written
// to row), one collides with a leaf in flight, or no playout may start.
// Playouts that end on a terminal, proven or cached position complete on
// the spot; after maxImmediate of them gather returns gotNothing although
// the tree may go on (callers tell the cases apart with done).
func (t *Tree) gather(sl *leafSlot, row []float32) gatherResult {
	for range maxImmediate {
		if !t.canDispatch() || (!t.hasRoom() && !t.makeRoom()) {
			break
		}
		switch t.playout(sl, row) {
		case gotLeaf:
			return gotLeaf
		case gotCollision:
			return gotCollision
		case gotNothing:
			return gotNothing
		}
		// A playout completed without the network: go on.
	}
	return gotNothing
}

// playDone: the playout completed without the network (terminal, proven
// or cached leaf).
const playDone gatherResult = 255

func (t *Tree) playout(sl *leafSlot, row []float32) gatherResult {
	sl.t = t
	sl.rootChild = -1
	path := append(sl.path[:0], 0)
	w := t.work
	idx := int32(0)
	for {
		nd := &t.nodes[idx]
		if nd.state == stPending {
			depth := len(path) - 1
			if depth == 0 {
				sl.path = path
				return gotNothing // the root itself is being evaluated
			}
			t.unwind(depth)
			sl.path = path
			if t.useGumbel {
				// Sequential halving must not run ahead of a blocked
				// action: give the playout back and wait for the batch.
				t.undoRootChild(sl)
				return gotNothing
			}
			for _, p := range path {
				t.nodes[p].inflight++
			}
			t.collisions++
			return gotCollision
		}
		if nd.state == stTerminal || (idx != 0 && nd.proof != proofNone) {
			v, d := t.provenValue(nd.proof)
			depth := len(path) - 1
			t.started++
			t.noteDepth(depth)
			t.backup(path, v, d, false)
			t.unwind(depth)
			sl.path = path
			return playDone
		}
		if nd.state == stUnexpanded {
			break
		}
		c := t.selectChild(idx, sl)
		w.MakeMove(t.edges[t.nodes[idx].edges+int32(t.nodes[c].edge)].move)
		idx = c
		path = append(path, c)
	}
	sl.path = path
	depth := len(path) - 1
	leaf := idx
	ml := &sl.ml
	w.LegalMoves(ml)
	reps := w.Repetitions()
	t.started++
	t.noteDepth(depth)
	if st := statusOf(w, ml.N, reps, t.cfg.PlyCap); st != env.Ongoing {
		nd := &t.nodes[leaf]
		nd.state = stTerminal
		nd.proof, nd.nnWL = t.terminalProof(w, st)
		v, d := t.provenValue(nd.proof)
		t.backup(path, v, d, false)
		t.propagateProof(path)
		t.unwind(depth)
		return playDone
	}
	// The cache first: it only holds positions the network evaluated, which
	// the mate probe below had found no mate in one in (a position with one
	// never reaches the network), so a hit needs no probe, which costs a
	// move, a check test and sometimes a move generation per legal move.
	key := cacheKey(w, reps)
	if wdl, ok := t.s.cache.lookup(key, ml.N, t.scratch[:ml.N]); ok {
		t.expand(leaf, ml, t.scratch[:ml.N], wdl)
		t.backup(path, wdl[0]-wdl[2], wdl[1], false)
		t.unwind(depth)
		if leaf == 0 {
			t.rootExpanded()
		}
		return playDone
	}
	if dist := t.probeMate(w, ml, leaf); dist > 0 {
		// The side to move mates: proven, no network needed.
		nd := &t.nodes[leaf]
		nd.proof, nd.dist, nd.nnWL = proofWin, uint16(dist), 1
		t.backup(path, 1, 0, false)
		t.propagateProof(path)
		t.unwind(depth)
		return playDone
	}
	for i, m := range ml.Moves[:ml.N] {
		sl.idx[i] = int16(w.PolicyIndex(m))
	}
	w.Encode(row)
	sl.key = key
	t.nodes[leaf].state = stPending
	for _, p := range path {
		t.nodes[p].inflight++
	}
	t.inFlight++
	t.edgesOwed += ml.N
	t.unwind(depth)
	return gotLeaf
}

// probeMate returns the plies to the mate Config.MateProbe finds for the
// side to move at w, a new leaf with legal moves ml; 0 when it finds none
// (or the leaf is the root, whose moves the search itself proves).
func (t *Tree) probeMate(w *env.Position, ml *env.MoveList, leaf int32) int {
	switch {
	case t.cfg.MateProbe == 0 || leaf == 0:
		return 0
	case hasMateIn1(w, ml, &t.probeML):
		return 1
	case t.cfg.MateProbe >= 2 && t.hasCheckingMateIn2(w, ml):
		return 3
	}
	return 0
}

// hasCheckingMateIn2 reports whether a checking move of p's legal moves ml
// leaves the opponent only replies after which a move mates, and the game
// not over first (a repetition, the fifty-move rule, the ply cap). p has no
// mate in one.
func (t *Tree) hasCheckingMateIn2(p *env.Position, ml *env.MoveList) bool {
	replies, next := &t.probe2[0], &t.probe2[1]
	for _, m := range ml.Moves[:ml.N] {
		p.MakeMove(m)
		forced := false
		if p.InCheck() {
			p.LegalMoves(replies)
			forced = replies.N > 0 && statusOf(p, replies.N, p.Repetitions(), t.cfg.PlyCap) == env.Ongoing
			for _, r := range replies.Moves[:replies.N] {
				if !forced {
					break
				}
				p.MakeMove(r)
				p.LegalMoves(next)
				forced = statusOf(p, next.N, p.Repetitions(), t.cfg.PlyCap) == env.Ongoing && hasMateIn1(p, next, &t.probeML)
				p.UnmakeMove()
			}
		}
		p.UnmakeMove()
		if forced {
			return true
		}
	}
	return false
}

// hasMateIn1 reports whether one of the legal moves ml of p checkmates
// (only moves that give check are examined further).
func hasMateIn1(p *env.Position, ml *env.MoveList, scratch *env.MoveList) bool {
	for _, m := range ml.Moves[:ml.N] {
		p.MakeMove(m)
		mate := false
		if p.InCheck() {
			p.LegalMoves(scratch)
			mate = scratch.N == 0
		}
		p.UnmakeMove()
		if mate {
			return true
		}
	}
	return false
}

func (t *Tree) unwind(depth int) {
	for range depth {
		t.work.UnmakeMove()
	}
}

func (t *Tree) noteDepth(depth int) {
	t.depthSum += depth
	t.selDepth = max(t.selDepth, depth)
}

// terminalProof is the proof and exact W-L (side to move's view) of a
// position whose game is over with status st: mated is a loss; a position
// at the ply cap is scored as the game's record will score it (a win for
// the side CapMaterialMargin pawns ahead, else a draw); every other end is
// a draw. A capped win is proven like a mate found at that node (distance
// 0, so it is not reported as a mate there).
func (t *Tree) terminalProof(w *env.Position, st env.Status) (int8, float32) {
	switch {
	case st == env.Checkmate:
		return proofLoss, -1
	case st == env.Adjudicated && t.cfg.CapMaterialMargin > 0:
		switch bal := w.MaterialBalance(); {
		case bal >= t.cfg.CapMaterialMargin:
			return proofWin, 1
		case -bal >= t.cfg.CapMaterialMargin:
			return proofLoss, -1
		}
	}
	return proofDraw, t.cfg.DrawPenalty
}

// provenValue is the exact W-L and D of a proven node, from its side to
// move's view. A draw is worth Config.DrawPenalty to the side to move in
// it, so the player who moved into it sees minus that.
func (t *Tree) provenValue(p int8) (wl, d float32) {
	switch p {
	case proofWin:
		return 1, 0
	case proofLoss:
		return -1, 0
	}
	return t.cfg.DrawPenalty, 1
}

// provenQ is the exact value of a proven child from its parent's view.
func (t *Tree) provenQ(p int8) float64 {
	switch p {
	case proofWin:
		return -1
	case proofLoss:
		return 1
	}
	return -float64(t.cfg.DrawPenalty)
}

// legalLogits extracts the logits of the slot's legal moves from a policy
// row into dst and reports whether they and the WDL are finite.
func (sl *leafSlot) legalLogits(policy []float32, wdl []float32, dst []float32) bool {
	ok := true
	for i := range sl.ml.N {
		l := policy[sl.idx[i]]
		dst[i] = l
		if math.IsNaN(float64(l)) || math.IsInf(float64(l), 0) {
			ok = false
		}
	}
	for _, x := range wdl[:3] {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			ok = false
		}
	}
	return ok
}

// complete expands the slot's leaf with the network's output (a policy row
// of the variant's policy logits and a WDL triple) and backs the value up.
func (t *Tree) complete(sl *leafSlot, policy, wdl []float32) {
	n := sl.ml.N
	logits := t.scratch[:n]
	sl.legalLogits(policy, wdl, logits)
	w := [3]float32{wdl[0], wdl[1], wdl[2]}
	t.s.cache.store(sl.key, logits, w[:])
	leaf := sl.path[len(sl.path)-1]
	t.expand(leaf, &sl.ml, logits, w)
	t.backup(sl.path, w[0]-w[2], w[1], true)
	t.inFlight--
	t.edgesOwed -= n
	sl.rootChild = -1 // the Gumbel count stays: the playout happened
	if leaf == 0 {
		t.rootExpanded()
	}
}

// cancel undoes a leaf whose evaluation failed: the node becomes
// unexpanded again and the playout is not counted.
func (t *Tree) cancel(sl *leafSlot) {
	leaf := sl.path[len(sl.path)-1]
	t.nodes[leaf].state = stUnexpanded
	for _, p := range sl.path {
		t.nodes[p].inflight--
	}
	t.inFlight--
	t.edgesOwed -= sl.ml.N
	t.started--
	t.undoRootChild(sl)
}

// revertCollision removes the virtual loss of a collision's path.
func (t *Tree) revertCollision(path []int32, rootChild int32) {
	for _, p := range path {
		t.nodes[p].inflight--
	}
	t.collisions--
	if rootChild >= 0 {
		t.gVisits[rootChild]--
		t.gSims--
	}
}

func (t *Tree) undoRootChild(sl *leafSlot) {
	if sl.rootChild >= 0 {
		t.gVisits[sl.rootChild]--
		t.gSims--
		sl.rootChild = -1
	}
}

// expand gives the leaf its moves, as edges with priors softmax(logits/T).
func (t *Tree) expand(leaf int32, ml *env.MoveList, logits []float32, wdl [3]float32) {
	n := ml.N
	first := t.allocEdges(n)
	es := t.edges[first : first+int32(n)]
	mx := logits[0]
	for _, l := range logits[1:n] {
		mx = max(mx, l)
	}
	invT := 1 / float64(t.cfg.PolicyTemperature)
	var sum float64
	for i := range es {
		e := math.Exp((float64(logits[i]) - float64(mx)) * invT)
		sum += e
		es[i] = edge{move: ml.Moves[i], prior: float32(e)}
	}
	inv := 1 / sum
	for i := range es {
		es[i].prior = float32(float64(es[i].prior) * inv)
	}
	nd := &t.nodes[leaf]
	nd.edges = first
	nd.nEdges = uint16(n)
	nd.state = stExpanded
	nd.nnWL = wdl[0] - wdl[2]
}

// backup adds a playout's value (W-L and D from the leaf's side to move's
// view) to every node of the path, flipping the sign each ply; vl removes
// the playout's virtual loss.
func (t *Tree) backup(path []int32, v, d float32, vl bool) {
	vv, dd := float64(v), float64(d)
	for i := len(path) - 1; i >= 0; i-- {
		nd := &t.nodes[path[i]]
		nd.n++
		nd.wl += vv
		nd.d += dd
		if vl {
			nd.inflight--
		}
		if nd.n == 1 && i > 0 {
			p := &t.nodes[path[i-1]]
			p.visitedPrior += t.edges[p.edges+int32(nd.edge)].prior
		}
		vv = -vv
	}
	t.playouts++
}

// propagateProof proves the ancestors of a newly proven leaf where the
// proof settles them.
func (t *Tree) propagateProof(path []int32) {
	for i := len(path) - 2; i >= 0; i-- {
		if !t.tryProve(path[i]) {
			return
		}
	}
}

// tryProve proves node idx from its children if it can: a win if some move
// leads to a position lost for the opponent (the shortest such), a loss if
// every move leads to a position won by the opponent (the longest), a draw
// if every move is proven and the best is a draw.
func (t *Tree) tryProve(idx int32) bool {
	nd := &t.nodes[idx]
	if nd.proof != proofNone || nd.state != stExpanded {
		return false
	}
	winDist, lossDist := -1, 0
	proven, anyDraw := 0, false
	for _, k := range t.childrenOf(idx) {
		c := &t.nodes[k]
		switch c.proof {
		case proofLoss:
			if d := int(c.dist) + 1; winDist < 0 || d < winDist {
				winDist = d
			}
		case proofWin:
			lossDist = max(lossDist, int(c.dist)+1)
		case proofDraw:
			anyDraw = true
		default:
			continue
		}
		proven++
	}
	all := proven == int(nd.nEdges) // a move without a node is unproven
	switch {
	case winDist >= 0:
		nd.proof, nd.dist = proofWin, uint16(min(winDist, math.MaxUint16))
	case !all:
		return false
	case anyDraw:
		nd.proof, nd.dist = proofDraw, 0
	default:
		nd.proof, nd.dist = proofLoss, uint16(min(lossDist, math.MaxUint16))
	}
	return true
}

// rootExpanded prepares a search whose root has just been (or already was)
// expanded: it marks root moves that end the game at once, applies root
// noise, and sets up Gumbel sequential halving.
func (t *Tree) rootExpanded() {
	t.probeRootChildren()
	es, kids := t.children(0)
	n := len(es)
	if t.useGumbel {
		t.setupGumbel(es)
		return
	}
	if t.noise && t.cfg.DirichletEpsilon > 0 && n > 1 {
		t.savedPriors = t.savedPriors[:0]
		for _, e := range es {
			t.savedPriors = append(t.savedPriors, e.prior)
		}
		t.priorsSaved = true
		t.dirBuf = slices.Grow(t.dirBuf[:0], n)[:n]
		sampleDirichlet(t.rng, t.cfg.DirichletAlpha, t.dirBuf)
		eps := t.cfg.DirichletEpsilon
		for i := range es {
			es[i].prior = float32((1-eps)*float64(es[i].prior) + eps*t.dirBuf[i])
		}
		t.nodes[0].visitedPrior = t.visitedPriorOf(es, kids)
	}
}

// visitedPriorOf sums the priors of the moves whose children have visits,
// in edge order.
func (t *Tree) visitedPriorOf(es []edge, kids []int32) float32 {
	var vp float32
	for i, k := range kids {
		if k >= 0 && t.nodes[k].n > 0 {
			vp += es[i].prior
		}
	}
	return vp
}

// restorePriors undoes the previous search's root noise.
func (t *Tree) restorePriors() {
	if !t.priorsSaved {
		return
	}
	t.priorsSaved = false
	if r := &t.nodes[0]; r.state != stExpanded || int(r.nEdges) != len(t.savedPriors) {
		return
	}
	es, kids := t.children(0)
	for i := range es {
		es[i].prior = t.savedPriors[i]
	}
	t.nodes[0].visitedPrior = t.visitedPriorOf(es, kids)
}

// probeRootChildren plays each unexplored root move and marks those that
// end the game (mate, stalemate, draws by rule) as terminal, so a mate in
// one is found whatever the budget.
func (t *Tree) probeRootChildren() {
	if t.nodes[0].state != stExpanded {
		return
	}
	es, kids := t.children(0)
	w := t.work
	changed := false
	for i, k := range kids {
		if k >= 0 && t.nodes[k].state != stUnexpanded {
			continue
		}
		w.MakeMove(es[i].move)
		w.LegalMoves(&t.probeML)
		st := statusOf(w, t.probeML.N, w.Repetitions(), t.cfg.PlyCap)
		if st == env.Ongoing {
			w.UnmakeMove()
			continue
		}
		if k < 0 {
			k = t.addChild(0, i)
		}
		c := &t.nodes[k]
		c.state = stTerminal
		c.proof, c.nnWL = t.terminalProof(w, st)
		w.UnmakeMove()
		changed = true
	}
	if changed {
		t.tryProve(0)
	}
}
