package serve

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/serve/servetest"
)

// makeRun writes a run folder with servetest.WriteRun and returns the
// runs folder.
func makeRun(t testing.TB, name string, iterations int) string {
	t.Helper()
	dir := t.TempDir()
	servetest.WriteRun(t, dir, name, iterations)
	return dir
}

func TestRuns(t *testing.T) {
	dir := makeRun(t, "small-1", 4)
	servetest.WriteRun(t, dir, "other", 1)
	if err := os.MkdirAll(filepath.Join(dir, "not-a-run"), 0o755); err != nil {
		t.Fatal(err)
	}
	fl := &fakeLoader{}
	c := newClient(t, newTestServer(t, Options{RunsDir: dir}, fl))
	var list struct{ Runs []runSummary }
	c.call("GET", "/api/runs", nil, http.StatusOK, &list)
	if len(list.Runs) != 2 {
		t.Fatalf("runs %+v", list.Runs)
	}
	var small runSummary
	for _, r := range list.Runs {
		if r.Name == "small-1" {
			small = r
		}
	}
	if small.Iteration != 4 || small.Checkpoints != 4 || small.Games != 4 || !small.HasMetrics || small.NewestWeights != "run:small-1/iter-000004.azck" {
		t.Errorf("small-1: %+v", small)
	}

	var run runResponse
	c.call("GET", "/api/runs/small-1", nil, http.StatusOK, &run)
	if !strings.Contains(run.Config, "name: small-1") {
		t.Errorf("config %q", run.Config)
	}

	var m metricsResponse
	status, body := c.do("GET", "/api/runs/small-1/metrics", nil)
	if status != http.StatusOK {
		t.Fatalf("metrics: %d %s", status, body)
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Rows) != 4 || m.Skipped != 1 {
		t.Fatalf("%d rows, %d skipped", len(m.Rows), m.Skipped)
	}
	r2 := m.Rows[1]
	for _, key := range []string{"iteration", "loss_policy", "heldout_policy_kl", "ramp_fraction", "eval.elo", "eval.vs_random.score", "eval.vs_random.ci95.1", "time"} {
		if _, ok := r2[key]; !ok {
			t.Errorf("row 2 lacks %s: %v", key, r2)
		}
	}
	if _, ok := r2["eval.vs_random.opponent"]; ok {
		t.Errorf("a string field became a number: %v", r2)
	}
	if _, ok := m.Rows[0]["eval.elo"]; ok {
		t.Errorf("iteration 1 has no evaluation: %v", m.Rows[0])
	}

	// Polling: unchanged metrics answer 304 to the ETag.
	req, _ := http.NewRequest("GET", c.base+"/api/runs/small-1/metrics", nil)
	first, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	first.Body.Close()
	req.Header.Set("If-None-Match", first.Header.Get("ETag"))
	again, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	again.Body.Close()
	if again.StatusCode != http.StatusNotModified {
		t.Errorf("unchanged metrics: status %d, want 304", again.StatusCode)
	}

	var games struct {
		Games []runFile
		Total int
	}
	c.call("GET", "/api/runs/small-1/games", nil, http.StatusOK, &games)
	if games.Total != 4 || games.Games[0].File != "iter-000004.pgn" || games.Games[0].Iteration != 4 {
		t.Errorf("games %+v", games)
	}
	var game struct {
		PGN   string
		Games []pgnGameSummary
		Game  *pgnGameJSON
	}
	c.call("GET", "/api/runs/small-1/games/iter-000003.pgn?game=1", nil, http.StatusOK, &game)
	if len(game.Games) != 2 || game.Game.Index != 1 || len(game.Game.Moves) != 2 || !strings.Contains(game.PGN, "Bb5#") {
		t.Errorf("game file: %+v", game)
	}

	var ck struct {
		Checkpoints []checkpointJSON
	}
	c.call("GET", "/api/runs/small-1/checkpoints", nil, http.StatusOK, &ck)
	if len(ck.Checkpoints) != 4 || ck.Checkpoints[0].Iteration != 4 || ck.Checkpoints[0].Weights != "run:small-1/iter-000004.azck" {
		t.Fatalf("checkpoints %+v", ck.Checkpoints)
	}
	if e := ck.Checkpoints[0].Eval; e == nil || e.Elo != -220 || e.VsRandom == nil || e.VsRandom.Opponent != "random" || ck.Checkpoints[1].Eval != nil {
		t.Errorf("evaluations: %+v / %+v", ck.Checkpoints[0].Eval, ck.Checkpoints[1].Eval)
	}

	// A checkpoint of a run is an engine choice; the loader gets its path.
	var sj searchJSON
	c.call("POST", "/api/search", map[string]any{"weights": "run:small-1/iter-000002.azck", "visits": 5}, http.StatusAccepted, &sj)
	doneOf(t, c.events(sj.ID))
	c.call("POST", "/api/search", map[string]any{"weights": "run:small-1", "visits": 5}, http.StatusAccepted, &sj)
	doneOf(t, c.events(sj.ID))
	want := []string{filepath.Join(dir, "small-1", "checkpoints", "iter-000002.azck"), filepath.Join(dir, "small-1", "checkpoints", "iter-000004.azck")}
	if got := fl.weightsLoaded(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("loaded %q, want %q", got, want)
	}

	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/api/runs/nope", 404},
		{"/api/runs/.hidden/metrics", 400},
		{"/api/runs/..%2f..%2fetc/metrics", 400},
		{"/api/runs/small-1/games/iter-000009.pgn", 404},
		{"/api/runs/small-1/games/config.yaml", 400},
		{"/api/runs/small-1/games/..%2fconfig.yaml", 400},
		{"/api/runs/small-1/games/iter-000001.pgn?game=x", 400},
		{"/api/runs/small-1/games/iter-000001.pgn?game=5", 400},
		{"/api/runs/nope/checkpoints", 404},
	} {
		c.fails("GET", tc.path, nil, tc.status)
	}
	c.fails("POST", "/api/search", map[string]any{"weights": "run:small-1/iter-000009.azck"}, 404, "iter-000009")
	c.fails("POST", "/api/search", map[string]any{"weights": "run:../x"}, 400)
}

