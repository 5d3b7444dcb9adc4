package lines

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func collect(r *Reader) []Line {
	var got []Line
	for l := range r.C {
		got = append(got, l)
	}
	return got
}

func TestLines(t *testing.T) {
	long := strings.Repeat("x", 100)
	in := "uci\r\nisready\n\n" + long + "\nposition startpos\nlast"
	got := collect(Read(strings.NewReader(in), 64))
	want := []Line{
		{Text: "uci"},
		{Text: "isready"},
		{Text: ""},
		{Text: strings.Repeat("x", 64), TooLong: true, Len: 100},
		{Text: "position startpos"},
		{Text: "last", Unended: true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d lines %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

// A line far beyond the limit, even a huge one, is skipped and the lines
// after it still arrive.
func TestHugeLineKeepsTheReaderGoing(t *testing.T) {
	huge := strings.Repeat("position fen ", 500_000) // 6.5 MB
	got := collect(Read(strings.NewReader("uci\n"+huge+"\r\nisready\n"), 0))
	if len(got) != 3 || got[0].Text != "uci" || !got[1].TooLong || got[1].Len != len(huge) || got[2].Text != "isready" {
		t.Fatalf("got %d lines: %+v", len(got), got)
	}
	if len(got[1].Text) > 80 {
		t.Errorf("a too-long line keeps %d bytes of its text", len(got[1].Text))
	}
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("go\n"), iotest.ErrReader(boom))
	got := collect(Read(r, 0))
	if len(got) != 2 || got[0].Text != "go" || !errors.Is(got[1].Err, boom) {
		t.Fatalf("got %+v", got)
	}
}

func TestClose(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	r := Read(pr, 0)
	go io.WriteString(pw, "one\ntwo\nthree\n")
	if l := <-r.C; l.Text != "one" {
		t.Fatalf("first line %+v", l)
	}
	r.Close()
	r.Close() // twice is fine
	n := 0
	for range r.C {
		n++
	}
	if n > 1 {
		t.Errorf("%d lines delivered after Close", n)
	}
}

// blockAfterEOF reports the end once, then blocks: a terminal on which
// the user pressed Ctrl-D once.
type blockAfterEOF struct {
	data  string
	eof   bool
	block chan struct{}
}

func (b *blockAfterEOF) Read(p []byte) (int, error) {
	if b.data != "" {
		n := copy(p, b.data)
		b.data = b.data[n:]
		return n, nil
	}
	if !b.eof {
		b.eof = true
		return 0, io.EOF
	}
	<-b.block
	return 0, io.EOF
}

func TestInterruptible(t *testing.T) {
	// The end of the input is final.
	src := &blockAfterEOF{data: "1. e4 *\n", block: make(chan struct{})}
	defer close(src.block)
	r := Interruptible(context.Background(), src)
	data, err := io.ReadAll(r)
	if err != nil || string(data) != "1. e4 *\n" {
		t.Fatalf("read %q, %v", data, err)
	}
	if n, err := r.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Fatalf("after the end: %d, %v", n, err)
	}

	// A read blocked on the input ends with the context.
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r = Interruptible(ctx, pr)
	done := make(chan error, 1)
	go func() {
		_, err := r.Read(make([]byte, 8))
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("read ended with %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the read did not end with the context")
	}
}

func TestClip(t *testing.T) {
	forty := strings.Repeat("x", EchoMax)
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"go nodes", "go nodes"},
		{forty, forty},
		{forty + "y", forty + "..."},
		{strings.Repeat("z", 5000), strings.Repeat("z", EchoMax) + "..."},
		// Characters, not bytes: a cut never splits one.
		{strings.Repeat("é", 50), strings.Repeat("é", EchoMax) + "..."},
	} {
		if got := Clip(tt.in); got != tt.want {
			t.Errorf("Clip(%.20q...) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Scanner reads the same lines one at a time, says which last line the
// input ended inside, and then io.EOF.
func TestScanner(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Line
	}{
		{"a\r\nb\n", []Line{{Text: "a"}, {Text: "b"}}},
		{"a\nb", []Line{{Text: "a"}, {Text: "b", Unended: true}}},
		{"a\n" + strings.Repeat("y", 20), []Line{{Text: "a"}, {Text: strings.Repeat("y", 16), TooLong: true, Len: 20, Unended: true}}},
		{"", nil},
	} {
		sc := NewScanner(strings.NewReader(tc.in), 16) // bufio's smallest buffer
		var got []Line
		for {
			l, err := sc.Scan()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, l)
		}
		if len(got) != len(tc.want) {
			t.Errorf("%q: got %+v, want %+v", tc.in, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q line %d: got %+v, want %+v", tc.in, i, got[i], tc.want[i])
			}
		}
	}
	boom := errors.New("boom")
	if _, err := NewScanner(iotest.ErrReader(boom), 0).Scan(); !errors.Is(err, boom) {
		t.Errorf("a failed read: %v", err)
	}
}

func TestWriter(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b)
	w.Printf("bestmove %s", "e2e4")
	w.Printf("readyok")
	if b.String() != "bestmove e2e4\nreadyok\n" {
		t.Errorf("wrote %q", b.String())
	}
}
