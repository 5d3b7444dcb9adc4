package mcts

import (
	"math"

	"github.com/alicezero/alicezero/env"
)

// Result is the outcome of one search.
type Result struct {
	// Visits is the training target over the variant's policy indices
	// (from the root side to move's view), summing to 1: the root
	// children's visit shares for PUCT, the improved policy
	// softmax(logits + σ(completed Q)) for Gumbel, one-hot on the mating
	// move when the root is a proven win.
	Visits []float32
	// RootValue is the root's W-L from its side to move's view: the mean
	// over the root's visits, or the exact ±1/0 of a proven root.
	RootValue float32
	// RootWDL is the root's mean win/draw/loss (side to move's view).
	RootWDL [3]float32
	// BestMove is the move to play: the most visited (PUCT) or the
	// sequential-halving winner (Gumbel), or a sample from the visits when
	// the temperature applies; a proven mate always, a proven loss never
	// when another move exists.
	BestMove env.Move
	// PV is the principal variation, starting with BestMove.
	PV []env.Move
	// Nodes is the number of playouts this search completed.
	Nodes int
	// MateIn is non-zero when the root is proven: N > 0 if the side to move
	// mates in N moves, -N if it is mated in N moves.
	MateIn int
	// Proven is set when RootValue is exact: the root is proven won, lost
	// or drawn (by the rules, or by the ply cap's scoring).
	Proven bool
	// UseForTraining is false for searches that playout-cap randomisation
	// made small: their Visits are not a policy target.
	UseForTraining bool
	// Depth is the mean and SelDepth the largest depth of this search's
	// playouts.
	Depth, SelDepth int
	// Children lists the root's moves with their statistics, in generator
	// order.
	Children []ChildStat
}

// ChildStat is one root move's statistics.
type ChildStat struct {
	Move   env.Move
	Visits int
	Q      float32    // mean W-L after the move, root side's view; exact if proven, 0 if unvisited
	WDL    [3]float32 // mean win/draw/loss after the move, root side's view; zero if unvisited
	Prior  float32    // prior including root noise
	Target float32    // its share of Result.Visits
	MateIn int        // as Result.MateIn, for the position after the move, from the root side's view
	// PV is the move's line: the move, then the best replies. It is set
	// by engine-mode searches (Search and its Info reports) only.
	PV []env.Move
}

// result builds the search's Result and picks the move to play.
func (t *Tree) result() Result {
	r := &t.nodes[0]
	res := Result{
		Visits:         make([]float32, t.root.Variant().PolicySize()),
		Nodes:          t.playouts,
		UseForTraining: !t.small,
		SelDepth:       t.selDepth,
	}
	if t.started > 0 {
		res.Depth = int(math.Round(float64(t.depthSum) / float64(t.started)))
	}
	res.RootValue, res.RootWDL = nodeValue(r)
	res.MateIn = mateIn(r.proof, r.dist)
	res.Proven = r.proof != proofNone
	if r.state != stExpanded || r.nEdges == 0 {
		return res
	}
	n := int(r.nEdges)
	target := t.scratch[:n]
	greedy, _ := t.bestChild(0)
	best := greedy
	es, kids := t.children(0)
	visits := func(i int) int32 {
		if kids[i] < 0 {
			return 0
		}
		return t.nodes[kids[i]].n
	}
	proof := func(i int) int8 {
		if kids[i] < 0 {
			return proofNone
		}
		return t.nodes[kids[i]].proof
	}

	if t.useGumbel && len(t.gVisits) >= n {
		q, maxN, _ := t.completedQ(0)
		scale := t.sigmaScale(maxN)
		mx := math.Inf(-1)
		for i := range n {
			mx = max(mx, float64(t.gLogits[i])+scale*(float64(q[i])+1))
		}
		var z float64
		for i := range n {
			e := math.Exp(float64(t.gLogits[i]) + scale*(float64(q[i])+1) - mx)
			target[i] = float32(e)
			z += e
		}
		for i := range target {
			target[i] = float32(float64(target[i]) / z)
		}
		best = t.gumbelWinner(q, scale)
	} else {
		var sum float64
		for i := range n {
			sum += float64(visits(i))
		}
		for i := range n {
			if sum > 0 {
				target[i] = float32(float64(visits(i)) / sum)
			} else {
				target[i] = es[i].prior
			}
		}
		if temp := t.temperature(); temp > 0 {
			best = t.sampleMove(n, visits, proof, temp, greedy)
		}
	}
	// Proofs override: play the shortest mate; never a proven loss while
	// another move exists.
	switch {
	case r.proof == proofWin:
		best = greedy
		clear(target)
		target[best] = 1
	case proof(best) == proofWin && proof(greedy) != proofWin:
		best = greedy
	}

	res.BestMove = es[best].move
	for i := range es {
		res.Visits[t.root.PolicyIndex(es[i].move)] += target[i]
	}
	res.PV = t.pv(kids[best], append(res.PV, res.BestMove))
	res.Children = t.childStats(target)
	return res
}

