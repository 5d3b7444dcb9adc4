package training

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/internal/bench"
	"github.com/alicezero/alicezero/model/internal/modeltest"
)

// TestTeamRunsEveryWorkerOnce: every section runs each worker index once,
// sections of different sizes follow each other (a helper left out of one
// takes part in the next exactly once), a caller waiting for a slow helper
// blocks and is woken, helpers that parked are woken, a
// panic in a helper reaches the caller, and close stops them.
func TestTeamRunsEveryWorkerOnce(t *testing.T) {
	var tm team
	for round := range 200 {
		workers := 2 + round%3
		var calls [4]atomic.Int32
		tm.do(workers, func(w int) {
			if w == 1 && round%20 == 7 {
				time.Sleep(3 * teamWaitSpin) // the caller blocks for it
			}
			calls[w].Add(1)
		})
		for w := range 4 {
			if want := int32(0); w < workers {
				want = 1
				if got := calls[w].Load(); got != want {
					t.Fatalf("round %d: worker %d ran %d times", round, w, got)
				}
			} else if got := calls[w].Load(); got != want {
				t.Fatalf("round %d: worker %d of %d ran", round, w, workers)
			}
		}
		if round%50 == 49 {
			time.Sleep(3 * teamSpin) // the helpers park
		}
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "boom") {
				t.Errorf("recovered %v, want the helper's panic", r)
			}
		}()
		tm.do(2, func(w int) {
			if w == 1 {
				panic("boom")
			}
		})
	}()
	done := make(chan struct{})
	go func() { tm.close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("close did not stop the helpers")
	}
}

// TestTrainerStepsDoNotDependOnCores: a few optimiser steps give the same
// weights, bit for bit, on one core, two, three and seven, with one graph
// and with the batch cut into shards (the team hands pieces out as its
// goroutines come free, but every output element is computed by one
// goroutine in a fixed order, and the shards' gradients are summed in
// shard order).
func TestTrainerStepsDoNotDependOnCores(t *testing.T) {
	planes, pol, mask, wdl := bench.SyntheticBatch(24, 7)
	// One graph, and three shards (on fewer, as many and more cores than
	// shards: run in turn, one a core, and with helpers of their own).
	for _, shards := range []int{1, 3} {
		var ref *model.Weights
		for _, procs := range []int{1, 2, 3, 7} {
			old := runtime.GOMAXPROCS(procs)
			w := modeltest.MustWeights(t, modeltest.MustPreset(t, "small"), 4)
			tr, err := newTrainer(w, smallTrainConfig(24), shards)
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				if _, err := tr.Step(planes, pol, mask, wdl); err != nil {
					t.Fatal(err)
				}
			}
			tr.Close()
			runtime.GOMAXPROCS(old)
			if ref == nil {
				ref = w
			} else if !w.Equal(ref) {
				t.Fatalf("%d shards: weights after 3 steps on %d cores differ from those on one", shards, procs)
			}
		}
	}
}
