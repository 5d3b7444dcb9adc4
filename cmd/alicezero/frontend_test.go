package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/alicezero/alicezero/internal/syncbuf"
)

// The front-end behaviour a newcomer trips over, each through the command
// line as a user meets it.

// A line far over any sane length is refused and the conversation goes on.
func TestLongLineKeepsFrontEndsUp(t *testing.T) {
	huge := strings.Repeat("e2e4 ", 1<<20) // 5 MiB
	for _, tt := range []struct {
		cmd, before, after, want string
	}{
		{"uci", "uci\n", "isready\n", "readyok"},
		{"xboard", "xboard\nprotover 2\n", "ping 9\n", "pong 9"},
		{"play", "", "fen\n", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
	} {
		t.Run(tt.cmd, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.before+"position startpos moves "+huge+"\n"+tt.after, tt.cmd)
			if code != 0 || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d, no %q after the long line; stderr %q; stdout ends %q", code, tt.want, errOut, tail(out, 300))
			}
			if !strings.Contains(strings.ToLower(out), "too long") {
				t.Errorf("the long line was not reported; stdout ends %q", tail(out, 300))
			}
			for _, l := range strings.Split(out, "\n") {
				if len(l) > 500 {
					t.Errorf("a %d-byte output line echoes the input", len(l))
				}
			}
		})
	}
}

func tail(s string, n int) string {
	return s[max(0, len(s)-n):]
}

// Unknown commands are named, not echoed whole.
func TestUnknownCommandsAreNotEchoedWhole(t *testing.T) {
	junk := "frobnicate " + strings.Repeat("blah ", 2000)
	for _, tt := range []struct{ cmd, input, want string }{
		{"uci", junk + "\nisready\n", `info string error unknown command "frobnicate"`},
		{"xboard", "xboard\nprotover 2\n" + strings.Repeat("q", 5000) + "\nping 1\n", "Error (unknown command): qqqq"},
		{"play", strings.Repeat("z", 5000) + "\nfen\n", `Illegal move "` + strings.Repeat("z", 40) + `..."`},
	} {
		out, _, code := runCLI(t, tt.input, tt.cmd)
		if code != 0 || !strings.Contains(out, tt.want) {
			t.Errorf("%s: exit %d, no %q in %q", tt.cmd, code, tt.want, tail(out, 300))
		}
		for _, l := range strings.Split(out, "\n") {
			if len(l) > 300 {
				t.Errorf("%s: a %d-byte line echoes the input", tt.cmd, len(l))
			}
		}
	}
}

// TestUCIGoNodesMustBePositive: a go with a bad limit is refused whole,
// as the README says bad input is: no search, no bestmove; the next go
// is answered.
func TestUCIGoNodesMustBePositive(t *testing.T) {
	for _, bad := range []string{"nodes 0", "nodes -5", "nodes abc", "movetime 0", "movetime -5"} {
		out, _, code := runCLI(t, "uci\nposition startpos\ngo "+bad+"\nisready\ngo nodes 5\n", "uci", "--visits", "20")
		errAt, readyAt := strings.Index(out, "info string error go: "), strings.Index(out, "readyok")
		if code != 0 || errAt < 0 || readyAt < errAt {
			t.Errorf("go %s: exit %d, output %q", bad, code, tail(out, 400))
		}
		if strings.Count(out, "\nbestmove ") != 1 || strings.Index(out, "\nbestmove ") < readyAt {
			t.Errorf("go %s: want one bestmove, after readyok (for the second go): %q", bad, tail(out, 400))
		}
	}
}

// The input ends while the engine thinks: it answers with its best move
// so far, with no internal error text.
func TestUCIEndOfInputDuringGo(t *testing.T) {
	out, errOut, code := runCLI(t, "uci\nposition startpos\ngo nodes 100000000\n", "uci")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || !strings.HasPrefix(lines[len(lines)-1], "bestmove ") || lines[len(lines)-1] == "bestmove (none)" {
		t.Fatalf("exit %d, stderr %q, output ends %q", code, errOut, tail(out, 300))
	}
	if strings.Contains(out, "error") {
		t.Errorf("error text in %q", out)
	}
}

