package main

import (
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/board16"
	"github.com/alicezero/alicezero/cmd/alicezero/internal/xboard"
	"github.com/alicezero/alicezero/env"
)

const xbStartFEN16 = "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1"

// xbEngineMove reads the engine's next move (one or two "move" lines) and
// checks it is legal in p, which it plays.
func xbEngineMove(t *testing.T, s *protoSession, p *env.Position) string {
	t.Helper()
	l, before := s.expectPrefix("move ")
	for _, b := range before {
		if strings.HasPrefix(b, "Illegal") || strings.HasPrefix(b, "Error") || strings.HasPrefix(b, "tellusererror") {
			t.Fatalf("unexpected %q before the move", b)
		}
	}
	mv := strings.TrimPrefix(l, "move ")
	for strings.HasSuffix(mv, ",") {
		l, _ = s.expectPrefix("move ")
		mv += strings.TrimPrefix(l, "move ")
	}
	m, err := board16.ParseMove(p, mv)
	if err != nil {
		t.Fatalf("engine move %q: %v", mv, err)
	}
	p.MakeMove(m)
	return mv
}

// xbPing sends ping n and returns the lines before the pong.
func xbPing(s *protoSession, n string) []string {
	s.send("ping " + n)
	_, before := s.expect("pong "+n, func(l string) bool { return l == "pong "+n })
	return before
}

