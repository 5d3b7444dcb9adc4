package training

import (
	"fmt"
	"math"
	"slices"

	"github.com/alicezero/alicezero/model"
)

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

func newOptimizer(kind string, w *model.Weights) (*optimizer, error) {
	names, err := model.OptimizerSlots(kind)
	if err != nil {
		return nil, err
	}
	o := &optimizer{kind: kind, names: names}
	for range names {
		bufs := make([][]float32, len(w.Params()))
		for i, p := range w.Params() {
			bufs[i] = make([]float32, len(p.Data))
		}
		o.slots = append(o.slots, bufs)
	}
	return o, nil
}

// update applies one step with learning rate lr to w given the loss
// gradients grads (same layout as w's parameters, L2 not yet included).
//
// The parameters are handed out one at a time to the workspace's team (their
// sizes differ by hundreds of times, so equal counts would not balance);
// each is updated by one goroutine, so the result does not depend on how
// many there are.
func (o *optimizer) update(w *model.Weights, grads [][]float32, lr float64, tc *TrainConfig, a *workspace) {
	o.step++
	l2 := float32(2 * tc.L2) // d/dw of c·w²
	wd := float32(lr * tc.WeightDecay)
	lr32 := float32(lr)
	switch o.kind {
	case model.OptimizerSGD:
		mu := float32(tc.Momentum)
		a.each(len(w.Params()), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				p := w.Params()[i]
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
	case model.OptimizerAdamW:
		b1, b2, eps := float32(tc.Beta1), float32(tc.Beta2), float32(tc.Epsilon)
		c1 := float32(1 - math.Pow(tc.Beta1, float64(o.step)))
		c2 := float32(1 - math.Pow(tc.Beta2, float64(o.step)))
		a.each(len(w.Params()), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				p := w.Params()[i]
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
func (o *optimizer) state(w *model.Weights) *model.OptimizerState {
	s := &model.OptimizerState{Kind: o.kind, Step: o.step}
	for si, name := range o.names {
		for i, p := range w.Params() {
			s.Slots = append(s.Slots, model.OptimizerSlot{Slot: name, Param: p.Name, Data: slices.Clone(o.slots[si][i])})
		}
	}
	return s
}

// restore loads s, which must be for this optimiser kind and architecture.
func (o *optimizer) restore(s *model.OptimizerState, w *model.Weights) error {
	if s.Kind != o.kind {
		return fmt.Errorf("training: optimizer state is for %q, trainer uses %q", s.Kind, o.kind)
	}
	bufs, err := s.Buffers(w)
	if err != nil {
		return err
	}
	for si := range bufs {
		for i, b := range bufs[si] {
			copy(o.slots[si][i], b)
		}
	}
	o.step = s.Step
	return nil
}
