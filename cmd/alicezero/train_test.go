package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/internal/syncbuf"
	"github.com/alicezero/alicezero/mcts/engine"
	"github.com/alicezero/alicezero/model"
)

func TestTrainCommandTinyAndResume(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, "", "train", "--config", "tiny", "--runs-dir", dir, "--run", "cli", "--iterations", "1", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "iter 1:") {
		t.Fatalf("no summary line:\n%s", out)
	}
	// --resume takes the run's own configuration: --config with it is an
	// error, not silently ignored.
	_, errOut, code = runCLI(t, "", "train", "--config", "small", "--runs-dir", dir, "--resume", "cli", "--quiet")
	if code != 2 || !strings.Contains(errOut, "--config cannot change it") {
		t.Fatalf("--resume with --config: exit %d, stderr %q", code, errOut)
	}
	out, errOut, code = runCLI(t, "", "train", "--runs-dir", dir, "--resume", "cli", "--iterations", "2", "--quiet")
	if code != 0 || !strings.Contains(out, "resuming run") || !strings.Contains(out, "iter 2:") {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out, errOut)
	}
}

// Values the flags would take silently are refused, naming the flag and
// the value; --resume keeps the run's own seed, as learn does.
func TestTrainCommandRejectsBadValues(t *testing.T) {
	dir := t.TempDir()
	if _, errOut, code := runCLI(t, "", "train", "--config", "tiny", "--runs-dir", dir, "--run", "r", "--iterations", "1", "--quiet"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	cfgBefore, _ := os.ReadFile(filepath.Join(dir, "r", runs.ConfigFile))
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--iterations", "-5"}, 1, "--iterations -5: want the total the run aims for, at least 1"},
		{[]string{"--iterations", "0"}, 1, "--iterations 0: want the total the run aims for, at least 1"},
		{[]string{"--seed", "-3"}, 1, "--seed -3: want a seed ≥ 0"},
		{[]string{"--resume", "r", "--seed", "5"}, 2, "--seed cannot change it"},
		{[]string{"--runs-dir", file}, 1, "alicezero train: the runs folder " + file + " is not a directory\n"},
	} {
		args := append([]string{"train", "--config", "tiny", "--runs-dir", dir, "--quiet"}, tc.args...)
		if tc.args[0] == "--resume" {
			args = append([]string{"train", "--runs-dir", dir, "--quiet"}, tc.args...)
		}
		_, errOut, code := runCLI(t, "", args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
	for _, args := range [][]string{
		{"learn", "--data", filepath.Join(dir, "shards"), "--runs-dir", dir, "--seed", "-2"},
		{"selfplay", "--out", filepath.Join(dir, "shards"), "--seed", "-2"},
	} {
		if _, errOut, code := runCLI(t, "", args...); code != 1 || !strings.Contains(errOut, "--seed -2: want a seed ≥ 0") {
			t.Errorf("%s --seed -2: exit %d, stderr %q", args[0], code, errOut)
		}
	}
	if cfgAfter, _ := os.ReadFile(filepath.Join(dir, "r", runs.ConfigFile)); !bytes.Equal(cfgBefore, cfgAfter) {
		t.Errorf("a refused command changed the run's config.yaml:\n%s\nto\n%s", cfgBefore, cfgAfter)
	}
}

func TestTrainCommandRejectsBadConfig(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: x\nsearch:\n  simulatoins: 3\n"), 0o644)
	_, errOut, code := runCLI(t, "", "train", "--config", bad, "--runs-dir", dir)
	if code != 1 || !strings.Contains(errOut, "search.simulatoins") || !strings.Contains(errOut, "bad.yaml") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = runCLI(t, "", "train", "--config", "nosuch", "--runs-dir", dir)
	if code != 1 || !strings.Contains(errOut, "nosuch") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

func TestSelfPlayAndLearnCommands(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	_, errOut, code := runCLI(t, "", "selfplay", "--config", "tiny", "--out", data, "--games", "2", "--id", "p1", "--quiet")
	if code != 0 {
		t.Fatalf("selfplay exit %d: %s", code, errOut)
	}
	out, errOut, code := runCLI(t, "", "learn", "--config", "tiny", "--data", data, "--runs-dir", dir, "--run", "l", "--once", "--quiet")
	if code != 0 || !strings.Contains(out, "round 1:") {
		t.Fatalf("learn exit %d\n%s\n%s", code, out, errOut)
	}
	// --resume takes the run's own configuration and seed: either flag
	// with it is an error, not silently ignored.
	for _, flag := range [][]string{{"--config", "tiny"}, {"--seed", "3"}} {
		args := append([]string{"learn", "--data", data, "--runs-dir", dir, "--resume", "l", "--once", "--quiet"}, flag...)
		_, errOut, code = runCLI(t, "", args...)
		if code != 2 || !strings.Contains(errOut, flag[0]+" cannot change it") {
			t.Errorf("learn --resume with %s: exit %d, stderr %q", flag[0], code, errOut)
		}
	}
	_, errOut, code = runCLI(t, "", "selfplay", "--config", "tiny", "--follow", "--out", data)
	if code != 1 || !strings.Contains(errOut, "--follow needs --weights") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	_, errOut, code = runCLI(t, "", "selfplay", "--weights", file, "--follow", "--out", data)
	if code != 1 || !strings.Contains(errOut, "is a file") {
		t.Fatalf("--follow of a file: exit %d, stderr %q", code, errOut)
	}
}

// The README's shared-folder recipe, worker first: a worker following a
// run folder that does not exist yet waits for the learner's first
// checkpoint and then plays with the run's own configuration (tiny, not
// the default); the learner trains on its shards. Ctrl-C stops both.
func TestFollowingWorkerStartedBeforeTheLearner(t *testing.T) {
	dir := t.TempDir()
	shards := filepath.Join(dir, "shards")
	if err := os.Mkdir(shards, 0o755); err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(dir, "big")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type command struct {
		name string
		out  syncbuf.Buffer
		code chan int
	}
	start := func(name string, args ...string) *command {
		c := &command{name: name, code: make(chan int, 1)}
		go func() { c.code <- run(ctx, args, strings.NewReader(""), &c.out, &c.out) }()
		return c
	}
	var cmds []*command
	waitFor := func(limit time.Duration, c *command, want string) {
		t.Helper()
		for deadline := time.Now().Add(limit); !strings.Contains(c.out.String(), want); time.Sleep(50 * time.Millisecond) {
			select {
			case code := <-c.code:
				t.Fatalf("%s exited %d before printing %q:\n%s", c.name, code, want, c.out.String())
			default:
			}
			if time.Now().After(deadline) {
				var sb strings.Builder
				for _, c := range cmds {
					fmt.Fprintf(&sb, "--- %s:\n%s\n", c.name, c.out.String())
				}
				t.Fatalf("timed out waiting for %q from %s\n%s", want, c.name, sb.String())
			}
		}
	}
	worker := start("worker", "selfplay", "--weights", runDir, "--follow", "--out", shards, "--seed", "1", "--shard-games", "2", "--threads", "1", "--quiet")
	cmds = append(cmds, worker)
	waitFor(time.Minute, worker, "waiting for the learner's first checkpoint in "+runDir)
	learner := start("learner", "learn", "--config", "tiny", "--data", shards, "--runs-dir", dir, "--run", "big", "--poll", "200ms", "--quiet")
	cmds = append(cmds, learner)
	waitFor(2*time.Minute, worker, "the configuration of run "+runDir+" (tiny)")
	waitFor(2*time.Minute, worker, "self-play with network 0, seed 1")
	waitFor(2*time.Minute, learner, "round 1:")
	cancel()
	for _, c := range cmds {
		select {
		case code := <-c.code:
			if code != 130 {
				t.Errorf("%s interrupted: exit %d\n%s", c.name, code, c.out.String())
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s did not stop within a minute of the interrupt", c.name)
		}
	}
}

// waitForRunFolder says at once that it waits and again every note
// interval, stops when the context ends and returns once a checkpoint
// appears.
func TestWaitForRunFolder(t *testing.T) {
	dir := t.TempDir()
	runDir := filepath.Join(dir, "later")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var out bytes.Buffer
	err := waitForRunFolder(ctx, runDir, "w", &out, 5*time.Millisecond, 50*time.Millisecond)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ctx ended: %v", err)
	}
	if n := strings.Count(out.String(), "worker w: waiting for the learner's first checkpoint in "+runDir+"\n"); n != 1 {
		t.Errorf("%d first notes in %q", n, out.String())
	}
	if n := strings.Count(out.String(), "worker w: still waiting for a checkpoint in "+runDir); n < 2 || n > 6 {
		t.Errorf("%d periodic notes in 300 ms, one every 50 ms: %q", n, out.String())
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		os.MkdirAll(filepath.Join(runDir, runs.CheckpointDir), 0o755)
		os.WriteFile(runs.CheckpointPath(runDir, 0), []byte("checkpoint"), 0o644)
	}()
	done := make(chan error, 1)
	go func() {
		done <- waitForRunFolder(context.Background(), runDir, "w", io.Discard, 5*time.Millisecond, time.Minute)
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("a checkpoint appeared: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still waiting after the first checkpoint appeared")
	}
}

func TestInterruptedCommandExits130Quietly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"train", "--config", "tiny", "--runs-dir", t.TempDir(), "--quiet"}, strings.NewReader(""), &out, &errb)
	if code != 130 || strings.Contains(errb.String(), "context canceled") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if !strings.Contains(out.String(), "--resume") {
		t.Fatalf("no resume hint:\n%s", out.String())
	}
}

