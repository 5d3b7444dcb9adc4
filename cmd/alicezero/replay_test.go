package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runReplayTest(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), append([]string{"replay"}, args...), strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

const quickMatePGN = `[Event "quick mate"]
[Site "?"]
[Date "????.??.??"]
[Round "1"]
[White "?"]
[Black "?"]
[Result "1-0"]
[Variant "Alice"]

1. e4 d5 2. Be2 dxe4 3. Bb5# 1-0
`

const quickMateFEN = "rnbqkbnr/ppp1pppp/8/1B6/4p3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3"

func TestReplay(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mate.pgn")
	if err := os.WriteFile(file, []byte(quickMatePGN), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"quick mate from a file", "", []string{file}, "fen: " + quickMateFEN + "\nstatus: checkmate\n"},
		{"quick mate from stdin", quickMatePGN, nil, "fen: " + quickMateFEN + "\nstatus: checkmate\n"},
		{"dash is stdin", quickMatePGN, []string{"-"}, "fen: " + quickMateFEN + "\nstatus: checkmate\n"},
		{"bare movetext", "1. e4 d5 2. Be2 dxe4 3. Bb5#\n", nil, "fen: " + quickMateFEN + "\nstatus: checkmate\n"},
		{"no moves", "*", nil, "fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nstatus: ongoing\n"},
		{"empty input", "", nil, ""},
		{
			"two games",
			quickMatePGN + "\n[Event \"second\"]\n[Result \"*\"]\n\n1. Nf3 e6 2. Ne5 Bc5 3. Nxf7 Bg1/A *\n",
			nil,
			"fen: " + quickMateFEN + "\nstatus: checkmate\n" +
				"fen: rnbqk1nr/pppp1|Npp/4|p3/8/8/8/PPPPPPPP/RNBQKBbR w KQkq - 1 4\nstatus: ongoing\n",
		},
		{
			"comments and variations",
			"[Variant \"Alice\"]\n{opening note}\n1. e4 {the pawn crosses} d5 (1... e5 2. Nf3 (2. d4) Nc6) 2. Be2 $1 dxe4 ; to the end of the line\n3. Bb5# 1-0\n",
			nil,
			"fen: " + quickMateFEN + "\nstatus: checkmate\n",
		},
		{
			// En passant needs --variant alice-ep (TestReplayErrors has it
			// refused under the default rules).
			"variant flag",
			"1. e4 d5 2. e5 f5 3. exf6 *\n",
			[]string{"--variant", "alice-ep"},
			"fen: rnbqkbnr/ppp1p1pp/5|P2/3|p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3\nstatus: ongoing\n",
		},
		{
			"three boards",
			"[Variant \"Alice 3\"]\n\n1. e4/C d5/B 2. Bb5+/C *\n",
			nil,
			"fen: rnbqkbnr/ppp1pppp/8/1||B1|p4/4||P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2\nstatus: ongoing\n",
		},
		{
			"variant flag for a game without a tag",
			// 3...Qe5: e5 of A is taken by the knight, so the queen stays on B.
			"1. Nf3 d5 2. Ne5 Qd6 3. a3 Qe5 *\n",
			[]string{"--variant", "alice-optional-transfer"},
			"fen: rnb1kbnr/ppp1pppp/8/3|p[N|q]3/8/|P7/1PPPPPPP/RNBQKB1R w KQkq - 1 4\nstatus: ongoing\n",
		},
		{
			"variant tag beats the flag",
			"[Variant \"Alice EP\"]\n\n1. e4 d5 2. e5 f5 3. exf6 *\n",
			nil,
			"fen: rnbqkbnr/ppp1p1pp/5|P2/3|p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3\nstatus: ongoing\n",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runReplayTest(t, c.stdin, c.args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			if out != c.want {
				t.Errorf("stdout\n%s\nwant\n%s", out, c.want)
			}
			if errOut != "" {
				t.Errorf("stderr %q", errOut)
			}
		})
	}
}

// TestReplayStatuses checks the status line for each way a game ends; the
// positions come from the generator, never from the test.
func TestReplayStatuses(t *testing.T) {
	for _, c := range []struct {
		name, pgn, status string
	}{
		{"checkmate", quickMatePGN, "checkmate"},
		{"ongoing", "1. e4 *", "ongoing"},
		// The queen lands on b6 of board B, guarding every square the king
		// on a8 of board A would land on.
		{"stalemate", "[FEN \"k7/8/8/8/8/8/8/1Q5K w - - 0 1\"]\n\n1. Qb6 *", "stalemate"},
		{"threefold", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *", "threefold"},
		{"fifty-move", "[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 99 80\"]\n\n80. Ra2 *", "fifty-move"},
		// The white king takes the last black man: only the kings remain.
		{"dead position", "[FEN \"4k3/8/8/8/8/8/3n4/4K3 w - - 0 1\"]\n\n1. Kxd2 *", "dead-position"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runReplayTest(t, c.pgn)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			if !strings.HasSuffix(out, "status: "+c.status+"\n") {
				t.Errorf("stdout %q, want status %s", out, c.status)
			}
		})
	}
}

