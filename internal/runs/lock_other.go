//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly)

package runs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Without flock(2) the lock is the lock file itself, created exclusively;
// one left behind is recognised as stale when it names a process of this
// host that no longer runs.

// exclFile is a held lock file.
type exclFile struct{ path string }

// acquire creates path for me and returns the holder a stale file named
// (zero if none).
func acquire(path string, me Holder) (heldFile, Holder, error) {
	var prev Holder
	for range 2 {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, err = f.Write(formatHolder(me))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				os.Remove(path)
				return nil, Holder{}, fmt.Errorf("lock %s: %w", path, err)
			}
			return &exclFile{path: path}, prev, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, Holder{}, fmt.Errorf("lock %s: %w", path, err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, Holder{}, fmt.Errorf("lock %s: %w", path, err)
		}
		h := parseHolder(bytes.NewReader(data))
		if h.PID == 0 || h.Host != me.Host || alive(h.PID) {
			return nil, Holder{}, &HeldError{Dir: dirOf(path), Holder: h}
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, Holder{}, fmt.Errorf("lock %s: removing the stale lock of process %d: %w", path, h.PID, err)
		}
		prev = h
	}
	return nil, Holder{}, fmt.Errorf("lock %s: taken by another process while the stale one was removed", path)
}

func (l *exclFile) release() error { return os.Remove(l.path) }

// alive reports whether process pid may still run (where the system
// cannot tell, it may).
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
