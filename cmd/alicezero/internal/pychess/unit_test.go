package pychess

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 100)
	in := "\n\r\n" + `{"a":1}` + "\r\n\n   \n" + long + "\n" + `{"b":2}` + "\n" + "\n"
	lr := newLineReader(strings.NewReader(in), 50)
	var got []string
	var tooLong int
	for {
		line, err := lr.next()
		if errors.Is(err, errLineTooLong) {
			tooLong++
			if !strings.HasPrefix(string(line), "xxx") {
				t.Errorf("an over-long line's start is %q", line)
			}
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
	}
	if strings.Join(got, "|") != `{"a":1}|{"b":2}` || tooLong != 1 {
		t.Errorf("lines %q, %d over-long; want the two objects and 1", got, tooLong)
	}

	lr = newLineReader(strings.NewReader(`{"a":1}`+"\n"+`{"b":`), 50)
	if _, err := lr.next(); err != nil {
		t.Fatal(err)
	}
	if _, err := lr.next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a stream cut inside a line gave %v, want io.ErrUnexpectedEOF", err)
	}
	lr = newLineReader(strings.NewReader(long), 50)
	if _, err := lr.next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a stream cut inside an over-long line gave %v, want io.ErrUnexpectedEOF", err)
	}
}

func TestBackoffDelay(t *testing.T) {
	b := Backoff{Initial: 100 * time.Millisecond, Max: time.Second, Factor: 2, Jitter: 0.5, Rand: func() float64 { return 0 }}
	want := []time.Duration{100, 200, 400, 800, 1000, 1000}
	for n, w := range want {
		if got := b.Delay(n); got != w*time.Millisecond {
			t.Errorf("Delay(%d) = %v, want %v", n, got, w*time.Millisecond)
		}
	}
	b.Rand = func() float64 { return 0.5 }
	if got := b.Delay(2); got != 300*time.Millisecond {
		t.Errorf("with jitter 0.5 and rand 0.5, Delay(2) = %v, want 300ms", got)
	}
	// Real randomness stays within [half, whole].
	b.Rand = nil
	for range 100 {
		if d := b.Delay(3); d < 400*time.Millisecond || d > 800*time.Millisecond {
			t.Fatalf("Delay(3) = %v, outside [400ms, 800ms]", d)
		}
	}
}

// Limits hand the engine the bot's clock less the reading's age, its
// increment and the overhead, with a move time of 10 s for each side's
// first move and MinBudget's for a clock spent; the engine's time manager
// then spends a 30th of the clock plus ¾ of the increment, at most half
// the clock, less the overhead, and no more than the move time.
func TestClockLimits(t *testing.T) {
	c := Clock{Overhead: 300 * time.Millisecond, MovesToGo: 30, MinBudget: 10 * time.Millisecond}
	ms := time.Millisecond
	tests := []struct {
		name           string
		side           env.Colour
		ply            int
		left, inc, lag time.Duration
		want           clock.Limits
		budget         time.Duration
	}{
		{"5+3", env.White, 10, 5 * time.Minute, 3 * time.Second, 0,
			clock.Limits{WTime: 5 * time.Minute, WInc: 3 * time.Second, MovesToGo: 30, Overhead: 300 * ms}, 5*time.Minute/30 + 2250*ms - 300*ms},
		{"5+3, Black", env.Black, 11, 5 * time.Minute, 3 * time.Second, 0,
			clock.Limits{BTime: 5 * time.Minute, BInc: 3 * time.Second, MovesToGo: 30, Overhead: 300 * ms}, 5*time.Minute/30 + 2250*ms - 300*ms},
		{"5+3, first move", env.White, 0, 5 * time.Minute, 3 * time.Second, 0,
			clock.Limits{WTime: 5 * time.Minute, WInc: 3 * time.Second, MovesToGo: 30, Overhead: 300 * ms, MoveTime: 10 * time.Second}, 10 * time.Second},
		{"60+0, first moves", env.Black, 1, time.Hour, 0, 0,
			clock.Limits{BTime: time.Hour, MovesToGo: 30, Overhead: 300 * ms, MoveTime: 10 * time.Second}, 10 * time.Second},
		{"60+0, third move", env.White, 2, time.Hour, 0, 0,
			clock.Limits{WTime: time.Hour, MovesToGo: 30, Overhead: 300 * ms}, time.Hour/30 - 300*ms},
		{"lag counts", env.White, 10, 5 * time.Minute, 0, 30 * time.Second,
			clock.Limits{WTime: 270 * time.Second, MovesToGo: 30, Overhead: 300 * ms}, 9*time.Second - 300*ms},
		{"a short clock halves the share rather than lose the overhead", env.White, 10, 3 * time.Second, 0, 0,
			clock.Limits{WTime: 3 * time.Second, MovesToGo: 30, Overhead: 300 * ms}, 50 * ms},
		{"out of time", env.White, 10, 100 * ms, 0, 100 * ms,
			clock.Limits{MoveTime: 10 * ms, MovesToGo: 30, Overhead: 300 * ms}, 8 * ms},
		{"lag beyond the clock", env.Black, 10, time.Second, 0, 2 * time.Second,
			clock.Limits{MoveTime: 10 * ms, MovesToGo: 30, Overhead: 300 * ms}, 8 * ms},
	}
	for _, tt := range tests {
		lim := c.Limits(tt.side, tt.ply, tt.left, tt.inc, tt.lag)
		if lim != tt.want || lim.Budget(tt.side) != tt.budget {
			t.Errorf("%s: Limits(%v, %d, %v, %v, %v) = %+v (budget %v), want %+v (budget %v)", tt.name, tt.side, tt.ply, tt.left, tt.inc, tt.lag, lim, lim.Budget(tt.side), tt.want, tt.budget)
		}
	}
	if got := (Clock{}).Limits(env.White, 10, time.Minute, 0, 0); got != (clock.Limits{WTime: time.Minute, Overhead: DefaultOverhead}) || got.Budget(env.White) != time.Minute/30-DefaultOverhead {
		t.Errorf("the zero Clock gives %+v", got)
	}
}

