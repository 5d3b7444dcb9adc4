package alphabeta

import (
	"context"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts/reference"
)

func newSearcher(t testing.TB, cfg Config) *Searcher {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustFEN(t testing.TB, fen string, v env.Variant) *env.Position {
	t.Helper()
	p, err := env.ParseFEN(fen, v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The forced mates of the tactics suite are found, and the mates its side
// to move could walk into avoided, as the full-width mate finder judges
// the move: at 400,000 nodes a position, all but six of the 96 (the
// pruning of quiet moves off the principal variation, and the extensions
// and reductions that buy depth elsewhere, hide the rest until deeper).
func TestSolvesTheTacticsSuite(t *testing.T) {
	suite, err := reference.Suite()
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		suite = suite[:24]
	}
	finder := reference.NewMateFinder()
	s := newSearcher(t, Config{HashMB: 4})
	ctx := context.Background()
	solved := 0
	for _, tc := range suite {
		s.NewGame()
		r, err := s.Search(ctx, tc.Pos, clock.Limits{Nodes: 400_000})
		if err != nil {
			t.Fatalf("%s: %v", tc.ID, err)
		}
		ok, err := finder.Solves(ctx, tc, r.Move)
		if err != nil {
			t.Fatalf("%s: %v", tc.ID, err)
		}
		if ok {
			solved++
			continue
		}
		t.Logf("%s: played %s (score %d, depth %d, mate %d) in %s", tc.ID, tc.Pos.UCI(r.Move), r.Score, r.Depth, r.MateIn, tc.Pos.FEN())
	}
	t.Logf("solved %d of %d", solved, len(suite))
	if missed := len(suite) - solved; missed > 6 {
		t.Errorf("%d of %d tactics missed, at most 6 allowed", missed, len(suite))
	}
}

func TestMateScores(t *testing.T) {
	ctx := context.Background()
	s := newSearcher(t, Config{HashMB: 1})
	// Back-rank mate in one on board A: Ra1-a8 lands on board B, so the
	// suite's mates are Alice mates; this one is plain: the rook is on B
	// and lands on A.
	tests := []struct {
		fen    string
		mateIn int
	}{
		{"6k1/5ppp/8/8/8/8/8/|R5K1 w - - 0 1", 1},
	}
	for _, tt := range tests {
		pos := mustFEN(t, tt.fen, env.Alice)
		r, err := s.Search(ctx, pos, clock.Limits{Nodes: 200_000})
		if err != nil {
			t.Fatal(err)
		}
		if r.MateIn != tt.mateIn {
			t.Errorf("%s: mate in %d (move %s, score %d), want %d", tt.fen, r.MateIn, pos.UCI(r.Move), r.Score, tt.mateIn)
		}
		q := pos.Clone()
		q.MakeMove(r.Move)
		if tt.mateIn == 1 && q.Status() != env.Checkmate {
			t.Errorf("%s: %s does not mate", tt.fen, pos.UCI(r.Move))
		}
	}
}

// Games of every rule set: every move legal, the position left as found.
func TestPlaysLegallyInEveryVariant(t *testing.T) {
	ctx := context.Background()
	s := newSearcher(t, Config{HashMB: 1})
	plies := 40
	if testing.Short() {
		plies = 12
	}
	for _, v := range env.Variants() {
		pos := env.NewPosition(v)
		var ml env.MoveList
		for range plies {
			if pos.Status().IsOver() {
				break
			}
			before := pos.FEN()
			r, err := s.Search(ctx, pos, clock.Limits{Nodes: 3000})
			if err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
			if pos.FEN() != before {
				t.Fatalf("%s: the search changed the position to %s", v.Name, pos.FEN())
			}
			pos.LegalMoves(&ml)
			if _, ok := ml.Find(r.Move); !ok {
				t.Fatalf("%s: illegal move %v in %s", v.Name, r.Move, before)
			}
			pos.MakeMove(r.Move)
		}
	}
}

func TestLimits(t *testing.T) {
	ctx := context.Background()
	s := newSearcher(t, Config{HashMB: 1})
	pos := env.NewPosition(env.Alice)
	r, err := s.Search(ctx, pos, clock.Limits{Nodes: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if r.Nodes > 5000 || r.Nodes < 4000 {
		t.Errorf("node limit 5000: searched %d", r.Nodes)
	}
	start := time.Now()
	r, err = s.Search(ctx, pos, clock.Limits{MoveTime: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("200 ms search took %v", el)
	}
	if r.Depth < 2 {
		t.Errorf("200 ms search reached depth %d", r.Depth)
	}
	cctx, cancel := context.WithCancel(ctx)
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	r, err = s.Search(cctx, pos, clock.Limits{Infinite: true})
	if err != nil && r.Depth > 0 {
		t.Errorf("cancelled search after depth %d: %v", r.Depth, err)
	}
	if r.Move == env.NoMove {
		t.Error("cancelled search: no move")
	}
	if _, err := New(Config{HashMB: -1}); err == nil {
		t.Error("negative hash accepted")
	}
	if _, err := New(Config{Depth: MaxDepth + 1}); err == nil {
		t.Error("depth beyond MaxDepth accepted")
	}
	mated := mustFEN(t, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", env.Alice)
	if mated.Status() == env.Checkmate {
		if _, err := s.Search(ctx, mated, clock.Limits{Nodes: 10}); err == nil {
			t.Error("search of a mated position: no error")
		}
	}
}

func TestSearchAllocatesNothing(t *testing.T) {
	ctx := context.Background()
	s := newSearcher(t, Config{HashMB: 1})
	pos := env.NewPosition(env.Alice)
	if _, err := s.Search(ctx, pos, clock.Limits{Nodes: 20000}); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := s.Search(ctx, pos, clock.Limits{Nodes: 20000}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 0 {
		t.Errorf("%v allocations per search of 20000 nodes", allocs)
	}
}

func BenchmarkSearch(b *testing.B) {
	ctx := context.Background()
	s := newSearcher(b, Config{})
	pos := env.NewPosition(env.Alice)
	nodes := int64(0)
	for b.Loop() {
		s.NewGame()
		r, err := s.Search(ctx, pos, clock.Limits{Nodes: 200_000})
		if err != nil {
			b.Fatal(err)
		}
		nodes += r.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// A multi-PV search returns its lines best first, each starting with a
// different root move, the first the principal variation; the best line
// is the single-PV search's move when the scores are apart.
func TestMultiPV(t *testing.T) {
	ctx := context.Background()
	s := newSearcher(t, Config{HashMB: 4, Depth: 6})
	pos := env.NewPosition(env.Alice)
	if _, err := pos.PlayUCI([]string{"e2e4", "d7d5", "f1e2"}); err != nil {
		t.Fatal(err)
	}
	s.MultiPV = 4
	var lines int
	s.OnIteration = func(in Info) { lines = len(in.Lines) }
	r, err := s.Search(ctx, pos, clock.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Lines) != 4 || lines != 4 {
		t.Fatalf("%d lines (%d reported), want 4", len(r.Lines), lines)
	}
	seen := map[env.Move]bool{}
	for k, l := range r.Lines {
		if seen[l.PV[0]] {
			t.Errorf("line %d repeats %s", k+1, pos.UCI(l.PV[0]))
		}
		seen[l.PV[0]] = true
		if k > 0 && l.Score > r.Lines[k-1].Score {
			t.Errorf("line %d scores %d above line %d's %d", k+1, l.Score, k, r.Lines[k-1].Score)
		}
	}
	if r.Lines[0].PV[0] != r.Move || r.Lines[0].Score != r.Score {
		t.Errorf("line 1 %v %d, result %v %d", r.Lines[0].PV[0], r.Lines[0].Score, r.Move, r.Score)
	}
	// d5e4 takes a pawn and is mated (3. Bb5#): never among the best.
	for k, l := range r.Lines {
		if pos.UCI(l.PV[0]) == "d5e4" {
			t.Errorf("line %d is d5e4 (score %d)", k+1, l.Score)
		}
	}
}

// After NewGame a searcher searches as a new one does: nothing an
// earlier game taught it (table, history, killers) changes its choice.
func TestNewGameForgets(t *testing.T) {
	pos, err := env.ParseFEN("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", env.Alice)
	if err != nil {
		t.Fatal(err)
	}
	search := func(s *Searcher, p *env.Position) Result {
		r, err := s.Search(context.Background(), p, clock.Limits{Nodes: 30_000})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	fresh := search(newSearcher(t, Config{HashMB: 4}), pos)
	used := newSearcher(t, Config{HashMB: 4})
	search(used, env.NewPosition(env.Alice))
	search(used, pos)
	used.NewGame()
	again := search(used, pos)
	if again.Move != fresh.Move || again.Score != fresh.Score || again.Nodes != fresh.Nodes {
		t.Errorf("after NewGame: %v %d cp, %d nodes; a new searcher: %v %d cp, %d nodes",
			again.Move, again.Score, again.Nodes, fresh.Move, fresh.Score, fresh.Nodes)
	}
}

// A search on several threads shares one table among them: it finds what
// one thread finds, counts every thread's nodes against a node budget,
// stops every thread with the main search, and keeps to a depth bound.
func TestThreads(t *testing.T) {
	ctx := context.Background()
	for _, threads := range []int{2, 4} {
		s := newSearcher(t, Config{HashMB: 4, Threads: threads})
		mate := mustFEN(t, "6k1/5ppp/8/8/8/8/8/|R5K1 w - - 0 1", env.Alice)
		r, err := s.Search(ctx, mate, clock.Limits{Nodes: 200_000})
		if err != nil {
			t.Fatal(err)
		}
		if r.MateIn != 1 {
			t.Errorf("%d threads: mate in %d (move %s), want 1", threads, r.MateIn, mate.UCI(r.Move))
		}
		start := env.NewPosition(env.Alice)
		const budget = 100_000
		r, err = s.Search(ctx, start, clock.Limits{Nodes: budget})
		if err != nil {
			t.Fatal(err)
		}
		// Each helper publishes its nodes every 1024 and stops within
		// 1024 of the main search's end.
		if r.Nodes < budget || r.Nodes > budget+int64(threads)*2048 {
			t.Errorf("%d threads, node limit %d: searched %d", threads, budget, r.Nodes)
		}
		r, err = s.Search(ctx, start, clock.Limits{Depth: 5})
		if err != nil {
			t.Fatal(err)
		}
		if r.Depth != 5 {
			t.Errorf("%d threads, depth bound 5: depth %d", threads, r.Depth)
		}
		began := time.Now()
		if _, err := s.Search(ctx, start, clock.Limits{MoveTime: 100 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		if el := time.Since(began); el > 2*time.Second {
			t.Errorf("%d threads: a 100 ms search took %v", threads, el)
		}
		s.NewGame()
	}
	if _, err := New(Config{Threads: MaxThreads + 1}); err == nil {
		t.Errorf("threads %d accepted", MaxThreads+1)
	}
}

// Two threads cover the tactics suite's first positions as one does.
func TestThreadsSolveTactics(t *testing.T) {
	suite, err := reference.Suite()
	if err != nil {
		t.Fatal(err)
	}
	suite = suite[:24]
	finder := reference.NewMateFinder()
	s := newSearcher(t, Config{HashMB: 4, Threads: 2})
	ctx := context.Background()
	missed := 0
	for _, tc := range suite {
		s.NewGame()
		r, err := s.Search(ctx, tc.Pos, clock.Limits{Nodes: 400_000})
		if err != nil {
			t.Fatalf("%s: %v", tc.ID, err)
		}
		if ok, err := finder.Solves(ctx, tc, r.Move); err != nil {
			t.Fatalf("%s: %v", tc.ID, err)
		} else if !ok {
			missed++
			t.Logf("%s: played %s (score %d, depth %d)", tc.ID, tc.Pos.UCI(r.Move), r.Score, r.Depth)
		}
	}
	if missed > 2 {
		t.Errorf("two threads missed %d of the first %d tactics, at most 2 allowed", missed, len(suite))
	}
}
