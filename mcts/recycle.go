package mcts

import (
	"math"
	"math/bits"
	"time"

	"github.com/alicezero/alicezero/env"
)

// A bounded tree (Config.TreeBytes) grows in its pools until the next
// playout might not fit; the search then rebuilds it instead of stopping.
// The rebuild keeps the most visited part of the tree: every node whose
// visit count reaches a threshold keeps its children, and the threshold is
// the lowest that lets the kept tree fit the spare pools (half the growing
// ones), so at least half the pools are free again. A node below it keeps
// its own visits, values and proof but loses its subtree: it becomes a
// leaf again, which the next playout to reach it expands anew (from the
// evaluation cache when the position is still there). The root and its
// moves are always kept. The kept tree is compacted into the spare pools
// breadth first and copied back, so the pools stay where they were
// reserved. Advance keeps a bounded tree's subtree the same way.

// hasRoom reports whether the pools can take the next playout: a node
// for its leaf, edges for it and for every leaf in flight, and nodes for
// the root's moves that end the game, which a search's start marks.
func (t *Tree) hasRoom() bool {
	return !t.bounded || (len(t.nodes)+1+env.MaxMoves <= cap(t.nodes) &&
		len(t.edges)+t.edgesOwed+env.MaxMoves <= cap(t.edges))
}

// quiescent reports whether no playout holds a path into the tree: no leaf
// in flight, no collision holding virtual loss. Only then may the tree be
// rebuilt (rebuilding renumbers the nodes).
func (t *Tree) quiescent() bool { return t.inFlight == 0 && t.collisions == 0 }

// rebuildNsPerByte estimates a rebuild's cost per byte of tree: walking
// it, compacting the kept part into the spare pools and copying that back.
// Measured on the 2-core VM of docs/PERFORMANCE.md, a 48 MB tree: 0.4–0.5
// ns a byte, 1.4 the first time (the spare's pages touched for the first
// time); the estimate allows for a loaded machine.
const rebuildNsPerByte = 2

// RebuildCost estimates how long keeping a subtree of this tree in Advance
// (or recycling it when full) takes: at most this.
func (t *Tree) RebuildCost() time.Duration {
	return time.Duration(t.Bytes() * rebuildNsPerByte)
}

// makeRoom recycles the full tree, unless the search must end before the
// rebuild would be over: then it stops the search. It reports whether the
// tree has room again.
func (t *Tree) makeRoom() bool {
	if !t.recycleBy.IsZero() {
		if time.Now().Add(t.RebuildCost()).After(t.recycleBy) {
			t.stopped = true
			return false
		}
	}
	t.rebuild(0)
	t.recycles++
	return true
}

// trivial reports whether node c carries nothing an absent node would not:
// no visit, no proof, nothing in flight.
func (t *Tree) trivial(c int32) bool {
	nd := &t.nodes[c]
	return nd.n == 0 && nd.proof == proofNone && nd.inflight == 0
}

// histBuckets is the number of visit-count classes a rebuild's threshold
// is chosen among: one per count below 32, then four an octave.
const histBuckets = 32 + 4*26

// keptCost is what the nodes of one visit-count class cost if they keep
// their children.
type keptCost struct{ nodes, edges int }

// bucketOf returns n's visit-count class.
func bucketOf(n int32) int {
	if n < 32 {
		return int(max(n, 0))
	}
	k := 31 - bits.LeadingZeros32(uint32(n)) // n lies in [2^k, 2^(k+1)), k ≥ 5
	return 32 + 4*(k-5) + int(n>>(k-2))&3
}

// bucketFloor returns the smallest visit count of class b.
func bucketFloor(b int) int32 {
	if b < 32 {
		return int32(b)
	}
	k, sub := 5+(b-32)/4, (b-32)%4
	return int32(4+sub) << (k - 2)
}

// keepRule says which expanded nodes of a rebuilt subtree keep their
// children: those of at least threshold visits, then, breadth first, those
// of the class just below it (from partialFloor visits) while their cost
// fits quota.
type keepRule struct {
	threshold, partialFloor int32
	quota                   keptCost
}

// takes reports whether an expanded node of n visits, below the
// threshold, whose children cost c keeps them, taking it from the quota.
func (k *keepRule) takes(n int32, c keptCost) bool {
	if n < k.partialFloor || c.nodes > k.quota.nodes || c.edges > k.quota.edges {
		return false
	}
	k.quota.nodes -= c.nodes
	k.quota.edges -= c.edges
	return true
}

// keepAll keeps every expanded node's children.
var keepAll = keepRule{threshold: 0}

