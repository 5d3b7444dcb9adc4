package serve

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

func TestSearchPlayMovesInTheGame(t *testing.T) {
	fl := &fakeLoader{steps: 3}
	c := newClient(t, newTestServer(t, Options{}, fl))
	var g gameJSON
	c.call("POST", "/api/game/move", map[string]any{"move": "e4"}, http.StatusOK, &g)
	var sj searchJSON
	c.call("POST", "/api/search", map[string]any{"kind": "play", "visits": 50}, http.StatusAccepted, &sj)
	if sj.ID == "" || sj.Kind != "play" || sj.Weights != "default" {
		t.Fatalf("search %+v", sj)
	}
	evs := c.events(sj.ID)
	names := []string{}
	for _, ev := range evs {
		names = append(names, ev.name)
	}
	got := strings.Join(names, " ")
	// Two progress reports coalesce when the reader is slower than the
	// engine, so count at least one.
	if !strings.HasPrefix(got, "queued state engine info") || !strings.HasSuffix(got, "done") {
		t.Fatalf("events %s", got)
	}
	d := doneOf(t, evs)
	// The fake engine plays the first move in UCI order: a7a5.
	if d.State != "done" || d.Played == nil || d.Played.UCI != "a7a5" || d.Game == nil || d.Game.Ply != 2 || d.Stale {
		t.Fatalf("done %+v", d)
	}
	if d.Info == nil || !d.Info.Final || d.Info.Best.SAN != "a5" || len(d.Info.PV) != 1 || len(d.Info.Top) != 3 || d.Info.Side != "black" {
		t.Fatalf("final info %+v", d.Info)
	}
	if d.Info.Top[0].Share < d.Info.Top[1].Share || d.Info.Top[0].ToBoard != "B" {
		t.Errorf("top moves %+v", d.Info.Top)
	}
	// The fake's root moves hold 60 visits, more than the 30 it searched:
	// the tree's count is said.
	if d.Info.Nodes != 30 || d.Info.TreeVisits != 60 {
		t.Errorf("%d visits, %d in the tree; want 30 and 60", d.Info.Nodes, d.Info.TreeVisits)
	}
	if w := d.Info.WDL; w[0] != 0.5 || d.Info.Value != 0.3 || d.Info.WhiteValue != -0.3 {
		t.Errorf("wdl %v value %v white value %v", w, d.Info.Value, d.Info.WhiteValue)
	}
	c.call("GET", "/api/game", nil, http.StatusOK, &g)
	if g.Ply != 2 || g.LastMove.UCI != "a7a5" {
		t.Fatalf("game after the engine's move: ply %d last %+v", g.Ply, g.LastMove)
	}
	// The stream replays from the start for a late reader, and resumes
	// after Last-Event-ID.
	if again := c.events(sj.ID); len(again) != len(evs) {
		t.Errorf("replay: %d events, first time %d", len(again), len(evs))
	}
	var st searchJSON
	c.call("GET", "/api/search/"+sj.ID, nil, http.StatusOK, &st)
	if st.State != "done" || st.Info == nil || !st.Info.Final {
		t.Errorf("status %+v", st)
	}
	if got := fl.weightsLoaded(); len(got) != 1 || got[0] != PlainWeights {
		t.Errorf("loaded %q, want the default (plain search)", got)
	}
}

func TestSearchStaleMoveIsNotPlayed(t *testing.T) {
	gate := make(chan struct{})
	fl := &fakeLoader{steps: 1, gate: gate}
	c := newClient(t, newTestServer(t, Options{}, fl))
	var sj searchJSON
	c.call("POST", "/api/search", map[string]any{"kind": "play"}, http.StatusAccepted, &sj)
	// The visitor moves for White meanwhile: the engine's move, found for
	// the start position, must not be played.
	var g gameJSON
	c.call("POST", "/api/game/move", map[string]any{"move": "d4"}, http.StatusOK, &g)
	close(gate)
	d := doneOf(t, c.events(sj.ID))
	if !d.Stale || d.Played != nil {
		t.Fatalf("done %+v", d)
	}
	c.call("GET", "/api/game", nil, http.StatusOK, &g)
	if g.Ply != 1 {
		t.Fatalf("ply %d, want 1", g.Ply)
	}
}

