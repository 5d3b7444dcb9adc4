package pychess

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/fileutil"
)

// writePGNFile writes g to DIR/pychess-ID.pgn, replacing the file whole
// (fileutil's atomic write), so that a crash leaves either the old file or
// the new one. A game resumed after a restart overwrites the record of its
// first part.
func writePGNFile(dir, id string, g *env.Game) (string, error) {
	var buf bytes.Buffer
	if err := env.WritePGN(&buf, g); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "pychess-"+safeName(id)+".pgn")
	if err := fileutil.WriteAtomic(path, buf.Bytes()); err != nil {
		return "", err // it names the file
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
