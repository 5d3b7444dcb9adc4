package training

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/panics"
)

// teamSpin is how long a team's helper keeps its core after a parallel
// section, waiting for the next one, before it parks; teamWaitSpin how
// long the caller spins for its helpers to finish a section before it
// blocks (a helper the operating system has preempted, when more threads
// want the cores than there are, would otherwise be waited for by a
// caller burning the core it needs).
const (
	teamSpin     = 2 * time.Millisecond
	teamWaitSpin = 50 * time.Microsecond
)

// team runs the parallel sections of one training graph's ops on helper
// goroutines that stay awake between sections. A training step runs some
// fifty sections of 0.1–1 ms back to back, and on virtual machines a
// parked thread takes 100–200 µs to be woken, so a goroutine started for
// each section leaves the second core idle for most of its first part
// (docs/PERFORMANCE.md, "Helpers that stay awake"). The helpers instead spin
// for teamSpin after each section (the next one is usually there within
// microseconds) and only then park until woken. The caller takes part in every section as worker 0. A team
// runs one section at a time (a graph's machine runs one op at a time).
type team struct {
	gen       atomic.Uint64 // counts the sections started
	job       atomic.Pointer[teamJob]
	remaining atomic.Int64  // helpers still in the current section
	finished  chan struct{} // a token from the helper that ends a section
	quit      atomic.Bool
	helpers   []*teamHelper
	wg        conc.WaitGroup
}

type teamJob struct {
	gen     uint64 // the section's number
	work    func(worker int)
	workers int // the caller and workers-1 helpers
	catcher panics.Catcher
}

type teamHelper struct {
	parked atomic.Bool
	wake   chan struct{}
}

// run is the package's one parallel-for. It calls f(worker, lo, hi) on
// contiguous ranges covering [0, n), handed out in pieces of size unit
// (the last may be short) to up to workers goroutines, the caller's
// included, each with its own worker index; the pieces do not depend on
// how many goroutines take them, so neither do results that depend only
// on the pieces. With a team its helpers take part (do); a nil team starts
// goroutines of the call's own (conc), for callers that hold none. A panic
// in any goroutine is re-raised on the caller's, and no goroutine of the
// call outlives it.
func (t *team) run(workers, n, unit int, f func(worker, lo, hi int)) {
	pieces := (n + unit - 1) / unit
	workers = max(1, min(workers, pieces))
	var next atomic.Int64
	work := func(w int) {
		for {
			i := int(next.Add(1) - 1)
			if i >= pieces {
				return
			}
			f(w, i*unit, min(n, (i+1)*unit))
		}
	}
	switch {
	case workers == 1:
		work(0)
	case t != nil:
		t.do(workers, work)
	default:
		var wg conc.WaitGroup
		for w := 1; w < workers; w++ {
			wg.Go(func() { work(w) })
		}
		defer wg.Wait() // even if work(0) panics
		work(0)
	}
}

// do runs work(0) on the caller and work(1) … work(workers-1) on helpers,
// and returns when all have returned. A panic in any is re-raised on the
// caller.
func (t *team) do(workers int, work func(worker int)) {
	if t.finished == nil {
		t.finished = make(chan struct{}, 1)
	}
	for len(t.helpers) < workers-1 {
		h := &teamHelper{wake: make(chan struct{}, 1)}
		t.helpers = append(t.helpers, h)
		i, seen := len(t.helpers), t.gen.Load()
		t.wg.Go(func() { t.serve(h, i, seen) })
	}
	j := &teamJob{gen: t.gen.Load() + 1, work: work, workers: workers}
	t.remaining.Store(int64(workers - 1))
	t.job.Store(j)
	t.gen.Store(j.gen)
	// A helper that parked before seeing the new section is woken. It sets
	// parked before it looks at gen, and we look at parked after bumping
	// gen (both sequentially consistent), so one of the two sees the other.
	for _, h := range t.helpers[:workers-1] {
		if h.parked.Load() {
			select {
			case h.wake <- struct{}{}:
			default:
			}
		}
	}
	j.catcher.Try(func() { work(0) })
	t.awaitHelpers()
	j.catcher.Repanic()
}

// awaitHelpers returns once every helper has left the current section:
// spinning for teamWaitSpin, then blocking on finished. A token left from
// an earlier section only makes the loop look again.
func (t *team) awaitHelpers() {
	deadline := time.Now().Add(teamWaitSpin)
	for k := 1; t.remaining.Load() > 0; k++ {
		if k%64 != 0 || time.Now().Before(deadline) {
			runtime.Gosched()
			continue
		}
		<-t.finished
	}
}

// serve is helper i's loop: wait for a section after seen, take part if
// the section has a worker i, repeat until close.
func (t *team) serve(h *teamHelper, i int, seen uint64) {
	for {
		if !t.await(h, seen) {
			return
		}
		// The job of the section seen: a later one cannot have started,
		// since that waits for every helper of this one; a helper left
		// out of a section may meet the next one's job here, and then
		// takes part in it once, as its number says.
		j := t.job.Load()
		seen = j.gen
		if i < j.workers {
			j.catcher.Try(func() { j.work(i) })
			if t.remaining.Add(-1) == 0 {
				select {
				case t.finished <- struct{}{}:
				default: // a token is there already
				}
			}
		}
	}
}

// await waits for a section after seen, spinning for teamSpin and then
// parking; it returns false once the team is closed.
func (t *team) await(h *teamHelper, seen uint64) bool {
	deadline := time.Now().Add(teamSpin)
	for k := 1; ; k++ {
		if t.gen.Load() != seen {
			return true
		}
		if t.quit.Load() {
			return false
		}
		if k%64 != 0 || time.Now().Before(deadline) {
			continue
		}
		h.parked.Store(true)
		if t.gen.Load() == seen && !t.quit.Load() {
			<-h.wake
		}
		h.parked.Store(false)
		deadline = time.Now().Add(teamSpin)
	}
}

// close stops the helpers and waits for them.
func (t *team) close() {
	t.quit.Store(true)
	for _, h := range t.helpers {
		select {
		case h.wake <- struct{}{}:
		default:
		}
	}
	t.wg.Wait()
}
