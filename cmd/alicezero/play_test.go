package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
)

// playScript runs the play command on a whole script of input lines and
// returns its output.
func playScript(t *testing.T, script string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"play"}, args...), strings.NewReader(script), &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d; stderr: %s\nstdout:\n%s", code, errb.String(), out.String())
	}
	return out.String()
}

// fenAfter2dxe4 is the rule book's quick-mate position, White to play Bb5#.
const fenAfter2dxe4 = "rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP|BPPP/RNBQK1NR w KQkq - 0 3"

func TestPlayMovesUndoSave(t *testing.T) {
	pgn := filepath.Join(t.TempDir(), "game.pgn")
	out := playScript(t, strings.Join([]string{
		"e4",    // SAN
		"Ke5",   // illegal: rejected, the game goes on
		"d2d3",  // UCI (legal whatever Black replied)
		"undo",  // takes back d3 and the reply
		"d2d3",  // again
		"flip",  // boards turned round
		"moves", // the legal moves
		"save " + pgn,
		"quit",
	}, "\n")+"\n", "--visits", "30")
	for _, want := range []string{
		"You play 1. e4/B",
		`Illegal move "Ke5"`,
		"You play 2. d3/B",
		"Took back your move and the engine's reply.",
		"legal moves:",
		"Saved the game to " + pgn,
		"Board A", "Board B",
		"♙", "♟", "[", // Unicode pieces, the last move in brackets
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the output:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "AliceZero plays"); n != 3 {
		t.Errorf("%d engine moves, want 3:\n%s", n, out)
	}
	// The flipped board lists rank 1 first and file h first.
	i := strings.LastIndex(out, "Board A")
	if j := strings.Index(out[i:], "\n"); !strings.HasPrefix(strings.TrimSpace(out[i+j+1:]), "h  g  f") {
		t.Errorf("flip did not turn the boards:\n%s", out[i:])
	}
	f, err := os.Open(pgn)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := env.ReadPGN(f, env.Alice)
	if err != nil || len(games) != 1 {
		t.Fatalf("reading the saved PGN: %v, %d games", err, len(games))
	}
	g := games[0]
	if len(g.Moves) != 4 || g.Moves[0].UCI() != "e2e4" || g.Moves[2].UCI() != "d2d3" || g.Tag("White") != "You" || g.Tag("Black") != "AliceZero" {
		t.Fatalf("saved game: %+v", g)
	}
	if _, err := g.FinalPosition(); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(pgn)
	if !strings.Contains(string(raw), `[Variant "Alice"]`) {
		t.Fatalf("no Variant tag:\n%s", raw)
	}
}

func TestPlayUserMates(t *testing.T) {
	out := playScript(t, "Bb5\nundo\nBb5#\nNf3\nsave\nnew\nquit\n", "--fen", fenAfter2dxe4, "--visits", "20", "--ascii")
	if n := strings.Count(out, "*** Checkmate: White wins (1-0), you win. ***"); n != 2 {
		t.Fatalf("%d mate announcements, want 2:\n%s", n, out)
	}
	for _, want := range []string{"You play 3. Bb5#/A", "Took back your move.", "The game is over (checkmate)", "save: name a file", "New game. You play White."} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the output:\n%s", want, out)
		}
	}
	if strings.Contains(out, "AliceZero plays") || strings.ContainsAny(out, "♙♟") {
		t.Errorf("the engine moved, or Unicode pieces with --ascii:\n%s", out)
	}
}

func TestPlayEngineMatesAsWhite(t *testing.T) {
	// The user is Black; the engine, White to move, mates at once.
	out := playScript(t, "quit\n", "--fen", fenAfter2dxe4, "--colour", "black", "--visits", "50")
	for _, want := range []string{"AliceZero plays 3. Bb5#/A", "AliceZero mates in 1", "*** Checkmate: White wins (1-0), AliceZero wins. ***"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the output:\n%s", want, out)
		}
	}
}

func TestPlayHintHelpAndBadFlags(t *testing.T) {
	out := playScript(t, "help\nhint\nfen\nxyzzy\n", "--visits", "20")
	for _, want := range []string{"Commands:", "Hint: ", env.StartFEN, `Illegal move "xyzzy"`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the output:\n%s", want, out)
		}
	}
	for _, args := range [][]string{{"--colour", "green"}, {"--variant", "chess"}, {"--fen", "garbage"}, {"--visits", "-3"}, {"stray"}} {
		var o, e bytes.Buffer
		if code := run(context.Background(), append([]string{"play"}, args...), strings.NewReader(""), &o, &e); code == 0 {
			t.Errorf("play %v: exit 0", args)
		}
	}
}