func TestRunsWithoutFolder(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	var list struct{ Runs []runSummary }
	c.call("GET", "/api/runs", nil, http.StatusOK, &list)
	if list.Runs == nil || len(list.Runs) != 0 {
		t.Errorf("runs %+v", list.Runs)
	}
	c.fails("GET", "/api/runs/x/metrics", nil, 404, "--runs-dir")
	var about serverResponse
	c.call("GET", "/api/info", nil, http.StatusOK, &about)
	// The fixed choices stand without a runs folder: the default and the
	// built-in network.
	if about.Runs || len(about.Weights) != 2 || about.DefaultVisits != 400 || about.MaxVisits != 100000 {
		t.Errorf("server %+v", about)
	}
}

// The page names the default engine as the command says (the alpha-beta
// when no --weights is given), offers the plain search beside a default
// that is a network and the built-in network beside any other default.
func TestWeightChoices(t *testing.T) {
	builtin := weightsEntry{"builtin", "the built-in network (tree search)"}
	none := weightsEntry{"none", "the classical alpha-beta (no network)"}
	for _, tc := range []struct {
		name string
		opts Options
		want []weightsEntry
	}{
		{"the plain search by default", Options{},
			[]weightsEntry{{"default", "the classical alpha-beta (no network)"}, builtin}},
		{"the loader's default engine", Options{DefaultLabel: "the classical alpha-beta, with its own evaluation"},
			[]weightsEntry{{"default", "the classical alpha-beta, with its own evaluation"}, builtin}},
		{"--weights builtin", Options{DefaultWeights: "builtin", DefaultLabel: "the built-in network (small) for alice"},
			[]weightsEntry{{"default", "the built-in network (small) for alice"}, none}},
		{"a checkpoint file", Options{DefaultWeights: "/x/net.azck"},
			[]weightsEntry{{"default", "network net.azck"}, none, builtin}},
		{"--weights none", Options{DefaultWeights: "none", DefaultLabel: "no network: plain search, the classical alpha-beta"},
			[]weightsEntry{{"default", "no network: plain search, the classical alpha-beta"}, builtin}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, newTestServer(t, tc.opts, nil))
			var about serverResponse
			c.call("GET", "/api/info", nil, http.StatusOK, &about)
			if !reflect.DeepEqual(about.Weights, tc.want) {
				t.Errorf("choices %+v, want %+v", about.Weights, tc.want)
			}
		})
	}
}

