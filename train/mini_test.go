package train

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/mcts/engine"
	"github.com/alicezero/alicezero/model"
)

// TestMiniConfig: the built-in mini configuration trains alice-mini, sets
// every key itself (nothing is taken from small unseen), and is sized as
// the showcase is measured: the depth-2 reference in 100-game matches
// every 10 iterations, a 150-ply cap, the small network.
func TestMiniConfig(t *testing.T) {
	c, err := BuiltinConfig("mini")
	if err != nil {
		t.Fatal(err)
	}
	if c.Variant != env.AliceMini.Name || c.Model.Preset != "small" {
		t.Errorf("mini trains %s with the %s network", c.Variant, c.Model.Preset)
	}
	if s := c.Search.Simulations; s < 32 || s > 64 {
		t.Errorf("search.simulations %d", s)
	}
	if e := c.Evaluate; e.AlphaBetaDepth != 2 || e.Every != 10 || e.Games != 100 || e.PlyCap != 150 || c.SelfPlay.PlyCap != 150 {
		t.Errorf("evaluate %+v, self-play ply cap %d", e, c.SelfPlay.PlyCap)
	}
	data, err := os.ReadFile(filepath.Join("..", "configs", "mini.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, missing, err := ParseConfigDefaulted(data, "mini.yaml"); err != nil || len(missing) > 0 {
		t.Errorf("mini.yaml leaves out %v (%v)", missing, err)
	}
}

// TestMiniTinyRun trains alice-mini for two iterations with the tiny
// configuration's sizes: self-play, training and the strength matches run
// on the 4-file boards, the games are recorded as Alice Mini, and the
// checkpoints are recorded as alice-mini's, so that they load for it and
// are refused for alice.
func TestMiniTinyRun(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig(t)
	cfg.Variant = env.AliceMini.Name
	var out bytes.Buffer
	if err := Run(context.Background(), Options{RunsDir: dir, Name: "mini", Config: cfg, Out: &out}); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	run := filepath.Join(dir, "mini")
	hist, err := readMetrics(filepath.Join(run, runs.MetricsFile), 1<<30)
	if err != nil || len(hist) != 2 {
		t.Fatalf("metrics: %d lines, %v", len(hist), err)
	}
	if hist[0].Steps == 0 || hist[1].Eval == nil || hist[1].Eval.VsAlphaBeta == nil {
		t.Errorf("iterations trained no steps or played no matches: %+v", hist)
	}
	pgn, err := os.ReadFile(runs.GamesPath(run, 1))
	if err != nil || !strings.Contains(string(pgn), `[Variant "Alice Mini"]`) {
		t.Fatalf("games: %v\n%s", err, pgn)
	}
	games, err := env.ReadPGN(bytes.NewReader(pgn), env.AliceMini)
	if err != nil || len(games) == 0 || games[0].Variant != env.AliceMini {
		t.Fatalf("the games do not read back as alice-mini: %v", err)
	}
	c, err := model.LoadCheckpoint(runs.CheckpointPath(run, 2))
	if err != nil || c.Meta["variant"] != env.AliceMini.Name {
		t.Fatalf("checkpoint: %v, meta %v", err, c.Meta)
	}
	if _, err := engine.LoadNetwork(run, env.AliceMini); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.LoadNetwork(run, env.Alice); err == nil || !strings.Contains(err.Error(), "trained for alice-mini, not alice") {
		t.Fatalf("loading the mini network for alice: %v", err)
	}
}
