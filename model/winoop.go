package model

import (
	"fmt"
	"hash"
	"runtime"
	"sync/atomic"

	"github.com/chewxy/hm"
	"github.com/sourcegraph/conc"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The training graph's 3×3 convolutions are gorgonia ops that run the fast
// path's Winograd kernels (see wino.go) on groups of lanes positions,
// converting each group between gorgonia's NCHW tensors and the lane
// layout on the way in and out:
//
//	winoConvOp            y = act(conv(x, w) + b [+ res]), act = ReLU or identity
//	reluGradOp            dPre = dy ⊙ (y > 0)
//	winoConvInputGradOp   dx = the adjoint of the convolution applied to dPre
//	winoConvFilterGradOp  dw, summed over the batch in the transformed domain
//	biasGradOp            db = Σ dPre
//
// The gradients are exact: each is the adjoint of the linear map the
// forward op computes (the transforms' transposes: dM = A dY Aᵀ,
// dd = B dV Bᵀ, dg = Gᵀ dU G), evaluated in float32 like the forward pass.
// Every element of every output is computed by one goroutine in an order
// that does not depend on how many there are, so a step's results do not
// depend on GOMAXPROCS (training stays bit-reproducible on one machine).

// convArena is the scratch memory of one graph's Winograd ops: one set of
// buffers per goroutine, grown on demand (so that a run allocates nothing
// once the first has sized them). A graph's machine runs one op at a time,
// so the ops share it. Not part of any op's identity.
type convArena struct {
	k       *fastKernels
	workers []*convScratch
	slabs   []float32 // the filter gradient ops' per-slab sums
	sums    []float64 // their total
}

type convScratch struct {
	in, out, dx []float32 // lane layout; in's border stays zero
	v, m        []float32 // transformed arrays of one group, or of a slab
}

func newConvArena() (*convArena, error) {
	k, err := kernelSet("")
	if err != nil {
		return nil, err
	}
	return &convArena{k: k}, nil
}

// scratch returns the buffers of goroutine i.
func (a *convArena) scratch(i int) *convScratch {
	return a.workers[i]
}

// run calls f(worker, lo, hi) on contiguous ranges covering [0, n), across
// up to GOMAXPROCS goroutines (the caller's included), each with its own
// worker index, handing ranges out in pieces of size unit (the last may be
// short). A panic in any goroutine is re-raised on the caller's.
func (a *convArena) run(n, unit int, f func(worker, lo, hi int)) {
	pieces := (n + unit - 1) / unit
	workers := max(1, min(runtime.GOMAXPROCS(0), pieces))
	for len(a.workers) < workers {
		a.workers = append(a.workers, &convScratch{})
	}
	var next atomic.Int64
	work := func(w int) {
		for {
			i := int(next.Add(1) - 1)
			if i >= pieces {
				return
			}
			f(w, i*unit, min(n, (i+1)*unit))
		}
	}
	if workers == 1 {
		work(0)
		return
	}
	var wg conc.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Go(func() { work(w) })
	}
	defer wg.Wait() // even if work panics here
	work(0)
}

// grown returns s resized to n floats, reallocated (zeroed) only if its
// capacity is short.
func grown(s *[]float32, n int) []float32 {
	if cap(*s) < n {
		*s = make([]float32, n)
	}
	*s = (*s)[:n]
	return *s
}

// grown64 is grown for float64s.
func grown64(s *[]float64, n int) []float64 {
	if cap(*s) < n {
		*s = make([]float64, n)
	}
	*s = (*s)[:n]
	return *s
}

// winoConvOp is a same-padded 3×3 convolution with bias, optionally a
// residual input added and a ReLU: inputs x [batch, cin, 8, 8],
// w [cout, cin, 3, 3], b [cout] and, if residual, res [batch, cout, 8, 8];
// output [batch, cout, 8, 8].
type winoConvOp struct {
	cin, cout int
	relu      bool
	residual  bool
	// inputGrad is whether x needs a gradient (not for the input planes).
	inputGrad bool
	out       outBuf
	arena     *convArena
	layer     *winoLayer // w and b transformed at every run
}

