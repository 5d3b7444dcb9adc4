// Package lines is the front ends' line plumbing: bounded line reading
// for every input read by lines (a GUI's commands, a person's moves, a
// server's NDJSON stream), and Writer, the one writer of whole output
// lines from several goroutines.
//
// Scanner reads lines one at a time; Read reads them on a goroutine of
// its own, so that a conversation can wait for a line, a finished search
// and a signal at once. A line longer than the limit does not end the
// input: the reader skips the rest of it and delivers a Line with TooLong
// set, so that the front end can say so and carry on. Carriage returns
// before the newline are dropped.
//
//	in := lines.Read(os.Stdin, lines.DefaultMax)
//	defer in.Close()
//	for l := range in.C {
//		if l.Err != nil { ... }      // the input failed
//		if l.TooLong { ... }         // say so, carry on
//		handle(l.Text)
//	}
//
//	sc := lines.NewScanner(body, 64<<10) // the same lines, synchronously
//	l, err := sc.Scan()                  // io.EOF after the last
//
//	out := lines.NewWriter(os.Stdout)
//	out.Printf("bestmove %s", m) // from any goroutine, one line at a time
package lines

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/sourcegraph/conc/panics"
)

// DefaultMax is the longest line the protocols take: far beyond any real
// command (a position with a thousand moves is 5 KB).
const DefaultMax = 1 << 20

// Line is one line of input.
type Line struct {
	// Text is the line without its ending; for a line over the limit, its
	// first bytes.
	Text string
	// TooLong is set when the line was longer than the limit; Len is then
	// its length in bytes.
	TooLong bool
	Len     int
	// Unended is set on a last line that the input ended inside, before
	// its newline (a cut stream).
	Unended bool
	// Err is set, on the last Line delivered, when reading failed (not at
	// the end of the input, which just closes the channel).
	Err error
}

// Reader delivers lines on C, which is closed when the input ends or
// fails.
type Reader struct {
	C    <-chan Line
	done chan struct{}
}

// Read starts reading r in lines of at most max bytes (DefaultMax if max
// is not positive).
//
// The reading goroutine is the one a front end does not wait for: a read
// from a terminal or a pipe cannot be interrupted, so a conversation that
// ends (quit, a signal) leaves it blocked until the input ends or the
// process exits. Close makes it deliver nothing more.
func Read(r io.Reader, max int) *Reader {
	if max <= 0 {
		max = DefaultMax
	}
	ch := make(chan Line)
	rd := &Reader{C: ch, done: make(chan struct{})}
	go func() {
		defer close(ch)
		var err error
		if p := panics.Try(func() { err = rd.pump(r, max, ch) }); p != nil {
			err = p.AsError()
		}
		if err != nil {
			select {
			case ch <- Line{Err: err}:
			case <-rd.done:
			}
		}
	}()
	return rd
}

// Close stops the delivery of lines; C is closed soon after.
func (rd *Reader) Close() {
	select {
	case <-rd.done:
	default:
		close(rd.done)
	}
}

// pump delivers lines until the input ends (nil) or fails.
func (rd *Reader) pump(r io.Reader, max int, ch chan<- Line) error {
	sc := NewScanner(r, max)
	for {
		l, err := sc.Scan()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading input: %w", err)
		}
		select {
		case ch <- l:
		case <-rd.done:
			return nil
		}
	}
}

// Scanner reads lines of at most max bytes, line ending included, one at
// a time.
type Scanner struct {
	br *bufio.Reader
}

// NewScanner returns a scanner of r's lines of at most max bytes
// (DefaultMax if max is not positive).
func NewScanner(r io.Reader, max int) *Scanner {
	if max <= 0 {
		max = DefaultMax
	}
	return &Scanner{br: bufio.NewReaderSize(r, max)}
}

// Scan returns the next line. A line over the limit comes with TooLong
// set, its first bytes and its length, the rest of it skipped; a last
// line the input ends inside comes with Unended set. After the last line
// Scan returns io.EOF; a failed read returns the reader's error.
func (sc *Scanner) Scan() (Line, error) {
	b, err := sc.br.ReadSlice('\n')
	l := Line{Text: string(trimEnd(b))}
	if errors.Is(err, bufio.ErrBufferFull) {
		// Over the limit: keep the start, skip the rest of the line.
		l.TooLong, l.Len = true, len(b)
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = sc.br.ReadSlice('\n')
			l.Len += len(b)
		}
		l.Len -= len(b) - len(trimEnd(b))
		l.Text = l.Text[:min(len(l.Text), 80)]
	}
	switch {
	case err == nil:
		return l, nil
	case !errors.Is(err, io.EOF):
		return Line{}, err
	case len(b) > 0 || l.TooLong:
		l.Unended = true
		return l, nil
	}
	return Line{}, io.EOF
}

// EchoMax is how many characters of a line of input an error message
// repeats: enough to recognise it, never a screenful.
const EchoMax = 40

// Clip returns text cut to its first EchoMax characters, with "..." after
// a cut, for an error message that names what was typed.
func Clip(text string) string {
	n := 0
	for i := range text {
		if n == EchoMax {
			return text[:i] + "..."
		}
		n++
	}
	return text
}

// trimEnd drops a line ending ("\n" or "\r\n").
func trimEnd(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// Interruptible returns a reader of r's bytes that ends when ctx does
// (its reads then fail with the context's error) and, once r reports its
// end, stays at the end. A command reading a terminal (a PGN file typed
// or pasted) thus stops at once on Ctrl-C, and at the first Ctrl-D. As
// with Read, a read of r already under way cannot be interrupted: its
// goroutine ends when that read returns.
func Interruptible(ctx context.Context, r io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		var err error
		if p := panics.Try(func() { _, err = io.Copy(pw, r) }); p != nil {
			err = p.AsError()
		}
		pw.CloseWithError(err) // nil: the readers see io.EOF; after the context, its error stays
	}()
	context.AfterFunc(ctx, func() { pw.CloseWithError(context.Cause(ctx)) })
	return pr
}
