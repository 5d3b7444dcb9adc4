package model

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
)

// echoEval writes outputs that identify each input row, and records batch
// sizes, so that a test can tell whose rows came back where.
type echoEval struct {
	mu      sync.Mutex
	sizes   []int
	fail    atomic.Bool
	panics  atomic.Bool
	delay   time.Duration
	inFlite atomic.Int32
}

func (e *echoEval) Evaluate(planes []float32, n int, policy, wdl []float32) error {
	if e.inFlite.Add(1) != 1 {
		panic("inner evaluator called concurrently")
	}
	defer e.inFlite.Add(-1)
	e.mu.Lock()
	e.sizes = append(e.sizes, n)
	e.mu.Unlock()
	if e.fail.Load() {
		return errors.New("inner failure")
	}
	if e.panics.Load() {
		panic("inner panic")
	}
	time.Sleep(e.delay)
	for b := 0; b < n; b++ {
		id := planes[b*env.InputSize]
		for j := 0; j < env.PolicySize; j++ {
			policy[b*env.PolicySize+j] = id + float32(j)
		}
		for j := 0; j < env.WDLSize; j++ {
			wdl[b*env.WDLSize+j] = -id - float32(j)
		}
	}
	return nil
}

func TestBatcherReturnsOwnRows(t *testing.T) {
	inner := &echoEval{delay: 200 * time.Microsecond}
	b, err := NewBatcher(inner, BatcherOptions{MaxBatch: 16, MaxWait: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const callers, calls = 12, 60
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for c := 0; c < callers; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 1))
			for i := 0; i < calls; i++ {
				n := 1 + rng.IntN(4)
				if i%17 == 0 {
					n = 20 // larger than MaxBatch: goes through alone
				}
				planes := make([]float32, n*env.InputSize)
				for r := 0; r < n; r++ {
					planes[r*env.InputSize] = float32(c*100000 + i*100 + r)
				}
				pol := make([]float32, n*env.PolicySize)
				wdl := make([]float32, n*env.WDLSize)
				if err := b.Evaluate(planes, n, pol, wdl); err != nil {
					errs <- err
					return
				}
				for r := 0; r < n; r++ {
					id := planes[r*env.InputSize]
					if pol[r*env.PolicySize+7] != id+7 || wdl[r*env.WDLSize+2] != -id-2 {
						errs <- fmt.Errorf("caller %d call %d row %d: got policy %v wdl %v for id %v", c, i, r, pol[r*env.PolicySize+7], wdl[r*env.WDLSize+2], id)
						return
					}
				}
			}
		}(c)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	st := b.Stats()
	if st.Requests != callers*calls {
		t.Errorf("stats: %d requests, want %d", st.Requests, callers*calls)
	}
	inner.mu.Lock()
	defer inner.mu.Unlock()
	maxSize, merged := 0, 0
	for _, s := range inner.sizes {
		maxSize = max(maxSize, s)
		if s > 4 && s != 20 {
			merged++
		}
	}
	if maxSize > 20 {
		t.Errorf("batch of %d exceeds both MaxBatch and the largest request", maxSize)
	}
	if merged == 0 {
		t.Error("no batch merged several callers' requests")
	}
	t.Logf("%+v: %.1f positions per batch", st, float64(st.Positions)/float64(st.Batches))
}

// A lone caller must not wait for MaxWait: nobody else can join its batch.
func TestBatcherSingleCallerNoWait(t *testing.T) {
	b, err := NewBatcher(&echoEval{}, BatcherOptions{MaxBatch: 64, MaxWait: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	planes := make([]float32, env.InputSize)
	pol, wdl := make([]float32, env.PolicySize), make([]float32, env.WDLSize)
	start := time.Now()
	for i := 0; i < 20; i++ {
		if err := b.Evaluate(planes, 1, pol, wdl); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d > 150*time.Millisecond {
		t.Errorf("20 sequential calls took %v: the batcher waited for callers that do not exist", d)
	}
}

func TestBatcherErrorsAndClose(t *testing.T) {
	inner := &echoEval{}
	b, err := NewBatcher(inner, BatcherOptions{MaxBatch: 8})
	if err != nil {
		t.Fatal(err)
	}
	planes := make([]float32, 2*env.InputSize)
	pol, wdl := make([]float32, 2*env.PolicySize), make([]float32, 2*env.WDLSize)
	if err := b.Evaluate(planes, 0, pol, wdl); err != nil {
		t.Errorf("empty request: %v", err)
	}
	if err := b.Evaluate(planes, 3, pol, wdl); err == nil {
		t.Error("short buffers accepted")
	}
	inner.fail.Store(true)
	if err := b.Evaluate(planes, 2, pol, wdl); err == nil {
		t.Error("inner error not propagated")
	}
	inner.fail.Store(false)
	inner.panics.Store(true)
	if err := b.Evaluate(planes, 2, pol, wdl); err == nil {
		t.Error("inner panic not turned into an error")
	}
	inner.panics.Store(false)
	if err := b.Evaluate(planes, 2, pol, wdl); err != nil {
		t.Errorf("batcher broken after an inner panic: %v", err)
	}
	// Callers racing with Close all return, with nil or ErrClosed.
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := make([]float32, env.InputSize)
			po, w := make([]float32, env.PolicySize), make([]float32, env.WDLSize)
			for j := 0; j < 50; j++ {
				if err := b.Evaluate(p, 1, po, w); err != nil {
					if !errors.Is(err, ErrClosed) {
						t.Errorf("unexpected error: %v", err)
					}
					return
				}
			}
		}()
	}
	time.Sleep(time.Millisecond)
	b.Close()
	wg.Wait()
	if err := b.Evaluate(planes, 1, pol, wdl); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
	b.Close() // idempotent
}

// The batcher over the real fast evaluator gives every caller what a
// direct evaluation gives.
func TestBatcherOverFastEvaluator(t *testing.T) {
	w := mustWeights(t, mustPreset(t, "tiny"), 61)
	fev, err := NewFastEvaluator(w, FastOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer fev.Close()
	ref, err := NewFastEvaluator(w, FastOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	b, err := NewBatcher(fev, BatcherOptions{MaxBatch: 32})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var wg sync.WaitGroup
	for c := 0; c < 6; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 2))
			for i := 0; i < 15; i++ {
				n := 1 + rng.IntN(3)
				planes := randomPlanes(rng, n)
				pol, wdl := make([]float32, n*env.PolicySize), make([]float32, n*env.WDLSize)
				if err := b.Evaluate(planes, n, pol, wdl); err != nil {
					t.Error(err)
					return
				}
				rp, rw := make([]float32, n*env.PolicySize), make([]float32, n*env.WDLSize)
				if err := ref.Evaluate(planes, n, rp, rw); err != nil {
					t.Error(err)
					return
				}
				if d := maxAbsDiff(pol, rp) + maxAbsDiff(wdl, rw); d > 1e-5 {
					t.Errorf("caller %d: batched result differs from direct by %g", c, d)
					return
				}
			}
		}(c)
	}
	wg.Wait()
}
