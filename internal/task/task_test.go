package task

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestStopCancelsAndWaits(t *testing.T) {
	var r Runner
	if r.Running() {
		t.Fatal("a fresh runner runs")
	}
	r.Stop() // nothing to stop
	ended := false
	r.Start(context.Background(), func(ctx context.Context) {
		<-ctx.Done()
		time.Sleep(10 * time.Millisecond)
		ended = true
	})
	if !r.Running() {
		t.Fatal("not running after Start")
	}
	r.Stop()
	if !ended || r.Running() {
		t.Fatalf("Stop returned before the task ended (ended %v)", ended)
	}
}

func TestWaitAndDone(t *testing.T) {
	var r Runner
	r.Start(context.Background(), func(context.Context) {})
	<-r.Done()
	if r.Running() {
		t.Fatal("running after its task returned")
	}
	r.Wait()
	r.Wait()
}

// A panic is handed over at once, and deferred answers still go out.
func TestPanicSurfaces(t *testing.T) {
	got := make(chan error, 1)
	answered := make(chan struct{}, 1)
	r := Runner{Panicked: func(err error) { got <- err }}
	r.Start(context.Background(), func(context.Context) {
		defer func() { answered <- struct{}{} }()
		panic("search exploded")
	})
	select {
	case err := <-got:
		if !strings.Contains(err.Error(), "search exploded") {
			t.Errorf("panic reported as %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the panic was not reported")
	}
	select {
	case <-answered:
	case <-time.After(10 * time.Second):
		t.Fatal("the deferred answer did not run")
	}
	r.Wait()
}

func TestStartStopsThePrevious(t *testing.T) {
	var r Runner
	first := make(chan struct{})
	r.Start(context.Background(), func(ctx context.Context) {
		<-ctx.Done()
		close(first)
	})
	r.Start(context.Background(), func(context.Context) {})
	select {
	case <-first:
	default:
		t.Fatal("the first task still runs")
	}
	r.Wait()
}
