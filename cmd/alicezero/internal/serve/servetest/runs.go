package servetest

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// WriteRun writes the run folder dir/name as "alicezero train" lays it
// out (train/run.go): a configuration, iterations metrics lines (an
// evaluation every second iteration, held-out metrics, and a field no
// trainer writes yet, "ramp_fraction"), a checkpoint file and a games
// file per iteration, and a torn last line, as a run being written has.
// The checkpoints are not real networks. Writing it again with more
// iterations extends the run.
func WriteRun(t testing.TB, dir, name string, iterations int) {
	t.Helper()
	run := filepath.Join(dir, name)
	for _, sub := range []string{"checkpoints", "games"} {
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
	write(filepath.Join(run, "config.yaml"), "name: "+name+"\niterations: 100\n")
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
		write(filepath.Join(run, "checkpoints", fmt.Sprintf("iter-%06d.azck", it)), "not a real checkpoint")
		write(filepath.Join(run, "games", fmt.Sprintf("iter-%06d.pgn", it)),
			fmt.Sprintf("[Event \"AliceZero self-play\"]\n[Round \"%d.1\"]\n[Result \"1-0\"]\n\n1. e3 d6 2. Bc4 c5 3. Bb5# 1-0\n\n[Event \"AliceZero self-play\"]\n[Round \"%d.2\"]\n[Result \"*\"]\n\n1. e4 e5 *\n", it, it))
	}
	sb.WriteString(`{"iteration": 99, "loss_pol`) // a line being written
	write(filepath.Join(run, "metrics.jsonl"), sb.String())
}
