package progress

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY returns a pseudo-terminal's two ends, or skips the test where
// none can be had.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skipf("naming the pseudo-terminal: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	return m, s
}

// On a terminal the bar is progressbar's, and its first rate is measured
// from the bar's creation, not from the first step.
func TestTerminalBarFirstRate(t *testing.T) {
	master, slave := openPTY(t)
	defer master.Close()
	if !IsTerminal(slave) {
		t.Fatal("a pseudo-terminal is not taken for a terminal")
	}
	var mu sync.Mutex
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			out.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	b := New(slave, 100, "self-play", "games")
	if b.bar == nil {
		t.Fatal("no progressbar on a terminal")
	}
	time.Sleep(200 * time.Millisecond) // the first game takes a while
	b.Add(1)
	deadline := time.Now().Add(5 * time.Second)
	rateRE := regexp.MustCompile(`([0-9]+) games/(s|min|hr)`)
	var m []string
	for time.Now().Before(deadline) && m == nil {
		time.Sleep(10 * time.Millisecond)
		mu.Lock()
		m = rateRE.FindStringSubmatch(out.String())
		mu.Unlock()
	}
	slave.Close()
	if m == nil {
		t.Fatalf("no rate drawn; got %q", out.String())
	}
	rate, _ := strconv.ParseFloat(m[1], 64)
	if m[2] == "s" && rate > 10 { // one game in 0.2 s or more: at most 5/s
		t.Errorf("first rate %s games/s after one game in 0.2 s", m[1])
	}
}