func newWinoConvOp(cin, cout int, relu, residual, inputGrad bool, arena *convArena) winoConvOp {
	return winoConvOp{cin: cin, cout: cout, relu: relu, residual: residual, inputGrad: inputGrad,
		out: newOutBuf(), arena: arena, layer: newWinoLayer(cin, cout)}
}

func (op winoConvOp) Arity() int {
	if op.residual {
		return 4
	}
	return 3
}

func (op winoConvOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	t4, t1 := G.TensorType{Dims: 4, Of: a}, G.TensorType{Dims: 1, Of: a}
	if op.residual {
		return hm.NewFnType(t4, t4, t1, t4, t4)
	}
	return hm.NewFnType(t4, t4, t1, t4)
}

func (op winoConvOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	if len(in) != op.Arity() {
		return nil, fmt.Errorf("%v: want %d input shapes, got %d", op, op.Arity(), len(in))
	}
	shapes := make([]tensor.Shape, len(in))
	for i, d := range in {
		s, ok := d.(tensor.Shape)
		if !ok {
			return nil, fmt.Errorf("%v: input %d has no shape (%T)", op, i, d)
		}
		shapes[i] = s
	}
	x, w, b := shapes[0], shapes[1], shapes[2]
	if x.Dims() != 4 || x[1] != op.cin || x[2] != 8 || x[3] != 8 {
		return nil, fmt.Errorf("%v: input %v is not [batch, %d, 8, 8]", op, x, op.cin)
	}
	if !w.Eq(tensor.Shape{op.cout, op.cin, 3, 3}) || !b.Eq(tensor.Shape{op.cout}) {
		return nil, fmt.Errorf("%v: filters %v and bias %v do not fit", op, w, b)
	}
	y := tensor.Shape{x[0], op.cout, 8, 8}
	if op.residual && !shapes[3].Eq(y) {
		return nil, fmt.Errorf("%v: residual %v is not %v", op, shapes[3], y)
	}
	return y, nil
}

func (op winoConvOp) ReturnsPtr() bool      { return false }
func (op winoConvOp) CallsExtern() bool     { return false }
func (op winoConvOp) OverwritesInput() int  { return -1 }
func (op winoConvOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op winoConvOp) Hashcode() uint32      { return hashOf(op) }
func (op winoConvOp) String() string {
	return fmt.Sprintf("winoConv<%d→%d,relu=%v,res=%v,dx=%v>", op.cin, op.cout, op.relu, op.residual, op.inputGrad)
}

func (op winoConvOp) Do(in ...G.Value) (G.Value, error) {
	ts, err := denseF32s(in, op.Arity(), op)
	if err != nil {
		return nil, err
	}
	shapes := make([]G.DimSizer, len(ts))
	for i, t := range ts {
		shapes[i] = t.Shape()
	}
	oshape, err := op.InferShape(shapes...)
	if err != nil {
		return nil, err
	}
	out := op.out.tensor(oshape)
	l, a := op.layer, op.arena
	w, b := ts[1].Float32s(), ts[2].Float32s()
	a.run(op.cout, 4, func(_, co0, co1 int) { l.setFilterRange(w, b, co0, co1) })
	x, y := ts[0].Float32s(), out.Float32s()
	var res []float32
	if op.residual {
		res = ts[3].Float32s()
	}
	batch, cin, cout := oshape[0], op.cin, op.cout
	inN, outN := cin*planeSquares, cout*planeSquares
	a.run(batch, lanes, func(wk, lo, hi int) {
		sc, k := a.scratch(wk), a.k
		xl := grown(&sc.in, cin*laneChannel)
		yl := grown(&sc.out, cout*laneChannel)
		v := grown(&sc.v, winoPoints*winoStride(cin))
		m := grown(&sc.m, winoPoints*winoStride(l.rows))
		s := hi - lo
		k.toLanes(x[lo*inN:hi*inN], cin, s, xl)
		k.winoIn(xl, cin, v, winoCols, winoStride(cin))
		k.products(l, v, m)
		if op.residual {
			k.toLanes(res[lo*outN:hi*outN], cout, s, yl)
		}
		k.winoOut(m, l.rows, cout, l.bias, yl, op.residual, op.relu)
		k.fromLanes(yl, cout, s, y[lo*outN:hi*outN], outN)
	})
	return out, nil
}

