package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/conc"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/serve/servetest"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// screenshots, when set, is the folder TestServeInBrowser saves the
// play view (at a desktop's width and a phone's) and the training view in
// (docs/ holds them):
//
//	go test ./cmd/alicezero -run TestServeInBrowser -screenshots ../../docs
var screenshots = flag.String("screenshots", "", "save screenshots of the web page's play and training views in this folder")

func TestServeFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--addr", "0.0.0.0:0", "--runs-dir", ""}, 1, "--token"},
		{[]string{"--addr", ":0", "--runs-dir", ""}, 1, "refusing"},
		{[]string{"--addr", "8080"}, 1, "--addr 8080: bad address: address 8080: missing port in address (want host:port"},
		// A bad address is named as such, before the missing --token.
		{[]string{"--addr", "256.1.1.1:8080", "--runs-dir", ""}, 1, "--addr 256.1.1.1:8080: bad address: 256.1.1.1 is not an IPv4 address"},
		{[]string{"--addr", "127.0.0.1:99999", "--runs-dir", ""}, 1, `--addr 127.0.0.1:99999: bad address: port "99999" is not a port number`},
		{[]string{"--addr", "my host:8080", "--runs-dir", ""}, 1, "--addr my host:8080: bad address: my host is neither an IP address nor a host name"},
		{[]string{"--threads", "0"}, 1, "--threads"},
		{[]string{"--searchers", "0"}, 1, "searchers"},
		{[]string{"--weights", filepath.Join(t.TempDir(), "missing.azck")}, 1, "--weights"},
		{[]string{"extra"}, 2, "Usage"},
		{[]string{"--nope"}, 2, "Usage"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), append([]string{"serve"}, tc.args...), nil, &out, &errb)
		if code != tc.code || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("serve %q: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errb.String(), tc.code, tc.want)
		}
	}
}

// The page's label of the server's default says what plays alice and
// what plays the other variants.
func TestServeLabel(t *testing.T) {
	ckpt := filepath.Join(t.TempDir(), "iter-000001.azck")
	saveTinyCheckpoint(t, ckpt, 1, map[string]string{"variant": "alice"})
	for _, tc := range []struct{ weights, want string }{
		{"", "the classical alpha-beta, with its own evaluation"},
		{engine.BuiltinWeights, "the built-in network (small, "},
		{engine.BuiltinWeights, " for alice, and each other variant's own built-in network"},
		{ckpt, " for alice; the plain search (the alpha-beta) in the other variants"},
	} {
		label, err := serveLabel(context.Background(), serveLoader(1), tc.weights)
		if err != nil || !strings.Contains(label, tc.want) {
			t.Errorf("serveLabel(%q) = %q, %v; want it to contain %q", tc.weights, label, err, tc.want)
		}
	}
}

// The loader builds the engine the server searches with (the search
// itself is serve's, tested there on the real engine): the alpha-beta by
// default in every variant, the built-in network through the tree where
// it is named and plays the variant, else the plain search.
func TestServeEngine(t *testing.T) {
	for _, tc := range []struct {
		weights string
		v       env.Variant
		want    string
		search  string
	}{
		{"", env.Alice, "classical alpha-beta", engine.SearchAlphaBeta},
		{"", env.AliceMini, "classical alpha-beta", engine.SearchAlphaBeta},
		{engine.NoWeights, env.Alice, "plain search", engine.SearchAlphaBeta},
		{engine.BuiltinWeights, env.Alice, "built-in network", engine.SearchMCTS},
		{engine.BuiltinWeights, env.AliceMini, "the built-in network (alice-mini, ", engine.SearchMCTS},
	} {
		name := fmt.Sprintf("weights %q, %s", tc.weights, tc.v.Name)
		e, err := serveLoader(1)(context.Background(), tc.weights, tc.v)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(e.Network(), tc.want) || e.SearchKind() != tc.search || e.Options().Variant != tc.v {
			t.Errorf("%s: Network %q, search %s, variant %s", name, e.Network(), e.SearchKind(), e.Options().Variant.Name)
		}
		// The alpha-beta completes depth 1 whatever its limit.
		res, err := e.Go(context.Background(), env.NewGame(tc.v), clock.Limits{Nodes: 20}, mcts.Progress{})
		if err != nil || res.Nodes < 20 || tc.search == engine.SearchMCTS && res.Nodes != 20 {
			t.Errorf("%s: %d nodes, %v", name, res.Nodes, err)
		}
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	}
}

