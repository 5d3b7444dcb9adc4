package pychess

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
)

// readLines returns a testdata file's lines, without comments (#) and
// blank lines.
func readLines(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// The fake server must speak exactly the recorded formats: each of its
// templates reproduces the recorded line from the same values.
func TestFakeServerWritesRecordedPayloads(t *testing.T) {
	challenges := readLines(t, "event_challenge.ndjson")
	for _, line := range challenges {
		ev, err := parseEvent([]byte(line))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if got := challengeLine(ev.Challenge); got != line {
			t.Errorf("challenge:\n got %s\nwant %s", got, line)
		}
	}
	checks := []struct{ file, got string }{
		{"event_gamestart.ndjson", gameStartLine("Yq3xPk7Z")},
		{"event_ping.ndjson", pingLine},
		{"game_end.ndjson", gameEndLine("Yq3xPk7Z")},
		{"game_full.ndjson", gameFullLine("Yq3xPk7Z", "alice", "Tweedledum", "AliceZeroBot", "", 1767225600,
			gameStateLine(nil, "300000", "300000", 3, false, false))},
	}
	for _, c := range checks {
		if want := readLines(t, c.file)[0]; c.got != want {
			t.Errorf("%s:\n got %s\nwant %s", c.file, c.got, want)
		}
	}
	states := readLines(t, "game_state.ndjson")
	if got := gameStateLine([]string{"e2e4", "d7d5"}, "297412", "298150", 3, false, false); got != states[0] {
		t.Errorf("gameState:\n got %s\nwant %s", got, states[0])
	}
	if got := gameStateLine([]string{"e2e4"}, pyNumber(30000, true), pyNumber(30000, true), 0, false, false); got != states[1] {
		t.Errorf("gameState with float clocks:\n got %s\nwant %s", got, states[1])
	}
}

func TestParseRecordedEvents(t *testing.T) {
	lines := readLines(t, "event_challenge.ndjson")
	ev, err := parseEvent([]byte(lines[0]))
	if err != nil {
		t.Fatal(err)
	}
	c := ev.Challenge
	if ev.Type != EventChallenge || c.ID != "Yq3xPk7Z" || c.Variant.Key != "alice" || c.Challenger.Name != "Tweedledum" ||
		c.TimeControl.Type != "clock" || c.TimeControl.Base() != 5*time.Minute || c.TimeControl.Inc() != 3*time.Second ||
		Estimate(c.TimeControl.Control()) != 7*time.Minute || c.Color != "random" || c.TimeControl.String() != "300+3" {
		t.Errorf("challenge read as %+v", c)
	}
	ev, err = parseEvent([]byte(lines[1]))
	if err != nil || ev.Challenge.TimeControl.Type != "correspondence" || ev.Challenge.TimeControl.DaysPerTurn != 3 {
		t.Errorf("correspondence challenge read as %+v, %v", ev.Challenge, err)
	}

	ev, err = parseEvent([]byte(readLines(t, "event_gamestart.ndjson")[0]))
	if err != nil || ev.Type != EventGameStart || ev.GameID != "Yq3xPk7Z" {
		t.Errorf("gameStart read as %+v, %v", ev, err)
	}
	for _, f := range []string{"event_ping.ndjson", "event_terminated.ndjson"} {
		if ev, err := parseEvent([]byte(readLines(t, f)[0])); err != nil || ev.Type == "" {
			t.Errorf("%s read as %+v, %v", f, ev, err)
		}
	}

	gev, err := parseGameEvent([]byte(readLines(t, "game_full.ndjson")[0]))
	if err != nil {
		t.Fatal(err)
	}
	full := gev.Full
	if gev.Type != GameEventFull || full.ID != "Yq3xPk7Z" || full.Variant.Name != "alice" || full.White.Name != "Tweedledum" ||
		full.Black.Name != "AliceZeroBot" || full.StartFEN() != env.StartFEN || full.CreatedAt != 1767225600 || full.State.Moves != "" {
		t.Errorf("gameFull read as %+v", full)
	}
	if left, inc := full.State.Clock(env.Black); left != 5*time.Minute || inc != 3*time.Second {
		t.Errorf("black's clock read as %v + %v, want 5m + 3s", left, inc)
	}

	states := readLines(t, "game_state.ndjson")
	gev, err = parseGameEvent([]byte(states[0]))
	if err != nil || gev.Type != GameEventState {
		t.Fatal(gev, err)
	}
	if m := gev.State.MoveList(); len(m) != 2 || m[1] != "d7d5" {
		t.Errorf("moves read as %q", m)
	}
	if left, inc := gev.State.Clock(env.White); left != 297412*time.Millisecond || inc != 3*time.Second {
		t.Errorf("white's clock read as %v + %v", left, inc)
	}
	gev, err = parseGameEvent([]byte(states[1]))
	if left, _ := gev.State.Clock(env.Black); err != nil || left != 30*time.Second {
		t.Errorf("a float clock read as %v, %v; want 30s", left, err)
	}
	if gev, err := parseGameEvent([]byte(readLines(t, "game_end.ndjson")[0])); err != nil || gev.Type != GameEventEnd {
		t.Errorf("gameEnd read as %+v, %v", gev, err)
	}
	gev, err = parseGameEvent([]byte(readLines(t, "game_chatline.ndjson")[0]))
	if err != nil || gev.Chat == nil || gev.Chat.Text != "good luck" {
		t.Errorf("chatLine read as %+v, %v", gev, err)
	}
}

func TestParseRejectsMalformedEvents(t *testing.T) {
	for _, line := range []string{
		`not json`,
		`{"type":"challenge","challenge":{"id":`,
		`{"type":"challenge"}`,
		`{"type":"challenge","challenge":{"id":""}}`,
		`{"type":"gameStart","game":{}}`,
		`{"challenge":{"id":"x"}}`,
		`["type","challenge"]`,
		`{"type":"challenge","challenge":{"id":"x","timeControl":{"limit":"five"}}}`,
	} {
		if ev, err := parseEvent([]byte(line)); err == nil {
			t.Errorf("event %s read as %+v, want an error", line, ev)
		}
	}
	for _, line := range []string{
		`{"type":"gameState","moves":5}`,
		`{"type":"gameState","wtime":1000}`,
		`{"type":"gameFull","id":"x"}`,
		`{"type":"gameFull","id":"x","state":{}}`,
		`{"type":"gameState","moves":"e2e4","wtime":1000,"btime":}`, // from pychess's tests/test_cache_cleanup.py
	} {
		if ev, err := parseGameEvent([]byte(line)); err == nil {
			t.Errorf("game event %s read as %+v, want an error", line, ev)
		}
	}
}

// pychess's own Alice positions and mates must come out the same here:
// the bot and the server have to agree on every move.
func TestAliceNotationMatchesPychess(t *testing.T) {
	for _, line := range readLines(t, "alice_positions.txt") {
		moves, fen, _ := strings.Cut(line, "\t")
		p, err := env.ParseFEN(env.StartFEN, env.Alice)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.PlayUCI(strings.Fields(moves)); err != nil {
			t.Fatalf("%s: %v", moves, err)
		}
		if got := p.FEN(); got != fen {
			t.Errorf("after %s:\n got %s\nwant %s (pychess)", moves, got, fen)
		}
		q, err := env.ParseFEN(fen, env.Alice)
		if err != nil || q.FEN() != fen {
			t.Errorf("pychess's FEN %s does not read back: %v", fen, err)
		}
	}
	for _, line := range readLines(t, "alice_mates.txt") {
		p, _ := env.ParseFEN(env.StartFEN, env.Alice)
		if _, err := p.PlayUCI(strings.Fields(line)); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if st := p.Status(); st != env.Checkmate {
			t.Errorf("after %s: %v, pychess says checkmate", line, st)
		}
	}
}