func (op winoConvOp) DiffWRT(n int) []bool {
	d := []bool{op.inputGrad, true, true, true}
	return d[:n]
}

// SymDiff implements gorgonia.SDOp.
func (op winoConvOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	dPre := grad
	var err error
	if op.relu {
		if dPre, err = G.ApplyOp(reluGradOp{out: newOutBuf(), arena: op.arena}, grad, output); err != nil {
			return nil, err
		}
	}
	var dx *G.Node
	if op.inputGrad {
		dop := winoConvInputGradOp{cin: op.cin, cout: op.cout, out: newOutBuf(), arena: op.arena, layer: newWinoLayer(op.cout, op.cin), fwd: op.layer}
		if dx, err = G.ApplyOp(dop, dPre, inputs[1]); err != nil {
			return nil, err
		}
	}
	dw, err := G.ApplyOp(winoConvFilterGradOp{cin: op.cin, cout: op.cout, out: newOutBuf(), arena: op.arena}, dPre, inputs[0])
	if err != nil {
		return nil, err
	}
	db, err := G.ApplyOp(biasGradOp{out: newOutBuf(), arena: op.arena}, dPre)
	if err != nil {
		return nil, err
	}
	grads := G.Nodes{dx, dw, db}
	if op.residual {
		grads = append(grads, dPre)
	}
	return grads, nil
}

// denseF32s returns the n float32 dense inputs of op, materialised if
// views.
func denseF32s(in []G.Value, n int, op fmt.Stringer) ([]*tensor.Dense, error) {
	if len(in) != n {
		return nil, fmt.Errorf("%v: want %d inputs, got %d", op, n, len(in))
	}
	out := make([]*tensor.Dense, n)
	for i, v := range in {
		d, err := denseF32([]G.Value{v}, op)
		if err != nil {
			return nil, err
		}
		out[i] = d
	}
	return out, nil
}

// reluGradOp is the ReLU's gradient: inputs the gradient of the ReLU's
// output dy and that output y (tensors of one shape); output dy where
// y > 0, else 0.
type reluGradOp struct {
	out   outBuf
	arena *convArena
}

func (op reluGradOp) Arity() int { return 2 }
func (op reluGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(a, a, a)
}
func (op reluGradOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("%v: want 2 input shapes, got %d", op, len(in))
	}
	a, ok1 := in[0].(tensor.Shape)
	b, ok2 := in[1].(tensor.Shape)
	if !ok1 || !ok2 || !a.Eq(b) {
		return nil, fmt.Errorf("%v: input shapes %v and %v differ", op, in[0], in[1])
	}
	return a.Clone(), nil
}
func (op reluGradOp) ReturnsPtr() bool      { return false }
func (op reluGradOp) CallsExtern() bool     { return false }
func (op reluGradOp) OverwritesInput() int  { return -1 }
func (op reluGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op reluGradOp) Hashcode() uint32      { return hashOf(op) }
func (op reluGradOp) String() string        { return "reluGrad" }

func (op reluGradOp) Do(in ...G.Value) (G.Value, error) {
	ts, err := denseF32s(in, 2, op)
	if err != nil {
		return nil, err
	}
	if !ts[0].Shape().Eq(ts[1].Shape()) {
		return nil, fmt.Errorf("%v: input shapes %v and %v differ", op, ts[0].Shape(), ts[1].Shape())
	}
	out := op.out.tensor(ts[0].Shape())
	dy, y, d := ts[0].Float32s(), ts[1].Float32s(), out.Float32s()
	k := op.arena.k
	const unit = 4096
	op.arena.run(len(d), unit, func(_, lo, hi int) {
		k.reluGrad(dy[lo:hi], y[lo:hi], d[lo:hi])
	})
	return out, nil
}

// reluGradGo writes d[i] = dy[i] if y[i] > 0, else 0. The portable kernel.
func reluGradGo(dy, y, d []float32) {
	for i := range d {
		if y[i] > 0 {
			d[i] = dy[i]
		} else {
			d[i] = 0
		}
	}
}

