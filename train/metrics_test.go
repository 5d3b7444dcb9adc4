package train

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/internal/runs"
)

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
