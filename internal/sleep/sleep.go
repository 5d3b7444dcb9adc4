// Package sleep waits for a while unless a context ends first: the one
// context-aware sleep of the project, for polling loops and retry
// back-offs that must stop at once when their work is cancelled.
package sleep

import (
	"context"
	"time"
)

// For waits d or until ctx ends, and returns ctx's error then (nil after
// the full wait). A d of zero or less waits nothing and reports whether
// ctx has already ended.
func For(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
