package pychess

import (
	"context"
	"testing"
	"time"

	"github.com/sourcegraph/conc"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/enginetest"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts/engine"
)

// newSearchBot is a bot on engines, for its searches alone (its client
// never connects).
func newSearchBot(t *testing.T, cfg Config, engines ...engine.Interface) *Bot {
	t.Helper()
	c, err := NewClient("http://127.0.0.1:1", "token", ClientOptions{Variants: []string{"alice"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(c, engines, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A search borrows a free engine, sets its variant and game, searches
// within the budget and the visits, and waits for an engine while all
// are busy.
func TestSearchBorrowsAFreeEngine(t *testing.T) {
	e1, e2 := enginetest.New(), enginetest.New()
	b := newSearchBot(t, Config{Visits: 50}, e1, e2)
	games := []struct {
		v     env.Variant
		moves []string
	}{{env.Alice, []string{"e2e4", "d7d5"}}, {env.AliceMini, nil}}
	replies := make([]choice, len(games))
	errs := make([]error, len(games))
	var wg conc.WaitGroup
	positions := make([]*env.Position, len(games))
	for i, g := range games {
		positions[i] = env.NewPosition(g.v)
		if _, err := positions[i].PlayUCI(g.moves); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range positions {
		wg.Go(func() {
			replies[i], errs[i] = b.search(context.Background(), p, clock.Limits{MoveTime: 200 * time.Millisecond})
		})
	}
	wg.Wait()
	for i, p := range positions {
		if _, err := p.ParseUCI(replies[i].Move); errs[i] != nil || err != nil || !replies[i].HasValue {
			t.Errorf("game %d: reply %+v: %v, %v", i, replies[i], errs[i], err)
		}
	}
	lims := append(e1.Limits(), e2.Limits()...)
	if len(lims) != 2 || lims[0] != (clock.Limits{MoveTime: 200 * time.Millisecond, Nodes: 50}) || lims[1] != lims[0] {
		t.Errorf("searched within %+v", lims)
	}

	// The alpha-beta's budget is as many nodes as take as long as the
	// visits.
	e1.Kind = engine.SearchAlphaBeta
	b1 := newSearchBot(t, Config{Visits: 50}, e1)
	if _, err := b1.search(context.Background(), env.NewPosition(env.Alice), clock.Limits{MoveTime: time.Second}); err != nil {
		t.Fatal(err)
	}
	if lims := e1.Limits(); lims[len(lims)-1].Nodes != 50*engine.NodesPerVisit {
		t.Errorf("the alpha-beta searched within %+v, want %d nodes", lims[len(lims)-1], 50*engine.NodesPerVisit)
	}

	// With every engine busy, a search waits for one, or for its context.
	x, y := <-b.free, <-b.free
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := b.search(ctx, env.NewPosition(env.Alice), clock.Limits{MoveTime: time.Second}); err == nil {
		t.Error("a search with no free engine did not end with its context")
	}
	b.free <- x
	b.free <- y
}

// The real engine (the plain search, quick) answers a legal move with a
// value, within its budget.
func TestSearchWithTheEngine(t *testing.T) {
	e, err := engine.New(engine.Options{Weights: engine.NoWeights})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	b := newSearchBot(t, Config{}, e)
	p := env.NewPosition(env.Alice)
	if _, err := p.PlayUCI([]string{"e2e4", "d7d5", "f1e2"}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	c, err := b.search(context.Background(), p, clock.Limits{MoveTime: 200 * time.Millisecond})
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a 200 ms search took %v", d)
	}
	if _, perr := p.ParseUCI(c.Move); err != nil || perr != nil || !c.HasValue {
		t.Errorf("reply %+v: %v, %v", c, err, perr)
	}
}
