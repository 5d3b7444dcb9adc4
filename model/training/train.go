package training

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
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
		Optimizer:   model.OptimizerSGD,
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
	if _, err := model.OptimizerSlots(tc.Optimizer); err != nil {
		errs = append(errs, err)
	}
	if !fin(tc.Momentum) || tc.Momentum < 0 || tc.Momentum >= 1 {
		bad("momentum %v not in [0, 1)", tc.Momentum)
	}
	if tc.Optimizer == model.OptimizerAdamW {
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
	LR            float64 // learning rate used (0 for Gradients, which takes no step)
	// GradNorm is the global norm of the loss gradient, L2 excluded, before
	// any clipping.
	GradNorm float64
}

// trainShardMin is the fewest positions a shard of a training step gets.
//
// A trainer cuts each step's batch into shards, one per core (GOMAXPROCS
// when it is made) as long as each keeps at least trainShardMin
// positions, each run through a graph of its own; the shards' gradients
// are summed. The shards run side by side, each on its own core, instead
// of every op splitting its work across all of them: an op split across
// the cores waits for its slowest part some sixty times a step, and
// gorgonia's own work between the ops runs on one core. Each graph pays a
// fixed cost per run (gorgonia's bookkeeping, the heads' small products),
// which shows below 64 positions (docs/PERFORMANCE.md, "Shards and filters
// once a step", has the figures).
//
// The cut is fixed when the trainer is made, and a step's results depend
// on it (the order in which gradients are summed) but not on the cores
// that run it, so training is bit-reproducible on one machine.
const trainShardMin = 64

// autoShards is the number of shards of a batch of b positions: one per
// core, each of at least trainShardMin positions.
func autoShards(b int) int {
	return max(1, min(runtime.GOMAXPROCS(0), b/trainShardMin))
}

// Trainer trains a Weights in place with its own gorgonia graphs and
// optimiser. Not safe for concurrent use; evaluators hold their own copies
// of the weights (refresh them with SetWeights).
type Trainer struct {
	mu     sync.Mutex
	w      *model.Weights
	tc     TrainConfig
	opt    *optimizer
	closed bool

	ws      *workspace // the step's own parallel work: shards, checks, sums, optimiser
	filters *filterSet // the shards' transformed filters, transformed once a step
	shards  []*trainShard
	grads   [][]float32 // the batch's loss gradient, L2 excluded

	rowEntropy []float64 // prepare's, per row
	rowErrs    []error
	paramSq    []float64 // sumGradients', per parameter: the weights', then the gradient's
}

// trainShard is one part of a step's batch, positions lo to hi, with the
// graph that computes its losses and gradients.
type trainShard struct {
	lo, hi    int
	net       *netGraph
	ws        *workspace // its ops' scratch and helpers
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
	err       error // the last run's
}

// NewTrainer returns a trainer that updates w in place.
func NewTrainer(w *model.Weights, tc TrainConfig) (*Trainer, error) {
	return newTrainer(w, tc, 0)
}

// newTrainer is NewTrainer with the batch cut into n shards (at most one
// a position); 0 means autoShards.
func newTrainer(w *model.Weights, tc TrainConfig, n int) (*Trainer, error) {
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
	ws, err := newWorkspace()
	if err != nil {
		return nil, err
	}
	t := &Trainer{w: w, tc: tc, opt: opt, ws: ws, filters: &filterSet{byName: map[string]*convFilters{}},
		rowEntropy: make([]float64, tc.BatchSize), rowErrs: make([]error, tc.BatchSize), paramSq: make([]float64, 2*len(w.Params()))}
	ws.filters = t.filters
	B := tc.BatchSize
	if n <= 0 {
		n = autoShards(B)
	}
	n = min(n, B)
	for i := range n {
		sh := &trainShard{lo: i * B / n, hi: (i + 1) * B / n}
		if n == 1 {
			sh.ws = ws // one team for everything: two would spin against each other
		}
		if err := sh.build(w, tc.ValueWeight, t.filters); err != nil {
			t.release()
			return nil, err
		}
		t.shards = append(t.shards, sh)
	}
	if n == 1 {
		t.grads = t.shards[0].grads
	} else {
		t.grads = make([][]float32, len(w.Params()))
		for i, p := range w.Params() {
			t.grads[i] = make([]float32, len(p.Data))
		}
	}
	return t, nil
}

