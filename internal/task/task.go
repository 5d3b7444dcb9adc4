// Package task runs one piece of work at a time on a goroutine of its own
// — a protocol's search — so that the protocol keeps reading commands
// (stop, isready, ping) while it runs, and can stop it, wait for it or ask
// whether it still runs.
//
// A panic in the work is recovered and handed to Runner.Panicked at once,
// on the work's goroutine: it surfaces as an error message instead of
// crashing the engine or leaving a GUI waiting for a move forever. Work
// that owes an answer (a bestmove) sends it in a deferred call, so that
// the answer goes out even then.
package task

import (
	"context"

	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/panics"
)

// Runner runs one task at a time. Its zero value is ready to use; it is
// used from one goroutine (the protocol's).
type Runner struct {
	// Panicked, if set, receives a panic of a task as an error.
	Panicked func(error)

	wg     *conc.WaitGroup
	cancel context.CancelFunc
	done   chan struct{} // closed when the task's goroutine ends
}

// Start runs f on a new goroutine with a context that Stop cancels (and
// that ends with parent). A task still running is stopped first.
func (r *Runner) Start(parent context.Context, f func(ctx context.Context)) {
	r.Stop()
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	r.wg, r.cancel, r.done = conc.NewWaitGroup(), cancel, done
	panicked := r.Panicked
	r.wg.Go(func() {
		defer close(done)
		if p := panics.Try(func() { f(ctx) }); p != nil && panicked != nil {
			panicked(p.AsError())
		}
	})
}

// Running reports whether a task is still running.
func (r *Runner) Running() bool {
	if r.wg == nil {
		return false
	}
	select {
	case <-r.done:
		return false
	default:
		return true
	}
}

// Done returns a channel closed when the task ends (nil when none was
// started).
func (r *Runner) Done() <-chan struct{} { return r.done }

// Stop cancels the task, if any, and waits for it to end.
func (r *Runner) Stop() {
	if r.wg == nil {
		return
	}
	r.cancel()
	r.Wait()
}

// Wait waits for the task, if any, to end by itself.
func (r *Runner) Wait() {
	if r.wg == nil {
		return
	}
	r.wg.Wait()
	r.cancel()
	r.wg, r.cancel, r.done = nil, nil, nil
}
