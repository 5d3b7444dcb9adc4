package serve

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

func TestParseTimeControl(t *testing.T) {
	for _, tc := range []struct {
		in        string
		base, inc time.Duration
		str, pgn  string
	}{
		{"3+2", 3 * time.Minute, 2 * time.Second, "3+2", "180+2"},
		{" 15 + 10 ", 15 * time.Minute, 10 * time.Second, "15+10", "900+10"},
		{"1+0", time.Minute, 0, "1+0", "60+0"},
		{"0.5+0", 30 * time.Second, 0, "0.5+0", "30+0"},
		{"2+0.5", 2 * time.Minute, 500 * time.Millisecond, "2+0.5", "120+0.5"},
		{"180+180", 3 * time.Hour, 3 * time.Minute, "180+180", "10800+180"},
		{"3m+2s", 3 * time.Minute, 2 * time.Second, "3+2", "180+2"},
		{"90s+1", 90 * time.Second, time.Second, "1.5+1", "90+1"},
	} {
		got, err := parseTimeControl(tc.in)
		if err != nil || got == nil {
			t.Errorf("%q: %v, %v", tc.in, got, err)
			continue
		}
		if str := clock.Lobby.Format(*got); got.Base != tc.base || got.Inc != tc.inc || str != tc.str || got.PGN() != tc.pgn {
			t.Errorf("%q: base %v inc %v, written %q and %q; want %v, %v, %q, %q", tc.in, got.Base, got.Inc, str, got.PGN(), tc.base, tc.inc, tc.str, tc.pgn)
		}
	}
	for _, in := range []string{"", "none", " None "} {
		if got, err := parseTimeControl(in); got != nil || err != nil {
			t.Errorf("%q: %v, %v; want no clock", in, got, err)
		}
	}
	for _, tc := range []struct{ in, frag string }{
		{"3", "no increment"},
		{"fast", "no increment"},
		{"3+", "no increment after the +"},
		{"+2", "no base"},
		{"a+b", `base "a" is neither`},
		{"-1+0", `base "-1" is negative`},
		{"1+-1", `increment "-1" is negative`},
		{"0+0", "base must lie"},
		{"0.01+0", "base must lie"},
		{"181+0", "base must lie"},
		{"1000001+0", "too long"},
		{"1e9+0", `base "1e9" is neither`},
		{"0x10+0", `base "0x10" is neither`},
		{"Inf+0", `base "Inf" is neither`},
		{"NaN+0", `base "NaN" is neither`},
		{"1+181", "increment must lie"},
		{"1+2+3", `increment "2+3" is neither`},
		{"1.2.3+0", `base "1.2.3" is neither`},
		{"３+2", `base "３" is neither`},
		{".+0", `base "." is neither`},
		{"40/5+0", "moves per period are not supported"},
	} {
		_, err := parseTimeControl(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.frag) || !strings.Contains(err.Error(), "time_control") || !strings.Contains(err.Error(), "e.g. 3+2") {
			t.Errorf("%q: error %v, want one about %q with an example", tc.in, err, tc.frag)
		}
	}
}

func TestClockLimitsForTheEngine(t *testing.T) {
	s := &Server{opts: Options{MaxTime: time.Minute, DefaultVisits: 400}}
	if l := s.limits(0, 0, false); l.Infinite || l.Nodes != 400 {
		t.Errorf("no limit: %+v, want the default visits", l)
	}
	if l := s.limits(10, 0, false); l.Infinite || l.Nodes != 10 {
		t.Errorf("visits: %+v", l)
	}
	if l := s.limits(0, 0, true); l.Infinite || l.MoveTime != time.Minute {
		t.Errorf("clocked: %+v, want the longest move", l)
	}
	got := withClocks(s.limits(0, 5000, true), clock.Limits{WTime: time.Minute, BTime: 2 * time.Minute, WInc: time.Second, BInc: 2 * time.Second, Nodes: 99})
	want := clock.Limits{MoveTime: 5 * time.Second, WTime: time.Minute, BTime: 2 * time.Minute, WInc: time.Second, BInc: 2 * time.Second}
	if got != want {
		t.Errorf("clocked: %+v, want %+v", got, want)
	}
	// Nothing bounds an infinite search but its stop; clocks do.
	if l := withClocks(clock.Limits{Infinite: true}, clock.Limits{WTime: time.Minute, BTime: time.Minute}); l.Infinite || l.Budget(env.White) <= 0 {
		t.Errorf("clock alone: %+v", l)
	}
}

