package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/xboard"
	"github.com/alicezero/alicezero/configs"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model/builtin"
)

// TestMiniThroughTheProduct trains an alice-mini network for one tiny
// iteration with "train --variant", then plays it through every command
// that plays: arena against the depth-2 reference, uci (UCI_Variant lists
// the variant, startpos is the mini start), play (4-file boards), export
// (the sidecar names the variant); and each refuses it for alice.
func TestMiniThroughTheProduct(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, "", "train", "--variant", "alice-mini", "--config", "tiny", "--runs-dir", dir, "--run", "mini", "--iterations", "1", "--quiet")
	if code != 0 || !strings.Contains(out, "iter 1:") {
		t.Fatalf("train: exit %d\n%s\n%s", code, out, errOut)
	}
	run := filepath.Join(dir, "mini")
	cfg, err := os.ReadFile(filepath.Join(run, "config.yaml"))
	if err != nil || !strings.Contains(string(cfg), "variant: alice-mini") {
		t.Fatalf("the run's config.yaml does not record alice-mini: %v\n%s", err, cfg)
	}
	if _, errOut, code := runCLI(t, "", "train", "--runs-dir", dir, "--resume", "mini", "--variant", "alice"); code != 2 || !strings.Contains(errOut, "--variant cannot change it") {
		t.Errorf("--resume with --variant: exit %d, %q", code, errOut)
	}

	t.Run("arena", func(t *testing.T) {
		arenaGames(t, env.AliceMini, run, "ab:depth=2", 60)
		if _, errOut, code := runCLI(t, "", "arena", "--games", "2", "--progress=false", "ckpt:"+run, "random"); code == 0 || !strings.Contains(errOut, "trained for alice-mini, not alice") {
			t.Errorf("the mini network in an alice match: exit %d, %q", code, errOut)
		}
	})

	t.Run("uci", func(t *testing.T) {
		s := startSession(t, "uci")
		lines := uciHandshake(s)
		combo := ""
		for _, l := range lines {
			if strings.HasPrefix(l, "option name UCI_Variant ") {
				combo = l + " "
			}
		}
		if !strings.Contains(combo, " var alice-mini ") || !strings.Contains(combo, " var alice-black-b ") || !strings.Contains(combo, " var alice-3 ") {
			t.Fatalf("UCI_Variant choices: %q", combo)
		}
		s.send("setoption name UCI_Variant value alice-mini", "setoption name Weights value "+run, "isready")
		if _, before := s.expectPrefix("readyok"); containsLine(before, "info string error") {
			t.Fatalf("errors: %v", before)
		}
		s.send("ucinewgame", "position startpos moves b3b4", "go nodes 20")
		best, _ := s.expectPrefix("bestmove")
		checkBestmove(t, testPosition(t, env.AliceMini, env.StartFENMini, "b3b4"), best)
		s.send("setoption name UCI_Variant value alice-3", "isready")
		if l, _ := s.expectPrefix("info string error"); !strings.Contains(l, "trained for alice-mini, not alice-3") {
			t.Errorf("alice-3 with the mini network: %q", l)
		}
		s.send("quit")
		if code := s.exit(); code != 0 {
			t.Fatalf("exit %d", code)
		}
		// Started with the mini network, with --variant alice-mini or
		// without --variant (the weights' own variant), it plays that
		// rule set from the first line on; with another one the weights
		// are refused.
		for _, args := range [][]string{{"--variant", "alice-mini"}, nil} {
			s = startSession(t, append([]string{"uci", "--weights", run}, args...)...)
			uciHandshake(s)
			s.send("position startpos", "go nodes 10")
			best, _ = s.expectPrefix("bestmove")
			checkBestmove(t, testPosition(t, env.AliceMini, env.StartFENMini), best)
			s.send("quit")
			if code := s.exit(); code != 0 {
				t.Fatalf("%v: exit %d", args, code)
			}
		}
		if _, errOut, code := runCLI(t, "quit\n", "uci", "--weights", run, "--variant", "alice"); code != 1 || !strings.Contains(errOut, "trained for alice-mini, not alice") {
			t.Errorf("uci --weights MINI --variant alice: exit %d, %q", code, errOut)
		}
	})

	t.Run("play", func(t *testing.T) {
		out := playScript(t, "b4\nquit\n", "--variant", "alice-mini", "--weights", run, "--visits", "8", "--ascii")
		if !strings.Contains(out, "You play 1. b4/B") || !strings.Contains(out, " a  b  c  d       a  b  c  d ") || strings.Contains(out, " e ") {
			t.Errorf("play on 4 files:\n%s", out)
		}
		if out := playScript(t, "quit\n", "--weights", run, "--ascii"); !strings.Contains(out, " a  b  c  d       a  b  c  d ") {
			t.Errorf("play --weights MINI does not play alice-mini:\n%s", out)
		}
		if _, errOut, code := runCLI(t, "q\n", "play", "--weights", run, "--variant", "alice"); code == 0 || !strings.Contains(errOut, "trained for alice-mini, not alice") {
			t.Errorf("the mini network playing alice: exit %d, %q", code, errOut)
		}
	})

	t.Run("export", func(t *testing.T) {
		outDir := t.TempDir()
		if _, errOut, code := runCLI(t, "", "export", "--checkpoint", run, "--out", outDir); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		rules := readExport(t, outDir)["rules"].(map[string]any)
		if rules["variant"] != "alice-mini" || rules["board_files"] != float64(4) || rules["start_fen"] != env.StartFENMini {
			t.Errorf("rules %v", rules)
		}
		if _, errOut, code := runCLI(t, "", "export", "--checkpoint", run, "--out", t.TempDir(), "--variant", "alice"); code != 1 || !strings.Contains(errOut, "trained for alice-mini") {
			t.Errorf("--variant alice: exit %d, %q", code, errOut)
		}
	})
}

