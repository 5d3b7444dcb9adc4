package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	_, errOut, code = runCLI(t, "", "selfplay", "--config", "tiny", "--follow", "--out", data)
	if code != 1 || !strings.Contains(errOut, "--follow needs --weights") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
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