// startServe runs "alicezero serve" with args on a free loopback port
// and returns its address; it stops with the test.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var errb bytes.Buffer
	var wg conc.WaitGroup
	code := -1
	wg.Go(func() {
		code = run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), nil, pw, &errb)
		pw.Close()
	})
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		if code != 0 && code != 130 {
			t.Errorf("serve exited %d: %s", code, errb.String())
		}
	})
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		if url, ok := strings.CutPrefix(sc.Text(), "AliceZero is serving on "); ok {
			wg.Go(func() { _, _ = io.Copy(io.Discard, pr) })
			return url
		}
	}
	t.Fatalf("serve printed no address; stderr: %s", errb.String())
	return ""
}

// openingMoves are White's moves the browser game tries first, so that it
// develops pieces onto both boards; after them it plays the first legal
// move that is not the king's, in UCI order.
var openingMoves = []string{"e2e4", "g1f3", "b1c3", "d2d4", "f1c4", "c1f4", "d1d3", "e1g1"}

func chooseMove(ply int, legal []servetest.Move) servetest.Move {
	for _, u := range openingMoves {
		if i := slices.IndexFunc(legal, func(m servetest.Move) bool { return m.UCI == u }); i >= 0 {
			return legal[i]
		}
	}
	best := legal[0]
	for _, m := range legal {
		if !strings.HasPrefix(m.SAN, "K") && (strings.HasPrefix(best.SAN, "K") || m.UCI < best.UCI) {
			best = m
		}
	}
	return best
}

// TestServeInBrowser is the frontend's acceptance test: "alicezero serve"
// with the real search, its page in headless Chromium without a console
// error, and a game of ten moves each played by clicks against the engine.
func TestServeInBrowser(t *testing.T) {
	servetest.Chromium(t)
	runs := t.TempDir()
	servetest.WriteRun(t, runs, "small-20261130", 30)
	url := startServe(t, "--visits", "24", "--runs-dir", runs)
	p := servetest.Open(t, 1440, 900)
	p.Navigate(url)
	g := p.PlayAgainstEngine(20, chooseMove, 60*time.Second)
	if g.Ply < 20 && g.Status == "ongoing" {
		t.Fatalf("the game stopped at ply %d", g.Ply)
	}
	var engineName string
	p.Eval(`document.getElementById('engine-name').textContent`, &engineName)
	if !strings.Contains(engineName, "classical alpha-beta") {
		t.Errorf("engine shown as %q", engineName)
	}
	var chosen string
	p.Eval(`document.getElementById('set-weights').selectedOptions[0].textContent`, &chosen)
	if !strings.Contains(chosen, "classical alpha-beta") {
		t.Errorf("the engine menu shows %q for the default engine", chosen)
	}
	if *screenshots != "" && g.Status == "ongoing" {
		// Pick up the piece with the most moves, so that its targets show
		// on both boards.
		count := map[servetest.Move]int{}
		var most servetest.Move
		for _, m := range g.Legal {
			k := servetest.Move{From: m.From, FromBoard: m.FromBoard}
			if count[k]++; count[k] > count[most] {
				most = k
			}
		}
		p.ClickSquare("play-boards", most.FromBoard, most.From)
		p.Screenshot(filepath.Join(*screenshots, "web-play.png"))
	}
	p.Click(`#tabs [data-view=training]`)
	p.WaitFor(20*time.Second, `Number(document.body.dataset.charts) >= 5`)
	if *screenshots != "" {
		p.Hover(`#charts .chart svg`)
		p.Screenshot(filepath.Join(*screenshots, "web-training.png"))
		// The play view on a phone's screen, as it shows it.
		p.Click(`#tabs [data-view=play]`)
		p.Phone(390, 844)
		p.WaitFor(10*time.Second, `document.documentElement.scrollWidth <= visualViewport.width`)
		p.ScreenshotView(filepath.Join(*screenshots, "web-play-phone.png"))
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}

// engineFor is what must answer in variant v for the weights choice w
// of a server without --weights: the alpha-beta by default, v's built-in
// network where it is chosen (named after v, but for alice's).
func engineFor(v, w string) string {
	switch {
	case w == "default":
		return "classical alpha-beta"
	case v == "alice":
		return "the built-in network (small"
	}
	return "the built-in network (" + v + ", "
}

// TestServeEngineInEveryVariant plays a move against the real engine
// through the API in every variant, with the default engine and with the
// built-in network, and checks which engine answered.
func TestServeEngineInEveryVariant(t *testing.T) {
	base := startServe(t, "--visits", "8", "--runs-dir", "")
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Jar: jar, Timeout: 60 * time.Second}
	call := func(method, path string, body, out any) {
		t.Helper()
		var rd io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
		req, _ := http.NewRequest(method, base+path, rd)
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode >= 300 {
			t.Fatalf("%s %s: %s %s", method, path, resp.Status, b)
		}
		if out != nil {
			if err := json.Unmarshal(b, out); err != nil {
				t.Fatalf("%s %s: %v in %s", method, path, err, b)
			}
		}
	}
	for _, v := range env.VariantNames() {
		for _, w := range []string{"default", engine.BuiltinWeights} {
			var g struct {
				Legal []servetest.Move `json:"legal"`
			}
			call("POST", "/api/game/new", map[string]any{"variant": v}, &g)
			call("POST", "/api/game/move", map[string]any{"move": chooseMove(0, g.Legal).UCI}, nil)
			var sj struct{ ID string }
			call("POST", "/api/search", map[string]any{"kind": "play", "visits": 8, "weights": w}, &sj)
			resp, err := hc.Get(base + "/api/search/" + sj.ID + "/events")
			if err != nil {
				t.Fatal(err)
			}
			stream, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var engineName string
			var done struct {
				State  string          `json:"state"`
				Error  string          `json:"error"`
				Played *servetest.Move `json:"played"`
				Game   *servetest.Game `json:"game"`
			}
			event := ""
			for line := range strings.SplitSeq(string(stream), "\n") {
				if e, ok := strings.CutPrefix(line, "event: "); ok {
					event = e
				}
				data, ok := strings.CutPrefix(line, "data: ")
				if !ok {
					continue
				}
				switch event {
				case "engine":
					var e struct{ Name string }
					_ = json.Unmarshal([]byte(data), &e)
					engineName = e.Name
				case "done":
					_ = json.Unmarshal([]byte(data), &done)
				}
			}
			if done.State != "done" || done.Played == nil || done.Game == nil || done.Game.Ply != 2 {
				t.Errorf("%s, weights %s: the engine did not move: %+v", v, w, done)
			}
			if want := engineFor(v, w); !strings.Contains(engineName, want) {
				t.Errorf("%s, weights %s: engine %q, want the %s", v, w, engineName, want)
			}
		}
	}
}