func TestSearchAnalyseStop(t *testing.T) {
	fl := &fakeLoader{steps: 1000, delay: 5 * time.Millisecond}
	c := newClient(t, newTestServer(t, Options{}, fl))
	var sj searchJSON
	c.call("POST", "/api/search", map[string]any{"fen": "startpos", "moves": []string{"e4", "e5"}, "movetime_ms": 30000}, http.StatusAccepted, &sj)
	time.Sleep(30 * time.Millisecond)
	c.call("POST", "/api/search/"+sj.ID+"/stop", nil, http.StatusOK, nil)
	d := doneOf(t, c.events(sj.ID))
	if d.State != "stopped" || d.Info == nil || d.Played != nil || d.Info.Side != "white" {
		t.Fatalf("done %+v", d)
	}
	// An analysis leaves the game alone.
	var g gameJSON
	c.call("GET", "/api/game", nil, http.StatusOK, &g)
	if g.Ply != 0 {
		t.Errorf("the game moved: ply %d", g.Ply)
	}
	// A new search stops the visitor's running one.
	var a, b searchJSON
	c.call("POST", "/api/search", map[string]any{"movetime_ms": 30000}, http.StatusAccepted, &a)
	c.call("POST", "/api/search", map[string]any{"visits": 10}, http.StatusAccepted, &b)
	if d := doneOf(t, c.events(a.ID)); d.State != "stopped" {
		t.Errorf("first search: %s", d.State)
	}
	if d := doneOf(t, c.events(b.ID)); d.State == "failed" {
		t.Errorf("second search failed: %s", d.Error)
	}
}

func TestSearchQueueIsBounded(t *testing.T) {
	gate := make(chan struct{})
	fl := &fakeLoader{steps: 1, gate: gate}
	ts := newTestServer(t, Options{Searchers: 1, Queue: 2}, fl)
	// Each visitor has one search; the worker holds the first, the queue
	// the next two, and the fourth is refused.
	var last *client
	var lastID string
	for i := range 3 {
		c := newClient(t, ts)
		var sj searchJSON
		c.call("POST", "/api/search", map[string]any{"visits": 10}, http.StatusAccepted, &sj)
		if i == 0 {
			// Wait until the worker has taken it, so that the queue is empty.
			deadline := time.Now().Add(5 * time.Second)
			for sj.State != "running" && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
				c.call("GET", "/api/search/"+sj.ID, nil, http.StatusOK, &sj)
			}
		}
		last, lastID = c, sj.ID
	}
	newClient(t, ts).fails("POST", "/api/search", map[string]any{"visits": 10}, http.StatusServiceUnavailable, "busy")
	// A refused search leaves the visitor's queued one alone.
	last.fails("POST", "/api/search", map[string]any{"visits": 10}, http.StatusServiceUnavailable, "busy")
	close(gate)
	if d := doneOf(t, last.events(lastID)); d.State != "done" {
		t.Errorf("the queued search ended %s", d.State)
	}
}

func TestSearchReview(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	var sj searchJSON
	c.call("POST", "/api/search", map[string]any{"kind": "review", "pgn": "1. e3 d6 2. Bc4 c5 3. Bb5# 1-0", "visits": 8}, http.StatusAccepted, &sj)
	evs := c.events(sj.ID)
	var plies []plyJSON
	for _, ev := range evs {
		if ev.name == "ply" {
			var p plyJSON
			if err := json.Unmarshal([]byte(ev.data), &p); err != nil {
				t.Fatal(err)
			}
			plies = append(plies, p)
		}
	}
	if len(plies) != 6 {
		t.Fatalf("%d ply events, want 6: %v", len(plies), evs)
	}
	for i, p := range plies {
		if p.Ply != i {
			t.Errorf("event %d is ply %d", i, p.Ply)
		}
	}
	// The fake engine says 0.5/0.3/0.2 for the side to move.
	if plies[0].WhiteValue != 0.3 || plies[1].WhiteValue != -0.3 || plies[0].Best == nil {
		t.Errorf("plies 0, 1: %+v %+v", plies[0], plies[1])
	}
	if last := plies[5]; last.Status != "checkmate" || last.WhiteValue != 1 || last.Nodes != 0 {
		t.Errorf("mate: %+v", last)
	}
	if d := doneOf(t, evs); d.State != "done" {
		t.Errorf("done %+v", d)
	}
	// The session's game is reviewed from its set-up position.
	c.call("POST", "/api/game/move", map[string]any{"move": "e4"}, http.StatusOK, nil)
	c.call("POST", "/api/search", map[string]any{"kind": "review", "visits": 8}, http.StatusAccepted, &sj)
	n := 0
	for _, ev := range c.events(sj.ID) {
		if ev.name == "ply" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("review of the game: %d plies, want 2", n)
	}
}