// TestBlackBCommands: alice-black-b plays through arena and uci with the
// default engine, from its own start.
func TestBlackBCommands(t *testing.T) {
	out, errOut, code := runCLI(t, "", "arena", "--variant", "alice-black-b", "--games", "2", "--plies", "30", "--progress=false", "net:visits=8", "ab:depth=1")
	if code != 0 || !strings.Contains(out, "2 of 2 games played") {
		t.Fatalf("arena: exit %d\n%s\n%s", code, out, errOut)
	}
	s := startSession(t, "uci")
	uciHandshake(s)
	s.send("setoption name UCI_Variant value alice-black-b", "isready")
	s.expectPrefix("readyok")
	s.send("position startpos moves e2e4", "go nodes 20")
	best, _ := s.expectPrefix("bestmove")
	checkBestmove(t, testPosition(t, env.AliceBlackB, env.StartFENBlackB, "e2e4"), best)
	s.send("quit")
	if code := s.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// TestTrainVariantPicksItsConfig: "train --variant V" without --config
// takes the built-in configuration made for V (mini for alice-mini), else
// the default with V put in.
func TestTrainVariantPicksItsConfig(t *testing.T) {
	for v, want := range map[env.Variant]string{env.AliceMini: "mini", env.Alice: configs.Default, env.AliceBlackB: configs.Default} {
		if got := configFor(v); got != want {
			t.Errorf("%s: config %s, want %s", v.Name, got, want)
		}
	}
}

// TestNewVariantsThroughTheProduct trains a network of each variant whose
// encoding is its own (null moves, shared squares, three boards) for one
// tiny iteration, then plays it through arena (PGN tagged with the
// variant) and uci (startpos moves in the variant's notation).
func TestNewVariantsThroughTheProduct(t *testing.T) {
	for _, c := range []struct {
		v     env.Variant
		moves string // startpos moves, in the variant's UCI
	}{
		{env.AliceNull, "e2e2"},
		{env.AliceOptionalTransfer, "e2e4 e7e5"},
		{env.AliceStone, "e2e4/a"},
		{env.Alice3, "e2e4/c"},
	} {
		t.Run(c.v.Name, func(t *testing.T) {
			dir := t.TempDir()
			out, errOut, code := runCLI(t, "", "train", "--variant", c.v.Name, "--config", "tiny", "--runs-dir", dir, "--run", "r", "--iterations", "1", "--quiet")
			if code != 0 || !strings.Contains(out, "iter 1:") {
				t.Fatalf("train: exit %d\n%s\n%s", code, out, errOut)
			}
			run := filepath.Join(dir, "r")
			arenaGames(t, c.v, run, "ab:depth=1", 40)
			s := startSession(t, "uci", "--variant", c.v.Name, "--weights", run)
			uciHandshake(s)
			s.send("position startpos moves "+c.moves, "go nodes 20")
			best, _ := s.expectPrefix("bestmove")
			checkBestmove(t, testPosition(t, c.v, c.v.StartFEN(), strings.Fields(c.moves)...), best)
			s.send("quit")
			if code := s.exit(); code != 0 {
				t.Fatalf("uci: exit %d", code)
			}
		})
	}
}

// arenaGames plays two games of variant v between the network of run (8
// visits) and opponent, at most plies plies each, and checks that the
// match's PGN holds both, tagged with the variant.
func arenaGames(t *testing.T, v env.Variant, run, opponent string, plies int) {
	t.Helper()
	pgn := filepath.Join(t.TempDir(), "games.pgn")
	out, errOut, code := runCLI(t, "", "arena", "--variant", v.Name, "--games", "2", "--plies", fmt.Sprint(plies), "--progress=false",
		"--pgn", pgn, "ckpt:"+run+",visits=8", opponent)
	if code != 0 || !strings.Contains(out, "2 of 2 games played") {
		t.Fatalf("arena: exit %d\n%s\n%s", code, out, errOut)
	}
	f, err := os.Open(pgn)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := env.ReadPGN(f, env.Alice)
	if err != nil || len(games) != 2 || games[0].Variant != v {
		t.Fatalf("PGN: %d games, %v", len(games), err)
	}
}

// TestEachVariantsBuiltinNetwork: asked for the tree search with no
// weights named (uci's Search mcts) or for the built-in network (xboard
// --weights builtin), each front end plays a variant with its own built-in
// network and says so before its first move.
func TestEachVariantsBuiltinNetwork(t *testing.T) {
	for _, v := range env.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			c, err := builtin.Checkpoint(v.Name)
			if err != nil {
				t.Fatal(err)
			}
			want := builtin.Describe(c)
			s := startSession(t, "uci", "--variant", v.Name)
			uciHandshake(s)
			s.send("setoption name Search value mcts", "position startpos", "go nodes 16")
			best, before := s.expectPrefix("bestmove")
			if !slices.ContainsFunc(before, func(l string) bool {
				return strings.HasPrefix(l, "info string playing with ") && strings.Contains(l, want)
			}) {
				t.Errorf("uci: no \"info string playing with\" naming %q before the move:\n%s", want, strings.Join(before, "\n"))
			}
			checkBestmove(t, testPosition(t, v, v.StartFEN()), best)
			s.send("quit")
			if code := s.exit(); code != 0 {
				t.Fatalf("uci: exit %d", code)
			}

			if !slices.Contains(xboard.Offered(), v.Name) {
				return // alice-3 does not fit XBoard's board
			}
			x := startSession(t, "xboard", "--weights", "builtin", "--visits", "16")
			x.send("xboard", "protover 2", "new", "variant "+v.Name)
			x.send("go")
			move, before := x.expectPrefix("move ")
			if !slices.ContainsFunc(before, func(l string) bool { return strings.HasPrefix(l, "# playing with ") && strings.Contains(l, want) }) {
				t.Errorf("xboard: no \"# playing with\" naming %q before %q:\n%s", want, move, strings.Join(before, "\n"))
			}
			x.send("quit")
			if code := x.exit(); code != 0 {
				t.Fatalf("xboard: exit %d", code)
			}
		})
	}
}
