package pychess

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// DefaultMaxLine is the longest stream line read whole. A gameFull of a
// 600-ply game is about 3 KB; a longer line is skipped with a warning.
const DefaultMaxLine = 64 << 10

// lineReader splits an NDJSON stream into lines, dropping blank ones (the
// keep-alive lichess sends) and skipping lines longer than max.
type lineReader struct {
	r   *bufio.Reader
	max int
}

func newLineReader(r io.Reader, max int) *lineReader {
	if max <= 0 {
		max = DefaultMaxLine
	}
	// The buffer holds a whole line plus its newline.
	return &lineReader{r: bufio.NewReaderSize(r, max+1), max: max}
}

// errLineTooLong is returned (with the line's first bytes) for a line
// longer than the limit; the reader has skipped the rest of it.
var errLineTooLong = errors.New("line too long")

// next returns the next non-blank line without its line ending. The slice
// is valid until the following call. At the end of the stream it returns
// io.EOF, or io.ErrUnexpectedEOF when the stream stops inside a line.
func (lr *lineReader) next() ([]byte, error) {
	for {
		line, err := lr.r.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			head := append([]byte(nil), line[:min(len(line), 80)]...)
			if err := lr.skipLine(); err != nil {
				return nil, err
			}
			return head, errLineTooLong
		case errors.Is(err, io.EOF):
			if len(bytes.TrimSpace(line)) > 0 {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, io.EOF
		case err != nil:
			return nil, err
		}
		line = bytes.TrimSpace(line)
		if len(line) > 0 {
			return line, nil
		}
	}
}

// skipLine discards input up to and including the next newline.
func (lr *lineReader) skipLine() error {
	for {
		_, err := lr.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) {
			return io.ErrUnexpectedEOF
		}
		return err
	}
}
