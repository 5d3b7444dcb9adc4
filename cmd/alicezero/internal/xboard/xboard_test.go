package xboard

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/board16"
	"github.com/alicezero/alicezero/cmd/alicezero/internal/enginetest"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/lines"
	"github.com/alicezero/alicezero/internal/syncbuf"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// script runs the loop on input until the input ends and returns the
// output lines.
func script(t *testing.T, e engine.Interface, input string, opts Options) []string {
	t.Helper()
	var out syncbuf.Buffer
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), e, strings.NewReader(input), &out, opts) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("Run did not return; output so far:\n%s", out.String())
	}
	return strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
}

func contains(out []string, prefix string) bool {
	for _, l := range out {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

const setup = "xboard\nprotover 2\nnew\nvariant alice\n"

func TestSetupAndRoyalKing(t *testing.T) {
	start := "16x8+0_fairy rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1"
	if out := script(t, enginetest.New(), setup, Options{}); !contains(out, "setup "+Pieces+" "+start) {
		t.Errorf("no setup line:\n%s", strings.Join(out, "\n"))
	}
	if out := script(t, enginetest.New(), setup, Options{RoyalKing: true}); !contains(out, "setup "+PiecesRoyal+" "+start) {
		t.Errorf("no royal setup line:\n%s", strings.Join(out, "\n"))
	}
}

// Bad input is answered briefly, and the engine stays up.
func TestBadInput(t *testing.T) {
	huge := strings.Repeat("z", lines.DefaultMax+1)
	for _, tt := range []struct{ name, input, want string }{
		{"unknown command", "frobnicate now\n", "Error (unknown command): frobnicate"},
		{"long unknown command", strings.Repeat("q", 3000) + "\n", "Error (unknown command): " + strings.Repeat("q", 40) + "..."},
		{"line over the limit", "setboard " + huge + "\n", "Error (line too long"},
		{"illegal move", "force\nusermove e2e4\n", "Illegal move: e2e4"},
		{"bad level", "level x y z\n", "Error (bad argument): level x y z"},
		{"bad st", "st -1\n", "Error (bad argument): st -1"},
		{"bad sd", "sd deep\n", "Error (bad argument): sd deep"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := script(t, enginetest.New(), setup+tt.input+"ping 7\n", Options{})
			if !contains(out, tt.want) {
				t.Errorf("no %q in:\n%.2000s", tt.want, strings.Join(out, "\n"))
			}
			if out[len(out)-1] != "pong 7" {
				t.Errorf("no pong after the bad input; last line %.200q", out[len(out)-1])
			}
			for _, l := range out {
				if len(l) > 300 {
					t.Errorf("a %d-byte line echoes the input", len(l))
				}
			}
		})
	}
}

// When the input ends while the engine thinks, it plays its best move so
// far.
func TestEndOfInputWhileThinking(t *testing.T) {
	e := enginetest.New()
	e.Search = func(ctx context.Context, p *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
		<-ctx.Done()
		m, _ := p.ParseUCI("e2e4")
		return mcts.Result{BestMove: m, PV: []env.Move{m}, Nodes: 10}, nil
	}
	out := script(t, e, setup+"st 1000\ngo\n", Options{})
	if out[len(out)-1] != "move e2m4" {
		t.Errorf("got:\n%s", strings.Join(out, "\n"))
	}
}

// A panic in the engine is reported as a comment, and a legal move is
// still played: XBoard never waits for ever.
func TestPanicStillMoves(t *testing.T) {
	e := enginetest.New()
	e.Search = func(context.Context, *env.Position, clock.Limits, mcts.Progress) (mcts.Result, error) {
		panic("out of cheese")
	}
	out := script(t, e, setup+"go\nping 1\n", Options{})
	if !contains(out, "# internal error: out of cheese") || !contains(out, "move ") || out[len(out)-1] != "pong 1" {
		t.Errorf("got:\n%s", strings.Join(out, "\n"))
	}
}

func TestTimeControls(t *testing.T) {
	for _, tt := range []struct {
		cmds string
		want clock.Limits
	}{
		{"level 40 5 0\ntime 30000\notim 20000\n", clock.Limits{BTime: 300 * time.Second, WTime: 200 * time.Second, MovesToGo: 40}},
		{"level 0 2:30 3\n", clock.Limits{WTime: 150 * time.Second, BTime: 150 * time.Second, WInc: 3 * time.Second, BInc: 3 * time.Second}},
		{"level 0 0.5 0.5\n", clock.Limits{WTime: 30 * time.Second, BTime: 30 * time.Second, WInc: 500 * time.Millisecond, BInc: 500 * time.Millisecond}},
		{"time 6000\notim 9000\n", clock.Limits{BTime: 60 * time.Second, WTime: 90 * time.Second}}, // clocks without a level
		{"st 5\n", clock.Limits{MoveTime: 5 * time.Second}},
		{"st 0.25\n", clock.Limits{MoveTime: 250 * time.Millisecond}},
		{"sd 7\nst 2\n", clock.Limits{MoveTime: 2 * time.Second, Depth: 7}},
		{"sd 7\nsd 0\n", clock.Limits{}},
		{"", clock.Limits{}},
	} {
		e := enginetest.New()
		script(t, e, setup+"force\nusermove e2m4\n"+tt.cmds+"go\nping 1\n", Options{})
		if got := e.Limits(); len(got) != 1 || got[0] != tt.want {
			t.Errorf("%q: limits %+v, want %+v", tt.cmds, got, tt.want)
		}
	}
}

func TestHighlights(t *testing.T) {
	pos := env.NewPosition(env.Alice)
	if _, err := pos.PlayUCI([]string{"e2e4", "d7d5"}); err != nil {
		t.Fatal(err)
	}
	sq := func(s string) board16.Square {
		q, ok := board16.ParseSquare(s)
		if !ok {
			t.Fatal(s)
		}
		return q
	}
	// The pawn on e4 of B may go to e5 of A (yellow) or take on d5 (cyan,
	// the first leg) and go on to d5 of A.
	if m, second := Highlights(pos, sq("m4"), board16.Square{}, false); m != "16/16/16/4Y6C4/16/16/16/16" || second {
		t.Errorf("lift m4: %s %v", m, second)
	}
	if m, second := Highlights(pos, sq("l5"), sq("m4"), true); m != "16/16/16/3Y12/16/16/16/16" || !second {
		t.Errorf("lift l5 after m4: %s %v", m, second)
	}
	if m, _ := Highlights(pos, sq("b1"), board16.Square{}, false); m != "16/16/16/16/16/8Y1Y5/16/16" {
		t.Errorf("lift b1: %s", m)
	}
}
