package pychess

import (
	"errors"
	"io"
	"strings"

	"github.com/alicezero/alicezero/internal/lines"
)

// DefaultMaxLine is the longest stream line read whole. A gameFull of a
// 600-ply game is about 3 KB; a longer line is skipped with a warning.
const DefaultMaxLine = 64 << 10

// lineReader splits an NDJSON stream into lines (a lines.Scanner),
// dropping blank ones (the keep-alive lichess sends) and skipping lines
// longer than max.
type lineReader struct {
	sc *lines.Scanner
}

func newLineReader(r io.Reader, max int) *lineReader {
	if max <= 0 {
		max = DefaultMaxLine
	}
	// The scanner's limit counts the newline too.
	return &lineReader{sc: lines.NewScanner(r, max+1)}
}

// errLineTooLong is returned (with the line's first bytes) for a line
// longer than the limit; the reader has skipped the rest of it.
var errLineTooLong = errors.New("line too long")

// next returns the next non-blank line without its line ending. At the
// end of the stream it returns io.EOF, or io.ErrUnexpectedEOF when the
// stream stops inside a line.
func (lr *lineReader) next() ([]byte, error) {
	for {
		l, err := lr.sc.Scan()
		if err != nil {
			return nil, err // io.EOF at the end
		}
		text := strings.TrimSpace(l.Text)
		switch {
		case l.Unended && (l.TooLong || text != ""):
			return nil, io.ErrUnexpectedEOF
		case l.TooLong:
			return []byte(l.Text), errLineTooLong
		case l.Unended:
			return nil, io.EOF
		case text != "":
			return []byte(text), nil
		}
	}
}
