package reference

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/player"
)

func mustPos(t testing.TB, fen string, moves string) *env.Position {
	t.Helper()
	pos, err := env.ParseFEN(fen, env.Alice)
	if err != nil {
		t.Fatal(err)
	}
	if ms := strings.Fields(moves); len(ms) > 0 {
		if _, err := pos.PlayUCI(ms); err != nil {
			t.Fatal(err)
		}
	}
	return pos
}

func newAB(t testing.TB, cfg AlphaBetaConfig) *AlphaBeta {
	t.Helper()
	a, err := NewAlphaBeta("ab", cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestRandomIsDeterministicAndLegal(t *testing.T) {
	play := func(seed, gameSeed uint64) []string {
		r := NewRandom("random", seed)
		r.Seed(gameSeed)
		pos := env.NewPosition(env.Alice)
		var out []string
		for i := 0; i < 60 && !pos.Status().IsOver(); i++ {
			m, err := r.Move(context.Background(), pos, clock.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := pos.ParseUCI(m.UCI()); err != nil {
				t.Fatalf("random played an illegal move: %v", err)
			}
			pos.MakeMove(m)
			out = append(out, m.UCI())
		}
		return out
	}
	a, b := play(1, 7), play(1, 7)
	if strings.Join(a, " ") != strings.Join(b, " ") {
		t.Errorf("same seeds, different games:\n%v\n%v", a, b)
	}
	if c := play(2, 7); strings.Join(a, " ") == strings.Join(c, " ") {
		t.Errorf("seed=1 and seed=2 played the same game")
	}
	if c := play(1, 8); strings.Join(a, " ") == strings.Join(c, " ") {
		t.Errorf("game seeds 7 and 8 played the same game")
	}
}

func TestAlphaBetaTactics(t *testing.T) {
	tests := []struct {
		name      string
		fen       string
		moves     string
		depth     int
		want      string // best move
		wantScore int    // exact score, or 0 to check only the move
		minScore  int
	}{
		// The rule book's quick mate: 1. e4 d5 2. Be2 dxe4 3. Bb5#.
		{name: "mate in one", fen: env.StartFEN, moves: "e2e4 d7d5 f1e2 d5e4", depth: 1, want: "e2b5", wantScore: MateScore - 1},
		{name: "mate in one at depth 3", fen: env.StartFEN, moves: "e2e4 d7d5 f1e2 d5e4", depth: 3, want: "e2b5", wantScore: MateScore - 1},
		// A black queen on board A hangs to the rook on a1 (board A): take it.
		{name: "free queen", fen: "4k3/8/8/8/8/4K3/8/q6R w - - 0 1", depth: 1, want: "h1a1", wantScore: 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultAlphaBetaConfig()
			cfg.Depth = tt.depth
			a := newAB(t, cfg)
			pos := mustPos(t, tt.fen, tt.moves)
			before := pos.FEN()
			r, err := a.Search(context.Background(), pos, clock.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if pos.FEN() != before {
				t.Fatalf("search changed the position: %s", pos.FEN())
			}
			if tt.want != "" && r.Move.UCI() != tt.want {
				t.Errorf("move %s, want %s (score %d)", r.Move.UCI(), tt.want, r.Score)
			}
			if tt.wantScore != 0 && r.Score != tt.wantScore {
				t.Errorf("score %d, want %d", r.Score, tt.wantScore)
			}
			if r.Score < tt.minScore {
				t.Errorf("score %d, want ≥ %d (move %s)", r.Score, tt.minScore, r.Move.UCI())
			}
		})
	}
}

// TestTerminalAgreesWithStatus checks the search's terminal detection
// against env's Status on the positions of random games, which reach
// mates, stalemates, the fifty-move rule and dead positions (and, in the
// long run, repetitions).
func TestTerminalAgreesWithStatus(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var ml env.MoveList
	seen := map[env.Status]int{}
	games := 300
	if testing.Short() {
		games = 60
	}
	for g := 0; g < games; g++ {
		pos := env.NewPosition(env.Alice)
		for {
			pos.LegalMoves(&ml)
			st := pos.Status()
			_, over := terminal(pos, ml.N, 0)
			if over != st.IsOver() {
				t.Fatalf("terminal says over=%v, Status says %v in %s", over, st, pos.FEN())
			}
			if over {
				seen[st]++
				break
			}
			pos.MakeMove(ml.Moves[rng.IntN(ml.N)])
		}
	}
	// The check means little unless the games reach the endings it is
	// about (the seed is fixed: these are the games' own endings).
	want := []env.Status{env.Checkmate, env.Stalemate, env.FiftyMove, env.DeadPosition}
	if !testing.Short() {
		want = append(want, env.Threefold)
	}
	for _, st := range want {
		if seen[st] == 0 {
			t.Errorf("no game ended by %s (endings seen: %v)", st, seen)
		}
	}
}

func TestAlphaBetaAllocatesNothing(t *testing.T) {
	cfg := DefaultAlphaBetaConfig()
	cfg.Depth = 2
	cfg.Noise = 5
	cfg.Mobility = 1
	a := newAB(t, cfg)
	pos := mustPos(t, env.StartFEN, "e2e4 d7d5 g1f3 d5e4")
	ctx := context.Background()
	if _, err := a.Search(ctx, pos, clock.Limits{}); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := a.Search(ctx, pos, clock.Limits{}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per search, want 0", allocs)
	}
}

func TestAlphaBetaSeedDeterminism(t *testing.T) {
	pos := mustPos(t, env.StartFEN, "")
	cfg := DefaultAlphaBetaConfig()
	cfg.Noise = 20
	move := func(gameSeed uint64) string {
		a := newAB(t, cfg)
		a.Seed(gameSeed)
		m, err := a.Move(context.Background(), pos, clock.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return m.UCI()
	}
	if a, b := move(5), move(5); a != b {
		t.Errorf("same seed, moves %s and %s", a, b)
	}
	distinct := map[string]bool{}
	for s := uint64(0); s < 12; s++ {
		distinct[move(s)] = true
	}
	if len(distinct) < 2 {
		t.Errorf("12 seeds all chose the same opening move: noise and shuffle do nothing")
	}
}

func TestAlphaBetaHonoursTime(t *testing.T) {
	cfg := DefaultAlphaBetaConfig()
	cfg.Depth = MaxDepth
	a := newAB(t, cfg)
	pos := mustPos(t, env.StartFEN, "e2e4 e7e5")
	start := time.Now()
	r, err := a.Search(context.Background(), pos, clock.Limits{MoveTime: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("50ms search took %v", el)
	}
	if r.Depth < 1 || r.Move == env.NoMove {
		t.Errorf("no completed iteration: %+v", r)
	}
}

func TestSpecFactories(t *testing.T) {
	r := player.NewRegistry()
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	good := []string{"random", "random:seed=3", "ab", "ab:depth=3", "ab:depth=1,q=off,noise=10,mobility=2,seed=9,shuffle=0,qdepth=4"}
	for _, text := range good {
		spec, err := r.Check(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		p, err := r.New(context.Background(), spec, player.Setup{Variant: env.Alice})
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if p.Name() != text {
			t.Errorf("name %q, want %q", p.Name(), text)
		}
	}
	bad := []string{"ab:depth=0", "ab:depth=x", "ab:deep=2", "random:seed=-1", "ab:/bin/sh", "random:colour=white"}
	for _, text := range bad {
		spec, err := r.Check(text)
		if err == nil {
			_, err = r.New(context.Background(), spec, player.Setup{Variant: env.Alice})
		}
		if err == nil {
			t.Errorf("%s: no error", text)
		}
	}
}

func BenchmarkAlphaBetaDepth3(b *testing.B) {
	cfg := DefaultAlphaBetaConfig()
	cfg.Depth = 3
	a := newAB(b, cfg)
	pos := mustPos(b, env.StartFEN, "e2e4 d7d5 g1f3 d5e4 f3g5")
	var nodes int64
	for b.Loop() {
		r, err := a.Search(context.Background(), pos, clock.Limits{})
		if err != nil {
			b.Fatal(err)
		}
		nodes += r.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
