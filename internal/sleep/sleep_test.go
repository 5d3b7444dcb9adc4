package sleep

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestFor(t *testing.T) {
	live := context.Background()
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		d    time.Duration
		want error
	}{
		{"the full wait", live, 20 * time.Millisecond, nil},
		{"no wait", live, 0, nil},
		{"negative", live, -time.Second, nil},
		{"ended before", ended, time.Hour, context.Canceled},
		{"ended, no wait", ended, 0, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			err := For(tt.ctx, tt.d)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Errorf("For(%v) = %v, want %v", tt.d, err, tt.want)
			}
			if el := time.Since(start); tt.want == nil && el < tt.d {
				t.Errorf("For(%v) returned after %v", tt.d, el)
			}
		})
	}
}

// A context that ends during the wait ends it at once.
func TestForStopsWhenTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := For(ctx, time.Hour); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("For = %v, want the deadline's error", err)
	}
	if el := time.Since(start); el > time.Minute {
		t.Errorf("For waited %v for a context that ended after 20 ms", el)
	}
}
