package mcts

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// Positions found by random play from the start position; every test
// re-derives the property it relies on with the brute-force helpers.
var (
	// The side to move forces mate in two and has no mate in one.
	mateIn2FENs = []string{
		"rn2k2r/ppp|Q|qppp/7|n/1|B2p|b|B|R/1|b6/3|P|P2|P/PPP2PP1/RN2K1N1 b Qkq - 1 7",
		"rn1B1|knr/pppb1ppp/8/1|B2p2|R/1|b5P/3|Pq|N2/PPP2PP1/RN3|K2 b - - 3 11",
		"rnb|k2n1/p4pp1/1|p1|p|Q3/4|p2P/1|q2|P|PP1/5|N2/P2P|B2|r/RNB1K1bR b KQ - 2 16",
		"rn1qkb2/p4p2/|B|p1|p|b1|p1/2|p1|p|QBp/2|P1n1|r1/1|P1|P1|N2/P4PPP/RN2K2R w KQq - 0 14",
		"rn|q1kbn1/2p|bp3/|p4|p1|p/1|pP|p2|p|Q/2|B3|P1/3|P|P2|P/PP1|N1P2/R1B1K1N|r w Qq - 0 10",
		"rnb1kb|r1/pppp|nppp/8/1q6/2|PN|p|B1|P/3|P3|R/PP2PPP1/RN1QKB2 w Qq - 2 8",
	}
	// Many moves (captures among them) allow a mate in one; some do not.
	blunderFENs = []string{
		"rn2k2r/ppp|Q|qppp/4|p2|n/5|b|B|R/1|b6/3|P|P2|P/PPP2PP1/RN2KBN1 b Qkq - 4 6",
		"rn1B1|knr/pppb1ppp/8/1|B2p2|R/1|b5P/3|Pq3/PPP2PP1/RN3|KN1 w - - 2 11",
		"rn3|kn1/p4pp1/|b|p1|p4/1B2|p2P/2Qq|P|PP1/5|N2/P2P3|r/RNB|K2bR w - - 9 20",
		"rnbQ2nr/p2p1|kpp/5b1|B/1|p2|p|p2/5q|P|P/1|P|P1|P|N2/P2|NRP2/R3KB2 b Q - 0 13",
		"rnbQ2nr/3p1|kpp/5b1|B/|p|p2|p|pN1/5q|P|P/1|P|P1|P3/P2|NRP2/R3KB2 b Q - 1 14",
	}
)

type algo struct {
	name   string
	gumbel bool
}

var algos = []algo{{"puct", false}, {"gumbel", true}}

var standIns = []struct {
	name string
	eval Evaluator
}{{"uniform", UniformEvaluator{}}, {"material", MaterialEvaluator{}}}

// checkTree verifies the pools' invariants after a search: nothing in
// flight, no pending node, children in edge order, visit counts consistent
// with the children's (exactly so in a tree that never dropped a subtree).
func checkTree(t *testing.T, tr *Tree) {
	t.Helper()
	for i := range tr.nodes {
		nd := &tr.nodes[i]
		if nd.inflight != 0 || nd.state == stPending {
			t.Fatalf("node %d: inflight %d state %d after search", i, nd.inflight, nd.state)
		}
		if nd.state != stExpanded {
			if nd.child >= 0 {
				t.Fatalf("node %d: state %d with children", i, nd.state)
			}
			continue
		}
		if nd.edges < 0 || int(nd.edges)+int(nd.nEdges) > len(tr.edges) {
			t.Fatalf("node %d: edges [%d, +%d) outside the pool of %d", i, nd.edges, nd.nEdges, len(tr.edges))
		}
		var sum int32
		last := -1
		for off, c := range tr.childrenOf(int32(i)) {
			if off <= last || off >= int(nd.nEdges) || c <= int32(i) {
				t.Fatalf("node %d: child %d at edge %d after edge %d of %d", i, c, off, last, nd.nEdges)
			}
			last = off
			sum += tr.nodes[c].n
		}
		// A node's own evaluation is one visit; playouts that stopped at it
		// once it was proven add more, and so do those of a subtree a
		// bounded tree dropped.
		if nd.n < sum+1 || (nd.proof == proofNone && !tr.bounded && nd.n != sum+1) {
			t.Fatalf("node %d: %d visits, children %d (proof %d)", i, nd.n, sum, nd.proof)
		}
	}
}

