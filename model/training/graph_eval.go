package training

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// defaultBuckets are the batch sizes GraphEvaluator builds graphs for.
var defaultBuckets = []int{1, 16, 64, 256}

// GraphEvaluator evaluates the network with gorgonia graphs, one per batch
// size bucket; a batch is padded with zero planes up to the smallest bucket
// that holds it (or split into chunks of the largest). It is the reference
// implementation against which FastEvaluator is tested, and slower than it.
// Its products run on the package's BLAS where available (see blas.go), so
// it is not a measure of gorgonia with its default BLAS. Safe for
// concurrent use (calls are serialised).
type GraphEvaluator struct {
	mu      sync.Mutex
	w       *model.Weights // our own copy; every bucket's graph reads it
	buckets []*graphBucket
	closed  bool
}

// graphBucket is one batch size's graph with its own tape machine (a
// gorgonia graph must not be shared between machines).
type graphBucket struct {
	size   int
	planes int // input planes
	inSize int // floats of one position's input
	polSz  int // policy logits of one position
	net    *netGraph
	vm     G.VM
	in     []float32
	inT    *tensor.Dense
	polV   G.Value // Read targets, preallocated so that Read copies into them
	wdlV   G.Value
	polOut []float32
	wdlOut []float32
}

// NewGraphEvaluator builds graphs over a copy of w for the given batch-size
// buckets (defaultBuckets if none).
func NewGraphEvaluator(w *model.Weights, buckets ...int) (*GraphEvaluator, error) {
	if w == nil {
		return nil, errors.New("model: graph evaluator: nil weights")
	}
	if len(buckets) == 0 {
		buckets = defaultBuckets
	}
	buckets = slices.Clone(buckets)
	slices.Sort(buckets)
	buckets = slices.Compact(buckets)
	if buckets[0] < 1 {
		return nil, fmt.Errorf("model: graph evaluator: bucket size %d < 1", buckets[0])
	}
	installKernelBLAS()
	e := &GraphEvaluator{w: w.Clone()}
	for _, size := range buckets {
		b, err := newGraphBucket(e.w, size)
		if err != nil {
			e.Close()
			return nil, err
		}
		e.buckets = append(e.buckets, b)
	}
	return e, nil
}

func newGraphBucket(w *model.Weights, size int) (b *graphBucket, err error) {
	defer catch(&err, "building graph evaluator")
	gorgoniaBuildMu.Lock()
	defer gorgoniaBuildMu.Unlock()
	net, err := buildNet(w, size, paramValues(w, true), nil)
	if err != nil {
		return nil, err
	}
	b = &graphBucket{size: size, net: net, planes: w.Config().NumInputPlanes(), inSize: w.Config().InputSize(), polSz: w.Config().PolicySize()}
	wdl, err := G.ApplyOp(rowSoftmax{}, net.value)
	if err != nil {
		return nil, fmt.Errorf("model: building WDL softmax: %w", err)
	}
	b.polOut = make([]float32, size*b.polSz)
	b.wdlOut = make([]float32, size*env.WDLSize)
	b.polV = tensor.New(tensor.WithShape(size, b.polSz), tensor.WithBacking(b.polOut))
	b.wdlV = tensor.New(tensor.WithShape(size, env.WDLSize), tensor.WithBacking(b.wdlOut))
	G.Read(net.policy, &b.polV)
	G.Read(wdl, &b.wdlV)
	b.in = make([]float32, size*b.inSize)
	b.inT = tensor.New(tensor.WithShape(size, b.planes, 8, 8), tensor.WithBacking(b.in))
	if err := G.Let(net.input, b.inT); err != nil {
		return nil, fmt.Errorf("model: binding input: %w", err)
	}
	b.vm = G.NewTapeMachine(net.g)
	return b, nil
}

// run evaluates the first n ≤ size positions of planes.
func (b *graphBucket) run(planes []float32, n int, policy, wdl []float32) (err error) {
	defer catch(&err, "running gorgonia graph")
	copy(b.in, planes[:n*b.inSize])
	clear(b.in[n*b.inSize:])
	// Rebind each time: gorgonia's in-place reshapes may have replaced the
	// input's header with a view.
	b.inT = tensor.New(tensor.WithShape(b.size, b.planes, 8, 8), tensor.WithBacking(b.in))
	if err := G.Let(b.net.input, b.inT); err != nil {
		return err
	}
	b.vm.Reset() // the tape machine only runs again after a Reset
	if err := runTape(b.vm); err != nil {
		return fmt.Errorf("model: gorgonia run (batch %d): %w", b.size, err)
	}
	copy(policy, b.polOut[:n*b.polSz])
	copy(wdl, b.wdlOut[:n*env.WDLSize])
	return nil
}

// Evaluate runs the network on n positions, as FastEvaluator.Evaluate
// does.
func (e *GraphEvaluator) Evaluate(planes []float32, n int, policy, wdl []float32) error {
	if err := e.w.Config().CheckEvaluateArgs(planes, n, policy, wdl); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return fmt.Errorf("graph evaluator: %w", model.ErrClosed)
	}
	for done := 0; done < n; {
		b := e.bucketFor(n - done)
		k := min(b.size, n-done)
		if err := b.run(planes[done*b.inSize:], k, policy[done*b.polSz:], wdl[done*env.WDLSize:]); err != nil {
			return err
		}
		done += k
	}
	return nil
}

// bucketFor returns the smallest bucket holding n positions, or the largest.
func (e *GraphEvaluator) bucketFor(n int) *graphBucket {
	for _, b := range e.buckets {
		if b.size >= n {
			return b
		}
	}
	return e.buckets[len(e.buckets)-1]
}

// SetWeights replaces the evaluator's weights with a copy of w, which must
// have the same architecture.
func (e *GraphEvaluator) SetWeights(w *model.Weights) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return fmt.Errorf("graph evaluator: %w", model.ErrClosed)
	}
	return e.w.CopyFrom(w)
}

// Config returns the architecture evaluated.
func (e *GraphEvaluator) Config() model.Config { return e.w.Config() }

// Close releases the graphs. Evaluate fails afterwards.
func (e *GraphEvaluator) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	var first error
	for _, b := range e.buckets {
		if b.vm != nil {
			if err := b.vm.Close(); err != nil && first == nil {
				first = err
			}
		}
	}
	e.buckets = nil
	return first
}
