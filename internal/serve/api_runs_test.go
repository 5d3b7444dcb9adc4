package serve

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// makeRun writes a run folder as "alicezero train" lays it out, with
// iterations metrics lines (an evaluation every second iteration, and a
// field no version of the trainer writes yet), a checkpoint and a games
// file per iteration, and a torn last line. It returns the runs folder.
func makeRun(t testing.TB, name string, iterations int) string {
	t.Helper()
	dir := t.TempDir()
	writeRun(t, dir, name, iterations)
	return dir
}

func writeRun(t testing.TB, dir, name string, iterations int) {
	t.Helper()
	run := filepath.Join(dir, name)
	for _, sub := range []string{runCkptDir, runGamesDir} {
		if err := os.MkdirAll(filepath.Join(run, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(run, runConfigFile), "name: "+name+"\niterations: 100\n")
	var sb strings.Builder
	for it := 1; it <= iterations; it++ {
		x := float64(it)
		// Curves shaped like a real run's, with a little deterministic noise.
		noise := func(k float64) float64 { return math.Sin(x*k) * math.Cos(x*k*0.37) }
		m := map[string]any{
			"iteration": it, "time": time.Date(2026, 1, 1, 0, it, 0, 0, time.UTC).Format(time.RFC3339),
			"loss_policy": 6 - 2*math.Log1p(x/5) + 0.08*noise(1.3), "loss_value": 1 - 0.3*math.Log1p(x/8) + 0.03*noise(2.1),
			"loss_total":     7 - 2.3*math.Log1p(x/5) + 0.1*noise(1.7),
			"games_per_hour": 18000 + 500*noise(0.9), "mean_game_length": 110 - x + 4*noise(1.1), "learning_rate": 0.02,
			"heldout_value_loss": 1.05 - 0.25*math.Log1p(x/8) + 0.02*noise(0.7), "heldout_value_baseline": 1.0,
			"heldout_policy_kl": 0.5/x + 0.01*noise(1.9), "ramp_fraction": math.Min(1, x/10),
		}
		if it%2 == 0 {
			m["eval"] = map[string]any{
				"vs_random":    map[string]any{"opponent": "random", "wins": 18, "draws": 2, "losses": 0, "score": math.Min(1, 0.6+x/50), "ci95": []float64{0.4, 1}},
				"vs_alphabeta": map[string]any{"opponent": "ab:depth=1", "score": math.Min(1, x/40)},
				"elo":          -300 + 20*x,
			}
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		sb.Write(b)
		sb.WriteByte('\n')
		write(filepath.Join(run, runCkptDir, fmt.Sprintf("iter-%06d.azck", it)), "not a real checkpoint")
		write(filepath.Join(run, runGamesDir, fmt.Sprintf("iter-%06d.pgn", it)),
			fmt.Sprintf("[Event \"AliceZero self-play\"]\n[Round \"%d.1\"]\n[Result \"1-0\"]\n\n1. e3 d6 2. Bc4 c5 3. Bb5# 1-0\n\n[Event \"AliceZero self-play\"]\n[Round \"%d.2\"]\n[Result \"*\"]\n\n1. e4 e5 *\n", it, it))
	}
	sb.WriteString(`{"iteration": 99, "loss_pol`) // a line being written
	write(filepath.Join(run, runMetricsFile), sb.String())
}

func TestRuns(t *testing.T) {
	dir := makeRun(t, "small-1", 4)
	writeRun(t, dir, "other", 1)
	if err := os.MkdirAll(filepath.Join(dir, "not-a-run"), 0o755); err != nil {
		t.Fatal(err)
	}
	fl := &fakeLoader{}
	c := newClient(t, newTestServer(t, Options{RunsDir: dir}, fl))
	var list struct{ Runs []runSummary }
	c.call("GET", "/api/runs", nil, http.StatusOK, &list)
	if len(list.Runs) != 2 {
		t.Fatalf("runs %+v", list.Runs)
	}
	var small runSummary
	for _, r := range list.Runs {
		if r.Name == "small-1" {
			small = r
		}
	}
	if small.Iteration != 4 || small.Checkpoints != 4 || small.Games != 4 || !small.HasMetrics || small.NewestWeights != "run:small-1/iter-000004.azck" {
		t.Errorf("small-1: %+v", small)
	}

	var run runResponse
	c.call("GET", "/api/runs/small-1", nil, http.StatusOK, &run)
	if !strings.Contains(run.Config, "name: small-1") {
		t.Errorf("config %q", run.Config)
	}

	var m metricsResponse
	status, body := c.do("GET", "/api/runs/small-1/metrics", nil)
	if status != http.StatusOK {
		t.Fatalf("metrics: %d %s", status, body)
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Rows) != 4 || m.Skipped != 1 {
		t.Fatalf("%d rows, %d skipped", len(m.Rows), m.Skipped)
	}
	r2 := m.Rows[1]
	for _, key := range []string{"iteration", "loss_policy", "heldout_policy_kl", "ramp_fraction", "eval.elo", "eval.vs_random.score", "eval.vs_random.ci95.1", "time"} {
		if _, ok := r2[key]; !ok {
			t.Errorf("row 2 lacks %s: %v", key, r2)
		}
	}
	if _, ok := r2["eval.vs_random.opponent"]; ok {
		t.Errorf("a string field became a number: %v", r2)
	}
	if _, ok := m.Rows[0]["eval.elo"]; ok {
		t.Errorf("iteration 1 has no evaluation: %v", m.Rows[0])
	}

	// Polling: unchanged metrics answer 304 to the ETag.
	req, _ := http.NewRequest("GET", c.base+"/api/runs/small-1/metrics", nil)
	first, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	first.Body.Close()
	req.Header.Set("If-None-Match", first.Header.Get("ETag"))
	again, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	again.Body.Close()
	if again.StatusCode != http.StatusNotModified {
		t.Errorf("unchanged metrics: status %d, want 304", again.StatusCode)
	}

	var games struct {
		Games []runFile
		Total int
	}
	c.call("GET", "/api/runs/small-1/games", nil, http.StatusOK, &games)
	if games.Total != 4 || games.Games[0].File != "iter-000004.pgn" || games.Games[0].Iteration != 4 {
		t.Errorf("games %+v", games)
	}
	var game struct {
		PGN   string
		Games []pgnGameSummary
		Game  *pgnGameJSON
	}
	c.call("GET", "/api/runs/small-1/games/iter-000003.pgn?game=1", nil, http.StatusOK, &game)
	if len(game.Games) != 2 || game.Game.Index != 1 || len(game.Game.Moves) != 2 || !strings.Contains(game.PGN, "Bb5#") {
		t.Errorf("game file: %+v", game)
	}

	var ck struct {
		Checkpoints []checkpointJSON
	}
	c.call("GET", "/api/runs/small-1/checkpoints", nil, http.StatusOK, &ck)
	if len(ck.Checkpoints) != 4 || ck.Checkpoints[0].Iteration != 4 || ck.Checkpoints[0].Weights != "run:small-1/iter-000004.azck" {
		t.Fatalf("checkpoints %+v", ck.Checkpoints)
	}
	if !strings.Contains(string(ck.Checkpoints[0].Eval), `"elo"`) || ck.Checkpoints[1].Eval != nil {
		t.Errorf("evaluations: %s / %s", ck.Checkpoints[0].Eval, ck.Checkpoints[1].Eval)
	}

	// A checkpoint of a run is an engine choice; the loader gets its path.
	var sj searchJSON
	c.call("POST", "/api/search", map[string]any{"weights": "run:small-1/iter-000002.azck", "visits": 5}, http.StatusAccepted, &sj)
	doneOf(t, c.events(sj.ID))
	c.call("POST", "/api/search", map[string]any{"weights": "run:small-1", "visits": 5}, http.StatusAccepted, &sj)
	doneOf(t, c.events(sj.ID))
	want := []string{filepath.Join(dir, "small-1", "checkpoints", "iter-000002.azck"), filepath.Join(dir, "small-1", "checkpoints", "iter-000004.azck")}
	if got := fl.weightsLoaded(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("loaded %q, want %q", got, want)
	}

	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/api/runs/nope", 404},
		{"/api/runs/.hidden/metrics", 400},
		{"/api/runs/..%2f..%2fetc/metrics", 400},
		{"/api/runs/small-1/games/iter-000009.pgn", 404},
		{"/api/runs/small-1/games/config.yaml", 400},
		{"/api/runs/small-1/games/..%2fconfig.yaml", 400},
		{"/api/runs/small-1/games/iter-000001.pgn?game=x", 400},
		{"/api/runs/small-1/games/iter-000001.pgn?game=5", 400},
		{"/api/runs/nope/checkpoints", 404},
	} {
		c.fails("GET", tc.path, nil, tc.status)
	}
	c.fails("POST", "/api/search", map[string]any{"weights": "run:small-1/iter-000009.azck"}, 404, "iter-000009")
	c.fails("POST", "/api/search", map[string]any{"weights": "run:../x"}, 400)
}

func TestRunsWithoutFolder(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	var list struct{ Runs []runSummary }
	c.call("GET", "/api/runs", nil, http.StatusOK, &list)
	if list.Runs == nil || len(list.Runs) != 0 {
		t.Errorf("runs %+v", list.Runs)
	}
	c.fails("GET", "/api/runs/x/metrics", nil, 404, "--runs-dir")
	var info infoResponse
	c.call("GET", "/api/info", nil, http.StatusOK, &info)
	if info.Runs || len(info.Weights) != 1 || info.DefaultVisits != 400 || info.MaxVisits != 100000 {
		t.Errorf("info %+v", info)
	}
}
