package mcts

import (
	"context"
	"testing"
	"time"
	"unsafe"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// boundedConfig is the play configuration with the smallest tree bound, so
// that a test's searches fill it many times over.
func boundedConfig() Config {
	cfg := DefaultPlayConfig()
	cfg.CacheEntries = 1 << 12
	cfg.TreeBytes = MinTreeBytes
	return cfg
}

// pools records where a tree's pools lie and how large they were reserved.
type pools struct {
	nodes, spareNodes *node
	edges, spareEdges *edge
	caps              [4]int
}

// rootVisits returns the root's visit count.
func rootVisits(tr *Tree) int { return int(tr.nodes[0].n) }

func poolsOf(tr *Tree) pools {
	return pools{
		unsafe.SliceData(tr.nodes), unsafe.SliceData(tr.spareNodes),
		unsafe.SliceData(tr.edges), unsafe.SliceData(tr.spareEdges),
		[4]int{cap(tr.nodes), cap(tr.spareNodes), cap(tr.edges), cap(tr.spareEdges)},
	}
}

// checkPools fails unless the tree's pools are the ones reserved (a bounded
// pool is reserved once at its bound and never copied: a copy of a large
// pool stalls the whole process; see allocNodes), and their reservation
// fits the bound.
func checkPools(t *testing.T, tr *Tree, want pools, when string) {
	t.Helper()
	if got := poolsOf(tr); got != want {
		t.Fatalf("%s: the pools moved or grew: %+v, reserved %+v", when, got, want)
	}
	c := want.caps
	if b := (c[0]+c[1])*nodeBytes + (c[2]+c[3])*edgeBytes; b > tr.cfg.TreeBytes {
		t.Fatalf("pools of %d bytes for a bound of %d", b, tr.cfg.TreeBytes)
	}
}

// A search that fills a bounded tree goes on to its budget, recycling the
// tree as often as it needs to, in the pools it was given; so does the
// next search on the kept tree after Advance.
func TestBoundedTreeKeepsGrowing(t *testing.T) {
	cfg := boundedConfig()
	s := newSearcher(t, hashEvaluator{}, cfg)
	tr := newTree(t, s, mustPlay(t, "d2d4", "g8f6"), 1)
	reserved := poolsOf(tr)
	const n = 40_000
	res, err := s.Search(context.Background(), tr, clock.Limits{Nodes: n}, Progress{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Nodes != n || rootVisits(tr) != n {
		t.Fatalf("the search completed %d playouts, root %d visits; want %d", res.Nodes, rootVisits(tr), n)
	}
	if tr.recycles < 3 {
		t.Fatalf("%d recycles in %d playouts on a tree of %d bytes: the test does not fill it", tr.recycles, n, cfg.TreeBytes)
	}
	checkTree(t, tr)
	checkPools(t, tr, reserved, "after the search")
	var sum int
	for _, c := range res.Children {
		sum += c.Visits
	}
	if sum != n-1 {
		t.Fatalf("the root's moves have %d visits, want %d: recycling lost root statistics", sum, n-1)
	}

	kept := 0
	for _, c := range res.Children {
		if c.Move == res.BestMove {
			kept = c.Visits
		}
	}
	if err := tr.Advance(res.BestMove); err != nil {
		t.Fatal(err)
	}
	if rootVisits(tr) != kept || tr.Size() < 2 {
		t.Fatalf("after Advance: root %d visits (the move had %d), %d nodes", rootVisits(tr), kept, tr.Size())
	}
	checkTree(t, tr)
	checkPools(t, tr, reserved, "after Advance")
	before := tr.recycles
	if _, err := s.Search(context.Background(), tr, clock.Limits{Nodes: n}, Progress{}); err != nil {
		t.Fatal(err)
	}
	if rootVisits(tr) != kept+n || tr.recycles == before {
		t.Fatalf("the kept tree's search: root %d visits (want %d), recycles %d → %d", rootVisits(tr), kept+n, before, tr.recycles)
	}
	checkTree(t, tr)
	checkPools(t, tr, reserved, "after the second search")
}

// An infinite search keeps adding visits long after its tree first filled,
// and goes on reporting, until it is stopped.
func TestBoundedInfiniteSearchKeepsGrowing(t *testing.T) {
	s := newSearcher(t, hashEvaluator{}, boundedConfig())
	tr := newTree(t, s, mustPlay(t, "e2e4"), 1)
	reserved := poolsOf(tr)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var atFirst, last Info // the first report after the tree recycled, the last
	reports := 0
	res, err := s.Search(ctx, tr, clock.Limits{Infinite: true}, Progress{Interval: 10 * time.Millisecond,
		Report: func(in Info) {
			// Called from the search's goroutine, with the tree quiescent
			// (the search waits for it).
			reports++
			last = in
			if tr.recycles == 0 || in.Final {
				return
			}
			if atFirst.Nodes == 0 {
				atFirst = in
			}
			if tr.recycles >= 3 && in.Nodes > 3*atFirst.Nodes {
				cancel()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if atFirst.Nodes == 0 || last.Nodes <= 3*atFirst.Nodes || tr.recycles < 3 {
		t.Fatalf("%d reports: %d visits at the first after a recycle, %d at the last, %d recycles: the search stopped growing",
			reports, atFirst.Nodes, last.Nodes, tr.recycles)
	}
	if res.Nodes != last.Nodes || res.BestMove == env.NoMove {
		t.Fatalf("result: %d nodes, move %v; last report %d nodes", res.Nodes, res.BestMove, last.Nodes)
	}
	checkTree(t, tr)
	checkPools(t, tr, reserved, "after the search")
}

// Recycling keeps proofs: in positions where many moves allow a mate in
// one, a search that recycles its tree many times still never plays one,
// and every move it reports proven lost really loses.
func TestRecyclingKeepsProofs(t *testing.T) {
	for _, fen := range blunderFENs {
		cfg := boundedConfig()
		cfg.MateProbe = 1
		p := mustFEN(t, fen)
		tr, res := searchOnce(t, newSearcher(t, hashEvaluator{}, cfg), p, 30_000)
		if tr.recycles == 0 {
			t.Fatalf("%s: the tree never filled", fen)
		}
		if bfAllowsMateIn1(p, res.BestMove) {
			t.Errorf("%s: plays %v, which allows a mate in one", fen, res.BestMove)
		}
		for _, c := range res.Children {
			if c.MateIn == -1 && !bfAllowsMateIn1(p, c.Move) {
				t.Errorf("%s: %v reported mated in one, but it is not", fen, c.Move)
			}
			if c.MateIn == 0 && c.Visits > 0 && bfAllowsMateIn1(p, c.Move) {
				t.Errorf("%s: %v (%d visits) allows a mate in one, not proven", fen, c.Move, c.Visits)
			}
		}
		checkTree(t, tr)
	}
}

// Recycling keeps the proofs a long search builds up: without the mate
// probe, the mates in two below are proven only from checkmates three
// plies down, by searches of which some recycle their tree on the way (a
// tree half the size of this one cannot hold the proof of the hardest).
func TestRecyclingProvesMates(t *testing.T) {
	recycled := 0
	for _, fen := range mateIn2FENs {
		cfg := boundedConfig()
		cfg.MateProbe = 0
		cfg.TreeBytes = MinTreeBytes * 3 / 2
		p := mustFEN(t, fen)
		tr, res := searchOnce(t, newSearcher(t, UniformEvaluator{}, cfg), p, 100_000)
		if res.MateIn != 2 || !bfMateIn2Key(p, res.BestMove) {
			t.Errorf("%s: MateIn %d with %v after %d playouts and %d recycles, want a mate in two", fen, res.MateIn, res.BestMove, res.Nodes, tr.recycles)
		}
		if tr.recycles > 0 {
			recycled++
		}
	}
	if recycled < 2 {
		t.Fatalf("only %d of the searches recycled their tree", recycled)
	}
}

// With one worker a search that recycles its tree is still a
// deterministic function of the seed.
func TestRecyclingIsDeterministic(t *testing.T) {
	run := func() (Result, int) {
		s := newSearcher(t, hashEvaluator{}, boundedConfig())
		tr := newTree(t, s, mustPlay(t, "e2e4", "e7e5"), 7)
		res, err := s.Search(context.Background(), tr, clock.Limits{Nodes: 20_000}, Progress{})
		if err != nil {
			t.Fatal(err)
		}
		return res, tr.recycles
	}
	a, ra := run()
	b, rb := run()
	if ra == 0 || ra != rb || !sameResult(a, b) {
		t.Fatalf("two equal searches differ (recycles %d and %d): %v %v vs %v %v", ra, rb, a.BestMove, a.RootValue, b.BestMove, b.RootValue)
	}
}

// Several workers share one bounded tree through its recycles.
func TestRecyclingWithWorkers(t *testing.T) {
	cfg := boundedConfig()
	cfg.Workers = 2
	s := newSearcher(t, hashEvaluator{}, cfg)
	tr := newTree(t, s, mustPlay(t, "e2e4"), 1)
	reserved := poolsOf(tr)
	res, err := s.Search(context.Background(), tr, clock.Limits{Nodes: 30_000}, Progress{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Nodes != 30_000 || tr.recycles == 0 {
		t.Fatalf("%d playouts, %d recycles", res.Nodes, tr.recycles)
	}
	checkTree(t, tr)
	checkPools(t, tr, reserved, "after the search")
}

// Recycling allocates nothing per playout: a search of many recycles
// allocates as much as one that never fills its tree.
func TestRecyclingAllocatesNothingPerPlayout(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	cfg := boundedConfig()
	cfg.BatchSize = 8
	s := newSearcher(t, UniformEvaluator{}, cfg)
	root := mustPlay(t, "e2e4")
	tr := newTree(t, s, root, 1)
	measure := func(n int) float64 { return searchAllocs(t, s, tr, root, 3, n) }
	measure(30_000) // grow the buffers
	r0 := tr.recycles
	small := measure(500)
	r1 := tr.recycles
	big := measure(30_000)
	if r1 != r0 || tr.recycles == r1 {
		t.Fatalf("recycles: %d in the small searches, %d in the big ones; want none, then some", r1-r0, tr.recycles-r1)
	}
	if big > small+2 {
		t.Fatalf("allocations per search: %v for 500 playouts, %v for 30,000 with recycling", small, big)
	}
}

// The visit-count classes a rebuild picks its threshold among are ordered
// and cover every count.
func TestVisitBuckets(t *testing.T) {
	last := -1
	for _, n := range []int32{0, 1, 2, 31, 32, 39, 40, 47, 48, 63, 64, 65, 1000, 1 << 20, 1<<31 - 1} {
		b := bucketOf(n)
		if b < last || b >= histBuckets || bucketFloor(b) > n || (b+1 < histBuckets && bucketFloor(b+1) <= n) {
			t.Fatalf("n %d: bucket %d (floor %d, next %d), previous %d", n, b, bucketFloor(b), bucketFloor(b+1), last)
		}
		last = b
	}
	for b := 1; b < histBuckets; b++ {
		if bucketFloor(b) <= bucketFloor(b-1) || bucketOf(bucketFloor(b)) != b {
			t.Fatalf("bucket %d: floor %d, previous %d", b, bucketFloor(b), bucketFloor(b-1))
		}
	}
}
