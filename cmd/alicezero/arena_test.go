package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/train/arena"
)

func TestArenaCommandRoundRobin(t *testing.T) {
	dir := t.TempDir()
	pgnPath, jsonPath := filepath.Join(dir, "games.pgn"), filepath.Join(dir, "result.json")
	// Flags both before and after the players.
	out, errOut, code := runCLI(t, "", "arena", "--format", "roundrobin", "--games", "2", "--plies", "80",
		"ab:depth=1", "ab:depth=2", "random",
		"--concurrency", "2", "--progress=false", "--pgn", pgnPath, "--json", jsonPath, "--seed", "3")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{"roundrobin of 3 players: 6 of 6 games played", "Elo A-B", "LOS", "Rating list", "ab:depth=2"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	f, err := os.Open(pgnPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := env.ReadPGN(f, env.Alice)
	if err != nil || len(games) != 6 {
		t.Fatalf("PGN: %d games, %v", len(games), err)
	}
	for _, g := range games {
		if g.Tag("Termination") == "" || g.Tag("Variant") != "Alice" || g.Result == env.NoResult {
			t.Errorf("game tags %v, result %v", g.Tags, g.Result)
		}
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Players []struct {
			Name  string     `json:"name"`
			Elo   *float64   `json:"elo"`
			CI95  []*float64 `json:"ci95"`
			Games int        `json:"games"`
			Score float64    `json:"score"`
		} `json:"players"`
		Pairings []struct {
			A     string `json:"a"`
			B     string `json:"b"`
			WinsA int    `json:"wins_a"`
			Draws int    `json:"draws"`
			LossA int    `json:"losses_a"`
		} `json:"pairings"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(doc.Players) != 3 || len(doc.Pairings) != 3 || doc.Players[0].Name != "ab:depth=1" || doc.Players[0].Games != 4 {
		t.Errorf("JSON: %s", data)
	}
	for _, p := range doc.Pairings {
		if p.WinsA+p.Draws+p.LossA != 2 {
			t.Errorf("pairing %s-%s: %d games", p.A, p.B, p.WinsA+p.Draws+p.LossA)
		}
	}
}

func TestArenaCommandSPRTAndClock(t *testing.T) {
	out, errOut, code := runCLI(t, "", "arena", "--games", "40", "--plies", "16", "--tc", "5s+0.05s",
		"--sprt", "0,200,0.05,0.05", "--progress=false", "ab:depth=1", "random")
	if code != 0 || !strings.Contains(out, "SPRT elo0=0 elo1=200") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

func TestArenaCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"one player", []string{"random"}, 2, "want at least two players, got 1"},
		{"unknown kind", []string{"random", "stockfish:depth=3"}, 1, `unknown kind "stockfish"`},
		{"bad option", []string{"random", "ab:depht=2"}, 1, `unknown option "depht"`},
		{"missing openings", []string{"--openings", filepath.Join(dir, "none.epd"), "random", "ab"}, 1, "no such file"},
		{"engine without uciok", []string{"--starttimeout", "300ms", "random", "uci:/bin/cat"}, 1, "did not answer uciok within 300ms"},
		{"missing engine", []string{"random", "uci:/no/such/engine"}, 1, "cannot start"},
		{"bad tc", []string{"--tc", "fast", "random", "ab"}, 1, `--tc: time control "fast"`},
		{"moves per period", []string{"--tc", "40/60", "random", "ab"}, 1, `--tc: time control "40/60": a match's clock is for the whole game, not 40 moves per period`},
		{"increment without base", []string{"--tc", "0+1", "random", "ab"}, 1, `--tc: time control "0+1": an increment needs a base time`},
		{"bad sprt", []string{"--sprt", "10,0,0.05,0.05", "random", "ab"}, 1, "--sprt 10,0,0.05,0.05: elo1 (0) must be greater than elo0 (10)"},
		{"infinite sprt bound", []string{"--sprt", "-inf,10,0.05,0.05", "random", "ab"}, 1, `--sprt -inf,10,0.05,0.05: "-inf" is not a finite number`},
		{"negative time margin", []string{"--timemargin", "-1s", "random", "ab"}, 2, `invalid value "-1s" for flag -timemargin: time "-1s" is negative`},
		{"no concurrency", []string{"--concurrency", "0", "random", "ab"}, 1, "--concurrency 0: want at least 1"},
		{"negative concurrency", []string{"--concurrency", "-1", "random", "ab"}, 1, "--concurrency -1: want at least 1"},
		{"no games", []string{"--games", "0", "random", "ab"}, 1, "--games 0: want at least 1"},
		{"negative ply cap", []string{"--plies", "-1", "random", "ab"}, 1, "--plies -1: want a ply cap ≥ 0"},
		{"negative nodes", []string{"--nodes", "-1", "random", "ab"}, 1, "--nodes -1: want a number of nodes ≥ 0"},
		{"negative move time", []string{"--movetime", "-1s", "random", "ab"}, 2, `invalid value "-1s" for flag -movetime: time "-1s" is negative`},
		{"move time neither seconds nor a duration", []string{"--movetime", "soon", "random", "ab"}, 2, `invalid value "soon" for flag -movetime: time "soon" is neither a number nor a duration`},
		{"sprt with three", []string{"--sprt", "0,10,0.05,0.05", "random", "ab", "ab:depth=1"}, 1, "two players"},
		{"bad format", []string{"--format", "swiss", "random", "ab"}, 1, "gauntlet or roundrobin"},
		{"bad draw rule", []string{"--draw", "movecount=8", "random", "ab"}, 1, "draw adjudication"},
		{"bad resign rule", []string{"--resign", "movecount=3,score=-5", "random", "ab"}, 1, "resign adjudication"},
		{"negative overhead", []string{"--overhead", "-1ms", "random", "ab"}, 2, `invalid value "-1ms" for flag -overhead: time "-1ms" is negative`},
		{"bad variant", []string{"--variant", "crazy", "random", "ab"}, 1, "unknown variant"},
		{"node limit ab ignores", []string{"random", "ab:nodes=500"}, 1, `player "ab:nodes=500": nodes=500 would be ignored: ab searches to its depth`},
		{"bad pgn path", []string{"--pgn", filepath.Join(dir, "no", "dir.pgn"), "random", "ab"}, 1, "no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"arena", "--progress=false"}, tc.args...)
			out, errOut, code := runCLI(t, "", args...)
			if code != tc.wantCode || !strings.Contains(errOut, tc.wantErr) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, errOut, tc.wantCode, tc.wantErr)
			}
			if out != "" {
				t.Errorf("games were reported despite the error:\n%s", out)
			}
		})
	}
}

