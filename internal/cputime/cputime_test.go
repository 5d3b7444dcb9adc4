package cputime

import (
	"runtime"
	"testing"
	"time"
)

// Busy work makes the process's CPU time grow (where it is measured).
func TestProcessGrows(t *testing.T) {
	t0 := Process()
	if t0 == 0 && runtime.GOOS == "linux" {
		t.Fatal("no CPU time on Linux")
	}
	x := 1.0
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		for i := 0; i < 1000; i++ {
			x = x*1.0000001 + 1e-9
		}
	}
	if t1 := Process(); t0 != 0 && t1 <= t0 {
		t.Errorf("CPU time went from %v to %v during 50 ms of work (x=%v)", t0, t1, x)
	}
}
