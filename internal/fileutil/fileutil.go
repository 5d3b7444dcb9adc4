// Package fileutil holds the project's one way of replacing a file so that
// a crash never leaves it half written: every file the project writes
// whole goes through it (checkpoints, replay shards, run configurations,
// rewritten metrics, plots, ONNX exports, games saved by play and by the
// pychess bot). Files written as a stream are not replaced and do not:
// metrics.jsonl gains a synced line per iteration, an arena writes its PGN
// game by game.
//
// The data goes to a temporary file in the same folder (its name starts
// with a dot, so readers that list the folder skip it), is synced, and is
// renamed over the real name; then the folder is synced so that the rename
// itself survives a power cut. A reader therefore sees the old file or the
// new one, never a mixture.
package fileutil

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// WriteAtomic replaces path with data atomically (see the package
// documentation).
func WriteAtomic(path string, data []byte) error {
	return WriteAtomicFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteAtomicFunc replaces path atomically with what write writes, for
// files too large to build in memory first (checkpoints stream their
// tensors). write gets a buffered writer; if it fails, path is left as it
// was and the temporary file is removed.
func WriteAtomicFunc(path string, write func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err = write(bw); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// CreateTemp makes files only the owner can read.
	if err = f.Chmod(0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("writing %s: fsync: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// The new file is complete and in place; a failure to sync the folder
	// is reported but removes nothing.
	if derr := syncDir(dir); derr != nil {
		return fmt.Errorf("writing %s: fsync folder: %w", path, derr)
	}
	return nil
}

// syncDir makes the folder's entries (a rename) durable. Systems that
// cannot sync a folder (EINVAL, as some file systems answer) are not an
// error.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil // nothing more can be done; the file itself is synced
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}
