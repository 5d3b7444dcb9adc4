package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeClock advances by step at every reading.
func fakeClock(step time.Duration) func() time.Time {
	t := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(step)
		return t
	}
}

func TestPlainLinesForNonTerminals(t *testing.T) {
	var buf bytes.Buffer
	// Each reading of the clock is 3 s after the last (New reads it once).
	b := newBar(&buf, 10, "iteration 1/2 self-play", "games", fakeClock(3*time.Second))
	if b.bar != nil {
		t.Fatal("a bytes.Buffer was taken for a terminal")
	}
	for range 10 {
		b.Add(1)
	}
	b.Finish()
	b.Finish()
	out := buf.String()
	if strings.ContainsAny(out, "\r\x1b") {
		t.Fatalf("carriage return or escape code in plain output: %q", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	// One line per 10 s (each Add is 3 s later: at 12 s, 24 s, ...), none
	// at 10/10 (the final line says it), and the final line once.
	want := []string{
		"iteration 1/2 self-play: 4/10 games (20.0 games/min, about 18s left)",
		"iteration 1/2 self-play: 8/10 games (20.0 games/min, about 6s left)",
		"iteration 1/2 self-play: 10/10 games in 33s (18.2 games/min)",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestNoRateBeforeASecond(t *testing.T) {
	var buf bytes.Buffer
	b := newBar(&buf, 100, "training", "steps", fakeClock(time.Millisecond))
	b.Add(1)
	b.Finish()
	if got := buf.String(); got != "training: 1/100 steps in 0s\n" {
		t.Errorf("got %q: a rate over a few milliseconds is noise", got)
	}
}

func TestFileIsNotATerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("a regular file is reported as a terminal")
	}
	b := New(f, 3, "games", "games")
	b.Add(3)
	b.Finish()
	data, _ := os.ReadFile(f.Name())
	if strings.ContainsAny(string(data), "\r\x1b") || !strings.Contains(string(data), "3/3 games") {
		t.Errorf("log file holds %q", data)
	}
}

func TestNilBar(t *testing.T) {
	b := New(nil, 5, "x", "y")
	if b != nil {
		t.Fatal("New(nil) is not nil")
	}
	b.Add(1) // must not panic
	b.Finish()
}
