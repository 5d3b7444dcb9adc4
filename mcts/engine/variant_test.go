package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/model"
)

// TestVariantGames: an engine for every variant but alice searches a game
// from its variant's own start (a game with no FEN: UCI's startpos) with
// the alpha-beta by default, as in alice, or with a network of the
// variant's encoding, and
// refuses a network of another encoding even when its file does not say
// which variant it was trained for.
func TestVariantGames(t *testing.T) {
	for _, v := range env.Variants()[1:] {
		e := newEngine(t, Options{Variant: v, EvalWorkers: 1})
		if e.Network() != alphaBetaSearch {
			t.Fatalf("%s: default engine %q, want the alpha-beta", v.Name, e.Network())
		}
		pos := env.NewPosition(v)
		res, err := e.Go(context.Background(), &env.Game{Variant: v}, clock.Limits{Nodes: 50}, mcts.Progress{})
		if err != nil {
			t.Fatal(err)
		}
		checkLegal(t, pos, res.BestMove)
		e.NewGame()
		pos.MakeMove(res.BestMove)
		// A network trained for the variant plays it.
		o := e.Options()
		o.Weights = saveTiny(t, v.Name)
		if err := e.SetOptions(o); err != nil {
			t.Fatal(err)
		}
		if err := e.Ready(); err != nil || !strings.Contains(e.Network(), "tiny") {
			t.Fatalf("%s: Ready %v, network %q", v.Name, err, e.Network())
		}
		res, err = e.Go(context.Background(), env.GameOf(pos), clock.Limits{Nodes: 30}, mcts.Progress{})
		if err != nil {
			t.Fatal(err)
		}
		checkLegal(t, pos, res.BestMove)
	}
	// Weights without a variant in their metadata, of alice's encoding.
	file := filepath.Join(t.TempDir(), "anon.azck")
	if err := model.SaveCheckpoint(file, &model.Checkpoint{Weights: tinyWeights(t, env.Alice)}); err != nil {
		t.Fatal(err)
	}
	for _, v := range []env.Variant{env.AliceNull, env.Alice3, env.AliceStone} {
		if _, err := New(Options{Variant: v, Weights: file}); err == nil || !strings.Contains(err.Error(), "policy layout") {
			t.Errorf("%s: New with alice's encoding: %v", v.Name, err)
		}
	}
	if e, err := New(Options{Variant: env.AliceMini, Weights: file}); err != nil {
		t.Errorf("alice-mini shares alice's encoding: %v", err)
	} else {
		e.Close()
	}
}