// newClockServer serves a fake engine on a fake clock.
func newClockServer(t *testing.T, fl *fakeLoader) (*client, *fakeClock) {
	t.Helper()
	fc := newFakeClock()
	return newClient(t, newTestServer(t, Options{Now: fc.now}, fl)), fc
}

// callGame sends a request that answers the game, and decodes it afresh
// (decoding into an old one would keep the fields the answer omits).
func callGame(c *client, method, path string, body any) gameJSON {
	c.t.Helper()
	var g gameJSON
	c.call(method, path, body, http.StatusOK, &g)
	return g
}

// checkClocks checks a game's clocks.
func checkClocks(t *testing.T, when string, g gameJSON, white, black time.Duration, running string) {
	t.Helper()
	if g.Clock == nil {
		t.Fatalf("%s: no clock", when)
	}
	if g.Clock.WhiteMS != white.Milliseconds() || g.Clock.BlackMS != black.Milliseconds() || g.Clock.Running != running {
		t.Fatalf("%s: white %d ms, black %d ms, running %q; want %d, %d, %q", when, g.Clock.WhiteMS, g.Clock.BlackMS, g.Clock.Running,
			white.Milliseconds(), black.Milliseconds(), running)
	}
}

func TestClockTimeControlErrors(t *testing.T) {
	c, _ := newClockServer(t, nil)
	var about serverResponse
	c.call("GET", "/api/info", nil, http.StatusOK, &about)
	if !slices.Contains(about.TimeControls, "3+2") {
		t.Errorf("time controls offered: %q", about.TimeControls)
	}
	var g gameJSON
	g = callGame(c, "POST", "/api/game/move", map[string]any{"move": "e4"})
	c.fails("POST", "/api/game/new", map[string]any{"time_control": "fast"}, http.StatusBadRequest, "time_control", "fast")
	c.fails("POST", "/api/game/new", map[string]any{"time_control": "0+0"}, http.StatusBadRequest, "base")
	c.fails("POST", "/api/game/new", map[string]any{"time_control": 3}, http.StatusBadRequest, "time_control")
	c.fails("POST", "/api/game/load", map[string]any{"fen": "startpos", "time_control": "5+x"}, http.StatusBadRequest, "seconds")
	// A refused request leaves the game as it was.
	g = callGame(c, "GET", "/api/game", nil)
	if g.Ply != 1 || g.Clock != nil {
		t.Fatalf("after refused requests: ply %d, clock %+v", g.Ply, g.Clock)
	}
	g = callGame(c, "POST", "/api/game/new", map[string]any{"time_control": "3+2"})
	if g.Ply != 0 || g.Clock.TimeControl != "3+2" || g.Clock.BaseMS != 180000 || g.Clock.IncrementMS != 2000 {
		t.Fatalf("new 3+2: ply %d, clock %+v", g.Ply, g.Clock)
	}
	checkClocks(t, "new 3+2", g, 3*time.Minute, 3*time.Minute, "")
	g = callGame(c, "POST", "/api/game/new", map[string]any{"time_control": "none"})
	if g.Clock != nil {
		t.Fatalf("new untimed: clock %+v", g.Clock)
	}
}

