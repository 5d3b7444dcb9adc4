package cputime

import (
	"runtime"
	"testing"
	"time"
)

// Busy work makes the process's CPU time grow by about what it burns.
func TestProcessGrows(t *testing.T) {
	if !implemented {
		t.Skipf("Process has no implementation on %s", runtime.GOOS)
	}
	const burn = 50 * time.Millisecond
	t0 := Process()
	if t0 <= 0 {
		t.Fatalf("Process() = %v at the start of a test binary", t0)
	}
	// Burn until the CPU time has grown by burn, for at most 30 s of
	// wall time (a loaded machine gives the process little of it).
	x := 1.0
	t1 := t0
	for start := time.Now(); t1-t0 < burn && time.Since(start) < 30*time.Second; t1 = Process() {
		for range 100_000 {
			x = x*1.0000001 + 1e-9
		}
	}
	if t1-t0 < burn {
		t.Errorf("CPU time went from %v to %v during 30 s of work (x=%v)", t0, t1, x)
	}
}