func TestArenaCommandPerPlayerLimits(t *testing.T) {
	out, errOut, code := runCLI(t, "", "arena", "--games", "2", "--plies", "10", "--progress=false", "--nodes", "100",
		"ab:depth=1,movetime=1s", "random:seed=2,tc=30+0.1,nodes=0")
	if code != 0 || !strings.Contains(out, "2 of 2 games played") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	_, errOut, code = runCLI(t, "", "arena", "--progress=false", "ab", "random:movetime=soon")
	if code != 1 || !strings.Contains(errOut, `option movetime="soon"`) {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
	// The flags read times as the players' options do: bare seconds or
	// durations.
	out, errOut, code = runCLI(t, "", "arena", "--games", "2", "--plies", "6", "--progress=false", "--movetime", "0.05",
		"--timemargin", "0.5", "--overhead", "5ms", "random", "ab:depth=1,movetime=0.05")
	if code != 0 || !strings.Contains(out, "2 of 2 games played") {
		t.Errorf("--movetime 0.05: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestArenaCommandResignAdjudication: two alpha-beta players score their
// moves; a loss is adjudicated once one stays 2 pawns down.
func TestArenaCommandResignAdjudication(t *testing.T) {
	pgnPath := filepath.Join(t.TempDir(), "g.pgn")
	out, errOut, code := runCLI(t, "", "arena", "--games", "4", "--plies", "300", "--progress=false", "--pgn", pgnPath,
		"--resign", "movecount=2,score=200", "ab:depth=2", "ab:depth=1")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	data, err := os.ReadFile(pgnPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `[Termination "adjudication"]`) {
		t.Errorf("no game adjudicated:\n%s", data)
	}
}

func TestCountForfeitsSaysHowFarOver(t *testing.T) {
	games := func(overruns ...time.Duration) *arena.Result {
		res := &arena.Result{Games: []arena.GameRecord{{Termination: arena.TermCheckmate}, {Termination: arena.TermIllegal}}}
		for _, o := range overruns {
			res.Games = append(res.Games, arena.GameRecord{Termination: arena.TermTime, Overrun: o})
		}
		return res
	}
	tests := []struct {
		res  *arena.Result
		want string
	}{
		{games(), "1 lost by illegal move"},
		{games(250 * time.Millisecond), "1 lost by time forfeit (250ms over the time allowed, --timemargin 200ms included), 1 lost by illegal move"},
		{games(900*time.Millisecond, 201*time.Millisecond, 300*time.Millisecond), "3 lost by time forfeit (201ms to 900ms over the time allowed, --timemargin 200ms included)"},
		// Under a millisecond over is not "0s over".
		{games(400 * time.Microsecond), "1 lost by time forfeit (400µs over the time allowed, --timemargin 200ms included)"},
	}
	for _, tt := range tests {
		if got := countForfeits(tt.res, 200*time.Millisecond); !strings.HasPrefix(got, tt.want) {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// As cutechess's -pgnout, --pgn appends to a file that exists (the help
// says so), keeping the games apart; --json carries the SPRT's verdict.
func TestArenaCommandAppendsPGNAndWritesTheSPRT(t *testing.T) {
	dir := t.TempDir()
	pgnPath, jsonPath := filepath.Join(dir, "games.pgn"), filepath.Join(dir, "result.json")
	// An earlier game whose file does not end with a blank line.
	earlier := "[Event \"earlier\"]\n[Variant \"Alice\"]\n[Result \"*\"]\n\n1. e4 *"
	if err := os.WriteFile(pgnPath, []byte(earlier), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		out, errOut, code := runCLI(t, "", "arena", "--games", "2", "--plies", "20", "--progress=false", "--pgn", pgnPath,
			"--sprt", "0,200,0.05,0.05", "--json", jsonPath, "ab:depth=1", "random")
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
	}
	data, err := os.ReadFile(pgnPath)
	if err != nil {
		t.Fatal(err)
	}
	games, err := env.ReadPGN(strings.NewReader(string(data)), env.Alice)
	if err != nil || len(games) != 5 || games[0].Tag("Event") != "earlier" {
		t.Fatalf("PGN after two matches of 2 games appended to 1: %d games, %v\n%s", len(games), err, data)
	}
	var doc struct {
		SPRT *struct {
			Elo1     float64  `json:"elo1"`
			LLR      *float64 `json:"llr"`
			Lower    float64  `json:"lower"`
			Upper    float64  `json:"upper"`
			Decision string   `json:"decision"`
		} `json:"sprt"`
	}
	raw, _ := os.ReadFile(jsonPath)
	if err := json.Unmarshal(raw, &doc); err != nil || doc.SPRT == nil || doc.SPRT.Elo1 != 200 || doc.SPRT.LLR == nil ||
		doc.SPRT.Lower != -2.944 || doc.SPRT.Upper != 2.944 || doc.SPRT.Decision == "" {
		t.Errorf("JSON without the SPRT's verdict (%v):\n%s", err, raw)
	}
	_, help, _ := runCLI(t, "", "arena", "-h")
	if !strings.Contains(help, "append the games to this PGN file") {
		t.Errorf("arena -h does not say that --pgn appends:\n%s", help)
	}
}