// childStats returns the root's children's statistics, with target as
// their Target shares if given (nil when the root has no children).
func (t *Tree) childStats(target []float32) []ChildStat {
	r := &t.nodes[0]
	if r.state != stExpanded || r.nEdges == 0 {
		return nil
	}
	es, kids := t.children(0)
	stats := make([]ChildStat, len(es))
	for i, k := range kids {
		cs := ChildStat{Move: es[i].move, Prior: es[i].prior}
		if k >= 0 {
			c := &t.nodes[k]
			if c.proof != proofNone {
				cs.Q = float32(t.provenQ(c.proof))
			} else if c.n > 0 {
				cs.Q = float32(-c.wl / float64(c.n))
			}
			cs.Visits, cs.MateIn = int(c.n), childMateIn(c)
			if c.n > 0 || c.proof != proofNone {
				_, wdl := nodeValue(c)
				cs.WDL = [3]float32{wdl[2], wdl[1], wdl[0]} // the child's view turned round
			}
		}
		if target != nil {
			cs.Target = target[i]
		}
		stats[i] = cs
	}
	return stats
}

// addChildLines sets each root child's line: the move and, when it was
// searched, its best replies. The work position must be at the root.
func (t *Tree) addChildLines(stats []ChildStat) {
	r := &t.nodes[0]
	if r.state != stExpanded || int(r.nEdges) != len(stats) {
		return
	}
	// One backing array for all the lines: a search allocates per search,
	// and here only a few times, however many moves the root has.
	// free is the unused rest of the array, of length 0, so that pv sees
	// only the line it builds.
	free := make([]env.Move, 0, 8*len(stats))
	next := r.child
	for i := range stats {
		c := int32(-1)
		if next >= 0 && int(t.nodes[next].edge) == i {
			c, next = next, t.nodes[next].sibling
		}
		line := t.pv(c, append(free, stats[i].Move))
		stats[i].PV = line[:len(line):len(line)]
		free = line[len(line):]
	}
}

// pv extends line, whose last move leads to node cur (-1: a move no
// playout has tried), with the best replies, down to the last visited or
// proven node; a line that ends on a position proven mate in one (found by
// the mate probe, never expanded) gets its mating move. The work position
// must be at the root.
func (t *Tree) pv(cur int32, line []env.Move) []env.Move {
	if cur < 0 {
		return line
	}
	for len(line) < 128 {
		off, c := t.bestChild(cur)
		if c < 0 || (t.nodes[c].n == 0 && t.nodes[c].proof == proofNone) {
			break
		}
		line = append(line, t.edges[t.nodes[cur].edges+int32(off)].move)
		cur = c
	}
	if nd := &t.nodes[cur]; nd.proof == proofWin && nd.dist == 1 && nd.state == stUnexpanded {
		w := t.work
		played := len(line)
		for _, m := range line {
			w.MakeMove(m)
		}
		var ml env.MoveList
		w.LegalMoves(&ml)
		for _, m := range ml.Moves[:ml.N] {
			w.MakeMove(m)
			mate := false
			if w.InCheck() {
				w.LegalMoves(&t.probeML)
				mate = t.probeML.N == 0
			}
			w.UnmakeMove()
			if mate {
				line = append(line, m)
				break
			}
		}
		t.unwind(played)
	}
	return line
}

// nodeValue returns a node's mean W-L and WDL (own view), exact if proven.
func nodeValue(nd *node) (float32, [3]float32) {
	switch nd.proof {
	case proofWin:
		return 1, [3]float32{1, 0, 0}
	case proofLoss:
		return -1, [3]float32{0, 0, 1}
	case proofDraw:
		return 0, [3]float32{0, 1, 0}
	}
	if nd.n == 0 {
		return 0, [3]float32{}
	}
	q := nd.wl / float64(nd.n)
	d := nd.d / float64(nd.n)
	w := max(0, (1+q-d)/2)
	l := max(0, (1-q-d)/2)
	return float32(q), [3]float32{float32(w), float32(d), float32(l)}
}

