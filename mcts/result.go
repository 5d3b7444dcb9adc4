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
	if r.state != stExpanded || r.nChild == 0 {
		return res
	}
	first, n := r.first, int(r.nChild)
	ch := t.nodes[first : first+int32(n)]
	target := t.scratch[:n]
	greedy := t.bestChild(0) - first
	best := greedy

	if t.useGumbel && len(t.gVisits) >= n {
		q, maxN, _ := t.completedQ(0)
		scale := t.sigmaScale(maxN)
		mx := math.Inf(-1)
		for i := range ch {
			mx = max(mx, float64(t.gLogits[i])+scale*(float64(q[i])+1))
		}
		var z float64
		for i := range ch {
			e := math.Exp(float64(t.gLogits[i]) + scale*(float64(q[i])+1) - mx)
			target[i] = float32(e)
			z += e
		}
		for i := range target {
			target[i] = float32(float64(target[i]) / z)
		}
		best = int32(t.gumbelWinner(q, scale))
	} else {
		var sum float64
		for i := range ch {
			sum += float64(ch[i].n)
		}
		for i := range ch {
			if sum > 0 {
				target[i] = float32(float64(ch[i].n) / sum)
			} else {
				target[i] = ch[i].prior
			}
		}
		if temp := t.temperature(); temp > 0 {
			best = t.sampleMove(ch, temp, greedy)
		}
	}
	// Proofs override: play the shortest mate; never a proven loss while
	// another move exists.
	switch {
	case r.proof == proofWin:
		best = greedy
		clear(target)
		target[best] = 1
	case ch[best].proof == proofWin && ch[greedy].proof != proofWin:
		best = greedy
	}

	res.BestMove = ch[best].move
	res.Children = t.childStats(target)
	for i := range ch {
		res.Visits[t.root.PolicyIndex(ch[i].move)] += target[i]
	}
	res.PV = t.pv(first+best, append(res.PV, res.BestMove))
	return res
}

// childStats returns the root's children's statistics, with target as
// their Target shares if given (nil when the root has no children).
func (t *Tree) childStats(target []float32) []ChildStat {
	r := &t.nodes[0]
	if r.state != stExpanded || r.nChild == 0 {
		return nil
	}
	ch := t.nodes[r.first : r.first+int32(r.nChild)]
	stats := make([]ChildStat, len(ch))
	for i := range ch {
		c := &ch[i]
		var q float32
		if c.proof != proofNone {
			q = float32(t.provenQ(c.proof))
		} else if c.n > 0 {
			q = float32(-c.wl / float64(c.n))
		}
		cs := ChildStat{Move: c.move, Visits: int(c.n), Q: q, Prior: c.prior, MateIn: childMateIn(c)}
		if c.n > 0 || c.proof != proofNone {
			_, wdl := nodeValue(c)
			cs.WDL = [3]float32{wdl[2], wdl[1], wdl[0]} // the child's view turned round
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
	if r.state != stExpanded || int(r.nChild) != len(stats) {
		return
	}
	// One backing array for all the lines: a search allocates per search,
	// and here only a few times, however many moves the root has.
	// free is the unused rest of the array, of length 0, so that pv sees
	// only the line it builds.
	free := make([]env.Move, 0, 8*len(stats))
	for i := range stats {
		line := t.pv(r.first+int32(i), append(free, stats[i].Move))
		stats[i].PV = line[:len(line):len(line)]
		free = line[len(line):]
	}
}

// pv extends line, whose last move leads to node cur, with the best
// replies, down to the last visited or proven node; a line that ends on a
// position proven mate in one (found by the mate probe, never expanded)
// gets its mating move. The work position must be at the root.
func (t *Tree) pv(cur int32, line []env.Move) []env.Move {
	for len(line) < 128 {
		c := t.bestChild(cur)
		if c < 0 || (t.nodes[c].n == 0 && t.nodes[c].proof == proofNone) {
			break
		}
		line = append(line, t.nodes[c].move)
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

// bestChild returns the child of idx to play: the shortest proven mate,
// else the most visited move not proven lost (ties: better Q, then prior),
// else (all lost) the longest defence. It returns -1 for a node without
// children.
func (t *Tree) bestChild(idx int32) int32 {
	nd := &t.nodes[idx]
	if nd.state != stExpanded || nd.nChild == 0 {
		return -1
	}
	first := nd.first
	ch := t.nodes[first : first+int32(nd.nChild)]
	win, winDist := -1, 0
	for i := range ch {
		if ch[i].proof == proofLoss && (win < 0 || int(ch[i].dist) < winDist) {
			win, winDist = i, int(ch[i].dist)
		}
	}
	if win >= 0 {
		return first + int32(win)
	}
	best := -1
	var bestN int32
	var bestQ float64
	var bestP float32
	for i := range ch {
		c := &ch[i]
		if c.proof == proofWin {
			continue
		}
		q := 0.0
		if c.proof == proofDraw {
			q = -float64(t.cfg.DrawPenalty)
		} else if c.n > 0 {
			q = -c.wl / float64(c.n)
		} else {
			q = -2
		}
		if best < 0 || c.n > bestN || (c.n == bestN && (q > bestQ || (q == bestQ && c.prior > bestP))) {
			best, bestN, bestQ, bestP = i, c.n, q, c.prior
		}
	}
	if best >= 0 {
		return first + int32(best)
	}
	long, longDist := 0, -1
	for i := range ch {
		if int(ch[i].dist) > longDist {
			long, longDist = i, int(ch[i].dist)
		}
	}
	return first + int32(long)
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

// sampleMove samples a root child with probability ∝ N^(1/temp), leaving
// out proven losses; it returns greedy when nothing has visits.
func (t *Tree) sampleMove(ch []node, temp float64, greedy int32) int32 {
	w := t.wbuf[:len(ch)]
	var sum float64
	var mx int32
	for i := range ch {
		if ch[i].proof != proofWin {
			mx = max(mx, ch[i].n)
		}
	}
	if mx == 0 {
		return greedy
	}
	for i := range ch {
		w[i] = 0
		if ch[i].proof != proofWin && ch[i].n > 0 {
			// Normalise by the largest count so high powers stay finite.
			w[i] = math.Pow(float64(ch[i].n)/float64(mx), 1/temp)
		}
		sum += w[i]
	}
	x := t.rng.Float64() * sum
	for i := range w {
		x -= w[i]
		if x < 0 && w[i] > 0 {
			return int32(i)
		}
	}
	for i := len(w) - 1; i >= 0; i-- {
		if w[i] > 0 {
			return int32(i)
		}
	}
	return greedy
}
