package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/enginetest"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// fakeSearch is the fake engine's search (enginetest's, scripted): it
// plays a fixed rule so that tests can predict it, the capture of the
// most valuable piece, else the first legal move in UCI order. It reports
// steps times, pausing delay before each report, and honours ctx.
type fakeSearch struct {
	steps int
	delay time.Duration
	// gate, when not nil, holds every search until it is closed (or the
	// search is stopped).
	gate chan struct{}
	// searched, when not nil, records each search's limits as it starts.
	searched func(clock.Limits)
	// reachLimit makes a search with a visit limit end at it, as the real
	// engine does (else it ends after steps reports of ten visits each).
	reachLimit bool
	// mateIn and proven are what every search proves; wdl, when not zero,
	// is its evaluation (else 0.5, 0.3, 0.2).
	mateIn int
	proven bool
	wdl    [3]float32
	// lines makes the root moves the alpha-beta's lines: no visits, each
	// with its value and line, best first.
	lines bool
}

// panicFEN is a position the fake engine panics on.
const panicFEN = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"

func (f *fakeSearch) search(ctx context.Context, pos *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
	if pos.FEN() == panicFEN {
		panic("fake engine: the panic position")
	}
	var ml env.MoveList
	pos.LegalMoves(&ml)
	moves := append([]env.Move(nil), ml.Slice()...)
	value := func(m env.Move) int {
		pc, _ := pos.PieceAt(m.To())
		if pc == env.NoPiece {
			return -1
		}
		return int(pc.Kind())
	}
	sort.SliceStable(moves, func(i, j int) bool {
		vi, vj := value(moves[i]), value(moves[j])
		if vi != vj {
			return vi > vj
		}
		return moves[i].UCI() < moves[j].UCI()
	})
	res := mcts.Result{RootWDL: [3]float32{0.5, 0.3, 0.2}, BestMove: moves[0], PV: []env.Move{moves[0]}, MateIn: f.mateIn, Proven: f.proven || f.mateIn != 0}
	if f.wdl != [3]float32{} {
		res.RootWDL = f.wdl
	}
	res.RootValue = res.RootWDL[0] - res.RootWDL[2]
	for i, m := range moves[:min(3, len(moves))] {
		c := mcts.ChildStat{Move: m, Visits: 30 - 10*i, Q: 0.1, Prior: 0.2}
		if f.lines {
			c = mcts.ChildStat{Move: m, Q: 0.3 - 0.1*float32(i), PV: []env.Move{m}}
		}
		res.Children = append(res.Children, c)
	}
	if f.searched != nil {
		f.searched(lim)
	}
	start := time.Now()
	if f.gate != nil {
		select {
		case <-f.gate:
		case <-ctx.Done():
		}
	}
	steps := max(1, f.steps)
	if lim.Nodes > 0 {
		steps = min(steps, max(1, int(lim.Nodes)/10)) // a report per ten visits
	}
	for i := 1; i <= steps; i++ {
		if ctx.Err() != nil {
			break
		}
		if f.delay > 0 {
			select {
			case <-time.After(f.delay):
			case <-ctx.Done():
			}
		}
		res.Nodes = 10 * i
		if i == steps && f.reachLimit && lim.Nodes > 0 {
			res.Nodes = int(lim.Nodes)
		}
		if progress.Report != nil && i < steps {
			progress.Report(mcts.Info{Nodes: res.Nodes, Elapsed: time.Since(start), WDL: res.RootWDL, PV: res.PV, Children: res.Children})
		}
	}
	return res, nil
}

// fakeLoader builds fake engines (enginetest's, searching as fakeSearch)
// and records the weights asked for.
type fakeLoader struct {
	mu     sync.Mutex
	loaded []string
	steps  int
	delay  time.Duration
	gate   chan struct{}
	lims   []clock.Limits // of each search, as it started
	// kind is the fake engines' SearchKind ("": the tree's); engines are
	// those loaded, in order.
	kind    string
	engines []*enginetest.Engine
	// The fakeSearch fields of the same names.
	reachLimit bool
	mateIn     int
	wdl        [3]float32
}