// train --init takes the built-in network's name and refuses what cannot
// start a run, saying why.
func TestTrainInitFlag(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--config", "tiny", "--init", "builtin"}, "choose a configuration of that architecture"},
		{[]string{"--variant", "alice-3", "--config", "tiny", "--init", "builtin"}, "choose a configuration of that architecture"},
		{[]string{"--init", "none"}, "the plain search has no weights"},
		{[]string{"--init", filepath.Join(dir, "nosuch.azck")}, "nosuch.azck"},
		{[]string{"--resume", "x", "--init", "builtin"}, "--init starts a new run"},
	}
	for _, tc := range cases {
		args := append([]string{"train", "--runs-dir", dir, "--quiet"}, tc.args...)
		_, stderr, code := runCLI(t, "", args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want it to say %q", tc.args, code, stderr, tc.want)
		}
	}
	if testing.Short() {
		return
	}
	out, stderr, code := runCLI(t, "", "train", "--runs-dir", dir, "--run", "warm", "--init", "builtin", "--iterations", "1", "--quiet")
	if code != 0 || !strings.Contains(out, "starting from the built-in network") {
		t.Fatalf("--init builtin: exit %d\n%s\n%s", code, out, stderr)
	}
}

// train --init takes a network of another variant for the run's, the
// variant read from the file's metadata, and says what carried over; a
// file that does not say its variant is taken for the first whose
// encoding it has (alice's).
func TestTrainInitAcrossVariants(t *testing.T) {
	dir := t.TempDir()
	arch, err := model.Preset("tiny")
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWeights(arch.ForVariant(env.Alice), 5)
	if err != nil {
		t.Fatal(err)
	}
	for name, meta := range map[string]map[string]string{
		"said":    {"variant": "alice-ep"},
		"unknown": nil,
	} {
		file := filepath.Join(dir, name+".azck")
		if err := model.SaveCheckpoint(file, &model.Checkpoint{Weights: w, Meta: meta}); err != nil {
			t.Fatal(err)
		}
		out, stderr, code := runCLI(t, "", "train", "--runs-dir", dir, "--run", name, "--config", "tiny", "--variant", "alice-3",
			"--init", file, "--iterations", "1", "--quiet")
		trained := "alice"
		if meta != nil {
			trained = meta["variant"]
		}
		want := "trained for " + trained + ": copied the trunk, the value head, 37 of 51 input planes and 146 of 438 policy planes; zero-initialised 14 input planes"
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--init %s for alice-3: exit %d, want %q in\n%s\n%s", name, code, want, out, stderr)
		}
	}
}

