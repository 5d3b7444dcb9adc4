package runs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// One holder at a time: a second Acquire is refused, naming the first;
// Release removes the file and frees the run.
func TestAcquireRefusesASecondHolder(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir, "train")
	if err != nil {
		t.Fatal(err)
	}
	if l.Stale != nil {
		t.Errorf("fresh lock has a stale holder %v", *l.Stale)
	}
	_, err = Acquire(dir, "learn")
	var held *HeldError
	if !errors.As(err, &held) || held.Holder.PID != os.Getpid() || held.Holder.Command != "train" {
		t.Fatalf("second Acquire: %v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, dir) || !strings.Contains(msg, "(train)") {
		t.Errorf("refusal %q names neither the run nor its holder", msg)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, LockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file after Release: %v", err)
	}
	l2, err := Acquire(dir, "learn")
	if err != nil {
		t.Fatalf("Acquire after Release: %v", err)
	}
	if err := l2.Release(); err != nil || l2.Release() != nil {
		t.Fatalf("Release twice: %v", err)
	}
}

// A lock file left by a process that ended (kill -9) holds nothing: it is
// taken over, and the Lock says whose it was.
func TestAcquireTakesOverAStaleLock(t *testing.T) {
	dir := t.TempDir()
	host, _ := os.Hostname()
	gone := Holder{PID: 1 << 30, Host: host, Command: "train", Since: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	if err := os.WriteFile(filepath.Join(dir, LockFile), formatHolder(gone), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := Acquire(dir, "train")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if l.Stale == nil || *l.Stale != gone {
		t.Fatalf("Stale = %v, want %v", l.Stale, gone)
	}
	data, _ := os.ReadFile(filepath.Join(dir, LockFile))
	if got := parseHolder(strings.NewReader(string(data))); got.PID != os.Getpid() {
		t.Errorf("lock file after the take-over names %+v", got)
	}
}

func TestAcquireNeedsTheFolder(t *testing.T) {
	if _, err := Acquire(filepath.Join(t.TempDir(), "missing"), "train"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Acquire in a missing folder: %v", err)
	}
}
