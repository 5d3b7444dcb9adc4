package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runCLI runs the command line in-process and returns its outputs and exit
// status.
func runCLI(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestPerftCommand(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantLast string
		wantCode int
		wantErr  string
	}{
		{"start depth 3", []string{"perft", "3"}, "Nodes searched: 9384", 0, ""},
		{"after moves", []string{"perft", "--moves", "e2e4 d7d5 f1e2 d5e4", "2"}, "Nodes searched: 915", 0, ""},
		{"fen", []string{"perft", "--fen", "8/2p2p2/4|p3/3pP|k2/8/2|P1|P2p/4K1|p1/r3N3 b - - 1 59", "3"}, "Nodes searched: 5408", 0, ""},
		{"mate has no moves", []string{"perft", "--moves", "e2e4 d7d5 f1e2 d5e4 e2b5", "1"}, "Nodes searched: 0", 0, ""},
		{"en passant variant", []string{"perft", "--variant", "alice-ep", "2"}, "Nodes searched: 400", 0, ""},
		// Every variant counts from its own start (docs/RULES.md's table).
		{"black on B", []string{"perft", "--variant", "alice-black-b", "3"}, "Nodes searched: 9256", 0, ""},
		{"null moves", []string{"perft", "--variant", "alice-null", "3"}, "Nodes searched: 51202", 0, ""},
		{"optional transfer", []string{"perft", "--variant", "alice-optional-transfer", "3"}, "Nodes searched: 9854", 0, ""},
		{"stone", []string{"perft", "--variant", "alice-stone", "3"}, "Nodes searched: 127501", 0, ""},
		{"mini", []string{"perft", "--variant", "alice-mini", "3"}, "Nodes searched: 284", 0, ""},
		{"three boards", []string{"perft", "--variant", "alice-3", "3"}, "Nodes searched: 76900", 0, ""},
		{"three boards after a move", []string{"perft", "--variant", "alice-3", "--moves", "e2e4/c", "1"}, "Nodes searched: 40", 0, ""},
		{"bracket group in alice", []string{"perft", "--fen", "4k3/8/8/3[Q|p]4/8/8/8/4K3 w - - 0 1", "1"}, "", 1, "one man per square"},
		{"bad fen", []string{"perft", "--fen", "rnbqkbnr/pppppppp/8/8 w - - 0 1", "1"}, "", 1, "want 8 ranks"},
		{"illegal move", []string{"perft", "--moves", "e2e4 e2e4", "1"}, "", 1, "move 2"},
		{"bad depth", []string{"perft", "x"}, "", 1, "depth"},
		{"unknown variant", []string{"perft", "--variant", "crazy", "1"}, "", 1, `--variant: unknown variant "crazy"`},
		{"no depth", []string{"perft"}, "", 2, "Usage"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, "", tc.args...)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d (stderr %q)", code, tc.wantCode, errOut)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if tc.wantLast != "" && lines[len(lines)-1] != tc.wantLast {
				t.Fatalf("last line %q, want %q", lines[len(lines)-1], tc.wantLast)
			}
			if tc.wantErr != "" && !strings.Contains(errOut, tc.wantErr) {
				t.Fatalf("stderr %q does not mention %q", errOut, tc.wantErr)
			}
		})
	}
}

func TestPerftDivide(t *testing.T) {
	out, _, code := runCLI(t, "", "perft", "--divide", "2")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	moves := 0
	for _, l := range lines {
		if strings.HasSuffix(l, ": 20") && len(l) == len("e2e4: 20") {
			moves++
		}
	}
	if moves != 20 || lines[len(lines)-1] != "Nodes searched: 400" {
		t.Fatalf("divide output:\n%s", out)
	}
}

func TestBenchCommandRejectsUnknownFigure(t *testing.T) {
	_, errOut, code := runCLI(t, "", "bench", "--only", "nope")
	if code != 1 || !strings.Contains(errOut, `unknown figure "nope"`) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

func TestBenchEncodeFigure(t *testing.T) {
	out, _, code := runCLI(t, "", "bench", "--only", "encode_ns")
	if code != 0 || !strings.Contains(out, "encode_ns: ") {
		t.Fatalf("exit %d, output %q", code, out)
	}
}
