package main

import (
	"strings"
	"testing"
)

// TestEngineFlagErrorsNameTheFlag: a bad --visits, --threads or --hash is
// reported as itself (not as --weights), and 0 is no silent default.
func TestEngineFlagErrorsNameTheFlag(t *testing.T) {
	tests := []struct{ flag, value, want string }{
		{"--visits", "-5", "--visits -5: want 1..1073741824"},
		{"--visits", "0", "--visits 0: want 1..1073741824"},
		{"--threads", "-3", "--threads -3: want 1..256"},
		{"--hash", "-1", "--hash -1: want 1..32768 MiB"},
		{"--hash", "0", "--hash 0: want 1..32768 MiB"},
	}
	for _, cmd := range []string{"play", "uci", "xboard"} {
		for _, tt := range tests {
			_, errOut, code := runCLI(t, "quit\n", cmd, tt.flag, tt.value)
			if code == 0 || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, "--weights") {
				t.Errorf("%s %s %s: exit %d, stderr %q, want %q", cmd, tt.flag, tt.value, code, errOut, tt.want)
			}
		}
	}
}
