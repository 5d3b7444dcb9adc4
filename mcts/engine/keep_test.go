package engine

import (
	"math"
	"testing"
	"time"
)

// A timed search keeps a tree only as large as it can compact in a small
// share of its budget, and never one too full to grow; untimed searches
// keep any.
func TestKeepableNodes(t *testing.T) {
	for _, tc := range []struct {
		budget time.Duration
		want   int
	}{
		{0, math.MaxInt},
		{100 * time.Millisecond, 100_000},
		{970 * time.Millisecond, 970_000},
		{time.Hour, maxTreeNodes * 3 / 4},
	} {
		if got := keepableNodes(tc.budget); got != tc.want {
			t.Errorf("keepableNodes(%v) = %d, want %d", tc.budget, got, tc.want)
		}
	}
}