// A visitor sees runs and checkpoints by name: neither the engine's
// description of a run's checkpoint nor an error names the server's
// folders.
func TestRunsNamedNotByPath(t *testing.T) {
	dir := makeRun(t, "small-1", 2)
	c := newClient(t, newTestServer(t, Options{RunsDir: dir}, nil))
	var sj searchJSON
	c.call("POST", "/api/search", map[string]any{"weights": "run:small-1", "visits": 5}, http.StatusAccepted, &sj)
	var engine string
	for _, ev := range c.events(sj.ID) {
		if ev.name == "engine" {
			var e struct{ Engine string }
			if err := json.Unmarshal([]byte(ev.data), &e); err != nil {
				t.Fatal(err)
			}
			engine = e.Engine
		}
	}
	// The fake engine names the path it was loaded with.
	if engine != "fake engine (small-1/iter-000002.azck, alice)" {
		t.Errorf("engine named %q", engine)
	}
	status, body := c.do("GET", "/api/runs/nope", nil)
	if status != http.StatusNotFound || strings.Contains(string(body), dir) || !strings.Contains(string(body), `no run \"nope\" in the runs folder`) {
		t.Errorf("/api/runs/nope: %d %s", status, body)
	}
}

// The header names the engine that answers once: a checkpoint of another
// variant is the plain search, said in a few words, not the engine's
// description that names the checkpoint three times.
func TestSearchNamesEngine(t *testing.T) {
	dir := makeRun(t, "othervariant-1", 2)
	c := newClient(t, newTestServer(t, Options{RunsDir: dir}, nil))
	for _, tc := range []struct{ weights, variant, want string }{
		{"run:othervariant-1", "alice", "plain search (othervariant-1 iter-000002 does not play alice)"},
		{"default", "alice", "fake engine (none, alice)"},
		{"builtin", "alice", "fake engine (builtin, alice)"},
		{"builtin", "alice-mini", "fake engine (builtin, alice-mini)"},
	} {
		weights, want := tc.weights, tc.want
		var sj searchJSON
		c.call("POST", "/api/search", map[string]any{"weights": weights, "visits": 5, "fen": "startpos", "variant": tc.variant}, http.StatusAccepted, &sj)
		var e struct{ Engine, Name string }
		for _, ev := range c.events(sj.ID) {
			if ev.name == "engine" {
				if err := json.Unmarshal([]byte(ev.data), &e); err != nil {
					t.Fatal(err)
				}
			}
		}
		if e.Name != want || !strings.HasPrefix(e.Engine, "fake engine") && !strings.Contains(e.Engine, "not alice") {
			t.Errorf("weights %s in %s: engine %+v, want the name %q", weights, tc.variant, e, want)
		}
	}
}

func TestPublicPaths(t *testing.T) {
	runsDir := filepath.Join(t.TempDir(), "runs")
	s := &Server{opts: Options{RunsDir: runsDir}}
	ckpt := filepath.Join(runsDir, "r1", "checkpoints", "iter-000040.azck")
	for in, want := range map[string]string{
		"network " + ckpt + " (small, step 12000)":                "network r1/iter-000040.azck (small, step 12000)",
		"weights /srv/nets/best.azck: truncated":                  "weights best.azck: truncated",
		"open " + filepath.Join(runsDir, "r1", "metrics.jsonl"):   "open r1/metrics.jsonl",
		"bad FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\"": "bad FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\"",
		"W/D/L 0.4/0.3/0.3": "W/D/L 0.4/0.3/0.3",
	} {
		if got := s.publicPaths(in); got != want {
			t.Errorf("publicPaths(%q) = %q, want %q", in, got, want)
		}
	}
}
