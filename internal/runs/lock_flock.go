//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package runs

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// The lock is flock(2) on the lock file: the kernel gives it to one open
// file at a time and drops it when its process ends, however it ends, so
// a file left behind by a killed process is no lock at all (its text
// only says whose it was). The text names the holder for the refusal.

// flockFile is a held lock file.
type flockFile struct {
	f    *os.File
	path string
}

// maxLockTries bounds the retries when the file is replaced between our
// open and our lock (a holder releasing it just then).
const maxLockTries = 10

// acquire locks path for me and returns the holder the file named before
// (a process that ended without releasing it; zero if none).
func acquire(path string, me Holder) (heldFile, Holder, error) {
	for range maxLockTries {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, Holder{}, fmt.Errorf("lock %s: %w", path, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			h := parseHolder(f)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, Holder{}, &HeldError{Dir: dirOf(path), Holder: h}
			}
			return nil, Holder{}, fmt.Errorf("lock %s: %w", path, err)
		}
		// A holder that released (removed) the file after our open leaves
		// us locking a file no longer at path: open it again.
		if !samePath(f, path) {
			f.Close()
			continue
		}
		prev := parseHolder(f)
		if err := rewrite(f, formatHolder(me)); err != nil {
			f.Close()
			return nil, Holder{}, fmt.Errorf("lock %s: %w", path, err)
		}
		return &flockFile{f: f, path: path}, prev, nil
	}
	return nil, Holder{}, fmt.Errorf("lock %s: the file keeps being replaced", path)
}

// release removes the file while still holding it (so that no one locks
// the old file meanwhile: they find it gone, see samePath) and unlocks it.
func (l *flockFile) release() error {
	err := os.Remove(l.path)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// samePath reports whether the open file f is still the file at path.
func samePath(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// rewrite replaces f's contents by data.
func rewrite(f *os.File, data []byte) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		return err
	}
	return f.Sync()
}
