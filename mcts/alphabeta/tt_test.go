package alphabeta

import (
	"testing"

	"github.com/alicezero/alicezero/env"
)

// A bucket keeps what is worth most: the same position's entry is
// updated in place, a new one replaces the shallowest, and an earlier
// search's entries go before this search's.
func TestTableReplacement(t *testing.T) {
	tt := newTable(1)
	bucketKey := func(i uint64) uint64 { return i<<40 | 8 } // one bucket, different positions
	m := env.Move(1)
	for i, depth := range []int{5, 9, 3, 7} {
		tt.store(bucketKey(uint64(i)), m, 0, depth, boundExact)
	}
	tt.store(bucketKey(9), m, 0, 6, boundLower) // replaces the depth-3 entry
	for i, want := range []bool{true, true, false, true} {
		if _, ok := tt.probe(bucketKey(uint64(i))); ok != want {
			t.Errorf("entry %d kept %v, want %v", i, ok, want)
		}
	}
	if e, ok := tt.probe(bucketKey(9)); !ok || e.depth != 6 || e.bound() != boundLower {
		t.Fatalf("new entry: %+v, %v", e, ok)
	}
	// The same position is updated in place, keeping its move when the
	// new result has none.
	tt.store(bucketKey(9), env.NoMove, 42, 8, boundExact)
	if e, ok := tt.probe(bucketKey(9)); !ok || e.depth != 8 || e.score != 42 || e.move != m {
		t.Fatalf("updated entry: %+v, %v", e, ok)
	}
	// A new search's result replaces the last search's entries first,
	// however deep they are.
	tt.newSearch()
	tt.store(bucketKey(10), m, 0, 1, boundUpper)
	if _, ok := tt.probe(bucketKey(10)); !ok {
		t.Fatal("a new search's entry found no room")
	}
	if _, ok := tt.probe(bucketKey(1)); !ok {
		t.Error("the deepest entry went before a shallower one of the same search")
	}
}