func TestClockRunsForTheSideToMove(t *testing.T) {
	c, fc := newClockServer(t, nil)
	var g gameJSON
	g = callGame(c, "POST", "/api/game/new", map[string]any{"time_control": "1+2"})
	// Nothing runs before the first move, which is free.
	fc.advance(time.Hour)
	g = callGame(c, "GET", "/api/game", nil)
	checkClocks(t, "before the first move", g, time.Minute, time.Minute, "")
	g = callGame(c, "POST", "/api/game/move", map[string]any{"move": "e4"})
	checkClocks(t, "after 1. e4", g, time.Minute, time.Minute, "black")
	// Black thinks 5 s: its clock runs, White's does not.
	fc.advance(5 * time.Second)
	g = callGame(c, "GET", "/api/game", nil)
	checkClocks(t, "Black thinking", g, time.Minute, 55*time.Second, "black")
	g = callGame(c, "POST", "/api/game/move", map[string]any{"move": "e5", "version": g.Version})
	checkClocks(t, "after 1... e5", g, time.Minute, 57*time.Second, "white") // 60 - 5 + 2
	fc.advance(3*time.Second + 250*time.Millisecond)
	g = callGame(c, "POST", "/api/game/move", map[string]any{"move": "d4"})
	checkClocks(t, "after 2. d4", g, 58750*time.Millisecond, 57*time.Second, "black")
	fc.advance(1500 * time.Millisecond)
	g = callGame(c, "GET", "/api/game", nil)
	checkClocks(t, "Black thinking again", g, 58750*time.Millisecond, 55500*time.Millisecond, "black")
	var out pgnResponse
	c.call("GET", "/api/game/pgn", nil, http.StatusOK, &out)
	if !strings.Contains(out.PGN, `[TimeControl "60+2"]`) || strings.Contains(out.PGN, "Termination") || !strings.Contains(out.PGN, `[Result "*"]`) {
		t.Errorf("PGN of a game going on:\n%s", out.PGN)
	}
}

func TestClockEngineSearchesOnItsClock(t *testing.T) {
	gate := make(chan struct{})
	fl := &fakeLoader{steps: 1, gate: gate}
	c, fc := newClockServer(t, fl)
	callGame(c, "POST", "/api/game/new", map[string]any{"time_control": "1+2"})
	callGame(c, "POST", "/api/game/move", map[string]any{"move": "e4"})
	fc.advance(time.Second) // before the engine's search starts: a queue, say
	var sj searchJSON
	c.call("POST", "/api/search", map[string]any{"kind": "play"}, http.StatusAccepted, &sj)
	lim := fl.waitSearches(t, 1)[0]
	want := clock.Limits{WTime: time.Minute, BTime: 59 * time.Second, WInc: 2 * time.Second, BInc: 2 * time.Second}
	if clocks := (clock.Limits{WTime: lim.WTime, BTime: lim.BTime, WInc: lim.WInc, BInc: lim.BInc}); lim.Nodes != 0 || lim.MoveTime != time.Minute || clocks != want {
		t.Fatalf("the engine searched within %+v; want no visits, the server's longest move (1m) and clocks %+v", lim, want)
	}
	fc.advance(4 * time.Second) // the engine thinks
	close(gate)
	d := doneOf(t, c.events(sj.ID))
	if d.State != "done" || d.Played == nil || d.Timeout || d.Game == nil {
		t.Fatalf("done %+v", d)
	}
	checkClocks(t, "after the engine's move", *d.Game, time.Minute, 57*time.Second, "white") // 60 - 1 - 4 + 2

	// Visits the request sets still bound a clocked search.
	callGame(c, "POST", "/api/game/move", map[string]any{"move": "d4"})
	c.call("POST", "/api/search", map[string]any{"kind": "play", "visits": 50}, http.StatusAccepted, &sj)
	lim = fl.waitSearches(t, 2)[1]
	if lim.Nodes != 50 || lim.WTime != time.Minute+2*time.Second || lim.BTime != 57*time.Second {
		t.Fatalf("second search within %+v", lim)
	}
	doneOf(t, c.events(sj.ID))

	// An analysis, even of a timed game, has no clock.
	c.call("POST", "/api/search", map[string]any{"visits": 10}, http.StatusAccepted, &sj)
	doneOf(t, c.events(sj.ID))
	if lim := fl.limits()[2]; lim != (clock.Limits{Nodes: 10}) {
		t.Errorf("analysis within %+v", lim)
	}
}

