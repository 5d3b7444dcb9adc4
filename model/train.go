package model

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/alicezero/alicezero/env"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// DefaultTrainBatch is the default training batch size.
const DefaultTrainBatch = 256

// TrainConfig configures a Trainer. Start from DefaultTrainConfig and
// override fields (e.g. by unmarshalling JSON over it): zero values are
// taken literally (momentum 0 means plain SGD, L2 0 means no penalty).
type TrainConfig struct {
	// BatchSize is the number of positions per step; every Step gets
	// exactly this many (the graph is built for one batch size).
	BatchSize int `json:"batch_size"`
	// Optimizer is OptimizerSGD or OptimizerAdamW.
	Optimizer string `json:"optimizer"`
	// Momentum and Nesterov configure SGD.
	Momentum float64 `json:"momentum"`
	Nesterov bool    `json:"nesterov"`
	// Beta1, Beta2 and Epsilon configure AdamW.
	Beta1   float64 `json:"beta1"`
	Beta2   float64 `json:"beta2"`
	Epsilon float64 `json:"epsilon"`
	// L2 is c in the loss term c·Σw² over weights (not biases); its
	// gradient 2c·w is added to the loss gradient.
	L2 float64 `json:"l2"`
	// WeightDecay is decoupled decay (AdamW style) applied as
	// w ← w − lr·WeightDecay·w, to weights only. Usually 0 with SGD.
	WeightDecay float64 `json:"weight_decay"`
	// ValueWeight multiplies the value loss in the total.
	ValueWeight float64 `json:"value_weight"`
	// ClipNorm, if positive, rescales the loss gradient (L2 excluded) so
	// that its global norm is at most ClipNorm. A guard against the rare
	// huge step of a net without batch normalisation.
	ClipNorm float64    `json:"clip_norm"`
	LR       LRSchedule `json:"lr"`
}

// DefaultTrainConfig returns the standard AlphaZero-style setup: SGD with
// momentum 0.9, L2 1e-4, batch 256, constant learning rate 0.02 after a
// short warm-up.
func DefaultTrainConfig() TrainConfig {
	return TrainConfig{
		BatchSize:   DefaultTrainBatch,
		Optimizer:   OptimizerSGD,
		Momentum:    0.9,
		Beta1:       0.9,
		Beta2:       0.999,
		Epsilon:     1e-8,
		L2:          1e-4,
		ValueWeight: 1,
		ClipNorm:    10,
		LR:          LRSchedule{Kind: "constant", Base: 0.02, WarmupSteps: 100},
	}
}

// Validate reports whether the configuration is usable.
func (tc TrainConfig) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	fin := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	if tc.BatchSize < 1 || tc.BatchSize > 1<<16 {
		bad("batch_size %d out of range 1..65536", tc.BatchSize)
	}
	if _, err := slotNames(tc.Optimizer); err != nil {
		errs = append(errs, err)
	}
	if !fin(tc.Momentum) || tc.Momentum < 0 || tc.Momentum >= 1 {
		bad("momentum %v not in [0, 1)", tc.Momentum)
	}
	if tc.Optimizer == OptimizerAdamW {
		if !fin(tc.Beta1) || tc.Beta1 < 0 || tc.Beta1 >= 1 || !fin(tc.Beta2) || tc.Beta2 < 0 || tc.Beta2 >= 1 {
			bad("adam betas %v, %v not in [0, 1)", tc.Beta1, tc.Beta2)
		}
		if !fin(tc.Epsilon) || tc.Epsilon <= 0 {
			bad("adam epsilon %v must be positive", tc.Epsilon)
		}
	}
	for name, v := range map[string]float64{"l2": tc.L2, "weight_decay": tc.WeightDecay, "value_weight": tc.ValueWeight, "clip_norm": tc.ClipNorm} {
		if !fin(v) || v < 0 {
			bad("%s %v must be finite and ≥ 0", name, v)
		}
	}
	if err := tc.LR.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("model: invalid train config: %w", err)
	}
	return nil
}

// Losses are the terms of the training loss for one batch, each averaged
// over the batch: Total = Policy + ValueWeight·Value + L2.
type Losses struct {
	// Policy is the cross-entropy of the policy, a softmax over the legal
	// moves' logits only, against the target distribution.
	Policy float64
	// PolicyEntropy is the entropy of the target distribution, the part of
	// Policy no network can remove: Policy − PolicyEntropy is the KL
	// divergence of the network's legal policy from the target (≥ 0, and 0
	// when they agree), the part that shows learning.
	PolicyEntropy float64
	Value         float64 // cross-entropy of the WDL head against the game result
	L2            float64 // c·Σw² before the step
	Total         float64
	LR            float64 // learning rate used (0 for Loss, which takes no step)
	// GradNorm is the global norm of the loss gradient, L2 excluded, before
	// any clipping.
	GradNorm float64
}

