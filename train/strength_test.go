package train

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/model"
)

// Games stopped at the ply cap are scored by material, as the search
// scores the cap, and their positions labelled accordingly: a capped game
// with a clear lead is a win for the side ahead, not a draw.
func TestCappedGamesAreScoredByMaterial(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.SelfPlay.PlyCap = 12
	cfg.SelfPlay.CapMaterialMargin = 1
	cfg.SelfPlay.GamesPerIteration = 24
	cfg.SelfPlay.ParallelGames = 24
	// A material evaluator makes captures, so that capped games end with
	// unequal material often enough to test both labels.
	s, err := mcts.NewSearcher(mcts.MaterialEvaluator{}, cfg.MCTSConfig())
	if err != nil {
		t.Fatal(err)
	}
	games, err := selfPlay(context.Background(), cfg, env.Alice, s, 1, cfg.SelfPlay.GamesPerIteration, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var decisive, drawn int
	for i, g := range games {
		if g.Status != env.Adjudicated {
			continue
		}
		p := env.NewPosition(env.Alice)
		for _, m := range g.Moves {
			p.MakeMove(m)
		}
		if want := p.CapResult(1); g.Result != want {
			t.Fatalf("game %d: capped with material %d-%d scored %v, want %v", i, p.Material(env.White), p.Material(env.Black), g.Result, want)
		}
		if g.Result == env.Draw {
			drawn++
		} else {
			decisive++
		}
		for j, smp := range g.Samples {
			side := smp.Position.SideToMove()
			if want := resultFor(g.Result, side); smp.Result != want {
				t.Fatalf("game %d sample %d: label %d, want %d", i, j, smp.Result, want)
			}
			if smp.NoValue != (g.Result == env.Draw) {
				t.Fatalf("game %d sample %d: NoValue %v for a capped %v", i, j, smp.NoValue, g.Result)
			}
			if wdl := smp.WDL(); g.Result != env.Draw && !smp.Proven && wdl[1] != 0 {
				t.Fatalf("game %d sample %d: a capped game won by material gives the value target %v", i, j, wdl)
			}
		}
	}
	if decisive == 0 || drawn == 0 {
		t.Fatalf("want capped games of both kinds, got %d decisive and %d drawn of %d", decisive, drawn, len(games))
	}
}

// Resignation reads only full searches: a small playout-cap search never
// makes a side resign, however bad its value.
func TestResignationNeedsAFullSearch(t *testing.T) {
	bad := mcts.Result{RootValue: -0.99, UseForTraining: false, Children: []mcts.ChildStat{{Visits: 3, Q: -0.99}}}
	if _, full := resignValue(&bad); full {
		t.Fatal("a small search counted for resignation")
	}
	bad.UseForTraining = true
	if v, full := resignValue(&bad); !full || v != -0.99 {
		t.Fatalf("full search: value %v, %v", v, full)
	}
	// The most visited move's value counts next to the root's: one good
	// move keeps a side from resigning even if the average is poor.
	mixed := mcts.Result{RootValue: -0.95, UseForTraining: true, Children: []mcts.ChildStat{
		{Visits: 1, Q: -1}, {Visits: 20, Q: -0.2}, {Visits: 5, Q: -1}}}
	if v, _ := resignValue(&mixed); v != -0.2 {
		t.Fatalf("resignation value %v, want the best move's -0.2", v)
	}
}

func TestResignCalibration(t *testing.T) {
	var c resignCalibration
	// 100 sides fell to -0.95 and lost; 10 fell to -0.95 and drew; 100
	// fell to -0.7 and 30 of those did not lose.
	add := func(n int, v float32, r int8, capped bool) {
		for range n {
			c.Records = append(c.Records, resignRecord{MinValue: v, Result: r, Capped: capped})
		}
	}
	add(100, -0.95, -1, false)
	add(3, -0.95, 0, false)
	add(70, -0.7, -1, false)
	add(30, -0.7, 1, false)
	add(50, -0.99, 0, true) // capped: neither right nor wrong
	if got := checkThreshold(c.Records, 0.9); got.Cases != 103 || got.False != 3 || got.Capped != 50 {
		t.Fatalf("check at 0.9: %+v", got)
	}
	if got := c.threshold(0.05); got != 0.7 {
		t.Fatalf("threshold %v, want 0.7 (the least cautious one with ≤ 5%% false)", got)
	}
	if got := c.threshold(0.01); got != 0 {
		t.Fatalf("threshold at 1%%: %v, want none", got)
	}
	c.Records = c.Records[:10]
	if got := c.threshold(0.05); got != 0 {
		t.Fatalf("threshold from 10 cases: %v, want none (too few)", got)
	}
}

// The held-out measurement, the resignation figures and the skipped-shard
// count reach metrics.jsonl under their documented names.
func TestHeldoutMetricsInMetricsFile(t *testing.T) {
	dir := t.TempDir()
	runTiny(t, dir, "h", 2, false)
	data, err := os.ReadFile(filepath.Join(dir, "h", runs.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines", len(lines))
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &m); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"heldout_value_loss", "heldout_value_baseline", "heldout_policy_kl", "policy_kl", "policy_entropy",
		"resign_threshold", "adjudicated_wins"} {
		v, ok := m[key].(float64)
		if !ok || math.IsNaN(v) {
			t.Errorf("metrics line lacks %s: %v", key, m[key])
		}
	}
	if m["heldout_value_loss"].(float64) <= 0 || m["heldout_policy_kl"].(float64) <= 0 || m["policy_kl"].(float64) <= 0 {
		t.Errorf("held-out figures not measured: %v", lines[1])
	}
}

// A run stopped after its checkpoint but before its metrics line writes
// the line (strength matches included) when resumed.
func TestResumeCompletesAMissingMetricsLine(t *testing.T) {
	dir := t.TempDir()
	runTiny(t, dir, "m", 2, false)
	path := filepath.Join(dir, "m", runs.MetricsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSpace(string(data)), "\n")
	if err := os.WriteFile(path, []byte(lines[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runTiny(t, dir, "m", 2, true)
	if !strings.Contains(out, "completing iteration 2") {
		t.Fatalf("no completion note:\n%s", out)
	}
	hist, err := readMetrics(path, 1<<30)
	if err != nil || len(hist) != 2 || hist[1].Iteration != 2 || hist[1].Eval == nil {
		t.Fatalf("metrics after resume: %d lines, %v, %+v", len(hist), err, hist)
	}
}

// A damaged replay shard is skipped on resume with a warning; the run goes
// on. The checkpoint lists only the shards its window draws from.
func TestResumeSkipsDamagedShardAndReadsOnlyTheWindow(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig(t)
	cfg.Train.WindowMin, cfg.Train.WindowMax, cfg.Train.MinBuffer = 16, 60, 16
	var out strings.Builder
	if err := Run(context.Background(), Options{RunsDir: dir, Name: "w", Config: cfg, Iterations: 4, Out: &out}); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	ck, err := model.LoadCheckpoint(filepath.Join(dir, "w", runs.CheckpointDir, "iter-000004.azck"))
	if err != nil {
		t.Fatal(err)
	}
	var st runState
	if err := json.Unmarshal(ck.Extra, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Shards) == 0 || len(st.Shards) >= 4 || st.Shards[len(st.Shards)-1].Path != filepath.Join(runs.BufferDir, "iter-000004.shard") {
		t.Fatalf("checkpoint lists shards %+v, want only the newest that cover the window", st.Shards)
	}
	newest := filepath.Join(dir, "w", st.Shards[len(st.Shards)-1].Path)
	if err := os.WriteFile(newest, []byte("AZRB garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := runTiny(t, dir, "w", 5, true)
	if !strings.Contains(res, "skipping a replay shard") || !strings.Contains(res, "iter 5:") {
		t.Fatalf("resume with a damaged shard:\n%s", res)
	}
	hist, err := readMetrics(filepath.Join(dir, "w", runs.MetricsFile), 1<<30)
	if err != nil || hist[len(hist)-1].SkippedShards != 1 {
		t.Fatalf("skipped shards not counted: %v %+v", err, hist[len(hist)-1])
	}
}

func TestResignationWaitsForTheValueHead(t *testing.T) {
	h := func(loss, base float64) heldout { return heldout{ValueLoss: loss, Baseline: base} }
	for _, tc := range []struct {
		hs   []heldout
		want bool
	}{
		{nil, false},
		{[]heldout{h(0.5, 1), h(0.5, 1)}, false}, // too few measurements
		{[]heldout{h(0.9, 1), h(0.9, 1), h(0.9, 1)}, true},
		{[]heldout{h(0.7, 1), h(0.7, 1), h(1.2, 1)}, true}, // the mean decides
		{[]heldout{h(1.5, 1), h(0.9, 1), h(0.9, 1)}, false},
		{[]heldout{h(0.5, 1), h(0.99, 1), h(0.98, 1), h(0.97, 1)}, false}, // only the newest count
	} {
		if got := valueHeadBeatsGuess(tc.hs); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.hs, got, tc.want)
		}
	}
}
