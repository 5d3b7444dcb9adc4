package training

import (
	"runtime"
	"slices"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model/internal/kernel"
)

// planeSquares is the floats of one 8×8 plane.
const planeSquares = env.PlaneSize

// workspace is the scratch memory of one graph's Winograd ops: one set of
// buffers per goroutine, grown on demand (so that a run allocates nothing
// once the first has sized them). A graph's machine runs one op at a time,
// so the ops share it. Not part of any op's identity.
type workspace struct {
	k         *kernel.Set
	team      team // the helpers of run's parallel sections
	workers   []*workerScratch
	slabs     []float32 // the filter gradient ops' per-slab sums
	sums      []float64 // their total
	biasSlabs []float64 // winoConvGradOp's per-slab bias sums
	pack      []float32 // the 1×1 ops' packed filters (packRows)
	packBias  []float32
	// cores is the most goroutines a parallel section uses; 0 means
	// GOMAXPROCS. A trainer whose shards run side by side gives each its
	// share of the cores.
	cores int
	// filters, if not nil, holds the 3×3 convolutions' transformed
	// filters, shared by the graphs of a trainer's shards and transformed
	// by the trainer once per step (convFilters.transform) before the graphs
	// run; the ops then leave them alone. With nil every op transforms its
	// own at every run.
	filters *filterSet
}

// filterSet is the transformed filters of one network's 3×3
// convolutions, by parameter name, for graphs that share them.
type filterSet struct {
	convs  []*convFilters
	byName map[string]*convFilters
}

// convFilters is one convolution's filters: w and b are its parameters'
// arrays, fwd their transform, and tr the transposed filters of the input
// gradient (nil when no gradient of the input is needed).
type convFilters struct {
	w, b    []float32
	fwd, tr *kernel.Layer
}

// layers returns the layers of the convolution whose parameters are w
// and b (named name): a's shared ones, made on first use, or fresh ones
// without a filter set. tr is nil unless inputGrad.
func (a *workspace) layers(name string, w, b []float32, cin, cout int, inputGrad bool) (fwd, tr *kernel.Layer) {
	if a.filters == nil {
		fwd = kernel.NewLayer(cin, cout)
		if inputGrad {
			tr = kernel.NewLayer(cout, cin)
		}
		return fwd, tr
	}
	f := a.filters.byName[name]
	if f == nil {
		f = &convFilters{w: w, b: b, fwd: kernel.NewLayer(cin, cout)}
		a.filters.byName[name] = f
		a.filters.convs = append(a.filters.convs, f)
	}
	if inputGrad && f.tr == nil {
		f.tr = kernel.NewLayer(cout, cin)
	}
	return f.fwd, f.tr
}

// transform sets f's layers from its parameters' current values.
func (f *convFilters) transform() {
	f.fwd.SetFilters(f.w, f.b)
	if f.tr != nil {
		f.tr.SetTransposeOf(f.fwd, 0, f.fwd.Cout)
	}
}

type workerScratch struct {
	in, out, dx []float32 // lane layout; in's and out's borders stay zero
	v, m        []float32 // transformed arrays of one group, or of a slab
	sums        []float32 // one group's channel sums
	blk         []float32 // one block of rows of a 1×1 product
}

func newWorkspace() (*workspace, error) {
	k, err := kernel.ByName("")
	if err != nil {
		return nil, err
	}
	return &workspace{k: k}, nil
}

// scratch returns the buffers of goroutine i.
func (a *workspace) scratch(i int) *workerScratch {
	return a.workers[i]
}

// maxWorkers is the most goroutines a parallel section of a uses; a nil
// workspace uses every core.
func (a *workspace) maxWorkers() int {
	if a != nil && a.cores > 0 {
		return a.cores
	}
	return runtime.GOMAXPROCS(0)
}

// run is team.run on up to maxWorkers goroutines: the caller's and the
// workspace's team of helpers, each with its own scratch (a.scratch(worker)).
// A nil workspace (ops of the reference graph, gorgonia's BLAS) has no
// team and no scratch: the call starts goroutines of its own.
func (a *workspace) run(n, unit int, f func(worker, lo, hi int)) {
	var t *team
	if a != nil {
		t = &a.team
		for len(a.workers) < min(a.maxWorkers(), (n+unit-1)/unit) {
			a.workers = append(a.workers, &workerScratch{})
		}
	}
	t.run(a.maxWorkers(), n, unit, f)
}

// split calls f on [0, n) cut into one contiguous range per core.
func (a *workspace) split(n int, f func(lo, hi int)) {
	workers := max(1, min(a.maxWorkers(), n))
	a.run(n, (n+workers-1)/workers, func(_, lo, hi int) { f(lo, hi) })
}

// each calls f on [0, n) one index at a time, handed out to the workspace's
// goroutines as they come free.
func (a *workspace) each(n int, f func(lo, hi int)) {
	a.run(n, 1, func(_, lo, hi int) { f(lo, hi) })
}

// close stops the workspace's helper goroutines.
func (a *workspace) close() { a.team.close() }

// grown returns *s resized to n, reallocated (zeroed) only if its
// capacity is short, and keeps the result in *s for the next call.
func grown[T float32 | float64](s *[]T, n int) []T {
	*s = slices.Grow((*s)[:0], n)[:n]
	return *s
}
