package serve

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
)

// Every search's last event says why it ended, whatever the reason.
func TestSearchEndSaysWhy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fl     *fakeLoader
		search map[string]any
		reason string
		text   string
	}{
		{"visits reached", &fakeLoader{steps: 3, reachLimit: true}, map[string]any{"visits": 50}, endVisits, "the 50 visits asked for were reached"},
		{"time reached", &fakeLoader{steps: 3, delay: 150 * time.Millisecond}, map[string]any{"movetime_ms": 400}, endTime, "the 0.4 s asked for were reached"},
		{"ended before its visits", &fakeLoader{steps: 1}, map[string]any{"visits": 50}, endEarly,
			"the engine ended it before its limit (50 visits asked for), after 10 visits in 0.0 s"},
		{"ended before its time", &fakeLoader{steps: 1}, map[string]any{"movetime_ms": 20000}, endEarly, "before its limit (20 s asked for), after 10 visits in"},
		{"a mate found", &fakeLoader{steps: 1, mateIn: -2}, map[string]any{"visits": 50}, endMate, "a forced mate was found: Black mates in 2"},
		{"the engine fails", nil, map[string]any{"fen": panicFEN, "visits": 5}, endError, "internal error in the engine"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, newTestServer(t, Options{}, tc.fl))
			var sj searchJSON
			c.call("POST", "/api/search", tc.search, http.StatusAccepted, &sj)
			d := doneOf(t, c.events(sj.ID))
			if d.End == nil || d.End.Reason != tc.reason || !strings.Contains(d.End.Text, tc.text) {
				t.Errorf("done %+v, end %+v; want %s: %q", d, d.End, tc.reason, tc.text)
			}
		})
	}
}

// A search stopped says by what: the visitor, a newer search, the game's
// change.
func TestSearchStoppedSaysBy(t *testing.T) {
	fl := &fakeLoader{steps: 1, gate: make(chan struct{})}
	c := newClient(t, newTestServer(t, Options{}, fl))
	start := func(body map[string]any) string {
		t.Helper()
		var sj searchJSON
		c.call("POST", "/api/search", body, http.StatusAccepted, &sj)
		return sj.ID
	}
	wantStopped := func(id, text string) {
		t.Helper()
		d := doneOf(t, c.events(id))
		if d.State != stateStopped || d.End == nil || d.End.Reason != endStopped || d.End.Text != text {
			t.Errorf("done %+v, end %+v; want stopped: %q", d, d.End, text)
		}
	}

	id := start(map[string]any{"visits": 10})
	fl.waitSearches(t, 1)
	c.call("POST", "/api/search/"+id+"/stop", nil, http.StatusOK, nil)
	wantStopped(id, errStopVisitor.Error())

	first := start(map[string]any{"visits": 10})
	fl.waitSearches(t, 2)
	second := start(map[string]any{"visits": 10})
	wantStopped(first, errStopReplaced.Error())

	fl.waitSearches(t, 3)
	c.call("POST", "/api/game/new", map[string]any{}, http.StatusOK, nil)
	wantStopped(second, errStopGame.Error())
}

// A timed game's move ends by the time its clock gives it, or by the
// server's longest move when that is shorter.
func TestSearchEndByClock(t *testing.T) {
	s, err := New(Options{Load: (&fakeLoader{}).load})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	eng, err := (&fakeLoader{}).load(context.Background(), "", env.Alice)
	if err != nil {
		t.Fatal(err)
	}
	clocked := clock.Limits{WTime: 60 * time.Second, BTime: 60 * time.Second, MoveTime: time.Minute, Overhead: 10 * time.Millisecond}
	short := clocked
	short.MoveTime = time.Second
	for _, tc := range []struct {
		lim     clock.Limits
		elapsed time.Duration
		reason  string
		text    string
	}{
		{clocked, 1990 * time.Millisecond, endClock, "the 2.0 s its clock gave this move were spent"},
		{clocked, 300 * time.Millisecond, endEarly, "(2.0 s by its clock asked for), after 0 visits in 0.3 s"},
		{short, 995 * time.Millisecond, endTime, "the 1 s asked for were reached"},
	} {
		sr := newSearch(context.Background(), nil, kindPlay)
		sr.root = env.NewPosition(env.Alice)
		end := s.searchEnd(sr, sr.ctx, eng, tc.lim, searched{Info: mcts.Info{Elapsed: tc.elapsed}})
		if end.Reason != tc.reason || !strings.Contains(end.Text, tc.text) {
			t.Errorf("%+v after %v: %+v; want %s: %q", tc.lim, tc.elapsed, end, tc.reason, tc.text)
		}
	}
}
