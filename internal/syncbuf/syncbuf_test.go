package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

// Writers and a reader at once: every write arrives whole (run with -race
// to see that they do not race).
func TestConcurrentWrites(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				if _, err := b.Write([]byte("ab\n")); err != nil {
					t.Error(err)
				}
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if got := b.String(); strings.Count(got, "ab\n") != 400 || len(got) != 1200 {
		t.Fatalf("%d bytes, %d whole writes; want 400 writes of 3 bytes", len(got), strings.Count(got, "ab\n"))
	}
}
