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

// TestVariantGames: an engine for every variant but alice starts (New,
// NewGame, SetPosition with no FEN: UCI's startpos) at its variant's own
// start, searches with the alpha-beta by default, as in alice, or with a
// network of the variant's encoding, and
// refuses a network of another encoding even when its file does not say
// which variant it was trained for.
func TestVariantGames(t *testing.T) {
	for _, v := range env.Variants()[1:] {
		e := newEngine(t, Options{Variant: v, EvalWorkers: 1})
		if e.Position().FEN() != v.StartFEN() || e.StartFEN() != v.StartFEN() {
			t.Fatalf("%s: New starts at %s", v.Name, e.Position().FEN())
		}
		if e.Network() != alphaBetaSearch {
			t.Fatalf("%s: default engine %q, want the alpha-beta", v.Name, e.Network())
		}
		res, err := e.Go(context.Background(), clock.Limits{Nodes: 50}, mcts.Progress{})
		if err != nil {
			t.Fatal(err)
		}
		checkLegal(t, e, res.BestMove)
		if err := e.Play(res.BestMove); err != nil {
			t.Fatal(err)
		}
		e.NewGame()
		if e.Position().FEN() != v.StartFEN() {
			t.Fatalf("%s: NewGame starts at %s", v.Name, e.Position().FEN())
		}
		if err := e.SetPosition("", []string{e.Position().UCI(res.BestMove)}); err != nil {
			t.Fatalf("%s: startpos moves %s: %v", v.Name, res.BestMove.UCI(), err)
		}
		if g := e.Game(); g.Variant != v || g.StartFEN != v.StartFEN() || len(g.Moves) != 1 {
			t.Fatalf("%s: game %+v", v.Name, g)
		}
		// A network trained for the variant plays it.
		o := e.Options()
		o.Weights = saveTiny(t, v.Name)
		if err := e.SetOptions(o); err != nil {
			t.Fatal(err)
		}
		if err := e.Ready(); err != nil || !strings.Contains(e.Network(), "tiny") {
			t.Fatalf("%s: Ready %v, network %q", v.Name, err, e.Network())
		}
		res, err = e.Go(context.Background(), clock.Limits{Nodes: 30}, mcts.Progress{})
		if err != nil {
			t.Fatal(err)
		}
		checkLegal(t, e, res.BestMove)
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