func TestXboardSession(t *testing.T) {
	s := startSession(t, "xboard")
	s.send("xboard", "protover 2")
	_, lines := s.expectPrefix("feature done=1")
	all := strings.Join(lines, "\n")
	for _, want := range []string{`myname="AliceZero"`, `variants="` + strings.Join(xboard.Offered(), ",") + `"`, "setboard=1", "usermove=1", "ping=1", "sigint=0", "sigterm=0", "colors=0", "reuse=1", "analyze=0", "san=0"} {
		if !strings.Contains(all, want) {
			t.Errorf("features lack %s:\n%s", want, all)
		}
	}
	s.send("accepted setboard", "new", "variant alice")
	if l, _ := s.expectPrefix("setup "); l != "setup "+xboard.Pieces+" 16x8+0_fairy "+xbStartFEN16 {
		t.Fatalf("setup line %q", l)
	}
	s.send("level 0 0:30 0", "post", "hard", "force", "usermove e2m4")
	if before := xbPing(s, "1"); len(before) > 0 {
		t.Fatalf("after usermove e2m4: %v", before)
	}
	// The engine replies for Black, in 16×8 coordinates, thinking aloud.
	p := testPosition(t, env.Alice, "", "e2e4")
	s.send("time 3000", "otim 3000", "go")
	xbEngineMove(t, s, p)

	// setboard in 16×8 coordinates: after 1. e4 d5 (both pawns on B).
	s.send("force", "setboard rnbqkbnr8/ppp1pppp8/16/11p4/12P3/16/PPPP1PPP8/RNBQKBNR8 w KQkq - 0 2")
	if before := xbPing(s, "2"); len(before) > 0 {
		t.Fatalf("after setboard: %v", before)
	}
	// exd5 (a capture: in two legs, through the victim's square), undo,
	// and again in one leg.
	s.send("usermove m4l5,l5d5", "undo", "usermove m4d5", "undo", "undo")
	before := xbPing(s, "3")
	if len(before) != 1 || !strings.HasPrefix(before[0], "Error (command not legal now): undo") {
		t.Fatalf("undo past the set-up position: %v", before)
	}
	// The project's own FEN is accepted too; the engine plays White.
	s.send("setboard rnbqkbnr/ppp1pppp/8/3|p4/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "st 1", "go")
	p = testPosition(t, env.Alice, "rnbqkbnr/ppp1pppp/8/3|p4/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	xbEngineMove(t, s, p)

	// Bad input: the engine says so and stays up.
	s.send("force")
	for _, c := range []struct{ cmd, want string }{
		{"usermove e2e4", "Illegal move: e2e4"},
		{"usermove a2a9", "Illegal move: a2a9"},
		{"usermove zz", "Illegal move: zz"},
		{"frobnicate now", "Error (unknown command): frobnicate"},
		{"level x y z", "Error (bad argument)"},
		{"time soon", "Error (bad argument)"},
		{"variant normal", "Error (unsupported variant): normal"},
		{"option Nope=1", "Error (unknown option)"},
		{"setboard garbage", "tellusererror Illegal position"},
		// The reason is not cut off after a long FEN.
		{"setboard 4k3/8/8/8/8/8/8/8 w - - 0 1", "tellusererror Illegal position: position: bad FEN \"4k3/8/8/8/8/8/8/8 w - - 0 1\": position: white has 0 kings, want 1"},
		{"usermove a2i3", "Illegal move (illegal position): a2i3"},
		{"go", "Error (command not legal now): go"},
	} {
		s.send(c.cmd)
		if l, _ := s.expectPrefix(c.want); l == "" {
			t.Fatalf("no %q", c.want)
		}
	}
	s.send("new")
	xbPing(s, "4")
	s.send("quit")
	if code := s.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func TestXboardQuickMateAndResult(t *testing.T) {
	s := startSession(t, "xboard")
	s.send("xboard", "protover 2", "new", "variant alice", "force", "usermove e2m4", "usermove d7l5", "usermove f1m2", "usermove l5m4,m4e4", "post", "go")
	l, before := s.expectPrefix("move ")
	if l != "move m2b5" {
		t.Fatalf("engine played %q, want the mate m2b5", l)
	}
	thinking := false
	for _, b := range before {
		if f := strings.Fields(b); len(f) >= 5 && f[1] == "100001" && f[4] == "m2b5" {
			thinking = true
		}
	}
	if !thinking {
		t.Errorf("no thinking line with the mate score: %v", before)
	}
	if l, _ := s.expectPrefix("1-0"); l != "1-0 {White mates}" {
		t.Fatalf("result line %q", l)
	}
	// The user mates: the result is announced after the user's move.
	s.send("new", "force", "usermove e2m4", "usermove d7l5", "usermove f1m2", "usermove l5e4", "usermove m2b5")
	if l, _ := s.expectPrefix("1-0"); l != "1-0 {White mates}" {
		t.Fatalf("result line %q", l)
	}
	s.send("usermove a7i6")
	s.expectPrefix("Illegal move (the game is over")
	s.send("result 1-0 {White mates}", "remove")
	// Back to before 2... dxe4: Black to move; the engine plays it.
	s.send("go")
	xbEngineMove(t, s, testPosition(t, env.Alice, "", "e2e4", "d7d5", "f1e2"))
	s.send("quit")
	if code := s.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func TestXboardMoveNowAndHighlight(t *testing.T) {
	s := startSession(t, "xboard")
	s.send("xboard", "protover 2", "new", "variant alice", "force", "usermove e2m4", "usermove d7l5")
	// lift: where the pawn on e4 of board B may go: e5 on A (yellow), or
	// take on d5 (cyan, the first leg), then on to d5 of A.
	s.send("lift m4")
	if l, _ := s.expectPrefix("highlight "); l != "highlight 16/16/16/4Y6C4/16/16/16/16" {
		t.Fatalf("lift m4: %q", l)
	}
	s.send("lift l5")
	if l, _ := s.expectPrefix("highlight "); l != "highlight 16/16/16/3Y12/16/16/16/16" {
		t.Fatalf("lift l5 (second leg): %q", l)
	}
	s.send("put d5", "lift b1")
	if l, _ := s.expectPrefix("highlight "); l != "highlight 16/16/16/16/16/8Y1Y5/16/16" {
		t.Fatalf("lift b1: %q", l)
	}
	// A long search, cut short by "?".
	s.send("st 60", "go")
	time.Sleep(200 * time.Millisecond)
	t0 := time.Now()
	s.send("?")
	xbEngineMove(t, s, testPosition(t, env.Alice, "", "e2e4", "d7d5"))
	if el := time.Since(t0); el > 3*time.Second {
		t.Errorf("move now took %v", el)
	}
	// force during a search: no move comes.
	s.send("force", "undo", "go")
	time.Sleep(100 * time.Millisecond)
	s.send("force")
	if got := s.quiet(300 * time.Millisecond); containsLine(got, "move ") {
		t.Fatalf("a move after force: %v", got)
	}
	s.in.Close()
	if code := s.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func TestXboardRoyalKing(t *testing.T) {
	s := startSession(t, "xboard", "--royal-king")
	s.send("xboard", "protover 2", "variant alice")
	if l, _ := s.expectPrefix("setup "); l != "setup (PNBRQKpnbrqk) 16x8+0_fairy "+xbStartFEN16 {
		t.Fatalf("setup line %q", l)
	}
	s.send("quit")
	if code := s.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// The real engine changes variant on XBoard's variant command and starts
// in the one --variant names; alice-3 is refused at the start.
func TestXboardVariants(t *testing.T) {
	s := startSession(t, "xboard", "--variant", "alice-mini", "--weights", "none")
	s.send("xboard", "protover 2", "new", "variant alice-mini")
	if l, _ := s.expectPrefix("setup "); l != "setup "+xboard.Pieces+" 8x8+0_fairy rqkr4/nbbn4/pppp4/8/8/PPPP4/NBBN4/RQKR4 w - - 0 1" {
		t.Fatalf("setup line %q", l)
	}
	s.send("variant alice-black-b")
	if l, _ := s.expectPrefix("setup "); l != "setup "+xboard.Pieces+" 16x8+0_fairy 8rnbqkbnr/8pppppppp/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1" {
		t.Fatalf("setup line %q", l)
	}
	s.send("usermove e2m4")
	p := testPosition(t, env.AliceBlackB, env.StartFENBlackB, "e2e4")
	xbEngineMove(t, s, p)
	s.send("quit")
	if code := s.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if _, stderr, code := runCLI(t, "", "xboard", "--variant", "alice-3"); code == 0 || !strings.Contains(stderr, "alice-3") {
		t.Errorf("--variant alice-3: exit %d, %s", code, stderr)
	}
}
