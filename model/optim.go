package model

import (
	"fmt"
	"math"
	"slices"
)

// Optimiser kinds.
const (
	OptimizerSGD   = "sgd"   // SGD with (optionally Nesterov) momentum
	OptimizerAdamW = "adamw" // Adam with decoupled weight decay
)

// OptimizerState is an optimiser's complete state, enough for a resumed run
// to continue bit-identically.
type OptimizerState struct {
	Kind string
	// Step is the number of updates applied (Adam's bias correction uses
	// it; the learning-rate schedule is evaluated at it).
	Step int64
	// Slots holds one buffer per (slot, parameter): SGD has slot "velocity";
	// AdamW has "m" and "v" (first and second moments).
	Slots []OptimizerSlot
}

// OptimizerSlot is one per-parameter buffer of an optimiser.
type OptimizerSlot struct {
	Slot  string
	Param string
	Data  []float32
}

func slotNames(kind string) ([]string, error) {
	switch kind {
	case OptimizerSGD:
		return []string{"velocity"}, nil
	case OptimizerAdamW:
		return []string{"m", "v"}, nil
	}
	return nil, fmt.Errorf("model: unknown optimizer %q (want %q or %q)", kind, OptimizerSGD, OptimizerAdamW)
}

// optimizer applies updates to a Weights in place. Every element's update
// depends on that element alone, so splitting the parameters across
// goroutines leaves the results reproducible bit for bit.
type optimizer struct {
	kind  string
	step  int64
	names []string
	// slots[s][i] is slot s of parameter i.
	slots [][][]float32
}

func newOptimizer(kind string, w *Weights) (*optimizer, error) {
	names, err := slotNames(kind)
	if err != nil {
		return nil, err
	}
	o := &optimizer{kind: kind, names: names}
	for range names {
		bufs := make([][]float32, len(w.params))
		for i, p := range w.params {
			bufs[i] = make([]float32, len(p.Data))
		}
		o.slots = append(o.slots, bufs)
	}
	return o, nil
}

// update applies one step with learning rate lr to w given the loss
// gradients grads (same layout as w's parameters, L2 not yet included).
//
// The parameters are handed out one at a time to the arena's team (their
// sizes differ by hundreds of times, so equal counts would not balance);
// each is updated by one goroutine, so the result does not depend on how
// many there are.
func (o *optimizer) update(w *Weights, grads [][]float32, lr float64, tc *TrainConfig, a *convArena) {
	o.step++
	l2 := float32(2 * tc.L2) // d/dw of c·w²
	wd := float32(lr * tc.WeightDecay)
	lr32 := float32(lr)
	switch o.kind {
	case OptimizerSGD:
		mu := float32(tc.Momentum)
		a.each(len(w.params), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				p := w.params[i]
				vel, g, d := o.slots[0][i], grads[i], p.Decay
				for j, x := range p.Data {
					gj := g[j]
					if d {
						gj += l2 * x
					}
					v := mu*vel[j] + gj
					vel[j] = v
					step := v
					if tc.Nesterov {
						step = gj + mu*v
					}
					if d {
						x -= wd * x
					}
					p.Data[j] = x - lr32*step
				}
			}
		})
	case OptimizerAdamW:
		b1, b2, eps := float32(tc.Beta1), float32(tc.Beta2), float32(tc.Epsilon)
		c1 := float32(1 - math.Pow(tc.Beta1, float64(o.step)))
		c2 := float32(1 - math.Pow(tc.Beta2, float64(o.step)))
		a.each(len(w.params), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				p := w.params[i]
				m, v, g, d := o.slots[0][i], o.slots[1][i], grads[i], p.Decay
				for j, x := range p.Data {
					gj := g[j]
					if d {
						gj += l2 * x
					}
					mj := b1*m[j] + (1-b1)*gj
					vj := b2*v[j] + (1-b2)*gj*gj
					m[j], v[j] = mj, vj
					upd := (mj / c1) / (float32(math.Sqrt(float64(vj/c2))) + eps)
					if d {
						x -= wd * x
					}
					p.Data[j] = x - lr32*upd
				}
			}
		})
	}
}

// state returns a deep copy of the optimiser's state.
func (o *optimizer) state(w *Weights) *OptimizerState {
	s := &OptimizerState{Kind: o.kind, Step: o.step}
	for si, name := range o.names {
		for i, p := range w.params {
			s.Slots = append(s.Slots, OptimizerSlot{Slot: name, Param: p.Name, Data: slices.Clone(o.slots[si][i])})
		}
	}
	return s
}

// restore loads s, which must be for this optimiser kind and architecture.
func (o *optimizer) restore(s *OptimizerState, w *Weights) error {
	if s.Kind != o.kind {
		return fmt.Errorf("model: optimizer state is for %q, trainer uses %q", s.Kind, o.kind)
	}
	if s.Step < 0 {
		return fmt.Errorf("model: optimizer state has negative step %d", s.Step)
	}
	if len(s.Slots) != len(o.names)*len(w.params) {
		return fmt.Errorf("%w: optimizer state has %d buffers, want %d", ErrArchMismatch, len(s.Slots), len(o.names)*len(w.params))
	}
	index := make(map[string]int, len(w.params))
	for i, p := range w.params {
		index[p.Name] = i
	}
	slotIndex := make(map[string]int, len(o.names))
	for si, n := range o.names {
		slotIndex[n] = si
	}
	seen := make(map[[2]int]bool, len(s.Slots))
	for _, sl := range s.Slots {
		i, ok := index[sl.Param]
		si, ok2 := slotIndex[sl.Slot]
		if !ok || !ok2 {
			return fmt.Errorf("%w: optimizer state has unknown buffer %s/%s", ErrArchMismatch, sl.Slot, sl.Param)
		}
		if len(sl.Data) != len(w.params[i].Data) {
			return fmt.Errorf("%w: optimizer buffer %s/%s has %d values, parameter has %d", ErrArchMismatch, sl.Slot, sl.Param, len(sl.Data), len(w.params[i].Data))
		}
		if seen[[2]int{si, i}] {
			return fmt.Errorf("model: optimizer state repeats buffer %s/%s", sl.Slot, sl.Param)
		}
		seen[[2]int{si, i}] = true
	}
	for _, sl := range s.Slots {
		copy(o.slots[slotIndex[sl.Slot]][index[sl.Param]], sl.Data)
	}
	o.step = s.Step
	return nil
}