// TestConfigFileIsNamedByItsFile: a file without a name: key is announced
// by its file's name, not as the default configuration it inherits from.
func TestConfigFileIsNamedByItsFile(t *testing.T) {
	dir := t.TempDir()
	named := filepath.Join(dir, "named.yaml")
	anonymous := filepath.Join(dir, "fast-games.yaml")
	if err := os.WriteFile(named, []byte("name: mine\nselfplay:\n  games_per_iteration: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(anonymous, []byte("selfplay:\n  games_per_iteration: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{named: "mine", anonymous: "fast-games", "tiny": "tiny"} {
		cfg, err := loadConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Name != want {
			t.Errorf("%s: named %q, want %q", path, cfg.Name, want)
		}
	}
}

// TestTwoProcessesOnOneRun: while a train process holds a run, a second
// train --resume and a learn on the same run are refused, naming the
// holder, and the run's metrics stay one line per iteration in order; once
// the holder is killed (its lock file left behind), a resume takes the
// run over and releases it when done.
func TestTwoProcessesOnOneRun(t *testing.T) {
	dir := t.TempDir()
	runDir := filepath.Join(dir, "dup")
	first := startCLI(t, "first", "train", "--config", "tiny", "--runs-dir", dir, "--run", "dup", "--iterations", "1000", "--quiet")
	waitUntil(t, 2*time.Minute, "two iterations of the first process", func() bool { return len(metricsIterations(t, runDir)) >= 2 }, first)
	holder := fmt.Sprintf("in use by process %d (train)", first.cmd.Process.Pid)
	for _, args := range [][]string{
		{"train", "--runs-dir", dir, "--resume", "dup", "--iterations", "3", "--quiet"},
		{"learn", "--runs-dir", dir, "--resume", "dup", "--data", filepath.Join(dir, "shards"), "--once", "--quiet"},
	} {
		_, errOut, code := runCLI(t, "", args...)
		if code != 1 || !strings.Contains(errOut, holder) {
			t.Errorf("%s on a held run: exit %d, stderr %q, want it refused saying %q", args[0], code, errOut, holder)
		}
	}
	first.kill()
	its := metricsIterations(t, runDir)
	checkConsecutive(t, its)
	if _, err := os.Stat(filepath.Join(runDir, runs.LockFile)); err != nil {
		t.Fatalf("a killed process leaves its lock file: %v", err)
	}
	last := newestCheckpoint(runDir)
	out, errOut, code := runCLI(t, "", "train", "--runs-dir", dir, "--resume", "dup", "--iterations", fmt.Sprint(last+1), "--quiet")
	if code != 0 || !strings.Contains(out, fmt.Sprintf("from process %d (train)", first.cmd.Process.Pid)) {
		t.Fatalf("resume after the holder was killed: exit %d\n%s\n%s", code, out, errOut)
	}
	checkConsecutive(t, metricsIterations(t, runDir))
	if _, err := os.Stat(filepath.Join(runDir, runs.LockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file after the run ended: %v", err)
	}
}

// metricsIterations lists the iteration of each line of a run's metrics.
func metricsIterations(t *testing.T, runDir string) []int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(runDir, runs.MetricsFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var its []int
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m runs.Metrics
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			continue // a line being written
		}
		its = append(its, m.Iteration)
	}
	return its
}

// checkConsecutive fails unless its is 1, 2, 3, ...
func checkConsecutive(t *testing.T, its []int) {
	t.Helper()
	for i, it := range its {
		if it != i+1 {
			t.Fatalf("metrics iterations %v: want 1, 2, 3, ... once each", its)
		}
	}
}

// TestInitBuiltinPicksTheRunsVariant: --init builtin is the built-in
// network of the run's variant.
func TestInitBuiltinPicksTheRunsVariant(t *testing.T) {
	for _, v := range env.Variants() {
		w, desc, variant, err := loadInit(engine.BuiltinWeights, v.Name)
		if err != nil || w == nil || variant != v.Name || !strings.HasPrefix(desc, "the built-in network (") {
			t.Errorf("--init builtin for %s: %q, trained for %q, %v; want its built-in network", v.Name, desc, variant, err)
		}
	}
}
