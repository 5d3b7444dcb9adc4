package alphabeta

import "github.com/alicezero/alicezero/env"

// Bounds of a stored score.
const (
	boundNone uint8 = iota
	boundUpper
	boundLower
	boundExact
)

// ttEntry is one transposition-table slot: 16 bytes.
type ttEntry struct {
	key   uint64
	move  env.Move
	score int16
	depth int8
	meta  uint8 // bound in the low two bits, the search's generation above
}

func (e *ttEntry) bound() uint8 { return e.meta & 3 }
func (e *ttEntry) gen() uint8   { return e.meta >> 2 }

// table is the transposition table: buckets of four entries (one cache
// line), a position stored in the bucket its key picks. A new result
// replaces the same position's entry, or else the bucket's least
// valuable one: the shallowest, an earlier search's counting as shallower.
type table struct {
	entries []ttEntry
	mask    uint64 // selects a bucket's first entry
	gen     uint8
	// written is set by a search (newSearch) and reset by clear: a
	// table no search has written to since needs no clearing, which
	// would touch every page of it.
	written bool
}

// entryBytes is the size of one entry, for sizing the table from MB.
const (
	entryBytes = 16
	bucketSize = 4
)

func newTable(mb int) *table {
	n := uint64(bucketSize)
	for n*2*entryBytes <= uint64(mb)<<20 {
		n *= 2
	}
	t := &table{entries: make([]ttEntry, n), mask: (n - 1) &^ (bucketSize - 1)}
	adviseHugePages(t.entries)
	clear(t.entries) // touch every page now, not during the first searches
	return t
}

func (t *table) clear() {
	if !t.written {
		return
	}
	clear(t.entries)
	t.gen, t.written = 0, false
}

// newSearch ages the entries of earlier searches so that they are replaced
// first.
func (t *table) newSearch() { t.gen, t.written = (t.gen+1)&63, true }

func (t *table) bucket(key uint64) []ttEntry {
	i := key & t.mask
	return t.entries[i : i+bucketSize : i+bucketSize]
}

func (t *table) probe(key uint64) (*ttEntry, bool) {
	b := t.bucket(key)
	for i := range b {
		if e := &b[i]; e.key == key && e.bound() != boundNone {
			return e, true
		}
	}
	return nil, false
}

func (t *table) store(key uint64, m env.Move, score int32, depth int, bound uint8) {
	b := t.bucket(key)
	e := &b[0]
	worth := func(x *ttEntry) int {
		if x.bound() == boundNone {
			return -1 << 20
		}
		return int(x.depth) - 8*int((t.gen-x.gen())&63)
	}
	for i := range b {
		x := &b[i]
		if x.key == key {
			e = x
			break
		}
		if worth(x) < worth(e) {
			e = x
		}
	}
	if e.key == key {
		if m == env.NoMove {
			m = e.move // keep the best move of an earlier search of this position
		}
		if bound != boundExact && e.gen() == t.gen && int(e.depth) > depth+2 {
			return // a much deeper result of this search stays
		}
	}
	*e = ttEntry{key: key, move: m, score: int16(score), depth: int8(max(min(depth, 127), -128)), meta: bound | t.gen<<2}
}

// hashfull is the share, in permille, of the first thousand slots written
// in this search (UCI's hashfull).
func (t *table) hashfull() int {
	n := 0
	for i := range min(1000, len(t.entries)) {
		if e := &t.entries[i]; e.bound() != boundNone && e.gen() == t.gen {
			n++
		}
	}
	return n * 1000 / min(1000, len(t.entries))
}

// Mate scores are stored relative to the node (distance to mate from it)
// and read back relative to the root.
func toTT(score int32, ply int) int32 {
	switch {
	case score >= mateBound:
		return score + int32(ply)
	case score <= -mateBound:
		return score - int32(ply)
	}
	return score
}

func fromTT(score int32, ply int) int32 {
	switch {
	case score >= mateBound:
		return score - int32(ply)
	case score <= -mateBound:
		return score + int32(ply)
	}
	return score
}
