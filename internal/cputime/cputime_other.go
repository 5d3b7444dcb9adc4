//go:build !unix

package cputime

import "time"

// implemented says that Process cannot read the CPU time here.
const implemented = false

// Process returns 0: the process's CPU time is not measured on this
// platform.
func Process() time.Duration { return 0 }