func (sh *trainShard) build(w *model.Weights, valueWeight float64, filters *filterSet) (err error) {
	defer catch(&err, "building training graph")
	gorgoniaBuildMu.Lock()
	defer gorgoniaBuildMu.Unlock()
	B := sh.hi - sh.lo
	if sh.ws == nil {
		if sh.ws, err = newWorkspace(); err != nil {
			return err
		}
		sh.ws.filters = filters
	}
	// The graph's parameter values share the Weights' arrays: the
	// optimiser's in-place updates are what the next run reads.
	net, err := buildNet(w, B, paramValues(w, true), sh.ws)
	if err != nil {
		return err
	}
	sh.net = net
	g := net.g
	in, pol := w.Config().InputSize(), w.Config().PolicySize()
	sh.in = make([]float32, B*in)
	sh.polT = make([]float32, B*pol)
	sh.polM = make([]float32, B*pol)
	sh.valT = make([]float32, B*env.WDLSize)
	sh.polTarget = G.NewMatrix(g, tensor.Float32, G.WithShape(B, pol), G.WithName("policy_target"))
	sh.polMask = G.NewMatrix(g, tensor.Float32, G.WithShape(B, pol), G.WithName("legal_mask"))
	sh.valTarget = G.NewMatrix(g, tensor.Float32, G.WithShape(B, env.WDLSize), G.WithName("wdl_target"))
	if err := sh.bindInputs(w.Config()); err != nil {
		return err
	}

	pl, err := softmaxCrossEntropy(net.policy, sh.polTarget, sh.polMask, sh.ws)
	if err != nil {
		return err
	}
	vl, err := softmaxCrossEntropy(net.value, sh.valTarget, nil, sh.ws)
	if err != nil {
		return err
	}
	if pl, err = G.Mean(pl); err != nil {
		return fmt.Errorf("model: policy loss mean: %w", err)
	}
	if vl, err = G.Mean(vl); err != nil {
		return fmt.Errorf("model: value loss mean: %w", err)
	}
	reads := G.Nodes{G.Read(pl, &sh.polLoss), G.Read(vl, &sh.valLoss)}
	total := pl
	vw := vl
	if valueWeight != 1 {
		if vw, err = G.Mul(vl, G.NewConstant(float32(valueWeight))); err != nil {
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
	sh.grads = make([][]float32, len(w.Params()))
	sh.gradVals = make([]G.Value, len(w.Params()))
	for i, p := range w.Params() {
		sh.grads[i] = make([]float32, len(p.Data))
		sh.gradVals[i] = tensor.New(tensor.WithShape(gradNodes[i].Shape()...), tensor.WithBacking(sh.grads[i]))
		reads = append(reads, G.Read(gradNodes[i], &sh.gradVals[i]))
	}
	// Compile only what the reads need. The product nodes' symbolic
	// gradients come in pairs, so G.Grad also builds the gradient of the
	// stem's patches (and col2im back to the input planes), which no
	// parameter needs: a 16384×306×32 product and a 20 MB array per step at
	// batch 256 that the full graph would compute and throw away.
	sh.vm = G.NewTapeMachine(g.SubgraphRoots(reads...))
	return nil
}

// bindInputs (re)binds fresh tensor headers over the input arrays;
// gorgonia may reshape a bound value's header in place during a run.
func (sh *trainShard) bindInputs(cfg model.Config) error {
	B := sh.hi - sh.lo
	if err := G.Let(sh.net.input, tensor.New(tensor.WithShape(B, cfg.NumInputPlanes(), 8, 8), tensor.WithBacking(sh.in))); err != nil {
		return err
	}
	if err := G.Let(sh.polTarget, tensor.New(tensor.WithShape(B, cfg.PolicySize()), tensor.WithBacking(sh.polT))); err != nil {
		return err
	}
	if err := G.Let(sh.polMask, tensor.New(tensor.WithShape(B, cfg.PolicySize()), tensor.WithBacking(sh.polM))); err != nil {
		return err
	}
	return G.Let(sh.valTarget, tensor.New(tensor.WithShape(B, env.WDLSize), tensor.WithBacking(sh.valT)))
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
	t.opt.update(t.w, t.grads, l.LR, &t.tc, t.ws)
	return l, nil
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
		return l, fmt.Errorf("trainer: %w", model.ErrClosed)
	}
	B := t.tc.BatchSize
	in, pol := t.w.Config().InputSize(), t.w.Config().PolicySize()
	if len(planes) != B*in || len(policyTarget) != B*pol || len(legalMask) != B*pol || len(wdlTarget) != B*env.WDLSize {
		return l, fmt.Errorf("model: train step wants exactly %d positions: got %d plane floats (want %d), %d policy targets and %d mask entries (want %d each), %d wdl targets (want %d)",
			B, len(planes), B*in, len(policyTarget), len(legalMask), B*pol, len(wdlTarget), B*env.WDLSize)
	}
	if l.PolicyEntropy, err = t.prepare(policyTarget, legalMask); err != nil {
		return l, err
	}
	// The shards run side by side on as many cores as there are (in turn
	// where there are fewer cores), each with its share of the cores for
	// its own ops.
	cores, n := runtime.GOMAXPROCS(0), len(t.shards)
	for i, sh := range t.shards {
		// Bound as they are (the graph only reads them, during this run).
		sh.in, sh.polT = planes[sh.lo*in:sh.hi*in], policyTarget[sh.lo*pol:sh.hi*pol]
		sh.polM, sh.valT = legalMask[sh.lo*pol:sh.hi*pol], wdlTarget[sh.lo*env.WDLSize:sh.hi*env.WDLSize]
		if sh.ws != t.ws {
			sh.ws.cores = max(1, cores/n)
			if i < cores%n && cores > n {
				sh.ws.cores++
			}
		}
	}
	t.ws.each(len(t.shards), func(lo, hi int) { // one shard runs on the caller alone
		for _, sh := range t.shards[lo:hi] {
			sh.err = sh.run(t.w.Config())
		}
	})
	for _, sh := range t.shards {
		if sh.err != nil {
			return l, sh.err
		}
		share := float64(sh.hi-sh.lo) / float64(B)
		p, err := scalarOf(sh.polLoss)
		if err != nil {
			return l, err
		}
		v, err := scalarOf(sh.valLoss)
		if err != nil {
			return l, err
		}
		l.Policy += share * p
		l.Value += share * v
	}
	wsq, gsq := t.sumGradients()
	l.L2 = t.tc.L2 * wsq
	l.Total = l.Policy + t.tc.ValueWeight*l.Value + l.L2
	l.GradNorm = math.Sqrt(gsq)
	if math.IsNaN(l.Total) || math.IsInf(l.Total, 0) || math.IsNaN(l.GradNorm) || math.IsInf(l.GradNorm, 0) {
		return l, fmt.Errorf("%w: loss %+v (no update applied)", ErrNonFinite, l)
	}
	return l, nil
}

// prepare transforms the graphs' filters from the weights and checks the
// targets, in one parallel section: each convolution's filters are a
// piece, and so is every run of entropyChunk rows. The check: the mask
// holds only 0s and 1s and the targets put no mass outside it (the masked
// loss would be infinite). It returns the targets' mean entropy −Σ t·log t
// over the batch (summed in row order), or the first bad row's error.
func (t *Trainer) prepare(target, mask []float32) (float64, error) {
	const entropyChunk = 16
	B := t.tc.BatchSize
	convs := t.filters.convs
	h, errs := t.rowEntropy, t.rowErrs
	t.ws.each(len(convs)+(B+entropyChunk-1)/entropyChunk, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if i < len(convs) {
				convs[i].transform()
				continue
			}
			r0 := (i - len(convs)) * entropyChunk
			for b := r0; b < min(B, r0+entropyChunk); b++ {
				if h[b], errs[b] = rowEntropyFast(target, mask, b, len(target)/B); errs[b] != nil {
					break
				}
			}
		}
	})
	return sumRowEntropies(h, errs)
}

