// Package cputime reads the CPU time the process has used, for benchmarks
// that report work per CPU-second: on a shared machine the wall-clock rate
// mostly measures the neighbours, while CPU time counts only the process's
// own cycles (and, with several busy threads, their sum). Unix systems
// report it; elsewhere Process returns 0.
package cputime
