package arena

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/player"
)

// probe is a player that records the limits of each move and the options
// its factory saw, plays the first legal move and takes delay to do it.
type probe struct {
	name   string
	delay  time.Duration
	score  int
	scored bool
	mu     *sync.Mutex
	seen   map[string][]clock.Limits
}

func (p *probe) Name() string                  { return p.name }
func (p *probe) NewGame(context.Context) error { return nil }
func (p *probe) Close() error                  { return nil }

// scoringProbe is a probe that reports its fixed score.
type scoringProbe struct{ *probe }

func (p scoringProbe) LastScore() (int, bool) { return p.score, true }
func (p *probe) Move(ctx context.Context, pos *env.Position, l clock.Limits) (env.Move, error) {
	p.mu.Lock()
	p.seen[p.name] = append(p.seen[p.name], l)
	p.mu.Unlock()
	select {
	case <-time.After(p.delay):
	case <-ctx.Done():
		return env.NoMove, ctx.Err()
	}
	var ml env.MoveList
	pos.LegalMoves(&ml)
	return ml.Moves[0], nil
}

// probeRegistry is the built-in registry plus "probe[:delay=D][,score=CP]"; seen
// collects each probe's limits by name, options its factory's options.
func probeRegistry(t *testing.T) (reg *player.Registry, seen map[string][]clock.Limits, options map[string][]player.Option) {
	t.Helper()
	reg, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen, options = map[string][]clock.Limits{}, map[string][]player.Option{}
	err = reg.Register("probe", "probe[:delay=D][,score=CP]", func(_ context.Context, spec player.Spec, _ player.Setup) (player.Player, error) {
		if err := spec.CheckOptions("delay", "score"); err != nil {
			return nil, err
		}
		delay := time.Duration(0)
		if v, ok := spec.Lookup("delay"); ok {
			var err error
			if delay, err = time.ParseDuration(v); err != nil {
				return nil, err
			}
		}
		mu.Lock()
		options[spec.Text] = spec.Options
		mu.Unlock()
		p := &probe{name: spec.Text, delay: delay, mu: &mu, seen: seen}
		if _, ok := spec.Lookup("score"); ok {
			var err error
			if p.score, err = spec.Int("score", 0); err != nil {
				return nil, err
			}
			return scoringProbe{p}, nil
		}
		return p, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return reg, seen, options
}

func TestPerPlayerLimits(t *testing.T) {
	reg, seen, options := probeRegistry(t)
	a, b := "probe:movetime=300ms,nodes=50", "probe:tc=20s+0.5,nodes=0"
	res := run(t, Config{Players: []string{a, b}, Registry: reg, Games: 2, PlyCap: 6, Concurrency: 1,
		Nodes: 800, MoveTime: time.Second, Overhead: 7 * time.Millisecond})
	if n := terminations(res); n[TermAdjudicated] != 2 {
		t.Fatalf("terminations %v", n)
	}
	for name, opts := range options {
		if len(opts) != 0 {
			t.Errorf("%s: the factory saw the arena's options %v", name, opts)
		}
	}
	for _, l := range seen[a] {
		if l.Nodes != 50 || l.MoveTime != 300*time.Millisecond || l.WTime != 0 || l.BTime != 0 || l.Overhead != 7*time.Millisecond {
			t.Errorf("%s got %+v, want 50 nodes, 300ms, no clock of its own and the match's 7ms overhead", a, l)
		}
	}
	for _, l := range seen[b] {
		own := l.WTime
		if l.BTime > 0 {
			own = l.BTime
		}
		// b keeps the match's move time and drops its nodes.
		if l.Nodes != 0 || l.MoveTime != time.Second || own <= 10*time.Second || own > 20*time.Second+time.Second || l.Overhead != 7*time.Millisecond {
			t.Errorf("%s got %+v, want no nodes, 1s, its own 20s clock and the match's 7ms overhead", b, l)
		}
	}
	if len(seen[a]) == 0 || len(seen[b]) == 0 {
		t.Fatalf("moves seen: %v", seen)
	}
	g := res.Games[0].Game
	if g.Tag("TimeControl") != "" || g.Tag("WhiteTimeControl") != "-" || g.Tag("BlackTimeControl") != "20+0.5" {
		t.Errorf("time control tags %v", g.Tags)
	}
}

func TestPerPlayerTimeOdds(t *testing.T) {
	// Both take 150 ms a move; only the one with 50 ms a move (and a 20 ms
	// margin) overruns.
	reg, _, _ := probeRegistry(t)
	fast, slow := "probe:delay=150ms,movetime=50ms", "probe:delay=150ms,movetime=2s"
	var log bytes.Buffer
	res := run(t, Config{Players: []string{fast, slow}, Registry: reg, Games: 2, Concurrency: 1, TimeMargin: 20 * time.Millisecond, Log: &log})
	for _, g := range res.Games {
		loser := g.White
		if g.Result == env.WhiteWins {
			loser = g.Black
		}
		if g.Termination != TermTime || res.Players[loser] != fast {
			t.Errorf("game %d: %v by %v, loser %s", g.Number, g.Result, g.Termination, res.Players[loser])
		}
		// It lost when its 70 ms were up, 20 ms over its move time.
		if g.Overrun < 20*time.Millisecond || g.Overrun > time.Second {
			t.Errorf("game %d: overrun %v", g.Number, g.Overrun)
		}
		if !strings.Contains(g.Detail, "over its 50ms move time (the margin is 20ms: --timemargin)") {
			t.Errorf("game %d: detail %q", g.Number, g.Detail)
		}
	}
}

func TestPerPlayerLimitsForUCIEngines(t *testing.T) {
	var log bytes.Buffer
	// "echo" lists options, so an option it lacks would be an error: the
	// limits must not reach it as setoption.
	spec := fakeSpec(t, "echo") + ",nodes=7"
	timed := fakeSpec(t, "echo") + ",Hash=8,movetime=0.25"
	res := run(t, Config{Players: []string{spec, timed}, Games: 2, PlyCap: 4, Concurrency: 1, Log: &log})
	if n := terminations(res); n[TermAdjudicated] != 2 {
		t.Fatalf("terminations %v, log:\n%s", n, log.String())
	}
	for _, want := range []string{spec + ": got go nodes 7\n", timed + ": got go movetime 250\n"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

func TestPerPlayerLimitErrors(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"ab:nodes=-1", `option nodes="-1": want a whole number`},
		{"ab:movetime=fast", `option movetime="fast": want a time per move`},
		{"ab:tc=10s+x", `option tc: time control "10s+x": increment "x" is neither a number nor a duration`},
		{"ab:tc=40/60", `option tc: time control "40/60": a match's clock is for the whole game, not 40 moves per period`},
		{"random:TC=0+1", `option TC: time control "0+1": an increment needs a base time`},
		// A node limit of its own for a player that ignores one is
		// refused, not accepted and ignored.
		{"ab:nodes=500", `player "ab:nodes=500": nodes=500 would be ignored: ab searches to its depth (depth=2), whatever the node count: set depth=N instead`},
		{"random:nodes=5", `player "random:nodes=5": nodes=5 would be ignored: random plays without searching`},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), Config{Players: []string{"random", tt.spec}, Games: 2})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.spec, err, tt.want)
		}
	}
}

// Times in reports keep three significant digits: a forfeit 400µs over a
// 20 ms move time says so instead of "0s over".
func TestPrecise(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{400 * time.Microsecond, "400µs"},
		{20*time.Millisecond + 437*time.Microsecond, "20.4ms"},
		{20 * time.Millisecond, "20ms"},
		{1234567 * time.Microsecond, "1.23s"},
		{90 * time.Second, "1m30s"},
		{1500 * time.Nanosecond, "2µs"},
		{0, "0s"},
		{-3456 * time.Microsecond, "-3.46ms"},
	} {
		if got := Precise(tt.d).String(); got != tt.want {
			t.Errorf("Precise(%v) = %s, want %s", tt.d, got, tt.want)
		}
	}
}
