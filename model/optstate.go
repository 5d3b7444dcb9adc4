package model

import (
	"errors"
	"fmt"
)

// Optimiser kinds: the optimisers whose state a checkpoint can carry (the
// optimisers themselves are model/training's).
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

// OptimizerSlots returns the names of the buffers an optimiser of the
// given kind keeps per parameter, in the order checkpoints store them.
func OptimizerSlots(kind string) ([]string, error) {
	switch kind {
	case OptimizerSGD:
		return []string{"velocity"}, nil
	case OptimizerAdamW:
		return []string{"m", "v"}, nil
	}
	return nil, fmt.Errorf("model: unknown optimizer %q (want %q or %q)", kind, OptimizerSGD, OptimizerAdamW)
}

// Buffers validates s against w's architecture and returns its buffers in
// canonical order, bufs[slot][param] (slots in OptimizerSlots order,
// parameters in Weights.Params order), sharing s's arrays. Each buffer
// must appear once, with its parameter's size.
func (s *OptimizerState) Buffers(w *Weights) ([][][]float32, error) {
	if s == nil {
		return nil, errors.New("model: nil optimizer state")
	}
	names, err := OptimizerSlots(s.Kind)
	if err != nil {
		return nil, err
	}
	if s.Step < 0 {
		return nil, fmt.Errorf("model: optimizer state has negative step %d", s.Step)
	}
	if len(s.Slots) != len(names)*len(w.params) {
		return nil, fmt.Errorf("%w: optimizer state has %d buffers, want %d", ErrArchMismatch, len(s.Slots), len(names)*len(w.params))
	}
	index := make(map[string]int, len(w.params))
	for i, p := range w.params {
		index[p.Name] = i
	}
	slotIndex := make(map[string]int, len(names))
	bufs := make([][][]float32, len(names))
	for si, n := range names {
		slotIndex[n] = si
		bufs[si] = make([][]float32, len(w.params))
	}
	for _, sl := range s.Slots {
		i, ok := index[sl.Param]
		si, ok2 := slotIndex[sl.Slot]
		if !ok || !ok2 {
			return nil, fmt.Errorf("%w: optimizer state has unknown buffer %s/%s", ErrArchMismatch, sl.Slot, sl.Param)
		}
		if len(sl.Data) != len(w.params[i].Data) {
			return nil, fmt.Errorf("%w: optimizer buffer %s/%s has %d values, parameter has %d", ErrArchMismatch, sl.Slot, sl.Param, len(sl.Data), len(w.params[i].Data))
		}
		if bufs[si][i] != nil {
			return nil, fmt.Errorf("model: optimizer state repeats buffer %s/%s", sl.Slot, sl.Param)
		}
		bufs[si][i] = sl.Data
	}
	return bufs, nil
}