func TestSearchBadRequests(t *testing.T) {
	fl := &fakeLoader{}
	c := newClient(t, newTestServer(t, Options{MaxVisits: 1000, MaxTime: 10 * time.Second}, fl))
	for _, tc := range []struct {
		body   any
		status int
		frag   string
	}{
		{map[string]any{"kind": "ponder"}, 400, "kind"},
		{map[string]any{"visits": -1}, 400, "visits"},
		{map[string]any{"visits": 1001}, 400, "1..1000"},
		{map[string]any{"movetime_ms": 10001}, 400, "movetime_ms"},
		{map[string]any{"fen": "xx"}, 400, "fen"},
		{map[string]any{"moves": []string{"e5"}}, 400, "move 1"},
		{map[string]any{"kind": "play", "fen": "startpos"}, 400, "session's game"},
		{map[string]any{"pgn": "1. e4 *"}, 400, "review"},
		{map[string]any{"kind": "review", "pgn": "1. e4 e4 *"}, 400, "pgn"},
		{map[string]any{"weights": "/etc/passwd"}, 400, "weights"},
		{map[string]any{"weights": "run:x"}, 404, "runs-dir"},
		{map[string]any{"fen": "k6|R/8/1K6/8/8/8/8/8 b - - 1 1"}, 400, "stalemate"},
		{`{"visits": "many"}`, 400, "visits"},
	} {
		c.fails("POST", "/api/search", tc.body, tc.status, tc.frag)
	}
	c.fails("GET", "/api/search/nope", nil, 404, "nope")
	c.fails("GET", "/api/search/nope/events", nil, 404)
	c.fails("POST", "/api/search/nope/stop", nil, 404)
	// A search is its session's only: another visitor cannot see it.
	var sj searchJSON
	c.call("POST", "/api/search", map[string]any{"visits": 5}, http.StatusAccepted, &sj)
	newClient(t, c.ts()).fails("GET", "/api/search/"+sj.ID, nil, 404)
	if len(fl.weightsLoaded()) > 1 {
		t.Errorf("loaded %q", fl.weightsLoaded())
	}
}

func TestSearchEngineFailures(t *testing.T) {
	dir := makeRun(t, "broken-run", 2)
	c := newClient(t, newTestServer(t, Options{RunsDir: dir}, nil))
	var sj searchJSON
	// The fake loader refuses weights whose path says "broken".
	c.call("POST", "/api/search", map[string]any{"weights": "run:broken-run", "visits": 5}, http.StatusAccepted, &sj)
	if d := doneOf(t, c.events(sj.ID)); d.State != "failed" || !strings.Contains(d.Error, "truncated") {
		t.Fatalf("done %+v", d)
	}
	// The engine's panic fails the search, not the server.
	c.call("POST", "/api/search", map[string]any{"kind": "analyse", "fen": panicFEN, "visits": 5}, http.StatusAccepted, &sj)
	if d := doneOf(t, c.events(sj.ID)); d.State != "failed" || !strings.Contains(d.Error, "internal error") {
		t.Fatalf("done %+v", d)
	}
	c.call("GET", "/api/game", nil, http.StatusOK, nil)
}

