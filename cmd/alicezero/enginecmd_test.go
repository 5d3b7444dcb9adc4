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

func TestHelpCommandAndBenchNames(t *testing.T) {
	_, errOut, code := runCLI(t, "", "help", "train")
	if code != 0 || !strings.Contains(errOut, "Usage: alicezero train") {
		t.Errorf("help train: exit %d, stderr:\n%s", code, errOut)
	}
	_, errOut, code = runCLI(t, "", "help", "nosuch")
	if code != 2 || !strings.Contains(errOut, `unknown command "nosuch"`) {
		t.Errorf("help nosuch: exit %d, stderr:\n%s", code, errOut)
	}
	_, errOut, code = runCLI(t, "", "bench", "--only", "nosuch")
	if code != 1 || !strings.Contains(errOut, `unknown figure "nosuch" (the figures: perft_nps, `) {
		t.Errorf("bench --only nosuch: exit %d, stderr:\n%s", code, errOut)
	}
}