// play, uci and xboard refuse a network they cannot load, at start, with
// the reason.
func TestBadWeightsFailAtStart(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.azck")
	garbage := filepath.Join(dir, "garbage.azck")
	var header bytes.Buffer
	header.WriteString("AZNNCKPT")
	binary.Write(&header, binary.LittleEndian, uint32(0xdeadbeef))
	header.WriteString("nonsense follows")
	if err := os.WriteFile(garbage, header.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"play", "uci", "xboard"} {
		for _, tt := range []struct{ path, reason string }{
			{missing, "does not exist"},
			{garbage, "not an AliceZero checkpoint"},
		} {
			out, errOut, code := runCLI(t, "", cmd, "--weights", tt.path)
			if code != 1 || !strings.Contains(errOut, tt.path) || !strings.Contains(errOut, tt.reason) {
				t.Errorf("%s --weights %s: exit %d, stderr %q, stdout %q", cmd, filepath.Base(tt.path), code, errOut, tail(out, 200))
			}
		}
	}
}

func TestHelpExitsZero(t *testing.T) {
	for _, c := range commands() {
		for _, h := range []string{"-h", "--help"} {
			_, errOut, code := runCLI(t, "", c.name, h)
			if code != 0 || !strings.Contains(errOut, "Usage: alicezero "+c.name) {
				t.Errorf("%s %s: exit %d, stderr %.200q", c.name, h, code, errOut)
			}
		}
	}
}

func TestUsageNamesWhatIsMissing(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"perft"}, "alicezero perft: missing DEPTH"},
		{[]string{"perft", "3", "4"}, `alicezero perft: unexpected argument "4"`},
		{[]string{"selfplay", "--config", "tiny"}, "alicezero selfplay: needs one of --out FOLDER"},
		{[]string{"learn"}, "alicezero learn: needs one of --data FOLDER"},
		{[]string{"arena", "random"}, "alicezero arena: want at least two players, got 1"},
		{[]string{"export"}, "alicezero export: missing --out"},
		{[]string{"replay", "a.pgn", "b.pgn"}, `alicezero replay: unexpected argument "b.pgn"`},
		{[]string{"uci", "now"}, `alicezero uci: unexpected argument "now"`},
		{[]string{"train", "tiny"}, `alicezero train: unexpected argument "tiny"`},
	} {
		_, errOut, code := runCLI(t, "", tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.want) || !strings.Contains(errOut, "Usage:") {
			t.Errorf("%v: exit %d, stderr %.300q; want %q and the usage", tt.args, code, errOut, tt.want)
		}
	}
}

// A run name cannot lead out of the runs folder.
func TestRunNamesStayInTheRunsFolder(t *testing.T) {
	dir := t.TempDir()
	runsDir := filepath.Join(dir, "runs")
	data := filepath.Join(dir, "data")
	os.Mkdir(data, 0o755)
	for _, args := range [][]string{
		{"train", "--config", "tiny", "--runs-dir", runsDir, "--run", "../escaped", "--iterations", "1", "--quiet"},
		{"train", "--runs-dir", runsDir, "--resume", "../escaped"},
		{"learn", "--config", "tiny", "--runs-dir", runsDir, "--run", "../escaped", "--data", data, "--once", "--quiet"},
	} {
		_, errOut, code := runCLI(t, "", args...)
		if code == 0 || !strings.Contains(errOut, "not a path") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "escaped")); err == nil {
		t.Error("a run was written outside the runs folder")
	}
	_, errOut, code := runCLI(t, "", "train", "--runs-dir", runsDir, "--resume", "nosuch")
	if code != 1 || !strings.Contains(errOut, `no run "nosuch"`) {
		t.Errorf("resume of a missing run: exit %d, stderr %q", code, errOut)
	}
}

