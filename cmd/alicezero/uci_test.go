package main

import (
	"bufio"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/syncbuf"
	"github.com/alicezero/alicezero/model"
)

// protoSession drives one run of a protocol command through pipes, so a
// test can wait for an answer before it sends the next line.
type protoSession struct {
	t      *testing.T
	in     *io.PipeWriter
	lines  chan string
	code   chan int
	stderr *syncbuf.Buffer
}

const protoTimeout = 20 * time.Second

func startSession(t *testing.T, args ...string) *protoSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &protoSession{t: t, in: inW, lines: make(chan string, 1024), code: make(chan int, 1), stderr: &syncbuf.Buffer{}}
	go func() {
		code := run(context.Background(), args, inR, outW, s.stderr)
		_ = outW.Close()
		_ = inR.Close()
		s.code <- code
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		for range s.lines {
		}
	})
	return s
}

func (s *protoSession) send(lines ...string) {
	s.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			s.t.Fatalf("sending %q: %v", l, err)
		}
	}
}

// expect reads output until a line satisfies ok and returns it with the
// lines read before it.
func (s *protoSession) expect(what string, ok func(string) bool) (string, []string) {
	s.t.Helper()
	var before []string
	timer := time.NewTimer(protoTimeout)
	defer timer.Stop()
	for {
		select {
		case l, open := <-s.lines:
			if !open {
				s.t.Fatalf("output ended waiting for %s; got:\n%s\nstderr: %s", what, strings.Join(before, "\n"), s.stderr.String())
			}
			if ok(l) {
				return l, before
			}
			before = append(before, l)
		case <-timer.C:
			s.t.Fatalf("no %s within %v; got:\n%s", what, protoTimeout, strings.Join(before, "\n"))
		}
	}
}

func (s *protoSession) expectPrefix(prefix string) (string, []string) {
	s.t.Helper()
	return s.expect(strconvQuote(prefix), func(l string) bool { return strings.HasPrefix(l, prefix) })
}

func strconvQuote(s string) string { return `"` + s + `"` }

// quiet reports the lines output within d (none expected by the caller).
func (s *protoSession) quiet(d time.Duration) []string {
	var got []string
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		select {
		case l, open := <-s.lines:
			if !open {
				return got
			}
			got = append(got, l)
		case <-timer.C:
			return got
		}
	}
}

// exit waits for the command to end and returns its exit status.
func (s *protoSession) exit() int {
	s.t.Helper()
	select {
	case c := <-s.code:
		return c
	case <-time.After(protoTimeout):
		s.t.Fatal("the command did not end")
	}
	return -1
}

