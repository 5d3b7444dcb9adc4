package lines

import (
	"fmt"
	"io"
	"sync"
)

// Writer writes whole lines, one Write per line, from any goroutine: a
// protocol's search goroutine and its command loop share one, and their
// lines never interleave.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter returns a Writer of lines to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Printf writes one line: format and args as fmt.Printf takes them, then
// a newline. A failed write is not reported: a GUI that stopped reading is
// noticed when its input ends.
func (lw *Writer) Printf(format string, args ...any) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	_, _ = fmt.Fprintf(lw.w, format+"\n", args...)
}