// mateIn converts a proof to moves: N for a win in 2N-1 plies, -N for a
// loss in 2N plies.
func mateIn(proof int8, dist uint16) int {
	switch proof {
	case proofWin:
		return (int(dist) + 1) / 2
	case proofLoss:
		if dist == 0 {
			return 0 // mated already: no move to count
		}
		return -(int(dist) / 2)
	}
	return 0
}

// childMateIn is mateIn for the root side after the move to child c.
func childMateIn(c *node) int {
	switch c.proof {
	case proofLoss:
		return mateIn(proofWin, c.dist+1)
	case proofWin:
		return mateIn(proofLoss, c.dist+1)
	}
	return 0
}

// bestChild returns the move of node idx to play, as its edge offset and
// child node (-1 for a move no playout has tried): the shortest proven
// mate, else the most visited move not proven lost (ties: better Q, then
// prior), else (all lost) the longest defence. It returns -1, -1 for a
// node without moves.
func (t *Tree) bestChild(idx int32) (int, int32) {
	nd := &t.nodes[idx]
	if nd.state != stExpanded || nd.nEdges == 0 {
		return -1, -1
	}
	win, winC, winDist := -1, int32(-1), 0
	for off, k := range t.childrenOf(idx) {
		if c := &t.nodes[k]; c.proof == proofLoss && (win < 0 || int(c.dist) < winDist) {
			win, winC, winDist = off, k, int(c.dist)
		}
	}
	if win >= 0 {
		return win, winC
	}
	es := t.edges[nd.edges : nd.edges+int32(nd.nEdges)]
	best, bestC := -1, int32(-1)
	var bestN int32
	var bestQ float64
	var bestP float32
	next := nd.child
	for i := range es {
		k := int32(-1)
		if next >= 0 && int(t.nodes[next].edge) == i {
			k, next = next, t.nodes[next].sibling
		}
		var n int32
		q := -2.0 // unvisited
		if k >= 0 {
			c := &t.nodes[k]
			if c.proof == proofWin {
				continue
			}
			n = c.n
			if c.proof == proofDraw {
				q = -float64(t.cfg.DrawPenalty)
			} else if c.n > 0 {
				q = -c.wl / float64(c.n)
			}
		}
		if p := es[i].prior; best < 0 || n > bestN || (n == bestN && (q > bestQ || (q == bestQ && p > bestP))) {
			best, bestC, bestN, bestQ, bestP = i, k, n, q, p
		}
	}
	if best >= 0 {
		return best, bestC
	}
	long, longC, longDist := 0, int32(-1), -1
	for off, k := range t.childrenOf(idx) {
		if d := int(t.nodes[k].dist); d > longDist {
			long, longC, longDist = off, k, d
		}
	}
	return long, longC
}

// temperature is the move-choice temperature at the root's ply.
func (t *Tree) temperature() float64 {
	c := t.cfg
	ply := t.root.Ply()
	if c.Temperature <= 0 || ply >= c.TemperaturePlies {
		return 0
	}
	if c.TemperatureDecay {
		return c.Temperature * (1 - float64(ply)/float64(c.TemperaturePlies))
	}
	return c.Temperature
}

// sampleMove samples one of the root's n moves with probability ∝
// N^(1/temp), leaving out proven losses; it returns greedy when nothing
// has visits.
func (t *Tree) sampleMove(n int, visits func(int) int32, proof func(int) int8, temp float64, greedy int) int {
	w := t.wbuf[:n]
	var sum float64
	var mx int32
	for i := range n {
		if proof(i) != proofWin {
			mx = max(mx, visits(i))
		}
	}
	if mx == 0 {
		return greedy
	}
	for i := range n {
		w[i] = 0
		if proof(i) != proofWin && visits(i) > 0 {
			// Normalise by the largest count so high powers stay finite.
			w[i] = math.Pow(float64(visits(i))/float64(mx), 1/temp)
		}
		sum += w[i]
	}
	x := t.rng.Float64() * sum
	for i := range w {
		x -= w[i]
		if x < 0 && w[i] > 0 {
			return i
		}
	}
	for i := len(w) - 1; i >= 0; i-- {
		if w[i] > 0 {
			return i
		}
	}
	return greedy
}
