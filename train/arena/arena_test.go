package arena

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// fakeSpec is the player spec of the scripted engine in the given mode.
func fakeSpec(t *testing.T, mode string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return "uci:'" + exe + "' " + mode
}

func run(t *testing.T, cfg Config) *Result {
	t.Helper()
	if cfg.Concurrency == 0 {
		cfg.Concurrency = 2
	}
	if cfg.PlyCap == 0 {
		cfg.PlyCap = 300
	}
	if cfg.StartTimeout == 0 {
		// The fake engine is this test binary: under the race detector on a
		// busy machine its start-up can take seconds.
		cfg.StartTimeout = time.Minute
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func terminations(res *Result) map[Termination]int {
	n := map[Termination]int{}
	for _, g := range res.Games {
		n[g.Termination]++
	}
	return n
}

func TestAlphaBetaBeatsRandom(t *testing.T) {
	res := run(t, Config{Players: []string{"ab:depth=1", "random"}, Games: 10})
	p := res.Pairings[0]
	t.Logf("ab:depth=1 vs random: +%d =%d -%d, %v", p.Wins, p.Draws, p.Losses, terminations(res))
	if p.Games != 10 || p.Score < 0.9 {
		t.Errorf("ab:depth=1 scored %.2f in %d games against random, want ≥ 0.9", p.Score, p.Games)
	}
}

func TestDeeperSearchIsStronger(t *testing.T) {
	res := run(t, Config{Players: []string{"ab:depth=3", "ab:depth=1"}, Games: 12})
	p := res.Pairings[0]
	t.Logf("depth 3 vs depth 1: +%d =%d -%d, Elo %+.0f", p.Wins, p.Draws, p.Losses, p.Elo.Elo)
	if p.Score < 0.7 || p.LOS < 0.95 {
		t.Errorf("depth 3 scored %.2f (LOS %.3f) against depth 1, want ≥ 0.7 and LOS ≥ 0.95", p.Score, p.LOS)
	}
}

func TestScheduleAndRecords(t *testing.T) {
	players := []string{"random:seed=1", "random:seed=2", "random:seed=3"}
	for _, format := range []Format{Gauntlet, RoundRobin} {
		res := run(t, Config{Players: players, Format: format, Games: 3, PlyCap: 40, Concurrency: 3})
		wantPairs := map[Format]int{Gauntlet: 2, RoundRobin: 3}[format]
		if len(res.Pairings) != wantPairs || res.Planned != 4*wantPairs || len(res.Games) != res.Planned {
			t.Fatalf("%v: %d pairings, %d of %d games", format, len(res.Pairings), len(res.Games), res.Planned)
		}
		for i, g := range res.Games {
			if g.Number != i+1 {
				t.Errorf("%v: game %d numbered %d", format, i+1, g.Number)
			}
			// Game pairs: both colours from one opening.
			if i%2 == 1 {
				prev := res.Games[i-1]
				if prev.White != g.Black || prev.Black != g.White || prev.Opening.Name != g.Opening.Name {
					t.Errorf("%v: games %d and %d are not a pair", format, i, i+1)
				}
			}
			if g.Game.Tag("PlyCount") == "" || g.Game.Tag("Termination") == "" {
				t.Errorf("game %d lacks tags: %v", g.Number, g.Game.Tags)
			}
		}
		for _, p := range res.Pairings {
			if p.Games != 4 {
				t.Errorf("%v: pairing %s-%s played %d games, want 4 (3 rounded up)", format, p.NameA, p.NameB, p.Games)
			}
		}
	}
}

func TestReproducibleWhateverTheConcurrency(t *testing.T) {
	moves := func(conc int) []string {
		res := run(t, Config{Players: []string{"random", "ab:depth=1,noise=30"}, Games: 4, PlyCap: 60, Concurrency: conc, Seed: 9})
		var out []string
		for _, g := range res.Games {
			var ms []string
			for _, m := range g.Game.Moves {
				ms = append(ms, m.UCI())
			}
			out = append(out, strings.Join(ms, " "))
		}
		return out
	}
	a, b := moves(1), moves(4)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("concurrency changed the games:\n%v\n%v", a, b)
	}
}

func TestPlyCapIsAdjudicatedDraw(t *testing.T) {
	res := run(t, Config{Players: []string{"random:seed=1", "random:seed=2"}, Games: 6, PlyCap: 12})
	adjudicated := 0
	for _, g := range res.Games {
		if g.Termination != TermAdjudicated {
			continue
		}
		adjudicated++
		if g.Result != env.Draw || len(g.Game.Moves) != 12 || g.Game.Tag("PlyCount") != "12" {
			t.Errorf("adjudicated game %d: result %v after %d plies", g.Number, g.Result, len(g.Game.Moves))
		}
	}
	if adjudicated == 0 || res.Pairings[0].Adjudicated != adjudicated {
		t.Errorf("%d adjudicated games, pairing counts %d", adjudicated, res.Pairings[0].Adjudicated)
	}
}

func TestPGNOutput(t *testing.T) {
	openings, err := ReadOpenings(strings.NewReader("# two positions\nrnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n4k3/8/8/8/8/8/4P3/4K3 w - -\n"), "test.epd", env.Alice)
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, Config{Players: []string{"ab:depth=1", "random"}, Games: 4, Openings: openings, PlyCap: 80, Event: "test event"})
	var buf bytes.Buffer
	if err := res.WritePGN(&buf); err != nil {
		t.Fatal(err)
	}
	games, err := env.ReadPGN(&buf, env.Alice)
	if err != nil {
		t.Fatalf("reading the PGN back: %v\n%s", err, buf.String())
	}
	if len(games) != 4 {
		t.Fatalf("%d games in the PGN, want 4", len(games))
	}
	for i, g := range games {
		rec := res.Games[i]
		for _, tag := range []string{"Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant", "Termination", "PlyCount", "SetUp", "FEN"} {
			if g.Tag(tag) == "" {
				t.Errorf("game %d: no %s tag", i+1, tag)
			}
		}
		if g.Tag("Event") != "test event" || g.Tag("Variant") != "Alice" || g.Tag("White") != res.Players[rec.White] {
			t.Errorf("game %d: tags %v", i+1, g.Tags)
		}
		if g.StartFEN != rec.Opening.FEN || g.Result != rec.Result || len(g.Moves) != len(rec.Game.Moves) {
			t.Errorf("game %d does not read back: %s %v %d", i+1, g.StartFEN, g.Result, len(g.Moves))
		}
	}
}

