package model

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/sourcegraph/conc"
)

// BatcherOptions configures a Batcher. The zero value picks defaults.
type BatcherOptions struct {
	// MaxBatch is the most positions sent to the inner evaluator at once
	// (default 64). A single request larger than this goes through alone.
	MaxBatch int
	// MaxWait bounds how long a gathered batch waits for more requests
	// (default 1ms). A batch goes as soon as every caller currently inside
	// Evaluate has a request in it, so MaxWait matters only while some
	// caller is between returning and calling again.
	MaxWait time.Duration
}

// BatcherStats counts what a Batcher has done.
type BatcherStats struct {
	Requests  int64 // Evaluate calls served
	Positions int64 // positions evaluated
	Batches   int64 // calls to the inner evaluator
}

// Batcher is an Evaluator that merges the positions of concurrent callers
// into batches for an inner Evaluator (typically a FastEvaluator), which is
// how parallel search threads share one network efficiently. Safe for
// concurrent use; each caller gets exactly its own rows back.
type Batcher struct {
	inner   Evaluator
	opts    BatcherOptions
	reqs    chan *batchReq // unbuffered: a send succeeds only if the dispatcher takes it
	wake    chan struct{}  // nudges the dispatcher when a caller leaves
	quit    chan struct{}
	active  atomic.Int64 // callers inside Evaluate
	pool    sync.Pool
	wg      conc.WaitGroup
	closeMu sync.Once

	requests, positions, batches atomic.Int64

	// Owned by the dispatcher goroutine.
	planes, policy, wdl []float32
	pending             []*batchReq
}

type batchReq struct {
	planes, policy, wdl []float32
	n                   int
	done                chan error
}

// NewBatcher starts a batcher in front of inner. Call Close to stop it.
func NewBatcher(inner Evaluator, opts BatcherOptions) (*Batcher, error) {
	if inner == nil {
		return nil, fmt.Errorf("model: batcher: nil inner evaluator")
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 64
	}
	if opts.MaxWait <= 0 {
		opts.MaxWait = time.Millisecond
	}
	if opts.MaxBatch > 1<<16 {
		return nil, fmt.Errorf("model: batcher: MaxBatch %d too large", opts.MaxBatch)
	}
	b := &Batcher{
		inner:   inner,
		opts:    opts,
		reqs:    make(chan *batchReq),
		wake:    make(chan struct{}, 1),
		quit:    make(chan struct{}),
		planes:  make([]float32, opts.MaxBatch*env.InputSize),
		policy:  make([]float32, opts.MaxBatch*env.PolicySize),
		wdl:     make([]float32, opts.MaxBatch*env.WDLSize),
		pending: make([]*batchReq, 0, opts.MaxBatch),
	}
	b.pool.New = func() any { return &batchReq{done: make(chan error, 1)} }
	b.wg.Go(b.dispatch)
	return b, nil
}

// Evaluate implements Evaluator. It blocks until the batch holding the
// request has been evaluated.
func (b *Batcher) Evaluate(planes []float32, n int, policy, wdl []float32) error {
	if err := checkEvalArgs(planes, n, policy, wdl); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	b.active.Add(1)
	defer func() {
		b.active.Add(-1)
		select { // let a gathering dispatcher re-check who is left
		case b.wake <- struct{}{}:
		default:
		}
	}()
	r := b.pool.Get().(*batchReq)
	r.planes, r.n, r.policy, r.wdl = planes, n, policy, wdl
	select {
	case b.reqs <- r:
	case <-b.quit:
		b.release(r)
		return fmt.Errorf("batcher: %w", ErrClosed)
	}
	err := <-r.done
	b.release(r)
	return err
}

func (b *Batcher) release(r *batchReq) {
	r.planes, r.policy, r.wdl = nil, nil, nil // do not pin the caller's buffers
	b.pool.Put(r)
}

// Stats returns counters since the batcher started.
func (b *Batcher) Stats() BatcherStats {
	return BatcherStats{Requests: b.requests.Load(), Positions: b.positions.Load(), Batches: b.batches.Load()}
}

// Close stops the dispatcher; callers waiting or arriving later get an
// error wrapping ErrClosed. It does not close the inner evaluator.
func (b *Batcher) Close() error {
	b.closeMu.Do(func() { close(b.quit) })
	b.wg.Wait()
	return nil
}

// dispatch gathers requests into batches and runs them, until quit.
func (b *Batcher) dispatch() {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var carry *batchReq // a request that did not fit in the previous batch
	for {
		rows := 0
		b.pending = b.pending[:0]
		add := func(r *batchReq) { b.pending = append(b.pending, r); rows += r.n }
		if carry != nil {
			add(carry)
			carry = nil
		} else {
			select {
			case r := <-b.reqs:
				add(r)
			case <-b.quit:
				b.failAll(nil)
				return
			}
		}
		timer.Reset(b.opts.MaxWait)
	gather:
		for rows < b.opts.MaxBatch && int64(len(b.pending)) < b.active.Load() {
			select {
			case r := <-b.reqs:
				if rows+r.n > b.opts.MaxBatch {
					carry = r
					break gather
				}
				add(r)
			case <-b.wake:
			case <-timer.C:
				break gather
			case <-b.quit:
				timer.Stop()
				b.failAll(carry)
				return
			}
		}
		timer.Stop()
		b.run(rows)
	}
}

// run evaluates the pending requests (rows positions in all) and answers
// their callers.
func (b *Batcher) run(rows int) {
	b.batches.Add(1)
	b.requests.Add(int64(len(b.pending)))
	b.positions.Add(int64(rows))
	if len(b.pending) == 1 {
		// Nothing to merge: let the inner evaluator use the caller's
		// buffers directly (this is also how oversized requests go).
		r := b.pending[0]
		r.done <- b.safeEval(r.planes, r.n, r.policy, r.wdl)
		return
	}
	off := 0
	for _, r := range b.pending {
		copy(b.planes[off*env.InputSize:], r.planes[:r.n*env.InputSize])
		off += r.n
	}
	err := b.safeEval(b.planes, rows, b.policy, b.wdl)
	off = 0
	for _, r := range b.pending {
		if err == nil {
			copy(r.policy, b.policy[off*env.PolicySize:(off+r.n)*env.PolicySize])
			copy(r.wdl, b.wdl[off*env.WDLSize:(off+r.n)*env.WDLSize])
		}
		off += r.n
		r.done <- err
	}
}

func (b *Batcher) safeEval(planes []float32, n int, policy, wdl []float32) (err error) {
	defer catch(&err, "batcher: inner evaluator")
	if err := b.inner.Evaluate(planes, n, policy, wdl); err != nil {
		return fmt.Errorf("batcher: batch of %d positions: %w", n, err)
	}
	return nil
}

// failAll answers every pending request, carry, and any caller still
// trying to send, with ErrClosed.
func (b *Batcher) failAll(carry *batchReq) {
	err := fmt.Errorf("batcher: %w", ErrClosed)
	for _, r := range b.pending {
		r.done <- err
	}
	b.pending = b.pending[:0]
	if carry != nil {
		carry.done <- err
	}
	for {
		select {
		case r := <-b.reqs:
			r.done <- err
		default:
			return
		}
	}
}
