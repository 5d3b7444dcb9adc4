package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/conc"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/pychess"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/mcts/engine"
)

const testToken = "tok-3f9a-secret"

// accountServer answers /api/account for testToken with the given title
// and accepts the BOT upgrade; it counts the upgrades.
func accountServer(t *testing.T, title string) (*httptest.Server, *int) {
	t.Helper()
	var mu sync.Mutex
	upgrades := 0
	mux := http.NewServeMux()
	auth := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer "+testToken {
				http.Error(w, "403: Forbidden", http.StatusForbidden)
				return
			}
			h(w, r)
		}
	}
	mux.HandleFunc("GET /api/account", auth(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"id":"AliceZeroBot","username":"AliceZeroBot","title":%q}`, title)
	}))
	mux.HandleFunc("POST /api/bot/account/upgrade", auth(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		upgrades++
		mu.Unlock()
		fmt.Fprint(w, `{"ok":true}`)
	}))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &upgrades
}

func TestPychessCommand(t *testing.T) {
	notBot, _ := accountServer(t, "")
	tests := []struct {
		name     string
		env      string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no token", "", []string{"pychess"}, 1, "ALICEZERO_PYCHESS_TOKEN"},
		{"unknown variant", testToken, []string{"pychess", "--variants", "alice,chess"}, 1, `variant "chess"`},
		{"bad time control", testToken, []string{"pychess", "--min-tc", "5"}, 1, "--min-tc"},
		{"slowest below fastest", testToken, []string{"pychess", "--min-tc", "10+0", "--max-tc", "1+0"}, 1, "faster"},
		{"no games", testToken, []string{"pychess", "--max-games", "0"}, 1, "--max-games"},
		{"bad server", testToken, []string{"pychess", "--server", "pychess.org"}, 1, "not an http(s) URL"},
		{"missing weights", testToken, []string{"pychess", "--server", notBot.URL, "--weights", t.TempDir() + "/none"}, 1, "weights"},
		// The token from the environment reaches the server; the account is
		// not a BOT, which the command says.
		{"not a BOT account", testToken, []string{"pychess", "--server", notBot.URL, "--pgn-dir", ""}, 1, "not a BOT account"},
		{"wrong token", "other-token", []string{"pychess", "--server", notBot.URL}, 1, "403"},
		{"stray argument", testToken, []string{"pychess", "extra"}, 2, "Usage"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(pychessTokenEnv, tc.env)
			out, errOut, code := runCLI(t, "", tc.args...)
			if code != tc.wantCode || !strings.Contains(errOut, tc.wantErr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tc.wantCode, tc.wantErr)
			}
			if tc.env != "" && (strings.Contains(errOut, tc.env) || strings.Contains(out, tc.env)) {
				t.Errorf("the token appears in the output: %q", errOut)
			}
		})
	}
}

func TestPychessUpgrade(t *testing.T) {
	srv, upgrades := accountServer(t, "")
	t.Setenv(pychessTokenEnv, "")
	out, errOut, code := runCLI(t, "", "pychess", "--server", srv.URL, "--token", testToken, "--upgrade")
	if code != 0 || !strings.Contains(out, "BOT account") || *upgrades != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q, %d upgrades", code, out, errOut, *upgrades)
	}
}

// The adapter searches on separate engines for games at once, within the
// budget, and answers legal moves with a value.
func TestEnginePoolMoves(t *testing.T) {
	pool := &enginePool{}
	if err := pool.start(2, engine.Options{}); err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	games := [][]string{nil, {"e2e4", "d7d5", "f1e2"}}
	replies := make([]pychess.MoveReply, len(games))
	errs := make([]error, len(games))
	var wg conc.WaitGroup
	start := time.Now()
	for i, moves := range games {
		wg.Go(func() {
			replies[i], errs[i] = pool.Move(context.Background(), pychess.MoveRequest{
				Variant: env.Alice, StartFEN: env.StartFEN, Moves: moves, Budget: 200 * time.Millisecond,
			})
		})
	}
	wg.Wait()
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("two 200 ms searches took %v", d)
	}
	for i, moves := range games {
		if errs[i] != nil {
			t.Fatalf("game %d: %v", i, errs[i])
		}
		p, _ := env.ParseFEN(env.StartFEN, env.Alice)
		if _, err := p.PlayUCI(moves); err != nil {
			t.Fatal(err)
		}
		if _, err := p.ParseUCI(replies[i].Move); err != nil || !replies[i].HasValue {
			t.Errorf("game %d: reply %+v: %v", i, replies[i], err)
		}
	}

	// With every engine busy, a search waits for one, or for its context.
	e1, e2 := <-pool.free, <-pool.free
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := pool.Move(ctx, pychess.MoveRequest{Variant: env.Alice, StartFEN: env.StartFEN, Budget: time.Second}); err == nil {
		t.Error("a search with no free engine did not end with its context")
	}
	pool.free <- e1
	pool.free <- e2
}
