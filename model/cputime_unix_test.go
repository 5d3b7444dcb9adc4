//go:build unix

package model

import (
	"syscall"
	"time"
)

// processCPUTime is the CPU time (user+system) this process has used. The
// benchmarks report positions per CPU-second as well as per wall second,
// because on a shared machine the wall-clock figure mostly measures the
// neighbours.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
