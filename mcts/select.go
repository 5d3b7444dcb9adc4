package mcts

import (
	"math"
	"slices"
)

// selectChild picks the child of node idx a playout descends to, making
// its node if no playout has tried the move yet.
func (t *Tree) selectChild(idx int32, sl *leafSlot) int32 {
	var off int
	c := int32(-1)
	switch {
	case t.useGumbel && idx == 0:
		o := t.gumbelRoot()
		sl.rootChild = o
		return t.childOrAdd(0, int(o))
	case t.useGumbel:
		off, c = t.gumbelInterior(idx)
	default:
		off, c = t.puct(idx)
	}
	if c < 0 {
		c = t.addChild(idx, off)
	}
	return c
}

// puct is AlphaZero's selection rule: argmax Q + c(N)·P·√N/(1+n), with
// virtual loss on children in flight, first-play urgency for unvisited
// ones, and exact values for proven ones; a move proven lost is not chosen
// (see provenLost). It returns the chosen move's edge offset and its node
// (-1 if it has none yet).
func (t *Tree) puct(idx int32) (int, int32) {
	cfg := t.cfg
	nd := &t.nodes[idx]
	ne := float64(nd.n + nd.inflight)
	c := float64(cfg.CPuct)
	if cfg.CPuctBase > 0 {
		b := float64(cfg.CPuctBase)
		c += float64(cfg.CPuctFactor) * math.Log((ne+b)/b)
	}
	// The children's visits sum to the node's visits less its own
	// evaluation.
	u0 := c * math.Sqrt(max(ne-1, 1))
	var fpu float64
	if idx == 0 && cfg.RootFPUAbsolute {
		fpu = float64(cfg.RootFPUValue)
	} else {
		red := cfg.FPUReduction
		if idx == 0 {
			red = cfg.RootFPUReduction
		}
		var q float64
		if nd.n > 0 {
			q = nd.wl / float64(nd.n)
		}
		fpu = q - float64(red)*math.Sqrt(float64(max(nd.visitedPrior, 0)))
	}
	vl := float64(cfg.VirtualLoss)
	es := t.edges[nd.edges : nd.edges+int32(nd.nEdges)]
	next := nd.child // the next child node, in edge order
	best, bestC, bestS := -1, int32(-1), math.Inf(-1)
	for i := range es {
		var q float64
		var e int32
		c := int32(-1)
		if next >= 0 && int(t.nodes[next].edge) == i {
			c = next
			ci := &t.nodes[c]
			next = ci.sibling
			if ci.proof == proofWin {
				continue
			}
			e = ci.n + ci.inflight
			switch {
			case ci.proof != proofNone:
				q = t.provenQ(ci.proof)
			case e == 0:
				q = fpu
			default:
				q = (-ci.wl - vl*float64(ci.inflight)) / float64(e)
			}
		} else {
			q = fpu
		}
		if s := q + u0*float64(es[i].prior)/float64(1+e); s > bestS || best < 0 {
			best, bestC, bestS = i, c, s
		}
	}
	if best < 0 {
		return t.provenLost(idx)
	}
	return best, bestC
}

// provenLost returns node idx's first move, for a node every move of which
// is proven lost but which is not proven itself. The solver proves such a
// node as soon as its last move is proven, so that selection, which never
// chooses a move proven lost while another remains (the MCTS-solver's
// rule: its value is known, and visiting it again learns nothing), has
// nothing else to choose.
func (t *Tree) provenLost(idx int32) (int, int32) {
	c := t.nodes[idx].child
	return int(t.nodes[c].edge), c
}

// completedQ fills t.qbuf with the completed Q values of node idx's
// children from idx's view (Danihelka et al.): a visited or proven child's
// Q, and for the others the mixed value v_mix, which blends the network's
// value of idx with the prior-weighted Q of the visited children. It
// returns the children's Q, the most visits of any child and v_mix, and
// leaves the children's view in t.kids (see children).
func (t *Tree) completedQ(idx int32) (q []float32, maxN int32, vmix float64) {
	nd := &t.nodes[idx]
	es, kids := t.children(idx)
	q = t.qbuf[:len(es)]
	var sumPQ, sumP float64
	var sumN int64
	for i, k := range kids {
		if k < 0 {
			continue
		}
		c := &t.nodes[k]
		var qq float64
		switch {
		case c.proof != proofNone:
			qq = t.provenQ(c.proof)
		case c.n > 0:
			qq = -c.wl / float64(c.n)
		default:
			continue
		}
		q[i] = float32(qq)
		if c.n > 0 {
			sumPQ += float64(es[i].prior) * qq
			sumP += float64(es[i].prior)
			sumN += int64(c.n)
			maxN = max(maxN, c.n)
		}
	}
	vmix = float64(nd.nnWL)
	if sumP > 0 {
		vmix = (vmix + float64(sumN)*sumPQ/sumP) / float64(1+sumN)
	}
	for i, k := range kids {
		if k < 0 || (t.nodes[k].n == 0 && t.nodes[k].proof == proofNone) {
			q[i] = float32(vmix)
		}
	}
	return q, maxN, vmix
}

// sigmaScale returns s with σ(q) = s·(q+1): (c_visit + max N)·c_scale·q01
// where q01 = (q+1)/2 maps W-L onto [0, 1].
func (t *Tree) sigmaScale(maxN int32) float64 {
	return (float64(t.cfg.GumbelCVisit) + float64(maxN)) * float64(t.cfg.GumbelCScale) / 2
}