// channelSumsGo writes the sum of channels [lo, hi) of x
// [batch][channels][64] to sums[lo:hi], in float32 (eight interleaved sums
// per channel, combined in a fixed order, as the assembly kernel does).
// The portable kernel.
func channelSumsGo(x []float32, batch, channels, lo, hi int, sums []float32) {
	for c := lo; c < hi; c++ {
		var acc [8][8]float32
		for b := 0; b < batch; b++ {
			blk := x[(b*channels+c)*planeSquares : (b*channels+c+1)*planeSquares]
			for v := 0; v < 8; v++ {
				for l := 0; l < 8; l++ {
					acc[v][l] += blk[v*8+l]
				}
			}
		}
		var lane [8]float32
		for l := 0; l < 8; l++ {
			lane[l] = ((acc[0][l] + acc[1][l]) + (acc[2][l] + acc[3][l])) + ((acc[4][l] + acc[5][l]) + (acc[6][l] + acc[7][l]))
		}
		// The halves added, then two rounds of pairwise sums.
		h := [4]float32{lane[0] + lane[4], lane[1] + lane[5], lane[2] + lane[6], lane[3] + lane[7]}
		sums[c] = (h[0] + h[1]) + (h[2] + h[3])
	}
}

// winoConvInputGradOp is winoConvOp's gradient with respect to its input:
// inputs dPre [batch, cout, 8, 8] (the gradient before the bias, i.e.
// after the ReLU's mask) and w [cout, cin, 3, 3]; output dx
// [batch, cin, 8, 8]. Per group: dM = A dPre Aᵀ, dV_ξ = U_ξᵀ dM_ξ, then
// dx = Σ B dV Bᵀ over the tiles.
type winoConvInputGradOp struct {
	cin, cout int
	out       outBuf
	arena     *convArena
	layer     *winoLayer // the transposed filters U_ξᵀ, as a cout→cin layer
	// fwd is the forward op's layer, whose filters that op transformed
	// earlier in the same run from the same w.
	fwd *winoLayer
}

func (op winoConvInputGradOp) Arity() int { return 2 }
func (op winoConvInputGradOp) Type() hm.Type {
	t := G.TensorType{Dims: 4, Of: hm.TypeVariable('a')}
	return hm.NewFnType(t, t, t)
}
func (op winoConvInputGradOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("%v: want 2 input shapes, got %d", op, len(in))
	}
	d, ok1 := in[0].(tensor.Shape)
	w, ok2 := in[1].(tensor.Shape)
	if !ok1 || !ok2 || d.Dims() != 4 || d[1] != op.cout || d[2] != 8 || d[3] != 8 || !w.Eq(tensor.Shape{op.cout, op.cin, 3, 3}) {
		return nil, fmt.Errorf("%v: input shapes %v and %v do not fit", op, in[0], in[1])
	}
	return tensor.Shape{d[0], op.cin, 8, 8}, nil
}
func (op winoConvInputGradOp) ReturnsPtr() bool      { return false }
func (op winoConvInputGradOp) CallsExtern() bool     { return false }
func (op winoConvInputGradOp) OverwritesInput() int  { return -1 }
func (op winoConvInputGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op winoConvInputGradOp) Hashcode() uint32      { return hashOf(op) }
func (op winoConvInputGradOp) String() string {
	return fmt.Sprintf("winoConvDx<%d→%d>", op.cin, op.cout)
}