func TestReplayErrors(t *testing.T) {
	for _, c := range []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stdout string   // games before and after the bad one are still reported
		errHas []string // in stderr
	}{
		{
			"illegal move",
			"1. Nf3 e6 2. Ne5 Bc5 3. Nxf7 Qd4 *\n",
			nil, 1, "",
			[]string{"game 1, ply 6 (\"Qd4\")", "illegal move"},
		},
		{
			"illegal move in the second game",
			quickMatePGN + "\n[Event \"bad\"]\n\n1. e4 e5 2. Ke2 Kxf7 *\n\n[Event \"good\"]\n\n1. e4 *\n",
			nil, 1,
			"fen: " + quickMateFEN + "\nstatus: checkmate\n" +
				"fen: rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nstatus: ongoing\n",
			[]string{"game 2, ply 4 (\"Kxf7\")", "line 14"},
		},
		{
			"two bad games",
			"1. e5 *\n1. e4 e4 *\n",
			nil, 1, "",
			[]string{"game 1, ply 1 (\"e5\")", "game 2, ply 2 (\"e4\")"},
		},
		{"en passant under the default rules", "1. e4 d5 2. e5 f5 3. exf6 *\n", nil, 1, "", []string{"ply 5 (\"exf6\")"}},
		{"lone annotation", "1. e4 ??? *", nil, 0, "fen: rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nstatus: ongoing\n", nil},
		{"garbage", "1. e4 e5@ *", nil, 1, "", []string{"game 1: unexpected character '@' (line 1)"}},
		{"unknown variant tag", "[Variant \"Chess960\"]\n\n1. e4 *", nil, 1, "", []string{"game 1", "Chess960"}},
		{"unknown variant flag", "", []string{"--variant", "chess"}, 1, "", []string{"--variant: unknown variant \"chess\""}},
		{"missing file", "", []string{"/nonexistent/games.pgn"}, 1, "", []string{"/nonexistent/games.pgn"}},
		{"directory", "", []string{os.TempDir()}, 1, "", []string{"is a directory"}},
		{"two files", "", []string{"a.pgn", "b.pgn"}, 2, "", []string{"Usage"}},
		{"bad flag", "", []string{"--nope"}, 2, "", []string{"-nope"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runReplayTest(t, c.stdin, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, c.code, errOut)
			}
			if out != c.stdout {
				t.Errorf("stdout %q, want %q", out, c.stdout)
			}
			for _, s := range c.errHas {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr %q lacks %q", errOut, s)
				}
			}
		})
	}
}

func TestReplayCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	// An interrupted command exits 130, as shells expect after SIGINT.
	if code := run(ctx, []string{"replay"}, strings.NewReader(quickMatePGN), &out, &errOut); code != 130 || out.Len() != 0 {
		t.Errorf("cancelled: exit %d, stdout %q", code, out.String())
	}
}

// --tactics prints, as EPD, the mate a named player's move allowed, and
// nothing for the player who mated.
func TestReplayTactics(t *testing.T) {
	pgn := strings.NewReplacer(`[White "?"]`, `[White "Al"]`, `[Black "?"]`, `[Black "Bo"]`).Replace(quickMatePGN)
	code, out, errOut := runReplayTest(t, pgn, "--tactics", "Bo", "--mate", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "am dxe4; adm 1;") || !strings.Contains(lines[0], `id "game 1 move 2"`) {
		t.Fatalf("replay --tactics Bo printed %q, want the one EPD line of 2...dxe4 allowing mate in one", out)
	}
	if code, out, _ := runReplayTest(t, pgn, "--tactics", "Al"); code != 0 || out != "" {
		t.Errorf("replay --tactics Al: exit %d, printed %q; want nothing (White mated at once)", code, out)
	}
	if code, _, errOut := runReplayTest(t, pgn, "--tactics", "Bo", "--mate", "0"); code == 0 || !strings.Contains(errOut, "--mate 0") {
		t.Errorf("--mate 0: exit %d, %q; want a usage error naming it", code, errOut)
	}
}