// TestServeInBrowserEveryVariant plays a move against the engine on the
// page in every variant, with the default engine and with the built-in
// network chosen in the Engine menu, and checks the engine the header
// names.
func TestServeInBrowserEveryVariant(t *testing.T) {
	servetest.Chromium(t)
	url := startServe(t, "--visits", "8", "--runs-dir", "")
	p := servetest.Open(t, 1366, 768)
	p.Navigate(url)
	set := func(id, value string) {
		t.Helper()
		var ok bool
		p.Eval(fmt.Sprintf(`(() => { const s = document.getElementById(%q); s.value = %q; s.dispatchEvent(new Event('change')); return s.value === %q; })()`, id, value, value), &ok)
		if !ok {
			t.Fatalf("#%s has no option %q", id, value)
		}
	}
	for _, v := range env.VariantNames() {
		for _, w := range []string{"default", engine.BuiltinWeights} {
			set("set-weights", w)
			set("set-variant", v)
			p.Click("#btn-new")
			p.WaitFor(10*time.Second, fmt.Sprintf(`document.body.dataset.ply === '0' && document.body.dataset.variant === %q`, v))
			g := p.CurrentGame()
			if g.Variant != v {
				t.Fatalf("a new game of %s is of %s", v, g.Variant)
			}
			p.ClickMove(chooseMove(0, g.Legal))
			p.WaitFor(30*time.Second, `Number(document.body.dataset.ply) >= 2 && document.body.dataset.thinking !== '1'`)
			var engineName, toast string
			p.Eval(`document.getElementById('engine-name').textContent`, &engineName)
			p.Eval(`document.getElementById('toast').classList.contains('error') ? document.getElementById('toast').textContent : ''`, &toast)
			if want := engineFor(v, w); !strings.Contains(engineName, want) {
				t.Errorf("%s, engine %s: the header names %q, want the %s", v, w, engineName, want)
			}
			if toast != "" {
				t.Errorf("%s, engine %s: toast %q", v, w, toast)
			}
		}
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}