func (l *fakeLoader) load(ctx context.Context, weights string, v env.Variant) (engine.Interface, error) {
	if strings.Contains(weights, "broken") {
		return nil, fmt.Errorf("weights %s: truncated checkpoint", weights)
	}
	e := enginetest.New()
	e.Kind = l.kind
	l.mu.Lock()
	l.loaded = append(l.loaded, weights)
	l.engines = append(l.engines, e)
	l.mu.Unlock()
	opts := engine.Options{Variant: v}
	e.Description = "fake engine (" + weights + ", " + v.Name + ")"
	if strings.Contains(weights, "othervariant") {
		// Weights of another variant: the plain search plays, and its
		// description says why as serveLoader's does.
		opts.Network = &engine.Network{Description: "no network: plain search, the classical alpha-beta"}
		e.Description = fmt.Sprintf("%s (no network for %s: network %s (small, step 9) was trained for alice-3, not %s)",
			opts.Network.Description, v.Name, weights, v.Name)
	}
	if err := e.SetOptions(opts); err != nil {
		return nil, err
	}
	e.Search = (&fakeSearch{steps: l.steps, delay: l.delay, gate: l.gate, searched: l.searched, reachLimit: l.reachLimit, mateIn: l.mateIn, wdl: l.wdl,
		lines: l.kind == engine.SearchAlphaBeta}).search
	return e, nil
}

func (l *fakeLoader) searched(lim clock.Limits) {
	l.mu.Lock()
	l.lims = append(l.lims, lim)
	l.mu.Unlock()
}

// limits returns the limits of the searches started so far.
func (l *fakeLoader) limits() []clock.Limits {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]clock.Limits(nil), l.lims...)
}

// waitSearches waits (briefly: the worker picks a search up at once) until
// n searches have started, and returns their limits.
func (l *fakeLoader) waitSearches(t *testing.T, n int) []clock.Limits {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if lims := l.limits(); len(lims) >= n {
			return lims
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d searches started, want %d", len(l.limits()), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// fakeClock is a settable time for Options.Now.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)} }

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func (l *fakeLoader) weightsLoaded() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.loaded...)
}

// newTestServer starts a server with a fake engine behind httptest.
func newTestServer(t *testing.T, opts Options, fl *fakeLoader) *httptest.Server {
	t.Helper()
	if fl == nil {
		fl = &fakeLoader{steps: 3}
	}
	opts.Load = fl.load
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		ts.Close()
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return ts
}

// client is a visitor: an HTTP client with its own cookies (session).
type client struct {
	t    *testing.T
	srv  *httptest.Server
	base string
	hc   *http.Client
}

func (c *client) ts() *httptest.Server { return c.srv }

func newClient(t *testing.T, ts *httptest.Server) *client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &client{t: t, srv: ts, base: ts.URL, hc: &http.Client{Jar: jar, Timeout: 20 * time.Second}}
}

// do sends a request (body as JSON unless it is a string) and returns
// the status and body.
func (c *client) do(method, path string, body any) (int, []byte) {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		js, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(js)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp.StatusCode, out
}

// call sends a request that must answer want, decoding the answer into
// out when it is not nil.
func (c *client) call(method, path string, body any, want int, out any) {
	c.t.Helper()
	status, b := c.do(method, path, body)
	if status != want {
		c.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, status, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			c.t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
}

// fails sends a request that must fail with status want and a JSON error
// whose message contains each of the given fragments.
func (c *client) fails(method, path string, body any, want int, fragments ...string) {
	c.t.Helper()
	status, b := c.do(method, path, body)
	if status != want {
		c.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, status, want, b)
	}
	var e errorBody
	if err := json.Unmarshal(b, &e); err != nil || e.Error == "" {
		c.t.Fatalf("%s %s: not a JSON error: %s", method, path, b)
	}
	for _, f := range fragments {
		if !strings.Contains(e.Error, f) {
			c.t.Errorf("%s %s: error %q lacks %q", method, path, e.Error, f)
		}
	}
}

// event is one server-sent event.
type event struct {
	name string
	data string
}

// events reads a search's event stream to its end.
func (c *client) events(id string) []event {
	c.t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.base+"/api/search/"+id+"/events", nil)
	if err != nil {
		c.t.Fatal(err)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		c.t.Fatalf("events: status %d, type %q: %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	var out []event
	var cur event
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.name != "" {
				out = append(out, cur)
			}
			cur = event{}
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = strings.TrimPrefix(line, "data: ")
		}
	}
	if err := sc.Err(); err != nil {
		c.t.Fatal(err)
	}
	return out
}

// done returns the "done" event of a stream, decoded.
func doneOf(t *testing.T, evs []event) doneJSON {
	t.Helper()
	if len(evs) == 0 || evs[len(evs)-1].name != "done" {
		t.Fatalf("the stream does not end with a done event: %v", evs)
	}
	var d doneJSON
	if err := json.Unmarshal([]byte(evs[len(evs)-1].data), &d); err != nil {
		t.Fatal(err)
	}
	return d
}
