package train

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/alicezero/alicezero/internal/runs"
)

func TestMetricsAndPlots(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "metrics.jsonl")
	for i := 1; i <= 3; i++ {
		m := &runs.Metrics{Iteration: i, Steps: 10, LossPolicy: 3 - float64(i)/2, LossValue: 1, MeanGameLength: 80}
		if i%2 == 0 {
			m.Eval = &runs.EvalMetrics{VsRandom: &runs.MatchScore{Score: 0.9}, VsAlphaBeta: &runs.MatchScore{Score: 0.4}, Elo: -70}
		}
		if err := appendMetrics(path, m); err != nil {
			t.Fatal(err)
		}
	}
	// A torn last line, as a kill -9 mid-write leaves, is ignored.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"iteration": 4, "ga`)
	f.Close()
	hist, err := readMetrics(path, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 3 {
		t.Fatalf("read %d lines, want 3", len(hist))
	}
	if hist, _ := readMetrics(path, 3); len(hist) != 2 {
		t.Fatalf("upTo 3 kept %d lines, want 2", len(hist))
	}
	if err := writePlots(dir, hist); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"curves.png", "curves.svg"} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil || st.Size() < 1000 {
			t.Fatalf("%s: %v", name, err)
		}
	}
}
