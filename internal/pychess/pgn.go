package pychess

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/alicezero/alicezero/env"
)

// writePGNFile writes g to DIR/pychess-ID.pgn, replacing the file whole
// (a temporary file renamed into place), so that a crash leaves either the
// old file or the new one. A game resumed after a restart overwrites the
// record of its first part.
func writePGNFile(dir, id string, g *env.Game) (string, error) {
	var buf bytes.Buffer
	if err := env.WritePGN(&buf, g); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "pychess-"+safeName(id)+".pgn")
	tmp, err := os.CreateTemp(dir, ".pychess-*.pgn.tmp")
	if err != nil {
		return "", err
	}
	_, err = tmp.Write(buf.Bytes())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name()) // best effort: the error below is what matters
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	return path, nil
}

// safeName keeps a game id usable as a file name: letters, digits, '-'
// and '_' (pychess's ids are 8 letters and digits).
func safeName(id string) string {
	s := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, id)
	if s == "" {
		return "_"
	}
	return s
}