// sumGradients sets the batch's gradient to the shards' gradients, each
// weighted by its share of the batch (every shard's loss is its own mean),
// summed in shard order, and returns the squared norms of the decayed
// weights and of the gradient: one parameter at a time across the cores,
// the parameters' sums added up in order.
func (t *Trainer) sumGradients() (weights, grads float64) {
	B := float32(t.tc.BatchSize)
	n := len(t.grads)
	wsq, gsq := t.paramSq[:n], t.paramSq[n:]
	t.ws.each(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			g := t.grads[i]
			if len(t.shards) > 1 {
				for k, sh := range t.shards {
					share, src := float32(sh.hi-sh.lo)/B, sh.grads[i][:len(g)]
					if k == 0 {
						for j, v := range src {
							g[j] = share * v
						}
						continue
					}
					for j, v := range src {
						g[j] += share * v
					}
				}
			}
			gsq[i] = sumSquares(g)
			wsq[i] = 0
			if p := t.w.Params()[i]; p.Decay {
				wsq[i] = sumSquares(p.Data)
			}
		}
	})
	for i := range n {
		weights += wsq[i]
		grads += gsq[i]
	}
	return weights, grads
}

// sumSquares returns Σ x² in float64.
func sumSquares(x []float32) float64 {
	var s float64
	for _, v := range x {
		s += float64(v) * float64(v)
	}
	return s
}

