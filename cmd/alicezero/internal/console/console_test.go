package console

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/enginetest"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/lines"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

func play(t *testing.T, e engine.Interface, input string, opts Options) string {
	t.Helper()
	var out strings.Builder
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), e, strings.NewReader(input), &out, opts) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return")
	}
	return out.String()
}

func TestMovesUndoAndSave(t *testing.T) {
	e := enginetest.New()
	file := filepath.Join(t.TempDir(), "game.pgn")
	out := play(t, e, "e4\nundo\nNf3\nsave "+file+"\nquit\n", Options{User: env.White, ASCII: true})
	for _, want := range []string{"You play 1. e4/B", "AliceZero plays 1... ", "Took back your move and the engine's reply.", "You play 1. Nf3/B", "Saved the game to " + file} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), "1. Nf3") || !strings.Contains(string(data), `[Variant "Alice"]`) {
		t.Errorf("saved game %q, %v", data, err)
	}
}

func TestBadInputKeepsTheGameGoing(t *testing.T) {
	huge := strings.Repeat("x", lines.DefaultMax+1)
	out := play(t, enginetest.New(), huge+"\nKe2\nfen\n", Options{User: env.White})
	for _, want := range []string{"That line is too long", `Illegal move "Ke2"`, env.StartFEN} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%.3000s", want, out)
		}
	}
}

// The engine's mate is played and announced.
func TestEngineMateIsAnnounced(t *testing.T) {
	e := enginetest.New()
	e.Search = func(_ context.Context, p *env.Position, _ clock.Limits, _ mcts.Progress) (mcts.Result, error) {
		m, err := p.ParseUCI("e2b5")
		if err != nil {
			return mcts.Result{}, err
		}
		return mcts.Result{BestMove: m, PV: []env.Move{m}, MateIn: 1, Nodes: 5}, nil
	}
	out := play(t, e, "", Options{User: env.Black, Start: positionIn(t, env.Alice, "", "e2e4", "d7d5", "f1e2", "d5e4")})
	if !strings.Contains(out, "AliceZero plays 3. Bb5#") || !strings.Contains(out, "Checkmate: White wins (1-0), AliceZero wins.") {
		t.Errorf("got:\n%s", out)
	}
}

// What is neither a command nor a move is named in the reply, cut short:
// a line of junk is not echoed whole.
func TestUnknownInputIsNotEchoedWhole(t *testing.T) {
	for _, tt := range []struct{ name, input, want string }{
		{"a word", "Ke3", `Illegal move "Ke3"`},
		{"a line of junk", strings.Repeat("z", 5000), `Illegal move "` + strings.Repeat("z", lines.EchoMax) + `..."`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := play(t, enginetest.New(), tt.input+"\nquit\n", Options{User: env.White, ASCII: true})
			if !strings.Contains(out, tt.want) {
				t.Errorf("no %q in:\n%.3000s", tt.want, out)
			}
			for _, l := range strings.Split(out, "\n") {
				if len(l) > 300 {
					t.Errorf("a %d-byte line echoes the input: %.100q...", len(l), l)
				}
			}
		})
	}
}