func TestReplayLongAlgebraic(t *testing.T) {
	code, out, errOut := runReplayTest(t, "e2e4 d7d5 f1e2 d5e4 e2b5\n")
	if code != 0 || out != "fen: "+quickMateFEN+"\nstatus: checkmate\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// A move that fails says how it was read.
	for _, tt := range []struct{ in, want string }{
		{"e2e4 d7d5 f1e3\n", `ply 3 ("f1e3")`},
		{"e2e4 d7d5 f1e3\n", "read as long algebraic"},
		{"1. e4 d5 2. Bc5\n", "read as SAN"},
	} {
		code, _, errOut := runReplayTest(t, tt.in)
		if code != 1 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want %q", tt.in, code, errOut, tt.want)
		}
	}
}

// Mate and threefold repetition end a game alike: a move after either is
// refused, saying why.
func TestReplayStopsAtTheEndOfTheGame(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"1. e4 d5 2. Be2 dxe4 3. Bb5# Nf6 *\n", "the game was already over after ply 5 (checkmate)"},
		{"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 *\n", "the game was already over after ply 8 (threefold)"},
	} {
		code, out, errOut := runReplayTest(t, tt.in)
		if code != 1 || !strings.Contains(errOut, tt.want) || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", tt.in, code, out, errOut, tt.want)
		}
	}
}

// waitExit runs a command with a context cancelled after delay and
// returns its exit status and how long it ran past the cancellation.
func waitExit(t *testing.T, delay time.Duration, stdin io.Reader, args ...string) (int, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- run(ctx, args, stdin, io.Discard, io.Discard) }()
	time.Sleep(delay)
	cancel()
	t0 := time.Now()
	select {
	case code := <-done:
		return code, time.Since(t0)
	case <-time.After(20 * time.Second):
		t.Fatalf("%v did not stop within 20 s of the interrupt", args)
	}
	return 0, 0
}

func TestPerftStopsOnInterrupt(t *testing.T) {
	code, after := waitExit(t, 100*time.Millisecond, strings.NewReader(""), "perft", "9")
	if code != 130 || after > 2*time.Second {
		t.Errorf("perft 9 interrupted: exit %d after %v", code, after)
	}
}

// blockedTerminal is standard input waiting for the user: it never
// returns, until the test ends.
type blockedTerminal struct{ done chan struct{} }

func (b blockedTerminal) Read([]byte) (int, error) {
	<-b.done
	return 0, io.EOF
}

func TestReplayStopsOnInterruptWhileReading(t *testing.T) {
	in := blockedTerminal{make(chan struct{})}
	defer close(in.done)
	code, after := waitExit(t, 50*time.Millisecond, in, "replay")
	if code != 130 || after > 2*time.Second {
		t.Errorf("replay interrupted while reading: exit %d after %v", code, after)
	}
}

// ctrlDOnce is a terminal on which the user pressed Ctrl-D once: one end
// of input, then it waits for more.
type ctrlDOnce struct {
	text  string
	eof   bool
	block chan struct{}
}

func (c *ctrlDOnce) Read(p []byte) (int, error) {
	if c.text != "" {
		n := copy(p, c.text)
		c.text = c.text[n:]
		return n, nil
	}
	if !c.eof {
		c.eof = true
		return 0, io.EOF
	}
	<-c.block
	return 0, io.EOF
}

