package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkStartup starts "alicezero perft 1" as a new process (this test
// binary acting as the command, with the same packages linked in): the
// start-up that every script, every test running the binary and every
// engine a GUI or the arena launches pays. Besides the wall time per process
// it reports, from GODEBUG=inittrace=1, the time spent in package
// initialisation: in all packages, and in this module's own.
func BenchmarkStartup(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	var total, ours float64
	for b.Loop() {
		cmd := exec.Command(exe, "perft", "1")
		cmd.Env = append(os.Environ(), asCLI+"=1", "GODEBUG=inittrace=1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			b.Fatalf("perft 1: %v\n%s", err, stderr.String())
		}
		if !strings.Contains(stdout.String(), "Nodes searched: 20") {
			b.Fatalf("perft 1 printed %q", stdout.String())
		}
		all, own, err := initTimes(&stderr, "github.com/alicezero/alicezero/")
		if err != nil {
			b.Fatal(err)
		}
		total += all
		ours += own
	}
	b.ReportMetric(total/float64(b.N), "init-ms/op")
	b.ReportMetric(ours/float64(b.N), "own-init-ms/op")
}

// initTimes sums the clock times of the runtime's inittrace lines ("init
// PACKAGE @T ms, C ms clock, …"), over all packages and over those whose
// path starts with prefix.
func initTimes(trace *bytes.Buffer, prefix string) (total, own float64, err error) {
	lines := 0
	sc := bufio.NewScanner(trace)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 7 || f[0] != "init" || f[6] != "clock," {
			continue
		}
		ms, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			return 0, 0, err
		}
		total += ms
		if strings.HasPrefix(f[1], prefix) {
			own += ms
		}
		lines++
	}
	if lines == 0 {
		return 0, 0, errors.New("no inittrace lines on stderr: GODEBUG=inittrace=1 not honoured")
	}
	return total, own, sc.Err()
}