func (op winoConvInputGradOp) Do(in ...G.Value) (G.Value, error) {
	ts, err := denseF32s(in, 2, op)
	if err != nil {
		return nil, err
	}
	oshape, err := op.InferShape(ts[0].Shape(), ts[1].Shape())
	if err != nil {
		return nil, err
	}
	out := op.out.tensor(oshape)
	l, a := op.layer, op.arena
	a.run(op.cout, 4, func(_, co0, co1 int) { l.setTransposeOf(op.fwd, co0, co1) })
	dPre, dx := ts[0].Float32s(), out.Float32s()
	batch, cin, cout := oshape[0], op.cin, op.cout
	inN, outN := cin*planeSquares, cout*planeSquares
	a.run(batch, lanes, func(wk, lo, hi int) {
		sc, k := a.scratch(wk), a.k
		gl := grown(&sc.out, cout*laneChannel)
		dm := grown(&sc.m, winoPoints*winoStride(cout))
		dv := grown(&sc.v, winoPoints*winoStride(l.rows))
		dxl := grown(&sc.dx, cin*laneChannel)
		s := hi - lo
		k.toLanes(dPre[lo*outN:hi*outN], cout, s, gl)
		k.winoOutAdj(gl, cout, dm, winoCols, winoStride(cout))
		k.products(l, dm, dv)
		k.winoInAdj(dv, cin, winoStride(l.rows), dxl)
		k.fromLanes(dxl, cin, s, dx[lo*inN:hi*inN], inN)
	})
	return out, nil
}

// filterSlab is how many lane groups winoConvFilterGradOp sums in one
// product per point: the products' depth (filterSlab·128 columns) must be
// large for the dot-product kernel to be efficient, and the slabs are the
// units split across goroutines and summed in a fixed order.
const filterSlab = 4

// winoConvFilterGradOp is winoConvOp's gradient with respect to its
// filters: inputs dPre [batch, cout, 8, 8] and x [batch, cin, 8, 8];
// output dw [cout, cin, 3, 3] = Gᵀ dU G with dU_ξ = Σ dM_ξ V_ξᵀ over every
// tile of the batch.
type winoConvFilterGradOp struct {
	cin, cout int
	out       outBuf
	arena     *convArena
}

func (op winoConvFilterGradOp) Arity() int { return 2 }
func (op winoConvFilterGradOp) Type() hm.Type {
	t := G.TensorType{Dims: 4, Of: hm.TypeVariable('a')}
	return hm.NewFnType(t, t, t)
}
func (op winoConvFilterGradOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("%v: want 2 input shapes, got %d", op, len(in))
	}
	d, ok1 := in[0].(tensor.Shape)
	x, ok2 := in[1].(tensor.Shape)
	if !ok1 || !ok2 || d.Dims() != 4 || !d.Eq(tensor.Shape{d[0], op.cout, 8, 8}) || !x.Eq(tensor.Shape{d[0], op.cin, 8, 8}) {
		return nil, fmt.Errorf("%v: input shapes %v and %v do not fit", op, in[0], in[1])
	}
	return tensor.Shape{op.cout, op.cin, 3, 3}, nil
}
func (op winoConvFilterGradOp) ReturnsPtr() bool      { return false }
func (op winoConvFilterGradOp) CallsExtern() bool     { return false }
func (op winoConvFilterGradOp) OverwritesInput() int  { return -1 }
func (op winoConvFilterGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op winoConvFilterGradOp) Hashcode() uint32      { return hashOf(op) }
func (op winoConvFilterGradOp) String() string {
	return fmt.Sprintf("winoConvDw<%d→%d>", op.cin, op.cout)
}