func (sh *trainShard) run(cfg model.Config) (err error) {
	defer catch(&err, "running training graph")
	if err := sh.bindInputs(cfg); err != nil {
		return fmt.Errorf("model: binding training inputs: %w", err)
	}
	sh.polLoss, sh.valLoss = nil, nil
	sh.vm.Reset() // the tape machine only runs again after a Reset
	if err := runTape(sh.vm); err != nil {
		return fmt.Errorf("model: gorgonia training run: %w", err)
	}
	return nil
}

// sumRowEntropies returns the mean of the rows' entropies h, or the first
// of the rows' errors (a row after a bad one in its piece is not checked:
// its entries are stale, and never read).
func sumRowEntropies(h []float64, errs []error) (float64, error) {
	var sum float64
	for b := range h {
		if errs[b] != nil {
			return 0, errs[b]
		}
		sum += h[b]
	}
	return sum / float64(len(h)), nil
}

// rowEntropy is prepare's check and entropy of row b, rows being n
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

// Weights returns the weights being trained (not a copy).
func (t *Trainer) Weights() *model.Weights { return t.w }

// Config returns the training configuration.
func (t *Trainer) Config() TrainConfig { return t.tc }

// OptimizerState returns a deep copy of the optimiser's state.
func (t *Trainer) OptimizerState() *model.OptimizerState {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.opt.state(t.w)
}

// Close releases the graphs. Step fails afterwards.
func (t *Trainer) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	t.closed = true
	return t.release()
}

// release stops the helpers and closes the machines built so far.
func (t *Trainer) release() error {
	t.ws.close()
	var errs []error
	for _, sh := range t.shards {
		if sh.ws != t.ws {
			sh.ws.close()
		}
		errs = append(errs, sh.vm.Close())
	}
	return errors.Join(errs...)
}
