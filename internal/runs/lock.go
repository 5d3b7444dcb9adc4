package runs

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LockFile is the file in a run folder that names the process holding the
// run: one process at a time trains a run, so that two never interleave
// its checkpoints and metrics.
const LockFile = "run.lock"

// Holder describes the process that holds (or held) a run folder, as its
// lock file records it.
type Holder struct {
	PID     int
	Host    string
	Command string // what it runs, e.g. "train" or "learn"
	Since   time.Time
}

// String describes the holder for people: "process 123 (train) on host
// h since 2025-01-02 15:04:05".
func (h Holder) String() string {
	if h.PID == 0 {
		return "another process"
	}
	s := fmt.Sprintf("process %d", h.PID)
	if h.Command != "" {
		s += " (" + h.Command + ")"
	}
	if h.Host != "" {
		s += " on host " + h.Host
	}
	if !h.Since.IsZero() {
		s += " since " + h.Since.Local().Format(time.DateTime)
	}
	return s
}

// HeldError is the error of Acquire when another process holds the run.
type HeldError struct {
	Dir    string
	Holder Holder // zero when the lock file does not say yet
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("run folder %s is in use by %s: a run is trained by one process at a time; wait for it to end, or stop it", e.Dir, e.Holder)
}

// Lock is a run folder held by this process, from Acquire to Release.
type Lock struct {
	path string
	held heldFile
	// Stale, when set, is the holder a lock file left behind named: a
	// process that ended without releasing the run (killed, or its
	// machine stopped), whose lock this one took over.
	Stale *Holder
}

// Acquire takes the run folder dir (which must exist) for this process,
// recording command as what it runs. A run another live process holds is
// a *HeldError naming it; a lock file left by a process that has ended
// is taken over (Lock.Stale says whose it was).
func Acquire(dir, command string) (*Lock, error) {
	path := filepath.Join(dir, LockFile)
	host, _ := os.Hostname()
	me := Holder{PID: os.Getpid(), Host: host, Command: command, Since: time.Now().UTC().Truncate(time.Second)}
	h, prev, err := acquire(path, me)
	if err != nil {
		return nil, err
	}
	l := &Lock{path: path, held: h}
	if prev.PID != 0 {
		l.Stale = &prev
	}
	return l, nil
}

// Release gives the run folder up: the lock file is removed. Releasing
// twice, or a nil Lock, does nothing.
func (l *Lock) Release() error {
	if l == nil || l.held == nil {
		return nil
	}
	err := l.held.release()
	l.held = nil
	return err
}

// heldFile is a lock file this process holds (lock_flock.go, lock_other.go).
type heldFile interface {
	release() error
}

// formatHolder writes a lock file's text: one "key value" line each.
func formatHolder(h Holder) []byte {
	return fmt.Appendf(nil, "pid %d\nhost %s\ncommand %s\nsince %s\n", h.PID, h.Host, h.Command, h.Since.Format(time.RFC3339))
}

// parseHolder reads what formatHolder wrote; lines it does not know are
// skipped, and an empty or half-written file gives a zero Holder.
func parseHolder(r io.Reader) Holder {
	var h Holder
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, value, _ := strings.Cut(sc.Text(), " ")
		switch key {
		case "pid":
			h.PID, _ = strconv.Atoi(value)
		case "host":
			h.Host = value
		case "command":
			h.Command = value
		case "since":
			h.Since, _ = time.Parse(time.RFC3339, value)
		}
	}
	return h
}

// dirOf is the run folder of a lock file.
func dirOf(lockPath string) string { return filepath.Dir(lockPath) }