func TestReplayEndsAtTheFirstCtrlD(t *testing.T) {
	in := &ctrlDOnce{text: "1. e4 d5 2. Be2 dxe4 3. Bb5#\n", block: make(chan struct{})}
	defer close(in.block)
	done := make(chan string, 1)
	go func() {
		var out bytes.Buffer
		run(context.Background(), []string{"replay"}, in, &out, io.Discard)
		done <- out.String()
	}()
	select {
	case out := <-done:
		if !strings.Contains(out, "status: checkmate") {
			t.Errorf("stdout %q", out)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("replay still waits after Ctrl-D")
	}
}

func TestSelfPlayAndLearnExit130WhenInterrupted(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	os.Mkdir(data, 0o755)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{
		{"selfplay", "--config", "tiny", "--out", data, "--quiet"},
		{"learn", "--config", "tiny", "--data", data, "--runs-dir", dir, "--quiet"},
	} {
		var errb bytes.Buffer
		if code := run(ctx, args, strings.NewReader(""), io.Discard, &errb); code != 130 {
			t.Errorf("%s interrupted: exit %d, stderr %q", args[0], code, errb.String())
		}
	}
}

// Progress goes to a pipe or a file as plain lines: no carriage returns.
func TestArenaProgressInAPipe(t *testing.T) {
	var errb bytes.Buffer
	code := run(context.Background(), []string{"arena", "--games", "2", "--plies", "20", "random", "random:seed=2"},
		strings.NewReader(""), io.Discard, &errb)
	if code != 0 || strings.ContainsAny(errb.String(), "\r\x1b") || !strings.Contains(errb.String(), "arena: 2/2 games") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

func TestBenchStopsOnInterrupt(t *testing.T) {
	code, after := waitExit(t, 100*time.Millisecond, strings.NewReader(""), "bench", "--only", "perft_nps,train_pos_per_s")
	if code != 130 || after > 2*time.Second {
		t.Errorf("bench interrupted: exit %d after %v", code, after)
	}
}

// The front ends that talk until told to stop exit 130 when a signal
// stops them, as every interrupted command does, and 0 after quit: the
// binary, sent a real SIGINT or SIGTERM, or quit, with its input still
// open.
func TestFrontEndsExit130OnSignal(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		args  []string
		input string // sent at once
		ready string // printed once the conversation is under way
		stop  syscall.Signal
		want  int
	}{
		{"uci SIGINT", []string{"uci", "--weights", "none"}, "uci\n", "uciok", syscall.SIGINT, 130},
		{"uci quit", []string{"uci", "--weights", "none"}, "uci\n", "uciok", 0, 0},
		{"xboard SIGTERM", []string{"xboard", "--weights", "none"}, "xboard\nprotover 2\n", "feature done=1", syscall.SIGTERM, 130},
		{"xboard quit", []string{"xboard", "--weights", "none"}, "xboard\nprotover 2\n", "feature done=1", 0, 0},
		{"play SIGINT", []string{"play", "--weights", "none", "--ascii"}, "", "Type a move", syscall.SIGINT, 130},
		{"play quit", []string{"play", "--weights", "none", "--ascii"}, "", "Type a move", 0, 0},
		{"serve SIGINT", []string{"serve", "--addr", "127.0.0.1:0", "--runs-dir", ""}, "", "AliceZero is serving on", syscall.SIGINT, 130},
		{"serve SIGTERM", []string{"serve", "--addr", "127.0.0.1:0", "--runs-dir", ""}, "", "AliceZero is serving on", syscall.SIGTERM, 130},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(exe, tt.args...)
			cmd.Env = append(os.Environ(), asCLI+"=1")
			var out syncbuf.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			defer func() { _ = cmd.Process.Kill() }()
			if _, err := io.WriteString(stdin, tt.input); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(30 * time.Second); !strings.Contains(out.String(), tt.ready); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("no %q; output %q", tt.ready, tail(out.String(), 500))
				}
			}
			if tt.stop != 0 {
				err = cmd.Process.Signal(tt.stop)
			} else {
				_, err = io.WriteString(stdin, "quit\n")
			}
			if err != nil {
				t.Fatal(err)
			}
			select {
			case <-exited:
			case <-time.After(20 * time.Second):
				t.Fatalf("still running 20 s after the stop; output %q", tail(out.String(), 500))
			}
			if code := cmd.ProcessState.ExitCode(); code != tt.want || strings.Contains(out.String(), "context canceled") {
				t.Errorf("exit %d, want %d; output %q", code, tt.want, tail(out.String(), 500))
			}
		})
	}
}
