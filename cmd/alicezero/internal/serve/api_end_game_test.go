package serve

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// A resigned game is over: no move, no take-back, its result in its PGN;
// a new game starts afresh.
func TestGameResign(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	c.call("POST", "/api/game/move", map[string]any{"move": "e4"}, http.StatusOK, nil)
	var g gameJSON
	c.call("POST", "/api/game/resign", map[string]any{"side": "white"}, http.StatusOK, &g)
	if g.Status != statusResigned || g.Result != "0-1" || len(g.Legal) != 0 {
		t.Fatalf("after White resigns: status %s, result %s, %d legal moves", g.Status, g.Result, len(g.Legal))
	}
	c.fails("POST", "/api/game/move", map[string]any{"move": "e5"}, http.StatusBadRequest, "the game is over (White resigned)")
	c.fails("POST", "/api/game/undo", map[string]any{}, http.StatusBadRequest, "White resigned", "start a new game")
	c.fails("POST", "/api/game/resign", map[string]any{}, http.StatusBadRequest, "the game is over")
	c.fails("POST", "/api/search", map[string]any{"kind": "play"}, http.StatusBadRequest, "game is over (White resigned)")
	var pgn pgnResponse
	c.call("GET", "/api/game/pgn", nil, http.StatusOK, &pgn)
	if !strings.Contains(pgn.PGN, `[Result "0-1"]`) || !strings.Contains(pgn.PGN, `[Termination "normal"]`) || !strings.Contains(pgn.PGN, "1. e4 0-1") {
		t.Errorf("the resigned game's PGN:\n%s", pgn.PGN)
	}
	c.call("POST", "/api/game/new", map[string]any{}, http.StatusOK, &g)
	if g.Status != "ongoing" || g.Result != "*" {
		t.Errorf("a new game: %s %s", g.Status, g.Result)
	}
	// Without a side, the side to move resigns.
	c.call("POST", "/api/game/resign", map[string]any{}, http.StatusOK, &g)
	if g.Result != "0-1" {
		t.Errorf("White to move resigns: %s", g.Result)
	}
	c.call("POST", "/api/game/new", map[string]any{}, http.StatusOK, nil)
	c.fails("POST", "/api/game/resign", map[string]any{"side": "red"}, http.StatusBadRequest, `side: want white or black, got "red"`)
}

// Resigning stops the clocks; so does a draw.
func TestGameEndStopsClocks(t *testing.T) {
	fc := newFakeClock()
	c := newClient(t, newTestServer(t, Options{Now: fc.now}, nil))
	c.call("POST", "/api/game/new", map[string]any{"time_control": "1+0"}, http.StatusOK, nil)
	c.call("POST", "/api/game/move", map[string]any{"move": "e4"}, http.StatusOK, nil)
	fc.advance(5 * time.Second)
	var g gameJSON
	c.call("POST", "/api/game/draw", map[string]any{}, http.StatusOK, &g)
	if g.Status != statusDrawAgreed || g.Result != "1/2-1/2" || g.Clock.Running != "" || g.Clock.BlackMS != 55000 {
		t.Fatalf("after the draw: %s %s, clock %+v", g.Status, g.Result, g.Clock)
	}
	fc.advance(time.Minute)
	c.call("GET", "/api/game", nil, http.StatusOK, &g)
	if g.Status != statusDrawAgreed || g.Clock.BlackMS != 55000 || g.Clock.Flag != "" {
		t.Errorf("a minute after the draw: %s, clock %+v", g.Status, g.Clock)
	}
	c.fails("POST", "/api/game/draw", map[string]any{}, http.StatusBadRequest, "a draw was agreed")
}

// The engine answers a draw offer by its evaluation: near level it
// accepts and the game is drawn; else it declines, saying how it rates
// the position, and the game goes on.
func TestDrawOffer(t *testing.T) {
	for _, tc := range []struct {
		name      string
		wdl       [3]float32 // the side to move's, White's here
		offeredBy string
		accepted  bool
		text      string
	}{
		{"level", [3]float32{0.3, 0.45, 0.25}, "white", true, "AliceZero accepts the draw: it rates the position level (-0.05 for Black, within ±0.15)"},
		{"engine better", [3]float32{0.2, 0.3, 0.5}, "white", false, "declines the draw: it rates the position +0.30 for Black, better than level"},
		{"engine worse", [3]float32{0.6, 0.3, 0.1}, "white", false, "it rates the position -0.50 for Black, worse than level, and agrees only to a level one"},
		{"engine White, to move", [3]float32{0.6, 0.3, 0.1}, "black", false, "+0.50 for White"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, newTestServer(t, Options{}, &fakeLoader{steps: 1, wdl: tc.wdl}))
			var sj searchJSON
			c.call("POST", "/api/search", map[string]any{"kind": "draw", "offered_by": tc.offeredBy, "visits": 50}, http.StatusAccepted, &sj)
			d := doneOf(t, c.events(sj.ID))
			if d.Draw == nil || d.Draw.Accepted != tc.accepted || !strings.Contains(d.Draw.Text, tc.text) || d.Draw.Margin != drawMargin {
				t.Fatalf("the answer: %+v; want accepted %v, %q", d.Draw, tc.accepted, tc.text)
			}
			want := "ongoing"
			if tc.accepted {
				want = statusDrawAgreed
			}
			var g gameJSON
			c.call("GET", "/api/game", nil, http.StatusOK, &g)
			if d.Game == nil || d.Game.Status != want || g.Status != want || d.Played != nil || g.Ply != 0 {
				t.Errorf("the game after the answer: %+v (done's %+v), want %s and no move played", g.Status, d.Game, want)
			}
		})
	}
	c := newClient(t, newTestServer(t, Options{}, nil))
	c.fails("POST", "/api/search", map[string]any{"kind": "draw", "offered_by": "both"}, http.StatusBadRequest, "offered_by: want white or black")
	c.fails("POST", "/api/search", map[string]any{"kind": "analyse", "offered_by": "white"}, http.StatusBadRequest, "offered_by is for a draw search")
	c.fails("POST", "/api/search", map[string]any{"kind": "draw", "fen": "startpos"}, http.StatusBadRequest, "a draw search is in the session's game")
}

// A move's capture names the man taken and the board it was taken on,
// and a position each side's material.
func TestMoveNamesCapture(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	var g gameJSON
	for _, m := range []string{"e4", "d5", "Be2", "dxe4"} {
		c.call("POST", "/api/game/move", map[string]any{"move": m}, http.StatusOK, &g)
	}
	lm := g.LastMove
	if lm == nil || !lm.Capture || lm.Captured != "P" || lm.CapturedBoard != "B" || g.Moves[3] != *lm {
		t.Errorf("dxe4: %+v", lm)
	}
	if g.Moves[0].Captured != "" || g.Material != (materialJSON{White: 38, Black: 39}) {
		t.Errorf("e4 %+v, material %+v", g.Moves[0], g.Material)
	}
}