// Trainer trains a Weights in place with its own gorgonia graph and
// optimiser. Not safe for concurrent use; evaluators hold their own copies
// of the weights (refresh them with SetWeights).
type Trainer struct {
	mu     sync.Mutex
	w      *Weights
	tc     TrainConfig
	opt    *optimizer
	closed bool

	net       *netGraph
	arena     *convArena // the graph's conv ops' scratch and helpers
	vm        G.VM
	polTarget *G.Node
	polMask   *G.Node
	valTarget *G.Node
	in        []float32 // backing arrays of the bound input tensors (the caller's during a step)
	polT      []float32
	polM      []float32
	valT      []float32
	polLoss   G.Value // Read targets
	valLoss   G.Value
	gradVals  []G.Value
	grads     [][]float32
}

// NewTrainer returns a trainer that updates w in place.
func NewTrainer(w *Weights, tc TrainConfig) (*Trainer, error) {
	if w == nil {
		return nil, errors.New("model: trainer: nil weights")
	}
	if err := tc.Validate(); err != nil {
		return nil, err
	}
	opt, err := newOptimizer(tc.Optimizer, w)
	if err != nil {
		return nil, err
	}
	installKernelBLAS()
	t := &Trainer{w: w, tc: tc, opt: opt}
	if err := t.build(); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *Trainer) build() (err error) {
	defer catch(&err, "building training graph")
	gorgoniaBuildMu.Lock()
	defer gorgoniaBuildMu.Unlock()
	B := t.tc.BatchSize
	// The graph's parameter values share the Weights' arrays: the
	// optimiser's in-place updates are what the next run reads.
	arena, err := newConvArena()
	if err != nil {
		return err
	}
	net, err := buildNet(t.w.cfg, B, paramValues(t.w, true), arena)
	if err != nil {
		return err
	}
	t.net, t.arena = net, arena
	g := net.g
	in, pol := t.w.cfg.InputSize(), t.w.cfg.PolicySize()
	t.in = make([]float32, B*in)
	t.polT = make([]float32, B*pol)
	t.polM = make([]float32, B*pol)
	t.valT = make([]float32, B*env.WDLSize)
	t.polTarget = G.NewMatrix(g, tensor.Float32, G.WithShape(B, pol), G.WithName("policy_target"))
	t.polMask = G.NewMatrix(g, tensor.Float32, G.WithShape(B, pol), G.WithName("legal_mask"))
	t.valTarget = G.NewMatrix(g, tensor.Float32, G.WithShape(B, env.WDLSize), G.WithName("wdl_target"))
	if err := t.bindInputs(); err != nil {
		return err
	}

	pl, err := softmaxCrossEntropy(net.policy, t.polTarget, t.polMask, arena)
	if err != nil {
		return err
	}
	vl, err := softmaxCrossEntropy(net.value, t.valTarget, nil, arena)
	if err != nil {
		return err
	}
	if pl, err = G.Mean(pl); err != nil {
		return fmt.Errorf("model: policy loss mean: %w", err)
	}
	if vl, err = G.Mean(vl); err != nil {
		return fmt.Errorf("model: value loss mean: %w", err)
	}
	reads := G.Nodes{G.Read(pl, &t.polLoss), G.Read(vl, &t.valLoss)}
	total := pl
	vw := vl
	if t.tc.ValueWeight != 1 {
		if vw, err = G.Mul(vl, G.NewConstant(float32(t.tc.ValueWeight))); err != nil {
			return fmt.Errorf("model: weighting value loss: %w", err)
		}
	}
	if total, err = G.Add(pl, vw); err != nil {
		return fmt.Errorf("model: total loss: %w", err)
	}
	gradNodes, err := G.Grad(total, net.params...)
	if err != nil {
		return fmt.Errorf("model: differentiating loss: %w", err)
	}
	// Read each gradient into our own preallocated array: values bound to
	// nodes may live in registers the machine reuses, and we never let
	// gorgonia accumulate into dual values (which would need zeroing).
	t.grads = make([][]float32, len(t.w.params))
	t.gradVals = make([]G.Value, len(t.w.params))
	for i, p := range t.w.params {
		t.grads[i] = make([]float32, len(p.Data))
		t.gradVals[i] = tensor.New(tensor.WithShape(gradNodes[i].Shape()...), tensor.WithBacking(t.grads[i]))
		reads = append(reads, G.Read(gradNodes[i], &t.gradVals[i]))
	}
	// Compile only what the reads need. The product nodes' symbolic
	// gradients come in pairs, so G.Grad also builds the gradient of the
	// stem's patches (and col2im back to the input planes), which no
	// parameter needs: a 16384×306×32 product and a 20 MB array per step at
	// batch 256 that the full graph would compute and throw away.
	t.vm = G.NewTapeMachine(g.SubgraphRoots(reads...))
	return nil
}

