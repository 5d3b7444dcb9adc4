// Package fileutil holds the file handling the training packages share.
package fileutil

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// WriteAtomic replaces path with data so that a crash at any moment leaves
// the old file or the new one, never a partial one: the data goes to a
// temporary file in the same folder (its name starts with a dot, so
// readers that list the folder skip it), is synced, and is renamed over
// path; then the folder is synced so that the rename itself survives.
func WriteAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	_, werr := f.Write(data)
	merr := f.Chmod(0o644) // CreateTemp makes files only the owner can read
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, merr, serr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