func TestDrawRule(t *testing.T) {
	r := DrawRule{MinPly: 10, MaxValue: 0.1, Streak: 3}
	tests := []struct {
		name    string
		ply     int
		values  []float64
		offered bool
		want    bool
	}{
		{"too early", 9, []float64{0, 0, 0}, true, false},
		{"a streak of small values: offer", 10, []float64{0.9, 0.05, -0.1, 0}, false, true},
		{"the streak is broken", 10, []float64{0, 0.2, 0, 0}, false, false},
		{"too short a streak to offer", 20, []float64{0, 0}, false, false},
		{"an offer needs the current value only", 20, []float64{0.8, 0.02}, true, true},
		{"an offer when the bot stands well", 20, []float64{0, 0.3}, true, false},
		{"an offer when the bot stands badly", 20, []float64{0, -0.3}, true, false},
		{"no values", 20, nil, true, false},
	}
	for _, tt := range tests {
		if got := r.Want(tt.ply, tt.values, tt.offered); got != tt.want {
			t.Errorf("%s: Want = %v, want %v", tt.name, got, tt.want)
		}
	}
	if (DrawRule{MaxValue: -1}).Want(500, []float64{0, 0, 0, 0, 0, 0}, true) {
		t.Error("a negative MaxValue still agrees to draws")
	}
	if !(DrawRule{}).Want(DefaultDrawMinPly, []float64{0, 0, 0, 0, 0}, false) {
		t.Error("the default rule does not offer after five level moves at its first ply")
	}
}

func TestParseTimeControl(t *testing.T) {
	good := map[string]clock.Control{
		"5+3":   {Base: 5 * time.Minute, Inc: 3 * time.Second},
		"0.5+0": {Base: 30 * time.Second},
		" 1+2 ": {Base: time.Minute, Inc: 2 * time.Second},
		"5m+3s": {Base: 5 * time.Minute, Inc: 3 * time.Second},
		"90s+0": {Base: 90 * time.Second},
	}
	for s, want := range good {
		if got, err := ParseTimeControl(s); err != nil || got != want {
			t.Errorf("ParseTimeControl(%q) = %+v, %v; want %+v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "5", "5+", "+3", "a+b", "-1+0", "1+-2", "Inf+0", "NaN+0", "1e1+0", "40/5+0"} {
		if _, err := ParseTimeControl(s); err == nil {
			t.Errorf("ParseTimeControl(%q) gave no error", s)
		}
	}
}

func TestNewClientChecksArguments(t *testing.T) {
	for _, s := range []string{"", "pychess.org", "ftp://x", "https://"} {
		if _, err := NewClient(s, "tok", ClientOptions{}); err == nil {
			t.Errorf("server %q accepted", s)
		}
	}
	for _, tok := range []string{"", "a b", "a\nb"} {
		_, err := NewClient(DefaultServer, tok, ClientOptions{})
		if err == nil {
			t.Errorf("token %q accepted", tok)
		} else if tok != "" && strings.Contains(err.Error(), tok) {
			t.Errorf("the error shows the token: %v", err)
		}
	}
}

// A stream that stays open but sends nothing, not even pings, is given up
// after the idle timeout, so that the bot reconnects.
func TestClientDropsASilentStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		_, _ = io.WriteString(w, pingLine+"\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	c, err := NewClient(srv.URL, "tok", ClientOptions{IdleTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var pings int
	err = c.StreamEvents(context.Background(), func(ev Event) bool {
		pings++
		return true
	})
	if !errors.Is(err, ErrIdle) || pings != 1 {
		t.Errorf("StreamEvents returned %v after %d pings, want ErrIdle after 1", err, pings)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("it took %v to give up", d)
	}
}

// A game's record replaces the file whole, through fileutil's atomic
// write: readable by others like every file the project writes, and no
// temporary file left behind.
func TestWritePGNFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "games")
	g := env.NewGame(env.Alice)
	for _, result := range []env.Result{env.NoResult, env.WhiteWins} {
		g.Result = result
		path, err := writePGNFile(dir, "ab/../c", g)
		if err != nil {
			t.Fatal(err)
		}
		if path != filepath.Join(dir, "pychess-ab____c.pgn") {
			t.Errorf("written to %s", path)
		}
		data, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(data), `[Variant "Alice"]`) || !strings.Contains(string(data), result.String()) {
			t.Fatalf("record %q, %v", data, err)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if runtime.GOOS != "windows" && st.Mode().Perm() != 0o644 {
			t.Errorf("mode %v, want -rw-r--r--", st.Mode().Perm())
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files, want the record alone", len(entries))
	}
}

// A slowest time control below the fastest is refused, both written as
// they were given (minutes+seconds), not in the PGN tag's seconds.
func TestNewRefusesSlowestBelowFastest(t *testing.T) {
	c, err := NewClient(DefaultServer, "tok", ClientOptions{Variants: []string{"alice"}})
	if err != nil {
		t.Fatal(err)
	}
	minTC, _ := ParseTimeControl("60+0")
	maxTC, _ := ParseTimeControl("1+0")
	_, err = New(c, fakes(1, pickEngine(firstLegal, 0)), Config{Variants: []string{"alice"}, MinTC: minTC, MaxTC: maxTC})
	if err == nil || !strings.Contains(err.Error(), "(1+0) is faster than the fastest (60+0)") {
		t.Fatalf("New: %v", err)
	}
}