func TestClockFlagFallLosesTheGame(t *testing.T) {
	c, fc := newClockServer(t, nil)
	var g gameJSON
	g = callGame(c, "POST", "/api/game/new", map[string]any{"time_control": "1+0"})
	g = callGame(c, "POST", "/api/game/move", map[string]any{"move": "e4"})
	fc.advance(time.Second)
	g = callGame(c, "POST", "/api/game/move", map[string]any{"move": "e5"})
	// A millisecond before the flag, the game goes on.
	fc.advance(time.Minute - time.Millisecond)
	g = callGame(c, "GET", "/api/game", nil)
	if g.Status != "ongoing" || g.Clock.WhiteMS != 1 {
		t.Fatalf("a millisecond before the flag: %s, white %d ms", g.Status, g.Clock.WhiteMS)
	}
	fc.advance(time.Millisecond)
	g = callGame(c, "GET", "/api/game", nil)
	if g.Status != statusTimeForfeit || g.Result != "0-1" || g.Clock.Flag != "white" || g.Clock.Running != "" || len(g.Legal) != 0 {
		t.Fatalf("after the flag: status %s result %s clock %+v, %d legal moves", g.Status, g.Result, g.Clock, len(g.Legal))
	}
	checkClocks(t, "after the flag", g, 0, 59*time.Second, "")
	// The clocks stop: time after the flag changes nothing.
	fc.advance(time.Hour)
	g = callGame(c, "GET", "/api/game", nil)
	checkClocks(t, "an hour after the flag", g, 0, 59*time.Second, "")

	c.fails("POST", "/api/game/move", map[string]any{"move": "d4", "version": g.Version}, http.StatusBadRequest, "White's time ran out")
	c.fails("POST", "/api/search", map[string]any{"kind": "play"}, http.StatusBadRequest, "time ran out")
	c.fails("POST", "/api/game/undo", map[string]any{"plies": 2}, http.StatusBadRequest, "time ran out", "new game")
	var lr legalResponse
	c.call("GET", "/api/game/legal?from=d2", nil, http.StatusOK, &lr)
	if len(lr.Moves) != 0 {
		t.Errorf("legal moves after the flag: %+v", lr.Moves)
	}
	var out pgnResponse
	c.call("GET", "/api/game/pgn", nil, http.StatusOK, &out)
	for _, want := range []string{`[Result "0-1"]`, `[TimeControl "60+0"]`, `[Termination "time forfeit"]`, "1. e4 e5 0-1"} {
		if !strings.Contains(out.PGN, want) {
			t.Errorf("PGN lacks %q:\n%s", want, out.PGN)
		}
	}
	// A new game starts afresh.
	g = callGame(c, "POST", "/api/game/new", map[string]any{"time_control": "1+0"})
	if g.Status != "ongoing" || g.Ply != 0 || len(g.Legal) != 20 {
		t.Fatalf("new game: %s, ply %d", g.Status, g.Ply)
	}
	checkClocks(t, "new game", g, time.Minute, time.Minute, "")
}

func TestClockEngineFlagFall(t *testing.T) {
	gate := make(chan struct{})
	fl := &fakeLoader{steps: 1, gate: gate}
	c, fc := newClockServer(t, fl)
	var g gameJSON
	g = callGame(c, "POST", "/api/game/new", map[string]any{"time_control": "1+0"})
	g = callGame(c, "POST", "/api/game/move", map[string]any{"move": "e4"})
	var sj searchJSON
	c.call("POST", "/api/search", map[string]any{"kind": "play"}, http.StatusAccepted, &sj)
	fl.waitSearches(t, 1)
	fc.advance(time.Minute) // the engine overruns its whole clock
	close(gate)
	d := doneOf(t, c.events(sj.ID))
	if !d.Timeout || d.Played != nil || d.Game == nil || d.Game.Status != statusTimeForfeit || d.Game.Result != "1-0" || d.Game.Clock.Flag != "black" {
		t.Fatalf("done %+v (game %+v)", d, d.Game)
	}
	g = callGame(c, "GET", "/api/game", nil)
	if g.Ply != 1 || g.Result != "1-0" {
		t.Fatalf("game after the engine's flag: ply %d result %s", g.Ply, g.Result)
	}
}