func TestJSONHasExactlyTheDocumentedKeys(t *testing.T) {
	res := run(t, Config{Players: []string{"ab:depth=1", "random", "random:seed=5"}, Format: RoundRobin, Games: 2, PlyCap: 60})
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc map[string][]map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	keys := func(m map[string]any) string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return strings.Join(ks, ",")
	}
	// Without an SPRT there is no "sprt" key.
	if len(doc) != 2 || len(doc["players"]) != 3 || len(doc["pairings"]) != 3 {
		t.Fatalf("document shape: %s", buf.String())
	}
	for _, p := range doc["players"] {
		if k := keys(p); k != "ci95,elo,games,name,score" {
			t.Errorf("player keys %s", k)
		}
	}
	for _, p := range doc["pairings"] {
		if k := keys(p); k != "a,b,ci95,draws,elo_diff,los,losses_a,wins_a" {
			t.Errorf("pairing keys %s", k)
		}
	}
	if doc["players"][0]["name"] != "ab:depth=1" || doc["players"][0]["elo"] != 0.0 {
		t.Errorf("anchor: %v", doc["players"][0])
	}
}

func TestReport(t *testing.T) {
	res := run(t, Config{Players: []string{"ab:depth=1", "random"}, Games: 2, Anchor: "random"})
	var buf bytes.Buffer
	if err := res.WriteReport(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"gauntlet of 2 players: 2 of 2 games played", "Player A", "Elo A-B", "95% CI", "LOS", "ab:depth=1  random", "random = 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestSPRTStopsTheMatch(t *testing.T) {
	sprt := SPRT{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05}
	// A short ply cap mixes adjudicated draws into ab's wins: an SPRT needs
	// a record with variance.
	res := run(t, Config{Players: []string{"ab:depth=1", "random"}, Games: 400, PlyCap: 16, SPRT: &sprt, Concurrency: 2})
	if res.SPRT == nil || res.SPRT.Decision == SPRTContinue {
		t.Fatalf("SPRT: %+v", res.SPRT)
	}
	if len(res.Games) >= res.Planned || len(res.Games) > 100 {
		t.Errorf("SPRT decided but %d of %d games were played", len(res.Games), res.Planned)
	}
	t.Logf("%s after %d games, LLR %.2f", res.SPRT.Decision, len(res.Games), res.SPRT.LLR)

	// The verdict is in the JSON, as cutechess reports it: the test, the
	// LLR against its bounds, and the decision.
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		SPRT map[string]any `json:"sprt"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	lo, hi := sprt.Bounds()
	round := func(v float64) float64 { return math.Round(v*1000) / 1000 }
	want := map[string]any{"elo0": 0.0, "elo1": 200.0, "alpha": 0.05, "beta": 0.05,
		"llr": round(res.SPRT.LLR), "lower": round(lo), "upper": round(hi), "decision": map[SPRTDecision]string{SPRTAcceptH0: "H0", SPRTAcceptH1: "H1"}[res.SPRT.Decision]}
	if !reflect.DeepEqual(doc.SPRT, want) {
		t.Errorf("JSON sprt = %v, want %v", doc.SPRT, want)
	}
}

func TestBadConfigFailsBeforeAnyGame(t *testing.T) {
	played := 0
	onGame := func(GameRecord) { played++ }
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"unknown kind", Config{Players: []string{"ab:depth=1", "stockfish"}}, `unknown kind "stockfish"`},
		{"bad option", Config{Players: []string{"ab:depth=1", "ab:dpth=2"}}, `unknown option "dpth"`},
		{"one player", Config{Players: []string{"random"}}, "two players"},
		{"same name", Config{Players: []string{"random", "random"}}, "given twice"},
		{"sprt needs two", Config{Players: []string{"random", "ab", "ab:depth=1"}, SPRT: &SPRT{0, 10, 0.05, 0.05}}, "two players"},
		{"anchor", Config{Players: []string{"random", "ab"}, Anchor: "x"}, "anchor"},
		{"missing engine", Config{Players: []string{"random", "uci:/no/such/engine"}}, "cannot start"},
		{"negative move time", Config{Players: []string{"random", "ab"}, MoveTime: -time.Second}, "limits must be ≥ 0"},
		{"negative clock", Config{Players: []string{"random", "ab"}, TimeControl: clock.Control{Base: -time.Second}}, "limits must be ≥ 0"},
		{"increment without a clock", Config{Players: []string{"random", "ab"}, TimeControl: clock.Control{Inc: time.Second}}, "increment needs a base time"},
		{"moves per period", Config{Players: []string{"random", "ab"}, TimeControl: clock.Control{Base: time.Minute, Moves: 40}}, "moves per period are not supported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Games = 2
			tt.cfg.OnGame = onGame
			_, err := Run(context.Background(), tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	if played != 0 {
		t.Errorf("%d games played despite bad configurations", played)
	}
}

func TestUCIEnginePlays(t *testing.T) {
	var log bytes.Buffer
	res := run(t, Config{Players: []string{fakeSpec(t, "first"), "random"}, Games: 4, PlyCap: 60, Concurrency: 1, Log: &log})
	n := terminations(res)
	if len(res.Games) != 4 || n[TermIllegal]+n[TermFailure]+n[TermTime] != 0 {
		t.Errorf("games %d, terminations %v, log:\n%s", len(res.Games), n, log.String())
	}
	// From a FEN opening the engine gets "position fen …" and must still
	// follow the game.
	openings, err := ReadOpenings(strings.NewReader("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1\n"), "fen", env.Alice)
	if err != nil {
		t.Fatal(err)
	}
	res = run(t, Config{Players: []string{fakeSpec(t, "options") + ",Hash=32", "ab:depth=1"}, Games: 2, PlyCap: 40, Openings: openings, Concurrency: 1, Log: &log})
	if n := terminations(res); n[TermIllegal]+n[TermFailure] != 0 {
		t.Errorf("terminations %v, log:\n%s", n, log.String())
	}
	// An engine's error lines during the games go to the log, named; a
	// set-up without errors starts (badnet with no Weights set).
	log.Reset()
	spec := fakeSpec(t, "moaning")
	run(t, Config{Players: []string{spec, fakeSpec(t, "badnet")}, Games: 2, PlyCap: 4, Concurrency: 1, Log: &log})
	if !strings.Contains(log.String(), spec+": info string error the hash is too small\n") {
		t.Errorf("the engine's error lines are not in the log:\n%s", log.String())
	}
}

func TestUCIEngineFailuresLoseGamesOnly(t *testing.T) {
	tests := []struct {
		mode     string
		moveTime time.Duration
		tc       clock.Control
		want     Termination
	}{
		{"illegal", 0, clock.Control{}, TermIllegal},
		{"crash", 0, clock.Control{}, TermFailure},
		{"slow", 50 * time.Millisecond, clock.Control{}, TermTime},
		{"slow", 0, clock.Control{Base: 200 * time.Millisecond, Inc: 10 * time.Millisecond}, TermTime},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			var log bytes.Buffer
			spec := fakeSpec(t, tt.mode)
			// The margin is wide so that the reference player never loses
			// on time on a busy machine; the slow engine answers after 3 s.
			res := run(t, Config{Players: []string{"ab:depth=1", spec}, Games: 2, MoveTime: tt.moveTime, TimeControl: tt.tc, TimeMargin: time.Second, Log: &log})
			if len(res.Games) != 2 {
				t.Fatalf("%d games, want 2: the match must go on after a failure", len(res.Games))
			}
			for _, g := range res.Games {
				loser := g.Black
				if g.Result == env.BlackWins {
					loser = g.White
				}
				if g.Termination != tt.want || res.Players[loser] != spec || g.Game.Tag("Termination") != string(tt.want) {
					t.Errorf("game %d: %v, %v (loser %s)", g.Number, g.Result, g.Termination, res.Players[loser])
				}
			}
			if p := res.Pairings[0]; p.Wins != 2 || p.Forfeit != 2 {
				t.Errorf("pairing %+v", p)
			}
			if !strings.Contains(log.String(), string(tt.want)) {
				t.Errorf("failure not logged:\n%s", log.String())
			}
		})
	}
}

func TestUCIEngineStartErrors(t *testing.T) {
	tests := []struct {
		spec    string
		timeout time.Duration
		want    string
	}{
		{fakeSpec(t, "silent"), 300 * time.Millisecond, "did not answer uciok within 300ms"},
		{fakeSpec(t, "nocombo"), time.Minute, `does not play variant "alice"`},
		{fakeSpec(t, "options") + ",Threads=2", time.Minute, `has no option "Threads"`},
		// An engine that reports an error while it sets up plays as
		// something else than its spec says: the match does not start.
		{fakeSpec(t, "badnet") + ",Weights=/x.azck", time.Minute, `failed its set-up: weights: /x.azck does not exist`},
		// The arena sets UCI_Variant itself: another variant in the spec
		// is refused, not sent after the arena's.
		{fakeSpec(t, "options") + ",UCI_Variant=alice-3", time.Minute, "option UCI_Variant=alice-3, but the match plays alice"},
		{"uci:", time.Minute, "needs an engine command"},
	}
	for _, tt := range tests {
		start := time.Now()
		_, err := Run(context.Background(), Config{Players: []string{"random", tt.spec}, Games: 2, StartTimeout: tt.timeout})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.spec, err, tt.want)
		}
		if el := time.Since(start); tt.timeout < time.Minute && el > 5*time.Second {
			t.Errorf("%s: failing took %v", tt.spec, el)
		}
	}
}

func TestPositionAndGoCommands(t *testing.T) {
	pos := env.NewPosition(env.Alice)
	if got := positionCommand(pos); got != "position startpos" {
		t.Errorf("start: %q", got)
	}
	if _, err := pos.PlayUCI([]string{"e2e4", "d7d5"}); err != nil {
		t.Fatal(err)
	}
	if got := positionCommand(pos); got != "position startpos moves e2e4 d7d5" {
		t.Errorf("after moves: %q", got)
	}
	fen := "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
	pos, _ = env.ParseFEN(fen, env.Alice)
	if _, err := pos.PlayUCI([]string{"e2e4"}); err != nil {
		t.Fatal(err)
	}
	if got := positionCommand(pos); got != "position fen "+fen+" moves e2e4" {
		t.Errorf("fen: %q", got)
	}
	gos := []struct {
		l    clock.Limits
		want string
	}{
		{clock.Limits{Nodes: 800}, "go nodes 800"},
		{clock.Limits{MoveTime: 250 * time.Millisecond}, "go movetime 250"},
		{clock.Limits{WTime: 10 * time.Second, BTime: 9 * time.Second, WInc: 100 * time.Millisecond, BInc: 100 * time.Millisecond}, "go wtime 10000 btime 9000 winc 100 binc 100"},
		{clock.Limits{}, "go movetime 1000"},
	}
	for _, g := range gos {
		if got := goCommand(g.l); got != g.want {
			t.Errorf("%+v: %q, want %q", g.l, got, g.want)
		}
	}
}

func TestSplitCommandLine(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"/bin/engine", []string{"/bin/engine"}},
		{"  engine  -x  --y=2 ", []string{"engine", "-x", "--y=2"}},
		{`'/my dir/engine' "a b" c\ d`, []string{"/my dir/engine", "a b", "c d"}},
		{`""`, []string{""}},
	}
	for _, tt := range tests {
		got, err := splitCommandLine(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: %q, %v", tt.in, got, err)
		}
	}
	if _, err := splitCommandLine(`"open`); err == nil {
		t.Error("unterminated quote accepted")
	}
}

func TestParseFormat(t *testing.T) {
	if f, err := ParseFormat("round-robin"); err != nil || f != RoundRobin {
		t.Errorf("round-robin: %v %v", f, err)
	}
	if _, err := ParseFormat("swiss"); err == nil {
		t.Error("swiss accepted")
	}
}