// gumbelRoot picks the root child for the next playout by sequential
// halving: among the actions whose visit count this search equals the
// schedule's target, the one with the highest g + logit + σ(q̂). It returns
// the child's offset among the root's children.
func (t *Tree) gumbelRoot() int32 {
	q, maxN, _ := t.completedQ(0)
	scale := t.sigmaScale(maxN)
	target := int32(-1)
	if t.gSims < len(t.gSeq) {
		target = t.gSeq[t.gSims]
	}
	best, bestS := -1, math.Inf(-1)
	for i := range q {
		if t.gVisits[i] != target {
			continue
		}
		if s := float64(t.gNoise[i]) + float64(t.gLogits[i]) + scale*(float64(q[i])+1); s > bestS {
			best, bestS = i, s
		}
	}
	if best < 0 {
		// Past the schedule: go on with the best of the most visited.
		best = t.gumbelWinner(q, scale)
	}
	t.gVisits[best]++
	t.gSims++
	return int32(best)
}

// gumbelWinner returns the offset of the best-scoring root child among the
// most visited this search: the sequential-halving winner.
func (t *Tree) gumbelWinner(q []float32, scale float64) int {
	var mv int32 = -1
	for _, v := range t.gVisits[:len(q)] {
		mv = max(mv, v)
	}
	best, bestS := 0, math.Inf(-1)
	for i := range q {
		if t.gVisits[i] != mv {
			continue
		}
		if s := float64(t.gNoise[i]) + float64(t.gLogits[i]) + scale*(float64(q[i])+1); s > bestS {
			best, bestS = i, s
		}
	}
	return best
}

// gumbelInterior is the deterministic selection of Gumbel MuZero below the
// root: argmax π'(a) − N(a)/(1+ΣN) with π' = softmax(logits + σ(q̂)),
// playouts in flight counting as visits, moves proven lost left out (see
// provenLost). It returns the chosen move's edge offset and its node (-1 if
// it has none yet).
func (t *Tree) gumbelInterior(idx int32) (int, int32) {
	q, maxN, vmix := t.completedQ(idx)
	scale := t.sigmaScale(maxN)
	nd := &t.nodes[idx]
	es, kids := t.edges[nd.edges:nd.edges+int32(nd.nEdges)], t.kids[:nd.nEdges]
	mx := math.Inf(-1)
	var sumEff int64
	for i, k := range kids {
		mx = max(mx, scale*float64(q[i]))
		if k >= 0 {
			sumEff += int64(t.nodes[k].n + t.nodes[k].inflight)
		}
	}
	// Unvisited children share q̂ = v_mix: one exp for all of them.
	eMix := math.Exp(scale*vmix - mx)
	w := t.wbuf[:len(es)]
	var z float64
	for i, k := range kids {
		e := eMix
		if k >= 0 && (t.nodes[k].n > 0 || t.nodes[k].proof != proofNone) {
			e = math.Exp(scale*float64(q[i]) - mx)
		}
		w[i] = float64(es[i].prior) * e
		z += w[i]
	}
	invZ := 1 / z
	invN := 1 / float64(1+sumEff)
	best, bestS := -1, math.Inf(-1)
	for i, k := range kids {
		var eff int32
		if k >= 0 {
			if t.nodes[k].proof == proofWin {
				continue
			}
			eff = t.nodes[k].n + t.nodes[k].inflight
		}
		if s := w[i]*invZ - float64(eff)*invN; s > bestS || best < 0 {
			best, bestS = i, s
		}
	}
	if best < 0 {
		return t.provenLost(idx)
	}
	return best, kids[best]
}

// setupGumbel starts a Gumbel search at an expanded root: logits, Gumbel
// noise, and the sequential-halving schedule for the remaining budget.
func (t *Tree) setupGumbel(es []edge) {
	n := len(es)
	t.gLogits = slices.Grow(t.gLogits[:0], n)[:n]
	t.gNoise = slices.Grow(t.gNoise[:0], n)[:n]
	t.gVisits = slices.Grow(t.gVisits[:0], n)[:n]
	for i := range es {
		t.gLogits[i] = float32(math.Log(max(float64(es[i].prior), 1e-30)))
		t.gNoise[i] = 0
		if t.noise && t.cfg.GumbelNoise {
			t.gNoise[i] = float32(sampleGumbel(t.rng))
		}
		t.gVisits[i] = 0
	}
	m := min(t.cfg.GumbelK, n)
	t.gSeq = gumbelSchedule(t.gSeq[:0], m, t.budget-t.started)
	t.gSims = 0
}

// gumbelSchedule appends the visit count each of n root playouts targets
// when sequential halving considers m actions (mctx's
// get_sequence_of_considered_visits): in each of ⌈log2 m⌉ phases every
// remaining action gets max(1, ⌊n/(⌈log2 m⌉·remaining)⌋) visits, then the
// better half goes on (at least two).
func gumbelSchedule(dst []int32, m, n int) []int32 {
	if n <= 0 {
		return dst
	}
	if m <= 1 {
		for i := range n {
			dst = append(dst, int32(i))
		}
		return dst
	}
	log2m := 0
	for 1<<log2m < m {
		log2m++
	}
	var v int32
	k := m
	for len(dst) < n {
		extra := max(1, n/(log2m*k))
		for e := 0; e < extra && len(dst) < n; e++ {
			for i := 0; i < k && len(dst) < n; i++ {
				dst = append(dst, v)
			}
			v++
		}
		k = max(2, k/2)
	}
	return dst
}