func checkDistribution(t *testing.T, p *env.Position, v []float32) {
	t.Helper()
	if len(v) != env.PolicySize {
		t.Fatalf("Visits has %d entries, want %d", len(v), env.PolicySize)
	}
	legal := make([]float32, env.PolicySize)
	p.LegalMask(legal)
	var sum float64
	for i, x := range v {
		if x < 0 || math.IsNaN(float64(x)) {
			t.Fatalf("Visits[%d] = %v", i, x)
		}
		if x > 0 && legal[i] == 0 {
			t.Fatalf("Visits[%d] = %v on an illegal move", i, x)
		}
		sum += float64(x)
	}
	if math.Abs(sum-1) > 1e-4 {
		t.Fatalf("Visits sum to %v, want 1", sum)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []Config{DefaultConfig(), DefaultPlayConfig()} {
		if err := c.Validate(); err != nil {
			t.Fatalf("default config invalid: %v", err)
		}
	}
	cases := []struct {
		field string
		mod   func(*Config)
	}{
		{"Simulations", func(c *Config) { c.Simulations = 0 }},
		{"CPuct", func(c *Config) { c.CPuct = 0 }},
		{"PolicyTemperature", func(c *Config) { c.PolicyTemperature = float32(math.NaN()) }},
		{"DirichletEpsilon", func(c *Config) { c.DirichletEpsilon = 1.5 }},
		{"DirichletAlpha", func(c *Config) { c.DirichletAlpha = 0 }},
		{"GumbelK", func(c *Config) { c.GumbelK = 0 }},
		{"GumbelCScale", func(c *Config) { c.GumbelCScale = -1 }},
		{"BatchSize", func(c *Config) { c.BatchSize = 0 }},
		{"Workers", func(c *Config) { c.Workers = 0 }},
		{"PlayoutCapProb", func(c *Config) { c.PlayoutCapProb = 2 }},
		{"PlayoutCapFactor", func(c *Config) { c.PlayoutCapFactor = 0 }},
		{"RootFPUValue", func(c *Config) { c.RootFPUValue = 3 }},
		{"TreeBytes", func(c *Config) { c.TreeBytes = MinTreeBytes - 1 }},
		{"CacheEntries", func(c *Config) { c.CacheEntries = -1 }},
	}
	for _, tc := range cases {
		c := DefaultConfig()
		tc.mod(&c)
		err := c.Validate()
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field {
			t.Errorf("%s: Validate() = %v, want a ConfigError naming the field", tc.field, err)
		}
		if _, err := NewSearcher(UniformEvaluator{}, c); err == nil {
			t.Errorf("%s: NewSearcher accepted an invalid config", tc.field)
		}
	}
}

// statusOf must agree with env's Status on every position of random games.
func TestStatusOfMatchesEnv(t *testing.T) {
	r := newRand(7)
	for game := range 40 {
		p := env.NewPosition(env.Alice)
		plyCap := 20 + game*4
		for {
			var ml env.MoveList
			p.LegalMoves(&ml)
			got := statusOf(p, ml.N, p.Repetitions(), plyCap)
			if want := p.StatusWithCap(plyCap); got != want {
				t.Fatalf("game %d ply %d (%s): statusOf %v, env %v", game, p.Ply(), p.FEN(), got, want)
			}
			if got != env.Ongoing {
				break
			}
			p.MakeMove(ml.Moves[r.IntN(ml.N)])
		}
	}
}

func TestMateInOne(t *testing.T) {
	// The rule book's quick mate: 1. e4 d5 2. Be2 dxe4 3. Bb5#.
	p := mustPlay(t, "e2e4", "d7d5", "f1e2", "d5e4")
	mate := mustParse(t, p, "e2b5")
	if !bfMates(p, mate) {
		t.Fatal("e2b5 does not mate according to env")
	}
	for _, a := range algos {
		for _, ev := range standIns {
			for _, sims := range []int{2, 16, 200} {
				cfg := testConfig(a.gumbel, sims)
				cfg.GumbelK = 4 // the mate must not depend on being sampled
				s := newSearcher(t, ev.eval, cfg)
				tr := newTree(t, s, p, 1)
				res, err := s.Search(context.Background(), tr, clock.Limits{}, Progress{})
				if err != nil {
					t.Fatal(err)
				}
				if !bfMates(p, res.BestMove) || res.MateIn != 1 || res.PV[0] != res.BestMove {
					t.Errorf("%s/%s/%d: best %v mate-in %d PV %v; want the mate e2b5, mate-in 1",
						a.name, ev.name, sims, res.BestMove, res.MateIn, res.PV)
				}
				if res.RootValue != 1 || res.Visits[p.PolicyIndex(mate)] != 1 {
					t.Errorf("%s/%s/%d: root value %v, target %v; want 1 and one-hot", a.name, ev.name, sims,
						res.RootValue, res.Visits[p.PolicyIndex(mate)])
				}
				// Self-play too.
				tr2 := newTree(t, s, p, 2)
				out, err := s.SearchBatch(context.Background(), []*Tree{tr2})
				if err != nil {
					t.Fatal(err)
				}
				if !bfMates(p, out[0].BestMove) {
					t.Errorf("%s/%s/%d: SearchBatch best %v does not mate", a.name, ev.name, sims, out[0].BestMove)
				}
				checkTree(t, tr)
			}
		}
	}
}

func TestMateInTwo(t *testing.T) {
	for i, fen := range mateIn2FENs {
		p := mustFEN(t, fen)
		if bfMateIn1(p) || !bfMateIn2(p) {
			t.Fatalf("position %d: brute force says mate-in-1 %v, mate-in-2 %v; want false, true", i, bfMateIn1(p), bfMateIn2(p))
		}
		for _, a := range algos {
			for _, ev := range standIns {
				cfg := testConfig(a.gumbel, 4000)
				cfg.GumbelK = 64 // consider every move: the key must not depend on sampling
				// The solver's own proof. With MateProbe 2 a quiet move
				// after which every reply allows a checking mate in two is
				// proven (a mate in three) in one visit a reply, maybe
				// before the key, and a proven root ends the search.
				cfg.MateProbe = 1
				s := newSearcher(t, ev.eval, cfg)
				tr := newTree(t, s, p, uint64(i))
				res, err := s.Search(context.Background(), tr, clock.Limits{}, Progress{})
				if err != nil {
					t.Fatal(err)
				}
				if !bfMateIn2Key(p, res.BestMove) || res.MateIn != 2 {
					t.Errorf("position %d %s/%s: best %v (key: %v), mate-in %d after %d playouts; want a mating key, mate-in 2",
						i, a.name, ev.name, res.BestMove, bfMateIn2Key(p, res.BestMove), res.MateIn, res.Nodes)
					continue
				}
				// The PV is the proof's main line: key, a defence, mate.
				if len(res.PV) != 3 {
					t.Errorf("position %d %s/%s: PV %v, want 3 moves", i, a.name, ev.name, res.PV)
				} else {
					q := p.Clone()
					q.MakeMove(res.PV[0])
					q.MakeMove(res.PV[1])
					if !bfMates(q, res.PV[2]) {
						t.Errorf("position %d %s/%s: PV %v does not end in mate", i, a.name, ev.name, res.PV)
					}
				}
				checkTree(t, tr)
			}
		}
	}
}

func TestAvoidsMateInOne(t *testing.T) {
	for i, fen := range blunderFENs {
		p := mustFEN(t, fen)
		var ml env.MoveList
		p.LegalMoves(&ml)
		bad := 0
		for _, m := range ml.Slice() {
			if bfAllowsMateIn1(p, m) {
				bad++
			}
		}
		if bfMateIn1(p) || bad == 0 || bad == ml.N {
			t.Fatalf("position %d: mate-in-1 %v, %d of %d moves allow mate; want no mate and some (not all) losing moves",
				i, bfMateIn1(p), bad, ml.N)
		}
		for _, a := range algos {
			for _, ev := range standIns {
				for _, sims := range []int{64, 400} {
					cfg := testConfig(a.gumbel, sims)
					cfg.GumbelK = 64
					s := newSearcher(t, ev.eval, cfg)
					tr := newTree(t, s, p, uint64(i))
					res, err := s.Search(context.Background(), tr, clock.Limits{}, Progress{})
					if err != nil {
						t.Fatal(err)
					}
					if bfAllowsMateIn1(p, res.BestMove) {
						t.Errorf("position %d %s/%s/%d: chose %v, which allows mate in one", i, a.name, ev.name, sims, res.BestMove)
					}
					checkTree(t, tr)
				}
			}
		}
	}
}

func TestPUCTVisitsSumToSimulations(t *testing.T) {
	p := env.NewPosition(env.Alice)
	for _, batch := range []int{1, 8} {
		cfg := testConfig(false, 300)
		cfg.BatchSize = batch
		s := newSearcher(t, hashEvaluator{}, cfg)
		tr := newTree(t, s, p, 1)
		res, err := s.Search(context.Background(), tr, clock.Limits{}, Progress{})
		if err != nil {
			t.Fatal(err)
		}
		// The fresh root's own evaluation is the first playout.
		sum := 0
		for _, c := range res.Children {
			sum += c.Visits
		}
		if res.Nodes != 300 || sum != 299 || rootVisits(tr) != 300 {
			t.Fatalf("batch %d: Nodes %d, children's visits %d, root %d; want 300, 299, 300", batch, res.Nodes, sum, rootVisits(tr))
		}
		checkDistribution(t, p, res.Visits)
		for _, c := range res.Children {
			if got, want := res.Visits[p.PolicyIndex(c.Move)], float32(c.Visits)/299; math.Abs(float64(got-want)) > 1e-6 {
				t.Fatalf("target of %v is %v, want visits share %v", c.Move, got, want)
			}
		}
		checkTree(t, tr)
		// A searched root again: all playouts go to the children.
		res, err = s.Search(context.Background(), tr, clock.Limits{Nodes: 100}, Progress{})
		if err != nil {
			t.Fatal(err)
		}
		sum = 0
		for _, c := range res.Children {
			sum += c.Visits
		}
		if res.Nodes != 100 || sum != 399 {
			t.Fatalf("second search: Nodes %d, children's visits %d; want 100, 399", res.Nodes, sum)
		}
	}
}

func TestGumbelTargetIsDistribution(t *testing.T) {
	p := mustPlay(t, "e2e4", "e7e5", "g1f3")
	for _, sims := range []int{1, 2, 16, 64, 200} {
		cfg := DefaultConfig()
		cfg.Gumbel = true
		cfg.Simulations = sims
		cfg.BatchSize = 8
		s := newSearcher(t, hashEvaluator{}, cfg)
		trees := []*Tree{newTree(t, s, p, 1), newTree(t, s, p, 2)}
		out, err := s.SearchBatch(context.Background(), trees)
		if err != nil {
			t.Fatal(err)
		}
		for i, res := range out {
			checkDistribution(t, p, res.Visits)
			if res.Nodes != sims {
				t.Fatalf("sims %d: Nodes %d", sims, res.Nodes)
			}
			var ml env.MoveList
			p.LegalMoves(&ml)
			if !ml.Contains(res.BestMove) {
				t.Fatalf("sims %d: best move %v not legal", sims, res.BestMove)
			}
			checkTree(t, trees[i])
		}
	}
}

// gumbelSchedule must match mctx's get_sequence_of_considered_visits.
func TestGumbelSchedule(t *testing.T) {
	got := gumbelSchedule(nil, 4, 16)
	want := []int32{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}
	if !slices.Equal(got, want) {
		t.Fatalf("schedule(4, 16) = %v, want %v", got, want)
	}
	if got := gumbelSchedule(nil, 1, 4); !slices.Equal(got, []int32{0, 1, 2, 3}) {
		t.Fatalf("schedule(1, 4) = %v", got)
	}
	if got := gumbelSchedule(nil, 16, 8); !slices.Equal(got, make([]int32, 8)) {
		t.Fatalf("schedule(16, 8) = %v", got)
	}
}

// With at least BatchSize games searching, batches are full until the end
// of a round: there the few searches still going (Gumbel's last phase waits
// for its leaves' values before it goes on) may leave the last two short.
func TestBatchesAreFull(t *testing.T) {
	const B = 16
	for _, a := range algos {
		for _, games := range []int{B, B + 5, 3 * B} {
			ce := &countingEvaluator{Evaluator: hashEvaluator{}}
			cfg := DefaultConfig()
			cfg.Gumbel = a.gumbel
			cfg.Simulations = 48
			cfg.BatchSize = B
			cfg.MaxInFlightPerTree = B
			s := newSearcher(t, ce, cfg)
			trees := make([]*Tree, games)
			for i := range trees {
				trees[i] = newTree(t, s, env.NewPosition(env.Alice), uint64(i))
			}
			for round := range 4 {
				out, err := s.SearchBatch(context.Background(), trees)
				if err != nil {
					t.Fatal(err)
				}
				sizes := ce.take()
				for i, n := range sizes[:max(0, len(sizes)-2)] {
					if n != B {
						t.Fatalf("%s, %d games, round %d: batch %d of %d has %d positions (sizes %v)",
							a.name, games, round, i, len(sizes), n, sizes)
					}
				}
				for i, r := range out {
					if err := trees[i].Advance(r.BestMove); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}

// With two workers each takes its own share of games and batches; the
// evaluator is called concurrently.
func TestSearchBatchWorkers(t *testing.T) {
	ce := &countingEvaluator{Evaluator: hashEvaluator{}}
	cfg := DefaultConfig()
	cfg.Simulations = 40
	cfg.BatchSize = 8
	cfg.Workers = 2
	s := newSearcher(t, ce, cfg)
	trees := make([]*Tree, 32)
	for i := range trees {
		trees[i] = newTree(t, s, env.NewPosition(env.Alice), uint64(i))
	}
	for range 3 {
		out, err := s.SearchBatch(context.Background(), trees)
		if err != nil {
			t.Fatal(err)
		}
		partial := 0
		for _, n := range ce.take() {
			if n != 8 {
				partial++
			}
		}
		if partial > cfg.Workers {
			t.Fatalf("%d partial batches, want at most one per worker", partial)
		}
		for i, r := range out {
			if r.Nodes != 40 {
				t.Fatalf("tree %d: %d playouts", i, r.Nodes)
			}
			checkTree(t, trees[i])
			if err := trees[i].Advance(r.BestMove); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func sameResult(a, b Result) bool {
	return slices.Equal(a.Visits, b.Visits) && a.BestMove == b.BestMove && slices.Equal(a.PV, b.PV) &&
		a.RootValue == b.RootValue && a.Nodes == b.Nodes && a.UseForTraining == b.UseForTraining
}

// With two batches' worth of games the batches are pipelined (the next
// gathered while the last is evaluated): the search stays deterministic,
// and every game's search still ends with its full budget.
func TestPipelinedDeterminism(t *testing.T) {
	run := func(gumbel bool) []Result {
		cfg := DefaultConfig()
		cfg.Gumbel = gumbel
		cfg.Simulations = 48
		cfg.BatchSize = 8
		cfg.PlayoutCapProb = 0.3
		s := newSearcher(t, hashEvaluator{}, cfg)
		trees := make([]*Tree, 3*cfg.BatchSize)
		for i := range trees {
			trees[i] = newTree(t, s, env.NewPosition(env.Alice), 7+uint64(i))
		}
		var all []Result
		for range 3 {
			out, err := s.SearchBatch(context.Background(), trees)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range out {
				want := cfg.Simulations
				if !r.UseForTraining {
					want = max(1, cfg.Simulations/cfg.PlayoutCapFactor)
				}
				if r.Nodes != want {
					t.Fatalf("tree %d: %d playouts, want %d", i, r.Nodes, want)
				}
				all = append(all, r)
				if err := trees[i].Advance(r.BestMove); err != nil {
					t.Fatal(err)
				}
				checkTree(t, trees[i])
			}
		}
		return all
	}
	for _, a := range algos {
		x, y := run(a.gumbel), run(a.gumbel)
		for i := range x {
			if !sameResult(x[i], y[i]) {
				t.Fatalf("%s: result %d differs between runs", a.name, i)
			}
		}
	}
}

func TestDeterminism(t *testing.T) {
	run := func(gumbel bool, seed uint64) []Result {
		cfg := DefaultConfig() // noise, temperature
		cfg.Gumbel = gumbel
		cfg.Simulations = 64
		cfg.BatchSize = 8
		cfg.PlayoutCapProb = 0.3
		s := newSearcher(t, hashEvaluator{}, cfg)
		trees := make([]*Tree, 6)
		for i := range trees {
			trees[i] = newTree(t, s, env.NewPosition(env.Alice), seed+uint64(i))
		}
		var all []Result
		for range 4 {
			out, err := s.SearchBatch(context.Background(), trees)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range out {
				all = append(all, r)
				if err := trees[i].Advance(r.BestMove); err != nil {
					t.Fatal(err)
				}
			}
		}
		// Engine mode on the first tree.
		r, err := s.Search(context.Background(), trees[0], clock.Limits{Nodes: 100}, Progress{})
		if err != nil {
			t.Fatal(err)
		}
		return append(all, r)
	}
	for _, a := range algos {
		x, y := run(a.gumbel, 1), run(a.gumbel, 1)
		for i := range x {
			if !sameResult(x[i], y[i]) {
				t.Fatalf("%s: result %d differs between runs with the same seed", a.name, i)
			}
		}
		z := run(a.gumbel, 1000)
		differ := false
		for i := range x {
			differ = differ || !sameResult(x[i], z[i])
		}
		if !differ {
			t.Fatalf("%s: different seeds gave identical searches", a.name)
		}
	}
}

func TestTreeReuse(t *testing.T) {
	cfg := testConfig(false, 400)
	s := newSearcher(t, hashEvaluator{}, cfg)
	tr := newTree(t, s, env.NewPosition(env.Alice), 1)
	res, err := s.Search(context.Background(), tr, clock.Limits{}, Progress{})
	if err != nil {
		t.Fatal(err)
	}
	var kept int
	for _, c := range res.Children {
		if c.Move == res.BestMove {
			kept = c.Visits
		}
	}
	// The kept subtree's size, counted before the move.
	if err := tr.Advance(res.BestMove); err != nil {
		t.Fatal(err)
	}
	if rootVisits(tr) != kept || kept < 2 {
		t.Fatalf("after Advance the root has %d visits, the child had %d", rootVisits(tr), kept)
	}
	checkTree(t, tr)
	size := tr.Size()
	res2, err := s.Search(context.Background(), tr, clock.Limits{Nodes: 200}, Progress{})
	if err != nil {
		t.Fatal(err)
	}
	if rootVisits(tr) != kept+200 || res2.Nodes != 200 || tr.Size() <= size {
		t.Fatalf("after a reused search: root %d visits (want %d), tree %d nodes (was %d)", rootVisits(tr), kept+200, tr.Size(), size)
	}
	checkTree(t, tr)
	// The reused search equals one with ReuseTree off only in legality;
	// without reuse the root starts empty.
	cfg.ReuseTree = false
	s2 := newSearcher(t, hashEvaluator{}, cfg)
	tr2 := newTree(t, s2, env.NewPosition(env.Alice), 1)
	if _, err := s2.Search(context.Background(), tr2, clock.Limits{}, Progress{}); err != nil {
		t.Fatal(err)
	}
	if err := tr2.Advance(res.BestMove); err != nil {
		t.Fatal(err)
	}
	if rootVisits(tr2) != 0 || tr2.Size() != 1 {
		t.Fatalf("without reuse: root %d visits, %d nodes", rootVisits(tr2), tr2.Size())
	}
	// SetPosition recognises a continuation of the game.
	q := tr.Position()
	m := res2.BestMove
	q.MakeMove(m)
	var kept2 int
	for _, c := range res2.Children {
		if c.Move == m {
			kept2 = c.Visits
		}
	}
	if err := tr.SetPosition(q); err != nil {
		t.Fatal(err)
	}
	if rootVisits(tr) != kept2 || tr.Position().FEN() != q.FEN() {
		t.Fatalf("SetPosition: root %d visits, want %d", rootVisits(tr), kept2)
	}
	// An unrelated position resets.
	if err := tr.SetPosition(mustFEN(t, mateIn2FENs[0])); err != nil {
		t.Fatal(err)
	}
	if rootVisits(tr) != 0 {
		t.Fatalf("SetPosition to another game kept %d visits", rootVisits(tr))
	}
}

func TestAdvanceAndGameOver(t *testing.T) {
	s := newSearcher(t, UniformEvaluator{}, testConfig(false, 10))
	p := mustPlay(t, "e2e4", "d7d5", "f1e2", "d5e4")
	tr := newTree(t, s, p, 1)
	if err := tr.Advance(mustParse(t, env.NewPosition(env.Alice), "e2e4")); !errors.Is(err, ErrIllegalMove) {
		t.Fatalf("Advance(illegal) = %v, want ErrIllegalMove", err)
	}
	if err := tr.Advance(mustParse(t, p, "e2b5")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Search(context.Background(), tr, clock.Limits{}, Progress{}); !errors.Is(err, ErrGameOver) {
		t.Fatalf("Search after mate = %v, want ErrGameOver", err)
	}
	if _, err := s.SearchBatch(context.Background(), []*Tree{tr}); !errors.Is(err, ErrGameOver) {
		t.Fatalf("SearchBatch after mate = %v, want ErrGameOver", err)
	}
	other := newSearcher(t, UniformEvaluator{}, testConfig(false, 10))
	if _, err := other.Search(context.Background(), newTree(t, s, p, 1), clock.Limits{}, Progress{}); !errors.Is(err, ErrForeignTree) {
		t.Fatalf("foreign tree: %v", err)
	}
	u := newTree(t, s, p, 1)
	if _, err := s.SearchBatch(context.Background(), []*Tree{u, u}); !errors.Is(err, ErrTreeBusy) {
		t.Fatalf("duplicate tree: %v", err)
	}
	if _, err := s.SearchBatch(context.Background(), []*Tree{u}); err != nil {
		t.Fatalf("tree unusable after a rejected batch: %v", err)
	}
}

// The ply cap scores positions at the cap as draws, without the network.
func TestPlyCapIsDraw(t *testing.T) {
	p := env.NewPosition(env.Alice)
	cfg := testConfig(false, 50)
	cfg.PlyCap = 1
	s := newSearcher(t, UniformEvaluator{Value: 0.9}, cfg)
	tr := newTree(t, s, p, 1)
	res, err := s.Search(context.Background(), tr, clock.Limits{}, Progress{})
	if err != nil {
		t.Fatal(err)
	}
	if res.RootValue != 0 || res.RootWDL != [3]float32{0, 1, 0} || res.MateIn != 0 {
		t.Fatalf("every move reaches the cap: value %v WDL %v, want a proven draw", res.RootValue, res.RootWDL)
	}
}

func TestCacheIsTransparent(t *testing.T) {
	for _, a := range algos {
		run := func(entries int) ([]Result, Stats) {
			cfg := DefaultConfig()
			cfg.Gumbel = a.gumbel
			cfg.Simulations = 200
			// One leaf per batch: a hit then changes no batch's make-up,
			// only whether the network is asked.
			cfg.BatchSize = 1
			cfg.CacheEntries = entries
			s := newSearcher(t, hashEvaluator{}, cfg)
			trees := []*Tree{newTree(t, s, env.NewPosition(env.Alice), 3), newTree(t, s, env.NewPosition(env.Alice), 4)}
			var all []Result
			for range 3 {
				out, err := s.SearchBatch(context.Background(), trees)
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, out...)
				for i, r := range out {
					if err := trees[i].Advance(r.BestMove); err != nil {
						t.Fatal(err)
					}
				}
			}
			return all, s.Stats()
		}
		x, sx := run(0)
		y, sy := run(1 << 12)
		for i := range x {
			if !sameResult(x[i], y[i]) {
				t.Fatalf("%s: result %d differs with the cache", a.name, i)
			}
		}
		if sy.CacheHits == 0 || sy.Positions >= sx.Positions {
			t.Fatalf("%s: cache hits %d, positions evaluated %d with cache vs %d without", a.name, sy.CacheHits, sy.Positions, sx.Positions)
		}
	}
}

func TestCacheStoreLookup(t *testing.T) {
	c := NewCache(100)
	logits := []float32{1, 2, 3}
	c.store(42, logits, []float32{0.5, 0.3, 0.2})
	dst := make([]float32, 3)
	wdl, ok := c.lookup(42, 3, dst)
	if !ok || !slices.Equal(dst, logits) || wdl != [3]float32{0.5, 0.3, 0.2} {
		t.Fatalf("lookup = %v %v %v", ok, dst, wdl)
	}
	if _, ok := c.lookup(42, 4, dst); ok {
		t.Fatal("a different move count hit")
	}
	// A key sharing the index slot must not read the other's entry.
	other := uint64(42) + uint64(len(c.shards[0].index))<<16
	if _, ok := c.lookup(other, 3, dst); ok {
		t.Fatal("index collision read as a hit")
	}
	c.store(other, []float32{9, 9, 9}, []float32{1, 0, 0})
	if _, ok := c.lookup(42, 3, dst); ok {
		t.Fatal("replaced entry still hits")
	}
	// Overwritten ring records are misses, never wrong values.
	for k := uint64(1000); k < 5000; k++ {
		n := int(k % 40)
		l := make([]float32, n)
		for i := range l {
			l[i] = float32(k)
		}
		c.store(k*0x9e3779b97f4a7c15, l, []float32{float32(k), 0, 0})
	}
	hits := 0
	for k := uint64(1000); k < 5000; k++ {
		n := int(k % 40)
		d := make([]float32, n)
		if wdl, ok := c.lookup(k*0x9e3779b97f4a7c15, n, d); ok {
			hits++
			for _, x := range d {
				if x != float32(k) {
					t.Fatalf("entry %d read back wrong logits %v", k, d)
				}
			}
			if wdl[0] != float32(k) {
				t.Fatalf("entry %d read back wrong WDL", k)
			}
		}
	}
	if hits == 0 || hits == 4000 {
		t.Fatalf("%d of 4000 entries hit: want the newest only", hits)
	}
	c.Clear()
	last := uint64(4999)
	if _, ok := c.lookup(last*0x9e3779b97f4a7c15, int(last%40), make([]float32, 40)); ok {
		t.Fatal("hit after Clear")
	}
	var nilCache *Cache
	if _, ok := nilCache.lookup(1, 0, nil); ok {
		t.Fatal("nil cache hit")
	}
}

func TestEngineLimits(t *testing.T) {
	p := mustPlay(t, "d2d4", "g8f6")
	cfg := DefaultPlayConfig()
	cfg.CacheEntries = 1 << 12
	s := newSearcher(t, hashEvaluator{}, cfg)

	res, err := s.Search(context.Background(), newTree(t, s, p, 1), clock.Limits{Nodes: 123}, Progress{})
	if err != nil || res.Nodes != 123 {
		t.Fatalf("node limit: %d playouts, err %v", res.Nodes, err)
	}

	start := time.Now()
	res, err = s.Search(context.Background(), newTree(t, s, p, 1), clock.Limits{MoveTime: 50 * time.Millisecond}, Progress{})
	if el := time.Since(start); err != nil || el > 2*time.Second || res.Nodes < 2 {
		t.Fatalf("time limit: %v elapsed, %d playouts, err %v", el, res.Nodes, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	var infos atomic.Int32
	var final Info
	go func() { time.Sleep(80 * time.Millisecond); cancel() }()
	res, err = s.Search(ctx, newTree(t, s, p, 1), clock.Limits{Infinite: true}, Progress{Interval: 10 * time.Millisecond,
		Report: func(in Info) {
			infos.Add(1)
			if in.Final {
				final = in
			}
		}})
	if err != nil || res.BestMove == env.NoMove {
		t.Fatalf("stopped infinite search: best %v err %v", res.BestMove, err)
	}
	if infos.Load() < 2 || !final.Final || len(final.PV) == 0 || final.Nodes != res.Nodes || final.PV[0] != res.PV[0] {
		t.Fatalf("%d info reports, final %+v", infos.Load(), final)
	}

	// Stopped before the root was evaluated: an error, not a move.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := s.Search(ctx, newTree(t, s, p, 1), clock.Limits{Infinite: true}, Progress{}); !errors.Is(err, ErrNoResult) {
		t.Fatalf("cancelled search = %v, want ErrNoResult", err)
	}
	if _, err := s.Search(context.Background(), newTree(t, s, p, 1), clock.Limits{Nodes: -1}, Progress{}); err == nil {
		t.Fatal("negative limit accepted")
	}
}

// A root where every move allows mate in one is a proven loss: a timed
// search stops at once, reports being mated, and an infinite one waits for
// its context.
func TestProvenLossEndsSearch(t *testing.T) {
	p := mustFEN(t, "rn2kb1r/pp2pppp/|R1|p5/3p4/1|P6/|P3Q3/2|qP1|nPP/1NB1KBNR w Kkq - 0 11")
	var ml env.MoveList
	p.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		if !bfAllowsMateIn1(p, m) {
			t.Fatalf("%v does not allow mate in one", m)
		}
	}
	for _, a := range algos {
		cfg := testConfig(a.gumbel, 100)
		cfg.GumbelK = 64
		s := newSearcher(t, UniformEvaluator{}, cfg)
		start := time.Now()
		res, err := s.Search(context.Background(), newTree(t, s, p, 1), clock.Limits{MoveTime: 20 * time.Second}, Progress{})
		if err != nil || time.Since(start) > 5*time.Second || res.MateIn != -1 || res.RootValue != -1 || !ml.Contains(res.BestMove) {
			t.Fatalf("%s: %v elapsed, mate-in %d, value %v, best %v, err %v", a.name, time.Since(start), res.MateIn, res.RootValue, res.BestMove, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start = time.Now()
		res, err = s.Search(ctx, newTree(t, s, p, 1), clock.Limits{Infinite: true}, Progress{})
		cancel()
		if err != nil || time.Since(start) < 90*time.Millisecond || res.MateIn != -1 {
			t.Fatalf("%s: infinite search returned after %v (mate-in %d, err %v)", a.name, time.Since(start), res.MateIn, err)
		}
	}
}

func TestEngineWorkers(t *testing.T) {
	p := mustPlay(t, "e2e4", "c7c5")
	for _, a := range algos {
		cfg := DefaultPlayConfig()
		cfg.Gumbel = a.gumbel
		cfg.Workers = 4
		cfg.BatchSize = 8
		cfg.Simulations = 600
		ce := &countingEvaluator{Evaluator: hashEvaluator{}}
		s := newSearcher(t, ce, cfg)
		tr := newTree(t, s, p, 1)
		res, err := s.Search(context.Background(), tr, clock.Limits{}, Progress{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Nodes != 600 {
			t.Fatalf("%s: %d playouts", a.name, res.Nodes)
		}
		checkTree(t, tr)
		checkDistribution(t, p, res.Visits)
		big := 0
		for _, n := range ce.take() {
			if n > 1 {
				big++
			}
		}
		if big == 0 {
			t.Fatalf("%s: no batch had more than one leaf", a.name)
		}
	}
}

func TestPlayoutCapRandomisation(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Simulations = 80
	cfg.PlayoutCapFactor = 8
	cfg.BatchSize = 4
	for _, prob := range []float64{0, 1} {
		cfg.PlayoutCapProb = prob
		s := newSearcher(t, hashEvaluator{}, cfg)
		tr := newTree(t, s, env.NewPosition(env.Alice), 1)
		out, err := s.SearchBatch(context.Background(), []*Tree{tr})
		if err != nil {
			t.Fatal(err)
		}
		wantNodes, wantUse := 80, true
		if prob == 1 {
			wantNodes, wantUse = 10, false
		}
		if out[0].Nodes != wantNodes || out[0].UseForTraining != wantUse {
			t.Fatalf("prob %v: %d playouts, use %v", prob, out[0].Nodes, out[0].UseForTraining)
		}
	}
	// With 0.5 both kinds occur.
	cfg.PlayoutCapProb = 0.5
	s := newSearcher(t, hashEvaluator{}, cfg)
	trees := make([]*Tree, 40)
	for i := range trees {
		trees[i] = newTree(t, s, env.NewPosition(env.Alice), uint64(i))
	}
	out, err := s.SearchBatch(context.Background(), trees)
	if err != nil {
		t.Fatal(err)
	}
	small := 0
	for _, r := range out {
		if !r.UseForTraining {
			small++
		}
	}
	if small < 5 || small > 35 {
		t.Fatalf("%d of 40 searches small with probability 0.5", small)
	}
}

// failingEvaluator fails (by error, NaN or panic) on call number failAt.
type failingEvaluator struct {
	mode   string
	calls  atomic.Int32
	failAt int32
}

func (f *failingEvaluator) Evaluate(planes []float32, n int, policy, wdl []float32) error {
	if err := (hashEvaluator{}).Evaluate(planes, n, policy, wdl); err != nil {
		return err
	}
	if f.calls.Add(1) != f.failAt {
		return nil
	}
	switch f.mode {
	case "error":
		return errors.New("device lost")
	case "nan":
		wdl[0] = float32(math.NaN())
	case "panic":
		panic("boom")
	}
	return nil
}

func TestEvaluatorFailure(t *testing.T) {
	for _, mode := range []string{"error", "nan", "panic"} {
		for _, batch := range []bool{false, true} {
			fe := &failingEvaluator{mode: mode, failAt: 5}
			cfg := testConfig(false, 200)
			cfg.Workers = 2
			s := newSearcher(t, fe, cfg)
			tr := newTree(t, s, env.NewPosition(env.Alice), 1)
			var err error
			if batch {
				_, err = s.SearchBatch(context.Background(), []*Tree{tr})
			} else {
				_, err = s.Search(context.Background(), tr, clock.Limits{}, Progress{})
			}
			if !errors.Is(err, ErrEvaluator) {
				t.Fatalf("%s (batch %v): err %v, want ErrEvaluator", mode, batch, err)
			}
			checkTree(t, tr)
			// The tree stays usable.
			res, err := s.Search(context.Background(), tr, clock.Limits{Nodes: 50}, Progress{})
			if err != nil || res.Nodes != 50 {
				t.Fatalf("%s: search after failure: %d playouts, %v", mode, res.Nodes, err)
			}
			checkTree(t, tr)
		}
	}
}

func TestDirichletNoise(t *testing.T) {
	r := newRand(3)
	buf := make([]float64, 30)
	for _, alpha := range []float64{0.03, 0.3, 1, 5} {
		sampleDirichlet(r, alpha, buf)
		var sum float64
		for _, x := range buf {
			if x < 0 || math.IsNaN(x) {
				t.Fatalf("alpha %v: sample %v", alpha, buf)
			}
			sum += x
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("alpha %v: sums to %v", alpha, sum)
		}
	}
	// Noise is applied to the root priors of a search and removed before the
	// next one.
	cfg := testConfig(false, 50)
	cfg.DirichletEpsilon = 0.25
	s := newSearcher(t, UniformEvaluator{}, cfg)
	tr := newTree(t, s, env.NewPosition(env.Alice), 1)
	res, err := s.Search(context.Background(), tr, clock.Limits{}, Progress{})
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[float32]bool{}
	for _, c := range res.Children {
		distinct[c.Prior] = true
	}
	if len(distinct) < 5 {
		t.Fatalf("root priors %v look un-noised", res.Children)
	}
	tr.restorePriors()
	r0 := tr.nodes[0]
	for _, e := range tr.edges[r0.edges : r0.edges+int32(r0.nEdges)] {
		if math.Abs(float64(e.prior)-1/float64(r0.nEdges)) > 1e-6 {
			t.Fatalf("restored prior %v, want uniform", e.prior)
		}
	}
}

// A search allocates per search (its Result), not per playout.
func TestNoAllocationsPerPlayout(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	cfg := testConfig(false, 100)
	s := newSearcher(t, UniformEvaluator{}, cfg)
	root := env.NewPosition(env.Alice)
	tr := newTree(t, s, root, 1)
	measure := func(n int) float64 { return searchAllocs(t, s, tr, root, 5, n) }
	measure(2000) // grow the buffers
	small, big := measure(200), measure(2000)
	if big > small+2 || big > 30 {
		t.Fatalf("allocations per search: %v for 200 playouts, %v for 2000", small, big)
	}
}

func TestMeasureSelfPlay(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Simulations = 32
	sims, overhead, err := MeasureSelfPlay(context.Background(), UniformEvaluator{}, cfg, 8, 8, 100*time.Millisecond)
	if err != nil || sims <= 0 || overhead < 0 || overhead > 100 {
		t.Fatalf("MeasureSelfPlay = %v sims/s, %v%% overhead, %v", sims, overhead, err)
	}
	if _, _, err := MeasureSelfPlay(context.Background(), UniformEvaluator{}, cfg, 0, 8, time.Second); err == nil {
		t.Fatal("0 games accepted")
	}
}

// At the ply cap with a material margin set, the search scores a position
// as the game's record will: a win for the side far enough ahead.
func TestPlyCapScoresMaterial(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fen    string
		margin int
		want   float32
	}{
		{"rook up, margin 3", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 3, 1},
		{"rook up, no margin", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 0, 0},
		{"rook down, margin 3", "r3k3/8/8/8/8/8/8/4K3 w - - 0 1", 3, -1},
		{"pawn up, margin 3", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1", 3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(false, 50)
			cfg.PlyCap = 1
			cfg.CapMaterialMargin = tc.margin
			s := newSearcher(t, UniformEvaluator{Value: 0.5}, cfg)
			tr := newTree(t, s, mustFEN(t, tc.fen), 1)
			res, err := s.Search(context.Background(), tr, clock.Limits{}, Progress{})
			if err != nil {
				t.Fatal(err)
			}
			if res.RootValue != tc.want {
				t.Fatalf("every move reaches the cap: root value %v, want %v", res.RootValue, tc.want)
			}
		})
	}
}

// An engine-mode search reports every root move with its visits, its own
// WDL (consistent with its Q) and its line, in the result and in the
// progress reports, so that MultiPV lines and analysis boards need no
// second search.
func TestEngineChildStats(t *testing.T) {
	p := mustPlay(t, "e2e4", "d7d5")
	cfg := DefaultPlayConfig()
	cfg.CacheEntries = 1 << 12
	s := newSearcher(t, hashEvaluator{}, cfg)
	var final Info
	res, err := s.Search(context.Background(), newTree(t, s, p, 1), clock.Limits{Nodes: 300},
		Progress{Report: func(in Info) {
			if in.Final {
				final = in
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	var ml env.MoveList
	p.LegalMoves(&ml)
	if len(res.Children) != ml.N || len(final.Children) != ml.N {
		t.Fatalf("%d children in the result, %d in the report, %d legal moves", len(res.Children), len(final.Children), ml.N)
	}
	visited := 0
	for i, c := range res.Children {
		if len(c.PV) == 0 || c.PV[0] != c.Move {
			t.Errorf("%v: line %v does not start with the move", c.Move, c.PV)
		}
		if c.Visits == 0 {
			if c.WDL != ([3]float32{}) && c.MateIn == 0 {
				t.Errorf("%v: unvisited but WDL %v", c.Move, c.WDL)
			}
			continue
		}
		visited++
		sum := c.WDL[0] + c.WDL[1] + c.WDL[2]
		if math.Abs(float64(sum-1)) > 1e-4 || math.Abs(float64(c.WDL[0]-c.WDL[2]-c.Q)) > 1e-4 {
			t.Errorf("%v: WDL %v does not match Q %v", c.Move, c.WDL, c.Q)
		}
		if c.Visits > 20 && len(c.PV) < 2 {
			t.Errorf("%v: %d visits but line %v", c.Move, c.Visits, c.PV)
		}
		if f := final.Children[i]; f.Move != c.Move || f.Visits != c.Visits || f.WDL != c.WDL {
			t.Errorf("report %+v differs from result %+v", f, c)
		}
	}
	if visited < 2 {
		t.Errorf("only %d root moves visited", visited)
	}
	best := slices.IndexFunc(res.Children, func(c ChildStat) bool { return c.Move == res.BestMove })
	if !slices.Equal(res.Children[best].PV, res.PV) {
		t.Errorf("best move's line %v, PV %v", res.Children[best].PV, res.PV)
	}
}

// Every root move's line is complete, however long the others' are.
func TestChildLinesAreIndependent(t *testing.T) {
	p := mustPlay(t, "e2e4", "d7d5")
	cfg := DefaultPlayConfig()
	cfg.CacheEntries = 1 << 12
	s := newSearcher(t, hashEvaluator{}, cfg)
	tr := newTree(t, s, p, 1)
	res, err := s.Search(context.Background(), tr, clock.Limits{Nodes: 3000}, Progress{})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range res.Children {
		want := tr.pv(tr.childAt(0, i), []env.Move{c.Move})
		if !slices.Equal(c.PV, want) {
			t.Fatalf("%v: line %v, want %v", c.Move, c.PV, want)
		}
	}
}

// TestGamesOfEveryVariant plays a few moves of every variant through the
// search with tree reuse: each move searched is legal, its visit target
// has the variant's policy size and sits on legal indices only, and the
// tree's root follows the game move for move (Advance picks the move with
// its boards, not another one between the same squares).
func TestGamesOfEveryVariant(t *testing.T) {
	for _, v := range env.Variants() {
		cfg := testConfig(false, 60)
		cfg.ReuseTree = true
		s := newSearcher(t, hashEvaluator{}, cfg)
		game := env.NewPosition(v)
		tr := newTree(t, s, game.Clone(), 3)
		legal := make([]float32, v.PolicySize())
		for ply := 0; ply < 12 && !game.Status().IsOver(); ply++ {
			res, err := s.Search(context.Background(), tr, clock.Limits{}, Progress{})
			if err != nil {
				t.Fatalf("%s ply %d: %v", v.Name, ply, err)
			}
			if len(res.Visits) != v.PolicySize() {
				t.Fatalf("%s: Visits has %d entries, want %d", v.Name, len(res.Visits), v.PolicySize())
			}
			game.LegalMask(legal)
			for i, x := range res.Visits {
				if x != 0 && legal[i] == 0 {
					t.Fatalf("%s ply %d: visit target %v on illegal index %d", v.Name, ply, x, i)
				}
			}
			var ml env.MoveList
			game.LegalMoves(&ml)
			if !ml.Contains(res.BestMove) {
				t.Fatalf("%s ply %d: best move %s is not legal in %s", v.Name, ply, res.BestMove, game.FEN())
			}
			game.MakeMove(res.BestMove)
			if err := tr.Advance(res.BestMove); err != nil {
				t.Fatal(err)
			}
			if got, want := tr.Position().FEN(), game.FEN(); got != want {
				t.Fatalf("%s ply %d: after %s the tree is at %s, the game at %s", v.Name, ply, game.UCI(res.BestMove), got, want)
			}
		}
	}
}

// TestBoardCMenAreNotBareKings: in alice-3, a position whose men other
// than the kings all stand on board C is still a game (the search once
// took it for bare kings, a dead position, and returned no move).
func TestBoardCMenAreNotBareKings(t *testing.T) {
	pos, err := env.ParseFEN("7||Q/8/1||P3||P2/8/4[k||K]3/1||p4||p||p/8/8 w - - 1 61", env.Alice3)
	if err != nil {
		t.Fatal(err)
	}
	s := newSearcher(t, hashEvaluator{}, testConfig(false, 50))
	res, err := s.Search(context.Background(), newTree(t, s, pos, 1), clock.Limits{}, Progress{})
	if err != nil {
		t.Fatal(err)
	}
	var ml env.MoveList
	pos.LegalMoves(&ml)
	if !ml.Contains(res.BestMove) || res.Proven {
		t.Fatalf("best move %s (proven %v) of %d legal moves", res.BestMove, res.Proven, ml.N)
	}
}