// keepRuleFor returns the rule that fits the subtree of node r into
// maxNodes nodes and maxEdges edges: the smallest threshold of whole
// visit-count classes that fits, with what is left over for the class
// below. r itself always keeps its children.
func (t *Tree) keepRuleFor(r int32, maxNodes, maxEdges int) keepRule {
	clear(t.hist[:])
	var base keptCost // r keeps its children whatever the threshold
	walk := append(t.walk[:0], r)
	for len(walk) > 0 {
		x := walk[len(walk)-1]
		walk = walk[:len(walk)-1]
		if t.nodes[x].state != stExpanded {
			continue
		}
		cost := t.childCost(t.nodes[x].child, t.nodes[x].nEdges)
		for _, c := range t.childrenOf(x) {
			if !t.trivial(c) {
				walk = append(walk, c)
			}
		}
		if x == r {
			base = cost
			continue
		}
		h := &t.hist[bucketOf(t.nodes[x].n)]
		h.nodes += cost.nodes
		h.edges += cost.edges
	}
	t.walk = walk
	kept := keptCost{nodes: 1 + base.nodes, edges: base.edges}
	rule := keepRule{threshold: math.MaxInt32, partialFloor: math.MaxInt32}
	b := histBuckets - 1
	for ; b >= 0; b-- {
		h := t.hist[b]
		if kept.nodes+h.nodes > maxNodes || kept.edges+h.edges > maxEdges {
			break
		}
		kept.nodes += h.nodes
		kept.edges += h.edges
		rule.threshold = bucketFloor(b)
	}
	if b >= 0 {
		rule.partialFloor = bucketFloor(b)
		rule.quota = keptCost{nodes: maxNodes - kept.nodes, edges: maxEdges - kept.edges}
	}
	return rule
}

// childCost is what an expanded node's children cost if it keeps them:
// its nEdges edges and the nodes, from first on, of its children that
// carry something (see trivial).
func (t *Tree) childCost(first int32, nEdges uint16) keptCost {
	c := keptCost{edges: int(nEdges)}
	for k := first; k >= 0; k = t.nodes[k].sibling {
		if !t.trivial(k) {
			c.nodes++
		}
	}
	return c
}

// rebuild makes the subtree of node c the tree, compacted breadth first
// (a node's children follow each other), without the nodes that carry
// nothing (see trivial). A bounded tree keeps what fits its spare pools
// (see keepRuleFor), compacts it there and copies it back; an unbounded
// one swaps its pools.
func (t *Tree) rebuild(c int32) {
	keep := keepAll
	if t.bounded {
		keep = t.keepRuleFor(c, cap(t.spareNodes), cap(t.spareEdges))
	}
	dn := append(t.spareNodes[:0], t.nodes[c])
	de := t.spareEdges[:0]
	dn[0].sibling, dn[0].edge = -1, 0
	for i := 0; i < len(dn); i++ {
		src := dn[i].child // still the old tree's index
		dn[i].child, dn[i].inflight = -1, 0
		if dn[i].state == stPending {
			dn[i].state = stUnexpanded
		}
		if dn[i].state != stExpanded {
			continue
		}
		if i > 0 && dn[i].n < keep.threshold && !keep.takes(dn[i].n, t.childCost(src, dn[i].nEdges)) {
			// A leaf again, its statistics kept.
			dn[i].state, dn[i].edges, dn[i].nEdges, dn[i].visitedPrior = stUnexpanded, -1, 0, 0
			continue
		}
		old, n := dn[i].edges, int32(dn[i].nEdges)
		dn[i].edges = int32(len(de))
		de = append(de, t.edges[old:old+n]...)
		last := int32(-1)
		for x := src; x >= 0; x = t.nodes[x].sibling {
			if t.trivial(x) {
				continue
			}
			k := int32(len(dn))
			dn = append(dn, t.nodes[x])
			dn[k].sibling = -1
			if last < 0 {
				dn[i].child = k
			} else {
				dn[last].sibling = k
			}
			last = k
		}
	}
	if t.bounded {
		t.nodes = t.nodes[:len(dn)]
		t.edges = t.edges[:len(de)]
		copyChunked(t.nodes, dn)
		copyChunked(t.edges, de)
		t.spareNodes, t.spareEdges = dn[:0], de[:0]
		return
	}
	t.spareNodes, t.nodes = t.nodes[:0], dn
	t.spareEdges, t.edges = t.edges[:0], de
}

// copyChunked copies src into dst (as long) a chunk at a time: one memmove
// of a large pool could not be preempted (see allocNodes).
func copyChunked[T any](dst, src []T) {
	const chunk = 1 << 15
	for len(src) > chunk {
		copy(dst, src[:chunk])
		dst, src = dst[chunk:], src[chunk:]
	}
	copy(dst, src)
}
