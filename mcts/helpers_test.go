package mcts

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// mustFEN parses a FEN of the default rules or fails the test.
func mustFEN(t testing.TB, fen string) *env.Position {
	t.Helper()
	p, err := env.ParseFEN(fen, env.Alice)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// mustPlay plays UCI moves from the start position.
func mustPlay(t testing.TB, moves ...string) *env.Position {
	t.Helper()
	p := env.NewPosition(env.Alice)
	if _, err := p.PlayUCI(moves); err != nil {
		t.Fatalf("PlayUCI(%v): %v", moves, err)
	}
	return p
}

func mustParse(t testing.TB, p *env.Position, uci string) env.Move {
	t.Helper()
	m, err := p.ParseUCI(uci)
	if err != nil {
		t.Fatalf("ParseUCI(%q): %v", uci, err)
	}
	return m
}

// Brute-force verdicts, derived from the move generator and env's Status
// alone (independent of the search).

// bfMates reports whether m, played in p, checkmates.
func bfMates(p *env.Position, m env.Move) bool {
	p.MakeMove(m)
	defer p.UnmakeMove()
	return p.Status() == env.Checkmate
}

// bfMateIn1 reports whether the side to move has a mating move.
func bfMateIn1(p *env.Position) bool {
	var ml env.MoveList
	p.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		if bfMates(p, m) {
			return true
		}
	}
	return false
}

// bfMateIn2Key reports whether m forces mate on the next move: after m the
// game goes on, and every reply allows a mate in one.
func bfMateIn2Key(p *env.Position, m env.Move) bool {
	p.MakeMove(m)
	defer p.UnmakeMove()
	if p.Status() != env.Ongoing {
		return false
	}
	var rl env.MoveList
	p.LegalMoves(&rl)
	for _, r := range rl.Slice() {
		p.MakeMove(r)
		ok := p.Status() == env.Ongoing && bfMateIn1(p)
		p.UnmakeMove()
		if !ok {
			return false
		}
	}
	return true
}

// bfMateIn2 reports whether the side to move forces mate in two moves.
func bfMateIn2(p *env.Position) bool {
	var ml env.MoveList
	p.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		if bfMateIn2Key(p, m) {
			return true
		}
	}
	return false
}

// bfAllowsMateIn1 reports whether after m the opponent can mate at once.
func bfAllowsMateIn1(p *env.Position, m env.Move) bool {
	p.MakeMove(m)
	defer p.UnmakeMove()
	return p.Status() == env.Ongoing && bfMateIn1(p)
}

// countingEvaluator wraps an evaluator and records every batch size.
type countingEvaluator struct {
	Evaluator
	mu    sync.Mutex
	sizes []int
}

func (c *countingEvaluator) Evaluate(planes []float32, n int, policy, wdl []float32) error {
	c.mu.Lock()
	c.sizes = append(c.sizes, n)
	c.mu.Unlock()
	return c.Evaluator.Evaluate(planes, n, policy, wdl)
}

func (c *countingEvaluator) take() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.sizes
	c.sizes = nil
	return s
}

// hashEvaluator gives deterministic, position-dependent pseudo-random
// logits and values (a function of the planes alone), so that searches
// are not symmetric and cache hits can be told from fresh evaluations only
// by their cost.
type hashEvaluator struct{}

func (hashEvaluator) Evaluate(planes []float32, n int, policy, wdl []float32) error {
	if n == 0 {
		return nil
	}
	// The search passes buffers of exactly n positions of its variant.
	in, size := len(planes)/n, len(policy)/n
	for i := range n {
		var h uint64 = 1469598103934665603
		for j, x := range planes[i*in : (i+1)*in] {
			if x != 0 {
				h ^= uint64(j)*0x9e3779b97f4a7c15 + uint64(math.Float32bits(x))
				h *= 1099511628211
			}
		}
		row := policy[i*size : (i+1)*size]
		x := h
		for k := range row {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			row[k] = float32(x>>40)/float32(1<<24)*4 - 2
		}
		v := float32(int64(h%2001)-1000) / 1250
		d := float32(0.2)
		wdl[3*i] = (1 + v - d) / 2
		wdl[3*i+1] = d
		wdl[3*i+2] = (1 - v - d) / 2
	}
	return nil
}

func newSearcher(t testing.TB, eval Evaluator, cfg Config) *Searcher {
	t.Helper()
	s, err := NewSearcher(eval, cfg)
	if err != nil {
		t.Fatalf("NewSearcher: %v", err)
	}
	return s
}

func newTree(t testing.TB, s *Searcher, p *env.Position, seed uint64) *Tree {
	t.Helper()
	tr, err := s.NewTree(p, seed)
	if err != nil {
		t.Fatalf("NewTree: %v", err)
	}
	return tr
}

// testConfig is a small, deterministic configuration.
func testConfig(gumbel bool, sims int) Config {
	c := DefaultPlayConfig()
	c.Gumbel = gumbel
	c.Simulations = sims
	c.BatchSize = 8
	c.Workers = 1
	c.CacheEntries = 1 << 14
	return c
}

// searchOnce searches p on a new tree of s (seed 1) for nodes playouts.
func searchOnce(t *testing.T, s *Searcher, p *env.Position, nodes int64) (*Tree, Result) {
	t.Helper()
	tr := newTree(t, s, p, 1)
	res, err := s.Search(context.Background(), tr, clock.Limits{Nodes: nodes}, Progress{})
	if err != nil {
		t.Fatal(err)
	}
	return tr, res
}

// searchAllocs returns the allocations of a search of n playouts from
// root on tr (reset first), averaged over runs.
func searchAllocs(t *testing.T, s *Searcher, tr *Tree, root *env.Position, runs, n int) float64 {
	return testing.AllocsPerRun(runs, func() {
		if err := tr.Reset(root); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Search(context.Background(), tr, clock.Limits{Nodes: int64(n)}, Progress{}); err != nil {
			t.Fatal(err)
		}
	})
}
