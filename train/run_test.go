package train

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/configs"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/model"
)

func tinyConfig(t *testing.T) *Config {
	t.Helper()
	c, err := BuiltinConfig("tiny")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func runTiny(t *testing.T, dir, name string, iterations int, resume bool) string {
	t.Helper()
	var out bytes.Buffer
	opts := Options{RunsDir: dir, Name: name, Iterations: iterations, Resume: resume, Out: &out}
	if !resume {
		opts.Config = tinyConfig(t)
	}
	if err := Run(context.Background(), opts); err != nil {
		t.Fatalf("run %s: %v\n%s", name, err, out.String())
	}
	return out.String()
}

// TestTinyRunEndToEnd is the CI smoke run: two iterations of the tiny
// configuration write checkpoints, metrics, games and the plots.
func TestTinyRunEndToEnd(t *testing.T) {
	dir := t.TempDir()
	out := runTiny(t, dir, "smoke", 0, false)
	run := filepath.Join(dir, "smoke")
	for _, f := range []string{"config.yaml", "metrics.jsonl", "curves.png", "curves.svg",
		"checkpoints/iter-000000.azck", "checkpoints/iter-000002.azck", "buffer/iter-000002.shard", "games/iter-000001.pgn"} {
		if st, err := os.Stat(filepath.Join(run, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	hist, err := readMetrics(filepath.Join(run, runs.MetricsFile), 1<<30)
	if err != nil || len(hist) != 2 {
		t.Fatalf("metrics: %d lines, %v", len(hist), err)
	}
	if hist[1].Eval == nil || hist[1].Eval.VsRandom == nil || hist[1].Eval.VsAlphaBeta == nil || hist[1].Eval.VsPrevious == nil {
		t.Errorf("iteration 2 has no strength matches: %+v", hist[1].Eval)
	}
	if hist[0].Steps == 0 || hist[0].LossPolicy <= 0 {
		t.Errorf("iteration 1 trained no steps: %+v", hist[0])
	}
	if !strings.Contains(out, "iter 2:") || !strings.Contains(out, "complete") {
		t.Errorf("summary lines missing:\n%s", out)
	}
	// A second run under the same name is refused rather than mixed in.
	err = Run(context.Background(), Options{RunsDir: dir, Name: "smoke", Config: tinyConfig(t)})
	if err == nil || !strings.Contains(err.Error(), "--resume smoke") {
		t.Fatalf("reusing a run name: %v", err)
	}
}

// TestResumeEqualsUninterrupted stops a run after iteration 1 and resumes
// it: the weights after iteration 2 are bit-identical to a run that never
// stopped.
func TestResumeEqualsUninterrupted(t *testing.T) {
	dir := t.TempDir()
	runTiny(t, dir, "straight", 2, false)
	runTiny(t, dir, "stopped", 1, false)
	out := runTiny(t, dir, "stopped", 2, true)
	if !strings.Contains(out, "resuming run") {
		t.Fatalf("no resume message:\n%s", out)
	}
	a, err := model.LoadCheckpoint(filepath.Join(dir, "straight", runs.CheckpointDir, "iter-000002.azck"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := model.LoadCheckpoint(filepath.Join(dir, "stopped", runs.CheckpointDir, "iter-000002.azck"))
	if err != nil {
		t.Fatal(err)
	}
	if !a.Weights.Equal(b.Weights) || a.Step != b.Step {
		t.Fatalf("resumed weights differ from the uninterrupted run's (steps %d vs %d)", a.Step, b.Step)
	}
	// Two missing or empty shards would compare equal: read both first.
	var shards [2][]byte
	for i, run := range []string{"straight", "stopped"} {
		path := filepath.Join(dir, run, runs.BufferDir, "iter-000002.shard")
		if shards[i], err = os.ReadFile(path); err != nil || len(shards[i]) == 0 {
			t.Fatalf("shard %s: %d bytes, %v", path, len(shards[i]), err)
		}
	}
	if !bytes.Equal(shards[0], shards[1]) {
		t.Fatal("resumed self-play games differ")
	}
}

// TestCorruptLatestCheckpointFallsBack damages the newest checkpoint: the
// resumed run warns, continues from the one before and redoes the rest.
func TestCorruptLatestCheckpointFallsBack(t *testing.T) {
	dir := t.TempDir()
	runTiny(t, dir, "r", 2, false)
	latest := filepath.Join(dir, "r", runs.CheckpointDir, "iter-000002.azck")
	data, err := os.ReadFile(latest)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(latest, data[:len(data)/3], 0o644); err != nil {
		t.Fatal(err)
	}
	out := runTiny(t, dir, "r", 2, true)
	if !strings.Contains(out, "warning: checkpoint") || !strings.Contains(out, "iter-000002.azck") {
		t.Fatalf("no warning about the damaged checkpoint:\n%s", out)
	}
	if !strings.Contains(out, "resuming run") || !strings.Contains(out, "at iteration 1 ") {
		t.Fatalf("did not resume from iteration 1:\n%s", out)
	}
	if _, err := model.LoadCheckpoint(latest); err != nil {
		t.Fatalf("iteration 2 was not redone: %v", err)
	}
	hist, err := readMetrics(filepath.Join(dir, "r", runs.MetricsFile), 1<<30)
	if err != nil || len(hist) != 2 || hist[1].Iteration != 2 {
		t.Fatalf("metrics after the redo: %d lines, %v", len(hist), err)
	}
}

// A run whose config.yaml predates a key resumes with the default's value
// and writes the key back explicitly, so that the file says what the run
// uses even if the default changes later.
func TestResumeWritesMissingKeysBack(t *testing.T) {
	dir := t.TempDir()
	runTiny(t, dir, "old", 1, false)
	path := filepath.Join(dir, "old", runs.ConfigFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	momentum := regexp.MustCompile(`(?m)^[ \t]+momentum: .*\n`)
	if !momentum.Match(data) {
		t.Fatalf("no momentum key in %s:\n%s", path, data)
	}
	if err := os.WriteFile(path, momentum.ReplaceAll(data, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runTiny(t, dir, "old", 2, true)
	if !strings.Contains(out, "lacks train.momentum") {
		t.Errorf("no note of the missing key:\n%s", out)
	}
	data, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, missing, err := ParseConfigDefaulted(data, path)
	if err != nil || len(missing) > 0 || !momentum.Match(data) {
		t.Fatalf("after the resume: keys still missing %v (%v):\n%s", missing, err, data)
	}
	def, err := BuiltinConfig(configs.Default)
	if err != nil {
		t.Fatal(err)
	}
	if c.Train.Momentum != def.Train.Momentum {
		t.Errorf("momentum written back as %v, want the default's %v", c.Train.Momentum, def.Train.Momentum)
	}
}

func TestResumeErrors(t *testing.T) {
	dir := t.TempDir()
	err := Run(context.Background(), Options{RunsDir: dir, Name: "nope", Resume: true})
	if err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("resuming a missing run: %v", err)
	}
}

// TestInterruptLeavesResumableRun cancels a run mid-way: it returns the
// context's error and resumes cleanly. A run that ends or stalls before
// its first checkpoint fails the test, within a bounded time.
func TestInterruptLeavesResumableRun(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer // read only once the run has returned
	cfg := tinyConfig(t)
	cfg.Iterations = 50
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{RunsDir: dir, Name: "int", Config: cfg, Out: &out})
	}()
	// stop interrupts the run and waits for it, at most a minute.
	stop := func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(time.Minute):
			t.Fatal("the run did not return within a minute of the interrupt")
			return nil
		}
	}
	// Let it finish an iteration, then interrupt.
	limit := waitLimit(t, 5*time.Minute)
	deadline := time.After(limit)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	first := filepath.Join(dir, "int", runs.CheckpointDir, "iter-000001.azck")
	for waiting := true; waiting; {
		select {
		case err := <-done:
			t.Fatalf("the run returned %v before its first checkpoint:\n%s", err, out.String())
		case <-deadline:
			err := stop()
			t.Fatalf("no first checkpoint after %v (the run then returned %v):\n%s", limit, err, out.String())
		case <-tick.C:
			_, err := os.Stat(first)
			waiting = err != nil
		}
	}
	if err := stop(); err != context.Canceled {
		t.Fatalf("interrupted run returned %v", err)
	}
	if !strings.Contains(out.String(), "--resume int") {
		t.Fatalf("no resume hint:\n%s", out.String())
	}
	runTiny(t, dir, "int", 0, true)
}

// waitLimit is how long a test may wait for something: want, or less
// where the test's deadline (go test -timeout) comes sooner, so that the
// test fails saying what it waited for before the deadline panics.
func waitLimit(t *testing.T, want time.Duration) time.Duration {
	if d, ok := t.Deadline(); ok {
		return max(min(want, time.Until(d)-30*time.Second), time.Second)
	}
	return want
}

// TestRunStoppedWhileCreatedIsTakenOver simulates a kill -9 in a new run's
// first moments: a folder with a half-written config and checkpoint and no
// data. Resuming it says what happened; --run takes it over.
func TestRunStoppedWhileCreatedIsTakenOver(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "ee")
	for _, d := range []string{runs.CheckpointDir, runs.BufferDir, runs.GamesDir} {
		if err := os.MkdirAll(filepath.Join(run, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	leftovers := []string{
		filepath.Join(run, ".config.yaml.tmp-123"),
		filepath.Join(run, runs.CheckpointDir, ".iter-000000.azck.tmp-456"),
	}
	for _, f := range append(leftovers, filepath.Join(run, runs.ConfigFile)) {
		if err := os.WriteFile(f, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err := Run(context.Background(), Options{RunsDir: dir, Name: "ee", Resume: true})
	if err == nil || !strings.Contains(err.Error(), "start it again with --run ee") {
		t.Fatalf("resuming the unfinished folder: %v", err)
	}
	runTiny(t, dir, "ee", 1, false)
	for _, f := range leftovers {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", f, err)
		}
	}
	if its, err := runs.Checkpoints(run); err != nil || len(its) != 2 {
		t.Errorf("checkpoints %v, %v; want iterations 1 and 0", its, err)
	}
	// Now it is a run: --run refuses it, --resume takes it.
	err = Run(context.Background(), Options{RunsDir: dir, Name: "ee", Config: tinyConfig(t), Out: &bytes.Buffer{}})
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("creating over a run: %v", err)
	}
}

// TestFiguresAnnounced: a learner's run has no last iteration to announce,
// and a resumed train run refuses a total it has already passed, leaving
// its config.yaml as it was.
func TestFiguresAnnounced(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	r, err := openRun(Options{RunsDir: dir, Name: "l", Config: tinyConfig(t), Out: &out}, true)
	if err != nil {
		t.Fatal(err)
	}
	r.close()
	r, err = openRun(Options{RunsDir: dir, Name: "l", Resume: true, Out: &out}, true)
	if err != nil {
		t.Fatal(err)
	}
	r.close()
	for _, want := range []string{"training until stopped\n", "at iteration 0 (0 games"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("learner's output lacks %q:\n%s", want, out.String())
		}
	}

	runTiny(t, dir, "k9", 2, false)
	cfgPath := filepath.Join(dir, "k9", runs.ConfigFile)
	before, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	err = Run(context.Background(), Options{RunsDir: dir, Name: "k9", Resume: true, Iterations: 1, Out: &out})
	if err == nil || !strings.Contains(err.Error(), "at iteration 2 already") || !strings.Contains(err.Error(), "--iterations 3 for 1 more") {
		t.Errorf("resuming at 2 with --iterations 1: %v", err)
	}
	if after, _ := os.ReadFile(cfgPath); !bytes.Equal(before, after) {
		t.Errorf("config.yaml changed:\n%s\nto\n%s", before, after)
	}
}

// TestOneProcessARun: a run folder open for training refuses a second
// opening (a resume, a learner, a new run of the same name) with its
// holder named, and is free again once closed; a runs folder that is a
// file is said to be one.
func TestOneProcessARun(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	r, err := openRun(Options{RunsDir: dir, Name: "one", Config: tinyConfig(t), Out: &out}, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []struct {
		opts    Options
		learner bool
	}{
		{Options{RunsDir: dir, Name: "one", Resume: true}, false},
		{Options{RunsDir: dir, Name: "one", Resume: true}, true},
		{Options{RunsDir: dir, Name: "one", Config: tinyConfig(t)}, false},
	} {
		r2, err := openRun(o.opts, o.learner)
		if err == nil {
			r2.close()
			t.Fatalf("second opening of a held run (learner %t, resume %t) succeeded", o.learner, o.opts.Resume)
		}
		var held *runs.HeldError
		if !errors.As(err, &held) || !strings.Contains(err.Error(), fmt.Sprintf("process %d (train)", os.Getpid())) {
			t.Errorf("second opening: %v", err)
		}
	}
	r.close()
	r, err = openRun(Options{RunsDir: dir, Name: "one", Resume: true, Out: &out}, true)
	if err != nil {
		t.Fatalf("resume after close: %v", err)
	}
	r.close()

	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	_, err = openRun(Options{RunsDir: file, Name: "x", Config: tinyConfig(t)}, false)
	if err == nil || err.Error() != "the runs folder "+file+" is not a directory" {
		t.Errorf("runs folder that is a file: %v", err)
	}
}

// A run whose config.yaml was edited to another variant is refused on
// resume, naming both variants: not an "architecture mismatch" between
// two alike descriptions (alice-3 has other planes), nor training an
// alice network on alice-ep's rules (the same encoding).
func TestResumeRefusesAnEditedVariant(t *testing.T) {
	dir := t.TempDir()
	runTiny(t, dir, "v", 1, false)
	path := filepath.Join(dir, "v", runs.ConfigFile)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"alice-3", "alice-ep"} {
		edited := strings.Replace(string(orig), "\nvariant: alice\n", "\nvariant: "+v+"\n", 1)
		if edited == string(orig) {
			t.Fatalf("no variant line in %s:\n%s", path, orig)
		}
		os.WriteFile(path, []byte(edited), 0o644)
		err := Run(context.Background(), Options{RunsDir: dir, Name: "v", Resume: true, Iterations: 2, Out: &bytes.Buffer{}})
		if err == nil || !strings.Contains(err.Error(), "says variant "+v+", but the run's network was trained for alice") {
			t.Errorf("resume with variant %s: %v", v, err)
		}
		if its, _ := runs.Checkpoints(filepath.Join(dir, "v")); len(its) == 0 || its[0] != 1 {
			t.Errorf("checkpoints after a refused resume: %v", its)
		}
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