func TestClockFlagAgainstALoneKingDraws(t *testing.T) {
	c, fc := newClockServer(t, nil)
	var g gameJSON
	g = callGame(c, "POST", "/api/game/new", map[string]any{"fen": "4k3/8/8/8/8/8/8/RR2K3 w - - 0 1", "time_control": "1+0"})
	g = callGame(c, "POST", "/api/game/move", map[string]any{"move": "Ra2"})
	fc.advance(time.Second)
	g = callGame(c, "POST", "/api/game/move", map[string]any{"move": "Kd8"})
	fc.advance(2 * time.Minute)
	g = callGame(c, "GET", "/api/game", nil)
	if g.Status != statusTimeForfeit || g.Result != "1/2-1/2" || g.Clock.Flag != "white" {
		t.Fatalf("White's flag against a lone king: %s %s %+v", g.Status, g.Result, g.Clock)
	}
}

func TestClockUndoGivesBackNoTime(t *testing.T) {
	c, fc := newClockServer(t, nil)
	var g gameJSON
	g = callGame(c, "POST", "/api/game/new", map[string]any{"time_control": "1+1"})
	g = callGame(c, "POST", "/api/game/move", map[string]any{"move": "e4"})
	fc.advance(2 * time.Second)
	g = callGame(c, "POST", "/api/game/move", map[string]any{"move": "e5"})
	checkClocks(t, "after 1... e5", g, time.Minute, 59*time.Second, "white")
	// White thinks 3 s, then takes Black's move back: the 3 s stay spent,
	// Black's 2 s are not given back, and Black's clock runs again.
	fc.advance(3 * time.Second)
	g = callGame(c, "POST", "/api/game/undo", map[string]any{"plies": 1})
	checkClocks(t, "after undo", g, 57*time.Second, 59*time.Second, "black")
	fc.advance(time.Second)
	g = callGame(c, "GET", "/api/game", nil)
	checkClocks(t, "a second after undo", g, 57*time.Second, 58*time.Second, "black")
	// Back to the set-up position: once started, the clocks keep running.
	g = callGame(c, "POST", "/api/game/undo", map[string]any{"plies": 1})
	checkClocks(t, "at the start again", g, 57*time.Second, 58*time.Second, "white")
	fc.advance(time.Second)
	g = callGame(c, "GET", "/api/game", nil)
	checkClocks(t, "thinking at the start", g, 56*time.Second, 58*time.Second, "white")

	// A mate stops the clocks; the time until the undo is nobody's.
	g = callGame(c, "POST", "/api/game/load", map[string]any{"pgn": "1. e3 d6 2. Bc4 c5 *", "time_control": "1+0"})
	g = callGame(c, "POST", "/api/game/move", map[string]any{"move": "Bb5#"})
	if g.Status != "checkmate" || g.Result != "1-0" {
		t.Fatalf("after Bb5#: %s %s", g.Status, g.Result)
	}
	checkClocks(t, "after the mate", g, time.Minute, time.Minute, "")
	var out pgnResponse
	c.call("GET", "/api/game/pgn", nil, http.StatusOK, &out)
	if !strings.Contains(out.PGN, `[Termination "normal"]`) || !strings.Contains(out.PGN, `[Result "1-0"]`) {
		t.Errorf("PGN of a mate:\n%s", out.PGN)
	}
	fc.advance(10 * time.Second)
	g = callGame(c, "POST", "/api/game/undo", map[string]any{})
	checkClocks(t, "after undoing the mate", g, time.Minute, time.Minute, "white")
	fc.advance(time.Second)
	g = callGame(c, "GET", "/api/game", nil)
	checkClocks(t, "thinking after the undo", g, 59*time.Second, time.Minute, "white")
}