// bindInputs (re)binds fresh tensor headers over the input arrays;
// gorgonia may reshape a bound value's header in place during a run.
func (t *Trainer) bindInputs() error {
	B := t.tc.BatchSize
	if err := G.Let(t.net.input, tensor.New(tensor.WithShape(B, t.w.cfg.NumInputPlanes(), 8, 8), tensor.WithBacking(t.in))); err != nil {
		return err
	}
	if err := G.Let(t.polTarget, tensor.New(tensor.WithShape(B, t.w.cfg.PolicySize()), tensor.WithBacking(t.polT))); err != nil {
		return err
	}
	if err := G.Let(t.polMask, tensor.New(tensor.WithShape(B, t.w.cfg.PolicySize()), tensor.WithBacking(t.polM))); err != nil {
		return err
	}
	return G.Let(t.valTarget, tensor.New(tensor.WithShape(B, env.WDLSize), tensor.WithBacking(t.valT)))
}

// Step runs one optimisation step on exactly BatchSize positions: planes
// (BatchSize·Config.InputSize), policy targets (BatchSize·Config.PolicySize, each
// row a distribution, e.g. the search's visit counts normalised), legal
// masks (BatchSize·Config.PolicySize, 1 for each legal move's index and 0
// elsewhere, as env.Position.LegalMask writes them; the policy is a softmax
// over the legal moves, so illegal logits get no gradient, and a target on
// an illegal move is an error) and WDL targets (BatchSize·3, the game result
// from the side to move's view, e.g. 1,0,0 for a win). If the loss is not
// finite no update is applied and the error wraps ErrNonFinite.
func (t *Trainer) Step(planes, policyTarget, legalMask, wdlTarget []float32) (Losses, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	l, err := t.forwardBackward(planes, policyTarget, legalMask, wdlTarget)
	if err != nil {
		return l, err
	}
	l.LR = t.tc.LR.At(t.opt.step)
	if t.tc.ClipNorm > 0 && l.GradNorm > t.tc.ClipNorm {
		s := float32(t.tc.ClipNorm / l.GradNorm)
		for _, g := range t.grads {
			for j := range g {
				g[j] *= s
			}
		}
	}
	t.opt.update(t.w, t.grads, l.LR, &t.tc, t.arena)
	return l, nil
}

// Loss computes the losses on one batch without changing anything (for
// validation). It costs as much as a Step.
func (t *Trainer) Loss(planes, policyTarget, legalMask, wdlTarget []float32) (Losses, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.forwardBackward(planes, policyTarget, legalMask, wdlTarget)
}

// Gradients computes the loss gradient (L2 excluded) on one batch and
// returns a copy, in Weights.Params() order. For tests and diagnostics.
func (t *Trainer) Gradients(planes, policyTarget, legalMask, wdlTarget []float32) ([][]float32, Losses, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	l, err := t.forwardBackward(planes, policyTarget, legalMask, wdlTarget)
	if err != nil {
		return nil, l, err
	}
	out := make([][]float32, len(t.grads))
	for i, g := range t.grads {
		out[i] = append([]float32(nil), g...)
	}
	return out, l, nil
}

func (t *Trainer) forwardBackward(planes, policyTarget, legalMask, wdlTarget []float32) (l Losses, err error) {
	if t.closed {
		return l, fmt.Errorf("trainer: %w", ErrClosed)
	}
	B := t.tc.BatchSize
	if in, pol := t.w.cfg.InputSize(), t.w.cfg.PolicySize(); len(planes) != B*in || len(policyTarget) != B*pol || len(legalMask) != B*pol || len(wdlTarget) != B*env.WDLSize {
		return l, fmt.Errorf("model: train step wants exactly %d positions: got %d plane floats (want %d), %d policy targets and %d mask entries (want %d each), %d wdl targets (want %d)",
			B, len(planes), B*in, len(policyTarget), len(legalMask), B*pol, len(wdlTarget), B*env.WDLSize)
	}
	if l.PolicyEntropy, err = targetEntropy(t.arena, policyTarget, legalMask, B); err != nil {
		return l, err
	}
	// Bound as they are (the graph only reads them, during this run).
	t.in, t.polT, t.polM, t.valT = planes, policyTarget, legalMask, wdlTarget
	if err := t.run(); err != nil {
		return l, err
	}
	l.Policy, err = scalarOf(t.polLoss)
	if err != nil {
		return l, err
	}
	if l.Value, err = scalarOf(t.valLoss); err != nil {
		return l, err
	}
	l.L2 = t.tc.L2 * t.w.SumSquares()
	l.Total = l.Policy + t.tc.ValueWeight*l.Value + l.L2
	var sq float64
	for _, g := range t.grads {
		for _, v := range g {
			sq += float64(v) * float64(v)
		}
	}
	l.GradNorm = math.Sqrt(sq)
	if math.IsNaN(l.Total) || math.IsInf(l.Total, 0) || math.IsNaN(l.GradNorm) || math.IsInf(l.GradNorm, 0) {
		return l, fmt.Errorf("%w: loss %+v (no update applied)", ErrNonFinite, l)
	}
	return l, nil
}