func containsLine(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// position builds a position from a FEN ("" = start) and UCI moves.
func testPosition(t *testing.T, v env.Variant, fen string, moves ...string) *env.Position {
	t.Helper()
	if fen == "" {
		fen = env.StartFEN
	}
	p, err := env.ParseFEN(fen, v)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.PlayUCI(moves); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkBestmove checks that a bestmove line names a legal move of p and
// returns the move.
func checkBestmove(t *testing.T, p *env.Position, line string) string {
	t.Helper()
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "bestmove" {
		t.Fatalf("not a bestmove line: %q", line)
	}
	if _, err := p.ParseUCI(f[1]); err != nil {
		t.Fatalf("bestmove %s is not legal in %s: %v", f[1], p.FEN(), err)
	}
	if len(f) == 4 && f[2] == "ponder" {
		q := p.Clone()
		m, _ := q.ParseUCI(f[1])
		q.MakeMove(m)
		if _, err := q.ParseUCI(f[3]); err != nil {
			t.Fatalf("ponder move %s is not legal after %s: %v", f[3], f[1], err)
		}
	}
	return f[1]
}

func uciHandshake(s *protoSession) []string {
	s.send("uci")
	_, lines := s.expectPrefix("uciok")
	s.send("isready")
	s.expectPrefix("readyok")
	return lines
}

func TestUCIHandshakeAndStartpos(t *testing.T) {
	s := startSession(t, "uci")
	lines := uciHandshake(s)
	for _, want := range []string{
		"id name AliceZero",
		"id author ",
		"option name UCI_Variant type combo default alice var alice var alice-ep var alice-black-b var alice-null var alice-optional-transfer var alice-stone var alice-mini var alice-3",
		"option name Threads type spin default 1 min 1",
		"option name Hash type spin default 256 min 1",
		"option name Weights type string default <empty>",
		"option name MultiPV type spin default 1 min 1",
		"option name Visits type spin default 800 min 1",
		"option name UCI_ShowWDL type check default false",
	} {
		if !containsLine(lines, want) {
			t.Errorf("no line %q in:\n%s", want, strings.Join(lines, "\n"))
		}
	}
	s.send("ucinewgame", "position startpos", "go nodes 50")
	best, before := s.expectPrefix("bestmove")
	checkBestmove(t, testPosition(t, env.Alice, ""), best)
	if !containsLine(before, "info depth ") {
		t.Errorf("no info line before %q: %v", best, before)
	}
	for _, l := range before {
		if strings.HasPrefix(l, "info depth") && (!strings.Contains(l, " score cp ") || !strings.Contains(l, " nodes ") || !strings.Contains(l, " pv ")) {
			t.Errorf("info line lacks score, nodes or pv: %q", l)
		}
	}
	s.send("quit")
	if code := s.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func TestUCIQuickMate(t *testing.T) {
	s := startSession(t, "uci")
	uciHandshake(s)
	s.send("position startpos moves e2e4 d7d5 f1e2 d5e4", "go nodes 100")
	best, before := s.expectPrefix("bestmove")
	if m := checkBestmove(t, testPosition(t, env.Alice, "", "e2e4", "d7d5", "f1e2", "d5e4"), best); m != "e2b5" {
		t.Fatalf("bestmove %s, want the mate e2b5", m)
	}
	if !containsLine(before, "info depth") || !strings.Contains(strings.Join(before, "\n"), "score mate 1") {
		t.Errorf("no score mate 1 in:\n%s", strings.Join(before, "\n"))
	}
	// After the mate there is no legal move: Stockfish's answer, with no
	// error text.
	s.send("position startpos moves e2e4 d7d5 f1e2 d5e4 e2b5", "go nodes 10")
	best, before = s.expectPrefix("bestmove")
	if best != "bestmove (none)" || len(before) != 1 || before[0] != "info depth 0 score mate 0" {
		t.Fatalf("after mate: %q after %q", best, before)
	}
	s.send("quit")
	if code := s.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func TestUCIFenWithBoardB(t *testing.T) {
	s := startSession(t, "uci")
	uciHandshake(s)
	// After 1. e4 (the pawn on board B) and 1... d5.
	fen := "rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	s.send("position fen "+fen+" moves d7d5", "go nodes 40")
	best, _ := s.expectPrefix("bestmove")
	checkBestmove(t, testPosition(t, env.Alice, fen, "d7d5"), best)
	// A position with pieces on both boards, White to move.
	fen2 := "8/2p2p2/4|p3/3pP|k2/8/2|P1|P2p/4K1|p1/r3N3 w - - 1 59"
	s.send("position fen "+fen2, "go nodes 40")
	best, _ = s.expectPrefix("bestmove")
	checkBestmove(t, testPosition(t, env.Alice, fen2), best)
	s.send("quit")
	s.exit()
}

func TestUCIInfiniteAndStop(t *testing.T) {
	s := startSession(t, "uci")
	uciHandshake(s)
	s.send("position startpos moves g1f3", "go infinite")
	if got := s.quiet(300 * time.Millisecond); containsLine(got, "bestmove") {
		t.Fatalf("bestmove before stop: %v", got)
	}
	s.send("isready") // answered while searching
	s.expectPrefix("readyok")
	t0 := time.Now()
	s.send("stop")
	best, _ := s.expectPrefix("bestmove")
	if el := time.Since(t0); el > 2*time.Second {
		t.Errorf("bestmove %v after stop", el)
	}
	checkBestmove(t, testPosition(t, env.Alice, "", "g1f3"), best)
	// A stop with no search running is harmless; go with a clock returns
	// in time.
	s.send("stop", "go wtime 2000 btime 2000 winc 0 binc 0")
	t0 = time.Now()
	best, _ = s.expectPrefix("bestmove")
	if el := time.Since(t0); el > 2*time.Second {
		t.Errorf("go wtime 2000 took %v", el)
	}
	checkBestmove(t, testPosition(t, env.Alice, "", "g1f3"), best)
	// go ponder searches until ponderhit (or stop).
	s.send("go ponder")
	if got := s.quiet(200 * time.Millisecond); containsLine(got, "bestmove") {
		t.Fatalf("bestmove while pondering: %v", got)
	}
	s.send("ponderhit")
	best, _ = s.expectPrefix("bestmove")
	checkBestmove(t, testPosition(t, env.Alice, "", "g1f3"), best)
	// quit while searching ends the engine.
	s.send("go infinite", "quit")
	if code := s.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func TestUCIMalformedInput(t *testing.T) {
	s := startSession(t, "uci")
	uciHandshake(s)
	s.send("position startpos moves e2e4")
	for _, bad := range []string{
		"position fen garbage",
		"position startpos moves e2e5",
		"position",
		"position sideways",
		"frobnicate",
		"setoption name Nope value 1",
		"setoption name Threads value 0",
		"setoption name Hash value lots",
		"setoption name UCI_Variant value chess",
		"setoption",
	} {
		s.send(bad)
		if l, _ := s.expectPrefix("info string error"); l == "" {
			t.Fatalf("no error for %q", bad)
		}
		s.send("isready")
		s.expectPrefix("readyok")
	}
	// The position is still the one after 1. e4.
	// A go whose limit cannot be read is bad input: refused whole (no
	// bestmove follows; readyok comes next).
	s.send("go nodes x", "isready")
	s.expectPrefix("info string error")
	if l, _ := s.expectPrefix("readyok"); l == "" {
		t.Fatal("no readyok after the refused go")
	}
	s.send("go depth 3 nodes 20")
	best, _ := s.expectPrefix("bestmove")
	checkBestmove(t, testPosition(t, env.Alice, "", "e2e4"), best)
	s.send("", "   ", "isready")
	s.expectPrefix("readyok")
	s.in.Close() // end of input: as quit
	if code := s.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func TestUCIOptionsMultiPVAndVariant(t *testing.T) {
	s := startSession(t, "uci")
	uciHandshake(s)
	s.send("setoption name Hash value 8", "setoption name threads value 2", "setoption name MultiPV value 3",
		"setoption name UCI_ShowWDL value true", "setoption name Visits value 60", "setoption name Move Overhead value 10",
		"setoption name UCI_Variant value alice-ep", "isready")
	_, before := s.expectPrefix("readyok")
	if containsLine(before, "info string error") {
		t.Fatalf("errors: %v", before)
	}
	s.send("ucinewgame", "position startpos moves e2e4 a7a6", "go")
	best, before := s.expectPrefix("bestmove")
	checkBestmove(t, testPosition(t, env.AliceEP, "", "e2e4", "a7a6"), best)
	for k := 1; k <= 3; k++ {
		found := false
		for _, l := range before {
			if strings.Contains(l, " multipv "+string(rune('0'+k))+" ") && strings.Contains(l, " wdl ") {
				found = true
			}
		}
		if !found {
			t.Errorf("no multipv %d line with wdl in:\n%s", k, strings.Join(before, "\n"))
		}
	}
	s.send("quit")
	s.exit()
}

func TestUCIWeights(t *testing.T) {
	cfg, err := model.Preset("tiny")
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWeights(cfg, 7)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tiny.ckpt")
	if err := model.SaveCheckpoint(path, &model.Checkpoint{Weights: w, Preset: "tiny"}); err != nil {
		t.Fatal(err)
	}
	s := startSession(t, "uci", "--weights", path)
	uciHandshake(s)
	s.send("position startpos", "go nodes 30")
	best, before := s.expectPrefix("bestmove")
	if containsLine(before, "info string error") {
		t.Fatalf("errors: %v", before)
	}
	checkBestmove(t, testPosition(t, env.Alice, ""), best)
	s.send("d")
	if l, _ := s.expectPrefix("info string network"); !strings.Contains(l, "tiny") {
		t.Errorf("network line %q", l)
	}
	// A missing checkpoint: an error at isready, and no search in the
	// network's name (with the plain search instead) until the GUI names
	// something that loads: each go is refused, with a bestmove so that
	// the GUI is not left waiting.
	missing := filepath.Join(t.TempDir(), "missing.azck")
	s.send("setoption name Weights value "+missing, "isready")
	if l, _ := s.expectPrefix("info string error"); !strings.Contains(l, missing) {
		t.Errorf("isready with missing weights: %q does not name them", l)
	}
	s.expectPrefix("readyok")
	for range 2 {
		s.send("go nodes 20")
		l, _ := s.expectPrefix("info string error")
		if !strings.Contains(l, "go refused") || !strings.Contains(l, missing) || !strings.Contains(l, "to none for the plain search") {
			t.Errorf("go with missing weights: %q", l)
		}
		if best, before := s.expectPrefix("bestmove"); best != "bestmove (none)" || containsLine(before, "info depth") {
			t.Fatalf("go with missing weights searched: %v, %q", before, best)
		}
	}
	// The plain search, chosen, plays.
	s.send("setoption name Weights value none", "isready")
	if _, before = s.expectPrefix("readyok"); containsLine(before, "info string error") {
		t.Fatalf("errors: %v", before)
	}
	s.send("go nodes 20")
	best, _ = s.expectPrefix("bestmove")
	checkBestmove(t, testPosition(t, env.Alice, ""), best)
	s.send("setoption name Weights value <empty>", "isready")
	_, before = s.expectPrefix("readyok")
	if containsLine(before, "info string error") {
		t.Fatalf("errors: %v", before)
	}
	s.send("quit")
	s.exit()
}

func TestUCIFlags(t *testing.T) {
	s := startSession(t, "uci", "extra")
	if code := s.exit(); code != 2 {
		t.Fatalf("exit %d for a stray argument", code)
	}
	s = startSession(t, "uci", "--threads", "-1")
	if code := s.exit(); code == 0 {
		t.Fatal("threads -1 accepted")
	}
}
