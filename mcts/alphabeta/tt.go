package alphabeta

import (
	"sync/atomic"

	"github.com/alicezero/alicezero/env"
)

// Bounds of a stored score.
const (
	boundNone uint8 = iota
	boundUpper
	boundLower
	boundExact
)

// ttEntry is one transposition-table result, as probe returns it.
type ttEntry struct {
	move  env.Move
	score int16
	depth int8
	meta  uint8 // bound in the low two bits, the search's generation above
}

func (e ttEntry) bound() uint8 { return e.meta & 3 }
func (e ttEntry) gen() uint8   { return e.meta >> 2 }

// pack and unpack convert an entry to the 64-bit word a slot stores.
func (e ttEntry) pack() uint64 {
	return uint64(e.move) | uint64(uint16(e.score))<<32 | uint64(uint8(e.depth))<<48 | uint64(e.meta)<<56
}

func unpack(d uint64) ttEntry {
	return ttEntry{move: env.Move(uint32(d)), score: int16(uint16(d >> 32)), depth: int8(uint8(d >> 48)), meta: uint8(d >> 56)}
}

// slot is one place of the table, 16 bytes: the entry's word, and its
// key xor the word. The threads of a search share the table without a
// lock: a slot read while another thread writes it has a check that
// matches no key (the words come from two different stores), and reads
// as empty, so no thread ever takes one position's result for another's.
type slot struct {
	check atomic.Uint64
	data  atomic.Uint64
}

// load returns the slot's key and entry.
func (s *slot) load() (key uint64, e ttEntry) {
	d := s.data.Load()
	return s.check.Load() ^ d, unpack(d)
}

func (s *slot) save(key uint64, e ttEntry) {
	d := e.pack()
	s.data.Store(d)
	s.check.Store(key ^ d)
}

// table is the transposition table: buckets of four slots (one cache
// line), a position stored in the bucket its key picks. A new result
// replaces the same position's entry, or else the bucket's least
// valuable one: the shallowest, an earlier search's counting as shallower.
type table struct {
	slots []slot
	mask  uint64 // selects a bucket's first slot
	gen   uint8
	// written is set by a search (newSearch) and reset by clear: a
	// table no search has written to since needs no clearing, which
	// would touch every page of it.
	written bool
}

// slotBytes is the size of one slot, for sizing the table from MB.
const (
	slotBytes  = 16
	bucketSize = 4
)

func newTable(mb int) *table {
	n := uint64(bucketSize)
	for n*2*slotBytes <= uint64(mb)<<20 {
		n *= 2
	}
	t := &table{slots: make([]slot, n), mask: (n - 1) &^ (bucketSize - 1)}
	adviseHugePages(t.slots)
	clear(t.slots) // touch every page now, not during the first searches
	return t
}

func (t *table) clear() {
	if !t.written {
		return
	}
	clear(t.slots) // an all-zero slot holds no bound
	t.gen, t.written = 0, false
}

// newSearch ages the entries of earlier searches so that they are replaced
// first. It is called before the search's threads start.
func (t *table) newSearch() { t.gen, t.written = (t.gen+1)&63, true }

func (t *table) bucket(key uint64) []slot {
	i := key & t.mask
	return t.slots[i : i+bucketSize : i+bucketSize]
}

func (t *table) probe(key uint64) (ttEntry, bool) {
	b := t.bucket(key)
	for i := range b {
		if k, e := b[i].load(); k == key && e.bound() != boundNone {
			return e, true
		}
	}
	return ttEntry{}, false
}

func (t *table) store(key uint64, m env.Move, score int32, depth int, bound uint8) {
	b := t.bucket(key)
	worth := func(x ttEntry) int {
		if x.bound() == boundNone {
			return -1 << 20
		}
		return int(x.depth) - 8*int((t.gen-x.gen())&63)
	}
	target := &b[0]
	tk, te := target.load()
	for i := 1; i < len(b) && tk != key; i++ {
		k, x := b[i].load()
		if k == key || worth(x) < worth(te) {
			target, tk, te = &b[i], k, x
		}
	}
	if tk == key && te.bound() != boundNone {
		if m == env.NoMove {
			m = te.move // keep the best move of an earlier search of this position
		}
		if bound != boundExact && te.gen() == t.gen && int(te.depth) > depth+2 {
			return // a much deeper result of this search stays
		}
	}
	target.save(key, ttEntry{move: m, score: int16(score), depth: int8(max(min(depth, 127), -128)), meta: bound | t.gen<<2})
}

// hashfull is the share, in permille, of the first thousand slots written
// in this search (UCI's hashfull).
func (t *table) hashfull() int {
	n := 0
	for i := range min(1000, len(t.slots)) {
		if _, e := t.slots[i].load(); e.bound() != boundNone && e.gen() == t.gen {
			n++
		}
	}
	return n * 1000 / min(1000, len(t.slots))
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
