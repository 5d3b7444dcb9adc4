package env

import (
	"strings"
	"testing"
)

func TestParseEPD(t *testing.T) {
	start := strings.Join(strings.Fields(Alice.StartFEN())[:4], " ")
	tests := []struct {
		line    string
		ops     []EPDOp
		fen     string // "" for the start position
		wantErr string
	}{
		{line: start + ` bm e4; id "suite 1";`, ops: []EPDOp{{"bm", "e4"}, {"id", "suite 1"}}},
		{line: start, ops: nil},
		{line: Alice.StartFEN(), ops: nil},
		{line: start + ` hmvc 3; fmvn 9; c0 "a; b";`, ops: []EPDOp{{"hmvc", "3"}, {"fmvn", "9"}, {"c0", "a; b"}},
			fen: strings.TrimSuffix(Alice.StartFEN(), " 0 1") + " 3 9"},
		{line: start + ` dm 2; noop;`, ops: []EPDOp{{"dm", "2"}, {"noop", ""}}},
		{line: "rnbqkbnr/pppppppp w", wantErr: "four position fields"},
		{line: start + ` bm e4`, wantErr: "want ';'"},
		{line: start + ` id "open;`, wantErr: "unterminated string"},
		{line: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq -", wantErr: "epd"},
	}
	for _, tc := range tests {
		e, err := ParseEPD(tc.line, Alice)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseEPD(%q) = %v, want an error with %q", tc.line, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseEPD(%q): %v", tc.line, err)
			continue
		}
		want := tc.fen
		if want == "" {
			want = Alice.StartFEN()
		}
		if e.Position.FEN() != want {
			t.Errorf("ParseEPD(%q) position %q, want %q", tc.line, e.Position.FEN(), want)
		}
		if len(e.Ops) != len(tc.ops) {
			t.Errorf("ParseEPD(%q) ops %q, want %q", tc.line, e.Ops, tc.ops)
			continue
		}
		for i := range tc.ops {
			if e.Ops[i] != tc.ops[i] {
				t.Errorf("ParseEPD(%q) op %d = %q, want %q", tc.line, i, e.Ops[i], tc.ops[i])
			}
		}
		// What String writes reads back the same.
		again, err := ParseEPD(e.String(), Alice)
		if err != nil || again.Position.FEN() != e.Position.FEN() || len(again.Ops) != len(e.Ops) {
			t.Errorf("ParseEPD(%q).String() = %q reads back as %v, %v", tc.line, e.String(), again, err)
		}
	}
}
