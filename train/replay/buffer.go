package replay

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/alicezero/alicezero/env"
)

// WindowConfig sizes the sampling window: the newest positions, a fraction
// of all positions the run has produced, clamped to [Min, Max]. The window
// so grows with the run, and early, poor games leave it (as in KataGo).
type WindowConfig struct {
	Min      int
	Max      int
	Fraction float64
}

// Size returns the window for a run that has produced total positions.
func (w WindowConfig) Size(total int) int {
	n := int(w.Fraction * float64(total))
	return max(w.Min, min(n, w.Max))
}

// Buffer holds the samples of a run's window, oldest first.
type Buffer struct {
	window  WindowConfig
	maxUses int
	samples []Sample
	uses    []uint16
	total   int // positions ever added, for the window size
}

// NewBuffer returns an empty buffer. maxUses caps how often one sample may
// be drawn (0: no cap).
func NewBuffer(w WindowConfig, maxUses int) *Buffer {
	return &Buffer{window: w, maxUses: maxUses}
}

// Add appends samples (from one iteration, say) and drops those that fell
// out of the window.
func (b *Buffer) Add(samples []Sample) {
	b.samples = append(b.samples, samples...)
	b.uses = append(b.uses, make([]uint16, len(samples))...)
	b.total += len(samples)
	if keep := b.window.Size(b.total); len(b.samples) > keep {
		drop := len(b.samples) - keep
		b.samples = append(b.samples[:0:0], b.samples[drop:]...)
		b.uses = append(b.uses[:0:0], b.uses[drop:]...)
	}
}

// SetTotal records how many positions the run has produced, for a buffer
// rebuilt on resume from only the shards still in the window.
func (b *Buffer) SetTotal(total int) { b.total = total }

// Len is the number of samples in the window; Total counts every position
// ever added.
func (b *Buffer) Len() int   { return len(b.samples) }
func (b *Buffer) Total() int { return b.total }

// ErrExhausted is returned when every sample has reached the use cap.
var ErrExhausted = errors.New("replay: every sample in the window has reached its use cap")

// Sample draws n distinct-use samples uniformly from those below the use
// cap, counting the use, and returns them.
func (b *Buffer) Sample(rng *rand.Rand, n int) ([]*Sample, error) {
	if len(b.samples) == 0 {
		return nil, errors.New("replay: the buffer is empty")
	}
	out := make([]*Sample, 0, n)
	for tries := 0; len(out) < n; tries++ {
		if tries > 64*n {
			return nil, ErrExhausted
		}
		i := rng.IntN(len(b.samples))
		if b.maxUses > 0 && int(b.uses[i]) >= b.maxUses {
			continue
		}
		b.uses[i]++
		out = append(out, &b.samples[i])
	}
	return out, nil
}

// Batch is a training batch laid out for the network (training.Trainer.Step).
type Batch struct {
	N      int
	Planes []float32 // N × the variant's InputSize
	Policy []float32 // N × the variant's PolicySize
	Legal  []float32 // N × the variant's PolicySize: 1 on each legal move's index, else 0
	WDL    []float32 // N × 3

	variant env.Variant    // the rules the legal masks follow
	perms   []env.Symmetry // augmentations(variant)
}

// NewBatch allocates a batch of n positions of variant v.
func NewBatch(n int, v env.Variant) *Batch {
	return &Batch{
		N:       n,
		variant: v,
		perms:   augmentations(v),
		Planes:  make([]float32, n*v.InputSize()),
		Policy:  make([]float32, n*v.PolicySize()),
		Legal:   make([]float32, n*v.PolicySize()),
		WDL:     make([]float32, n*env.WDLSize),
	}
}

// augmentations returns the symmetries a sample of variant v is drawn
// under: the permutations of its boards (2 on two boards, 6 on three).
// The colour flip is not among them: the input planes show a position
// from the side to move's view, so a position and its colour flip encode
// identically. A board permutation is a symmetry of the rules of every
// variant (env's TestSymmetriesPreserveLegalPlay), so the image has the
// sample's value and its moves' images (env.Symmetry.PolicyIndex); that a
// variant's start is not symmetric under it (alice-black-b) does not
// matter, its image is just a position of the same rules that the games
// may not reach.
func augmentations(v env.Variant) []env.Symmetry {
	var ys []env.Symmetry
	for _, y := range v.Symmetries() {
		if y&env.ColourFlip == 0 {
			ys = append(ys, y)
		}
	}
	return ys
}

// Fill encodes the samples into the batch, each as it is or under a
// permutation of the boards, at random (its policy target's indices
// mapped by env.Symmetry.PolicyIndex), with the legal-move mask of the image
// position. The value target (Sample.WDL) is blended with weight qWeight
// with the search's root value q, as win/draw/loss W = max(q, 0),
// L = max(−q, 0), D = 1 − |q| (a game's result is one noisy outcome, the
// search's value an average), unless the target is exact (a proven root)
// or absent. It allocates nothing.
func (bt *Batch) Fill(samples []*Sample, rng *rand.Rand, qWeight float32) {
	clear(bt.Policy)
	in, size, layout := bt.variant.InputSize(), bt.variant.PolicySize(), bt.variant.Policy()
	for i, s := range samples[:bt.N] {
		y := bt.perms[rng.IntN(len(bt.perms))]
		img := s.Position.Transform(y)
		img.Encode(bt.Planes[i*in : (i+1)*in])
		img.LegalMask(bt.variant, bt.Legal[i*size:(i+1)*size])
		pol := bt.Policy[i*size : (i+1)*size]
		for _, e := range s.Policy {
			pol[y.PolicyIndex(layout, int(e.Index))] = e.Prob
		}
		w := s.WDL()
		if qWeight > 0 && !s.NoValue && !s.Proven {
			q := max(-1, min(1, s.RootValue))
			qw := [3]float32{max(q, 0), 1 - max(q, -q), max(-q, 0)}
			for j := range w {
				w[j] = (1-qWeight)*w[j] + qWeight*qw[j]
			}
		}
		copy(bt.WDL[i*env.WDLSize:], w[:])
	}
}

// Uses returns how often each sample of the window has been drawn, oldest
// first: the state a resumed run needs to sample exactly as before.
func (b *Buffer) Uses() []uint16 { return append([]uint16(nil), b.uses...) }

// SetUses restores use counts saved with Uses.
func (b *Buffer) SetUses(uses []uint16) error {
	if len(uses) != len(b.samples) {
		return fmt.Errorf("replay: %d use counts for %d samples", len(uses), len(b.samples))
	}
	copy(b.uses, uses)
	return nil
}