// With the alpha-beta, the visits asked for are as long a search in its
// nodes; an analysis searches several lines, the searches that play or
// evaluate one; the reports say which search made them.
func TestSearchesOfTheAlphaBeta(t *testing.T) {
	fl := &fakeLoader{steps: 1, reachLimit: true, kind: engine.SearchAlphaBeta}
	c := newClient(t, newTestServer(t, Options{}, fl))
	for i, tc := range []struct {
		body  map[string]any
		lines int
	}{
		{map[string]any{"kind": "analyse", "visits": 10}, analysisLines},
		{map[string]any{"kind": "play", "visits": 10}, 1},
		{map[string]any{"kind": "analyse", "visits": 10}, analysisLines},
		{map[string]any{"kind": "review", "pgn": "1. e3 d6 *", "visits": 10}, 1},
	} {
		var sj searchJSON
		c.call("POST", "/api/search", tc.body, http.StatusAccepted, &sj)
		evs := c.events(sj.ID)
		var e struct{ Search string }
		for _, ev := range evs {
			if ev.name == "engine" {
				if err := json.Unmarshal([]byte(ev.data), &e); err != nil {
					t.Fatal(err)
				}
			}
		}
		d := doneOf(t, evs)
		lims := fl.limits()
		if e.Search != engine.SearchAlphaBeta || lims[len(lims)-1].Nodes != 10*engine.NodesPerVisit {
			t.Errorf("search %d %v: the engine event says %q, the engine searched %+v", i, tc.body, e.Search, lims[len(lims)-1])
		}
		if got := fl.engines[0].Options().MultiPV; len(fl.engines) != 1 || got != tc.lines {
			t.Errorf("search %d %v: %d engines, MultiPV %d, want %d", i, tc.body, len(fl.engines), got, tc.lines)
		}
		if tc.body["kind"] == "review" {
			continue
		}
		if d.Info == nil || d.Info.Search != engine.SearchAlphaBeta || d.End == nil || d.End.Text != "the 10 visits asked for were reached" {
			t.Errorf("search %d %v: done %+v, info %+v, end %+v", i, tc.body, d, d.Info, d.End)
		}
	}
}

// The page's top moves: the tree's most visited first (of as many
// visits, the better first); the alpha-beta's lines, which have no
// visits, in the order the search ranked them, whatever their values
// (a cut iteration's lines stand before older, shallower ones).
func TestTopMovesRanked(t *testing.T) {
	p := env.NewPosition(env.Alice)
	move := func(uci string) env.Move {
		m, err := p.ParseUCI(uci)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, tc := range []struct {
		name     string
		search   string
		children []mcts.ChildStat
		want     string
	}{
		{"the tree", engine.SearchMCTS, []mcts.ChildStat{
			{Move: move("a2a3"), Visits: 5, Q: 0.9},
			{Move: move("b2b3"), Visits: 20, Q: 0.1},
			{Move: move("c2c3"), Visits: 20, Q: 0.2},
			{Move: move("d2d3")},
		}, "c2c3 b2b3 a2a3 d2d3"},
		{"the alpha-beta's lines", engine.SearchAlphaBeta, []mcts.ChildStat{
			{Move: move("a2a3"), Q: 0.1, PV: []env.Move{move("a2a3")}},
			{Move: move("b2b3"), Q: -1, MateIn: -2, PV: []env.Move{move("b2b3")}},
			{Move: move("c2c3"), Q: -1, MateIn: -5, PV: []env.Move{move("c2c3")}},
			{Move: move("d2d3"), Q: 0.3, PV: []env.Move{move("d2d3")}},
			{Move: move("e2e3"), Q: 1, MateIn: 3, PV: []env.Move{move("e2e3")}},
			{Move: move("f2f3"), Q: 1, MateIn: 1, PV: []env.Move{move("f2f3")}},
		}, "a2a3 b2b3 c2c3 d2d3 e2e3 f2f3"},
	} {
		js := describeInfo(p, mcts.Info{Children: tc.children}, tc.search)
		var got []string
		for _, m := range js.Top {
			got = append(got, m.UCI)
			if lined := len(m.Line) == 1 && m.Line[0].UCI == m.UCI; lined != (tc.search == engine.SearchAlphaBeta) {
				t.Errorf("%s: %s has the line %v", tc.name, m.UCI, m.Line)
			}
		}
		if strings.Join(got, " ") != tc.want || js.Search != tc.search {
			t.Errorf("%s: top moves %v by %q, want %s", tc.name, got, js.Search, tc.want)
		}
	}
}
