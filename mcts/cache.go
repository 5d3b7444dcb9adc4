package mcts

import (
	"math"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/seed"
)

// The evaluation cache remembers the network's output for positions: the
// logits of the legal moves (in the generator's order, which depends on the
// position alone) and the WDL. Its key is exact for what the network sees:
// the position's Zobrist hash (pieces with their boards, side to move,
// castling rights, en-passant square) mixed with the two inputs the hash
// lacks, the repetition count (capped at 2, as the input planes cap it) and
// the halfmove clock (capped at 100, as the planes cap it). Two positions
// with the same key therefore encode to the same planes, up to a 64-bit
// Zobrist collision. Logits are stored before the policy temperature, so
// the cache is independent of the search settings; it must be cleared when
// the network changes.
//
// Storage is bounded: each shard writes records into a ring buffer (a log:
// old records are overwritten in order) and finds them through an index
// table that keeps the full key, so index collisions and overwritten
// records are detected, never misread.

var keyMix = func() (t [3][101]uint64) {
	for r := range t {
		for h := range t[r] {
			t[r][h] = seed.Mix(uint64(r*len(t[r]) + h + 1))
		}
	}
	return t
}()

// cacheKey is the evaluation-cache key of p, whose repetition count is reps.
func cacheKey(p *env.Position, reps int) uint64 {
	return p.Hash() ^ keyMix[min(reps, 2)][min(p.HalfmoveClock(), 100)]
}

// Cache is a bounded, concurrency-safe cache of network evaluations shared
// by the trees of a Searcher. A nil *Cache is a valid, always-missing cache.
type Cache struct {
	shards []cacheShard
	mask   uint64
	hits   atomic.Int64
	misses atomic.Int64
}

type cacheShard struct {
	mu    sync.Mutex
	index []cacheSlot
	ring  []uint32
	head  uint64 // absolute write offset into ring
	_     [40]byte
}

type cacheSlot struct {
	key uint64
	pos uint64 // absolute ring offset of the record + 1; 0: empty
}

// record layout in the ring: key low, key high, n, W, D, L, n logits.
const cacheHeader = 6

// avgRecord is the ring space planned per entry (header + ~50 moves).
const avgRecord = 56

// NewCache returns a cache for about entries positions, or nil (no cache)
// for entries ≤ 0.
func NewCache(entries int) *Cache {
	if entries <= 0 {
		return nil
	}
	nShards := 16
	if entries < 4096 {
		nShards = 1
	}
	per := (entries + nShards - 1) / nShards
	idx := 1 << bits.Len(uint(2*per-1)) // power of two ≥ 2·per
	c := &Cache{shards: make([]cacheShard, nShards), mask: uint64(nShards - 1)}
	for i := range c.shards {
		c.shards[i].index = make([]cacheSlot, idx)
		c.shards[i].ring = make([]uint32, max(per*avgRecord, cacheHeader+env.MaxMoves))
	}
	return c
}

func (c *Cache) shard(key uint64) *cacheShard { return &c.shards[key&c.mask] }

func (sh *cacheShard) slot(key uint64) *cacheSlot {
	return &sh.index[(key>>16)&uint64(len(sh.index)-1)]
}

// lookup copies the cached logits of the n legal moves of the position with
// the given key into dst and returns its WDL; ok is false on a miss.
func (c *Cache) lookup(key uint64, n int, dst []float32) (wdl [3]float32, ok bool) {
	if c == nil {
		return wdl, false
	}
	sh := c.shard(key)
	sh.mu.Lock()
	s := sh.slot(key)
	if s.pos != 0 && s.key == key {
		pos := s.pos - 1
		R := uint64(len(sh.ring))
		if sh.head <= pos+R { // not overwritten since
			r := sh.ring[pos%R:]
			if uint64(r[0])|uint64(r[1])<<32 == key && int(r[2]) == n {
				wdl = [3]float32{math.Float32frombits(r[3]), math.Float32frombits(r[4]), math.Float32frombits(r[5])}
				for i, b := range r[cacheHeader : cacheHeader+n] {
					dst[i] = math.Float32frombits(b)
				}
				ok = true
			}
		}
	}
	sh.mu.Unlock()
	if ok {
		c.hits.Add(1)
	} else {
		c.misses.Add(1)
	}
	return wdl, ok
}

// store records the logits of the legal moves and the WDL of a position.
func (c *Cache) store(key uint64, logits []float32, wdl []float32) {
	if c == nil {
		return
	}
	sh := c.shard(key)
	n := len(logits)
	need := uint64(cacheHeader + n)
	sh.mu.Lock()
	R := uint64(len(sh.ring))
	if need <= R {
		off := sh.head % R
		if off+need > R { // records do not wrap: skip the tail
			sh.head += R - off
			off = 0
		}
		r := sh.ring[off : off+need]
		r[0], r[1], r[2] = uint32(key), uint32(key>>32), uint32(n)
		r[3], r[4], r[5] = math.Float32bits(wdl[0]), math.Float32bits(wdl[1]), math.Float32bits(wdl[2])
		for i, l := range logits {
			r[cacheHeader+i] = math.Float32bits(l)
		}
		*sh.slot(key) = cacheSlot{key: key, pos: sh.head + 1}
		sh.head += need
	}
	sh.mu.Unlock()
}

// Clear empties the cache (call it when the network changes).
func (c *Cache) Clear() {
	if c == nil {
		return
	}
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		clear(sh.index)
		sh.head = 0
		sh.mu.Unlock()
	}
	c.hits.Store(0)
	c.misses.Store(0)
}

// HitsMisses returns the lookups that hit and missed since the cache was
// made or cleared.
func (c *Cache) HitsMisses() (hits, misses int64) {
	if c == nil {
		return 0, 0
	}
	return c.hits.Load(), c.misses.Load()
}
