package main

import (
	"strings"
	"testing"

	"github.com/alicezero/alicezero/train/bus"
)

// A host's name becomes a valid worker name, whatever it holds.
func TestWorkerName(t *testing.T) {
	for _, tc := range []struct {
		host string
		want string
	}{
		{"host", "host-7"},
		{"my host.local", "my-host.local-7"},
		{"a  b", "a-b-7"},
		{"é-x", "w--x-7"},
		{"\xff\xfeab", "w-ab-7"},
		{"-_.", "w-_.-7"},
		{"a/b\\c:d", "a-b-c-d-7"},
		{"Ωmega 9", "w-mega-9-7"},
		{"", "w-7"},
		{strings.Repeat("h", 50), strings.Repeat("h", 40) + "-7"},
		{"." + strings.Repeat("h", 50), "w." + strings.Repeat("h", 39) + "-7"},
	} {
		got := workerName(tc.host, 7)
		if got != tc.want {
			t.Errorf("workerName(%q, 7) = %q, want %q", tc.host, got, tc.want)
		}
		if err := bus.ValidWorker(got); err != nil {
			t.Errorf("workerName(%q, 7): %v", tc.host, err)
		}
	}
	if err := bus.ValidWorker(defaultWorkerName()); err != nil {
		t.Errorf("defaultWorkerName: %v", err)
	}
}