func (op winoConvFilterGradOp) Do(in ...G.Value) (G.Value, error) {
	ts, err := denseF32s(in, 2, op)
	if err != nil {
		return nil, err
	}
	oshape, err := op.InferShape(ts[0].Shape(), ts[1].Shape())
	if err != nil {
		return nil, err
	}
	out := op.out.tensor(oshape)
	a := op.arena
	dPre, x := ts[0].Float32s(), ts[1].Float32s()
	batch, cin, cout := ts[0].Shape()[0], op.cin, op.cout
	inN, outN := cin*planeSquares, cout*planeSquares
	// Rows rounded up to the dot-product kernel's 4×4 blocks; the extra
	// rows' products are computed from stale values and never read.
	rin, rout := (cin+3)&^3, (cout+3)&^3
	groups := (batch + lanes - 1) / lanes
	slabs := (groups + filterSlab - 1) / filterSlab
	duN := winoPoints * rout * rin
	du := grown(&a.slabs, slabs*duN)
	a.run(groups, filterSlab, func(wk, g0, g1 int) {
		sc, k := a.scratch(wk), a.k
		ld := (g1 - g0) * winoCols
		xiV, xiM := rin*ld+16, rout*ld+16
		xl := grown(&sc.in, cin*laneChannel)
		gl := grown(&sc.out, cout*laneChannel)
		v := grown(&sc.v, winoPoints*xiV)
		m := grown(&sc.m, winoPoints*xiM)
		for g := g0; g < g1; g++ {
			lo, hi := g*lanes, min(batch, (g+1)*lanes)
			col := (g - g0) * winoCols
			k.toLanes(x[lo*inN:hi*inN], cin, hi-lo, xl)
			k.winoIn(xl, cin, v[col:], ld, xiV)
			k.toLanes(dPre[lo*outN:hi*outN], cout, hi-lo, gl)
			k.winoOutAdj(gl, cout, m[col:], ld, xiM)
		}
		slab := du[g0/filterSlab*duN : (g0/filterSlab+1)*duN]
		for xi := 0; xi < winoPoints; xi++ {
			k.gemmNT(rout, rin, ld, m[xi*xiM:], ld, v[xi*xiV:], ld, slab[xi*rout*rin:], rin)
		}
	})
	// Sum the slabs in order, in float64, then apply Gᵀ · G, output
	// channels split across the cores.
	sum := grown64(&a.sums, winoPoints*cout*cin) // [co][ci][ξ]
	dw := out.Float32s()
	a.run(cout, 4, func(_, co0, co1 int) {
		part := sum[co0*cin*winoPoints : co1*cin*winoPoints]
		clear(part)
		for s := 0; s < slabs; s++ {
			slab := du[s*duN : (s+1)*duN]
			for xi := 0; xi < winoPoints; xi++ {
				for co := co0; co < co1; co++ {
					row := slab[(xi*rout+co)*rin:][:cin]
					dst := part[(co-co0)*cin*winoPoints+xi:]
					for ci, v := range row {
						dst[ci*winoPoints] += float64(v)
					}
				}
			}
		}
		filterGradient(part, cin, co1-co0, dw[co0*cin*9:co1*cin*9])
	})
	return out, nil
}

// biasGradOp sums the gradient dPre over the batch and the squares: the
// bias's gradient [c]. dPre is [batch, c, 8, 8], or, if channels is c,
// [batch, c·64] (the same layout, flattened).
type biasGradOp struct {
	out      outBuf
	arena    *convArena
	channels int
}

func (op biasGradOp) Arity() int { return 1 }
func (op biasGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	dims := 4
	if op.channels > 0 {
		dims = 2
	}
	return hm.NewFnType(G.TensorType{Dims: dims, Of: a}, G.TensorType{Dims: 1, Of: a})
}
func (op biasGradOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, ok := oneShape(in)
	if !ok {
		return nil, fmt.Errorf("%v: want one input shape, got %v", op, in)
	}
	switch {
	case op.channels == 0 && s.Dims() == 4 && s[2] == 8 && s[3] == 8:
		return tensor.Shape{s[1]}, nil
	case op.channels > 0 && s.Dims() == 2 && s[1] == op.channels*planeSquares:
		return tensor.Shape{op.channels}, nil
	}
	return nil, fmt.Errorf("%v: input shape %v does not fit", op, s)
}
func (op biasGradOp) ReturnsPtr() bool      { return false }
func (op biasGradOp) CallsExtern() bool     { return false }
func (op biasGradOp) OverwritesInput() int  { return -1 }
func (op biasGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op biasGradOp) Hashcode() uint32      { return hashOf(op) }
func (op biasGradOp) String() string        { return fmt.Sprintf("biasGrad<%d>", op.channels) }

func (op biasGradOp) Do(in ...G.Value) (G.Value, error) {
	x, err := denseF32(in, op)
	if err != nil {
		return nil, err
	}
	oshape, err := op.InferShape(x.Shape())
	if err != nil {
		return nil, err
	}
	out := op.out.tensor(oshape)
	x32, db, k, c, batch := x.Float32s(), out.Float32s(), op.arena.k, oshape[0], x.Shape()[0]
	op.arena.run(c, 8, func(_, lo, hi int) { // channels split across the cores
		k.channelSums(x32, batch, c, lo, hi, db)
	})
	return out, nil
}
