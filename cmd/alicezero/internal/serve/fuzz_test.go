package serve

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzAPI sends arbitrary bodies to the endpoints that read one: the
// server must answer every one with JSON, and never with a 5xx.
func FuzzAPI(f *testing.F) {
	seeds := []struct {
		path, body string
	}{
		{"/api/game/move", `{"move":"e4"}`},
		{"/api/game/move", `{"move":"e8=Q+"}`},
		{"/api/game/new", `{"fen":"4k3/8/8/8/8/8/8/4|K2R w - - 0 1"}`},
		{"/api/game/new", `{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1","variant":"alice-ep"}`},
		{"/api/game/undo", `{"plies":3}`},
		{"/api/game/load", `{"pgn":"1. e4 d5 (1... e5) {c} 2. Nf3 $1 *","ply":2}`},
		{"/api/game/load", `{"fen":"startpos","moves":["e4","e5","Ke2"]}`},
		{"/api/position", `{"fen":"8/8/8/8/8/8/8/8 w - - 0 1","from":"a1"}`},
		{"/api/pgn", `{"pgn":"[Event \"x\"]\n1. e4 ((e5) *","game":0}`},
		{"/api/search", `{"kind":"review","pgn":"1. e4 *","visits":1}`},
		{"/api/search", `{"fen":"k7/8/8/8/8/8/8/K6R b - - 0 1","visits":1}`},
		{"/api/game/move", `{"move":null}`},
		{"/api/game/load", `{"pgn":"\u0000[[[[","game":1e9}`},
		{"/api/game/new", `{"time_control":"3+2"}`},
		{"/api/game/new", `{"time_control":"1e400+0"}`},
		{"/api/game/load", `{"fen":"startpos","time_control":"0.5+180"}`},
		{"/api/search", `{"kind":"play","visits":1}`},
	}
	for i, s := range seeds {
		f.Add(uint8(i), []byte(s.body))
	}
	paths := []string{"/api/game/move", "/api/game/new", "/api/game/undo", "/api/game/load", "/api/position", "/api/pgn", "/api/search"}
	fl := &fakeLoader{steps: 1}
	s, err := New(Options{Load: fl.load, MaxVisits: 10, MaxTime: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	h := s.Handler()
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		path := paths[int(which)%len(paths)]
		for _, p := range seeds {
			if int(which) < len(seeds) && p == seeds[which] {
				path = p.path
			}
		}
		r := httptest.NewRequest("POST", path, bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code >= 500 {
			t.Fatalf("%s %q: status %d: %s", path, body, w.Code, w.Body)
		}
		if !json.Valid(w.Body.Bytes()) {
			t.Fatalf("%s %q: not JSON: %s", path, body, w.Body)
		}
		if w.Code != http.StatusOK && w.Code != http.StatusAccepted {
			var e errorBody
			if json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Error == "" {
				t.Fatalf("%s %q: status %d without an error message: %s", path, body, w.Code, w.Body)
			}
		}
	})
}
