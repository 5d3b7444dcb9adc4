package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

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
		{"slowest below fastest", testToken, []string{"pychess", "--min-tc", "60+0", "--max-tc", "1+0"}, 1, "--max-tc 1+0 is faster than --min-tc 60+0"},
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

// The bot's engines are built and loaded before it starts, one per game
// at once; weights that do not load stop the command there.
func TestStartEngines(t *testing.T) {
	es, err := startEngines(2, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeEngines(es)
	if len(es) != 2 || es[0] == es[1] || !strings.Contains(es[0].Network(), "classical alpha-beta") {
		t.Errorf("%d engines, %q", len(es), es[0].Network())
	}
	if _, err := startEngines(2, engine.Options{Weights: filepath.Join(t.TempDir(), "missing.azck")}); err == nil {
		t.Error("missing weights loaded")
	}
}