func (t *Trainer) run() (err error) {
	defer catch(&err, "running training graph")
	if err := t.bindInputs(); err != nil {
		return fmt.Errorf("model: binding training inputs: %w", err)
	}
	t.polLoss, t.valLoss = nil, nil
	t.vm.Reset() // the tape machine only runs again after a Reset
	if err := t.vm.RunAll(); err != nil {
		return fmt.Errorf("model: gorgonia training run: %w", err)
	}
	return nil
}

// targetEntropy checks that the mask holds only 0s and 1s and that the
// targets put no mass outside it (the masked loss would be infinite), and
// returns the targets' mean entropy −Σ t·log t over the batch. Rows are
// checked across the cores; the first bad row's error is returned, and
// the entropies are summed in row order.
func targetEntropy(a *convArena, target, mask []float32, batch int) (float64, error) {
	h := make([]float64, batch)
	errs := make([]error, batch)
	a.split(batch, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			h[b], errs[b] = rowEntropyFast(target, mask, b, len(target)/batch)
			if errs[b] != nil {
				return
			}
		}
	})
	var sum float64
	for b := range h {
		if errs[b] != nil {
			return 0, errs[b]
		}
		sum += h[b]
	}
	return sum / float64(batch), nil
}

// rowEntropy is targetEntropy's check and entropy of row b, rows being n
// entries long.
func rowEntropy(target, mask []float32, b, n int) (float64, error) {
	var h float64
	for i := b * n; i < (b+1)*n; i++ {
		m := mask[i]
		if m == 0 && target[i] == 0 {
			continue // nearly every entry: an illegal move with no target
		}
		p := float64(target[i])
		switch {
		case m != 0 && m != 1:
			return 0, fmt.Errorf("model: train step: legal mask of position %d holds %v at index %d, want 0 or 1", i/n, m, i%n)
		case math.IsNaN(p) || math.IsInf(p, 0):
			return 0, fmt.Errorf("%w: position %d's policy target is %v at index %d (no update applied)", ErrNonFinite, i/n, p, i%n)
		case p < 0:
			return 0, fmt.Errorf("model: train step: position %d's policy target is %v at index %d", i/n, p, i%n)
		case p != 0 && m == 0:
			return 0, fmt.Errorf("model: train step: position %d's policy target puts %v on index %d, which its legal mask excludes", i/n, p, i%n)
		case p > 0:
			h -= p * math.Log(p)
		}
	}
	return h, nil
}

func scalarOf(v G.Value) (float64, error) {
	switch x := v.(type) {
	case *G.F32:
		return float64(*x), nil
	case *G.F64:
		return float64(*x), nil
	case tensor.Tensor:
		if x.Shape().TotalSize() == 1 {
			switch d := x.Data().(type) {
			case float32:
				return float64(d), nil
			case []float32:
				return float64(d[0]), nil
			}
		}
	}
	return 0, fmt.Errorf("model: loss value %v (%T) is not a float32 scalar", v, v)
}

// Steps returns the number of optimisation steps taken.
func (t *Trainer) Steps() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.opt.step
}

// NextLR returns the learning rate the next Step will use.
func (t *Trainer) NextLR() float64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tc.LR.At(t.opt.step)
}

// Weights returns the weights being trained (not a copy).
func (t *Trainer) Weights() *Weights { return t.w }

// Config returns the training configuration.
func (t *Trainer) Config() TrainConfig { return t.tc }

// OptimizerState returns a deep copy of the optimiser's state.
func (t *Trainer) OptimizerState() *OptimizerState {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.opt.state(t.w)
}

// SetOptimizerState restores a state taken from a trainer of the same
// optimiser kind and architecture (e.g. from a checkpoint).
func (t *Trainer) SetOptimizerState(s *OptimizerState) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s == nil {
		return errors.New("model: nil optimizer state")
	}
	return t.opt.restore(s, t.w)
}

// Close releases the graph. Step fails afterwards.
func (t *Trainer) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	t.closed = true
	t.arena.close()
	return t.vm.Close()
}
