package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
)

// asCLI makes the test binary act as the alicezero command when set, so
// that tests can start the real engine as a separate process without a
// build step. It runs main itself, signal handling included.
const asCLI = "ALICEZERO_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(asCLI) == "1" {
		main()
	}
	os.Exit(m.Run())
}

// TestArenaAgainstOwnUCIEngine plays a checkpoint against "alicezero uci"
// speaking its own protocol to the arena: every move crosses the UCI
// boundary and is checked, and no game may be lost by an illegal move,
// a crash or a timeout.
func TestArenaAgainstOwnUCIEngine(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(asCLI, "1") // inherited by the engine process
	dir := t.TempDir()
	arch, err := model.Preset("tiny")
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWeights(arch, 7)
	if err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(dir, "tiny.azck")
	if err := model.SaveCheckpoint(ckpt, &model.Checkpoint{Weights: w, Meta: map[string]string{"variant": "alice"}}); err != nil {
		t.Fatal(err)
	}
	pgn := filepath.Join(dir, "games.pgn")
	out, errOut, code := runCLI(t, "", "arena", "--games", "4", "--nodes", "24", "--plies", "80", "--concurrency", "2",
		"--progress=false", "--pgn", pgn, "ckpt:"+ckpt, "uci:'"+exe+"' uci --weights "+ckpt)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "4 of 4 games played") {
		t.Fatalf("not all games played:\n%s\n%s", out, errOut)
	}
	data, err := os.ReadFile(pgn)
	if err != nil {
		t.Fatal(err)
	}
	games, err := env.ReadPGN(bytes.NewReader(data), env.Alice)
	if err != nil || len(games) != 4 {
		t.Fatalf("PGN: %d games, %v", len(games), err)
	}
	for i, g := range games {
		switch term := g.Tag("Termination"); term {
		case "illegal move", "time forfeit", "engine failure":
			t.Errorf("game %d ended by %s:\n%s", i+1, term, errOut)
		}
		if len(g.Moves) == 0 {
			t.Errorf("game %d has no moves", i+1)
		}
	}
}

// An engine whose set-up fails does not play under its name: the arena
// refuses the match before the first game, naming the engine and its
// error (the engine's own "info string error" line), and so it does for a
// UCI_Variant that is not the match's.
func TestArenaRefusesAnEngineThatFailedItsSetUp(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(asCLI, "1")
	missing := filepath.Join(t.TempDir(), "nonexistent.azck")
	for _, tc := range []struct{ spec, want string }{
		{"uci:'" + exe + "' uci,Weights=" + missing, "failed its set-up: engine: weights: " + missing + " does not exist"},
		{"uci:'" + exe + "' uci,UCI_Variant=alice-3", "option UCI_Variant=alice-3, but the match plays alice"},
	} {
		out, errOut, code := runCLI(t, "", "arena", "--games", "2", "--movetime", "50ms", "--progress=false", tc.spec, "random")
		if code != 1 || !strings.Contains(errOut, `engine "`+tc.spec+`"`) || !strings.Contains(errOut, tc.want) || strings.Contains(out, "games played") {
			t.Errorf("%s: exit %d\n%s\n%s", tc.spec, code, out, errOut)
		}
	}
}
