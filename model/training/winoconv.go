package training

import (
	"fmt"
	"hash"

	"github.com/alicezero/alicezero/model/internal/kernel"
	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The training graph's 3×3 convolutions are gorgonia ops that run the fast
// path's Winograd kernels (see wino.go) on groups of lanes positions,
// converting each group between gorgonia's NCHW tensors and the lane
// layout on the way in and out:
//
//	winoConvOp      y = act(conv(x, w) + b [+ res]), act = ReLU or identity
//	winoConvGradOp  all of its gradients in one pass over the batch:
//	                dPre = dy ⊙ (y > 0) (the ReLU's mask), dx = the
//	                adjoint of the convolution applied to dPre, dw summed
//	                over the batch in the transformed domain, db = Σ dPre
//	winoGradPartOp  hands on dw, db or dPre (the residual's gradient),
//	                which winoConvGradOp computed besides its output
//
// The gradients are exact: each is the adjoint of the linear map the
// forward op computes (the transforms' transposes: dM = A dY Aᵀ,
// dd = B dV Bᵀ, dg = Gᵀ dU G), evaluated in float32 like the forward pass.
// Every element of every output is computed by one goroutine in an order
// that does not depend on how many there are, so a step's results do not
// depend on GOMAXPROCS (training stays bit-reproducible on one machine).

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
	ws        *workspace
	layer     *kernel.Layer // w and b transformed at every run, or by the workspace's owner
	trLayer   *kernel.Layer // the transposed filters of the input gradient (with inputGrad)
}

// newWinoConvOp returns the op of the convolution whose parameters are
// named name (its filters' key in the workspace's filter set, if any).
func newWinoConvOp(name string, w, b []float32, cin, cout int, relu, residual, inputGrad bool, ws *workspace) winoConvOp {
	fwd, tr := ws.layers(name, w, b, cin, cout, inputGrad)
	return winoConvOp{cin: cin, cout: cout, relu: relu, residual: residual, inputGrad: inputGrad,
		out: newOutBuf(), ws: ws, layer: fwd, trLayer: tr}
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
	l, a := op.layer, op.ws
	if a.filters == nil {
		w, b := ts[1].Float32s(), ts[2].Float32s()
		a.run(op.cout, 4, func(_, co0, co1 int) { l.SetFilterRange(w, b, co0, co1) })
	}
	x, y := ts[0].Float32s(), out.Float32s()
	var res []float32
	if op.residual {
		res = ts[3].Float32s()
	}
	batch, cin, cout := oshape[0], op.cin, op.cout
	inN, outN := cin*planeSquares, cout*planeSquares
	a.run(batch, kernel.Lanes, func(wk, lo, hi int) {
		sc, k := a.scratch(wk), a.k
		xl := grown(&sc.in, cin*kernel.LaneChannel)
		yl := grown(&sc.out, cout*kernel.LaneChannel)
		v := grown(&sc.v, kernel.Points*kernel.Stride(cin))
		m := grown(&sc.m, kernel.Points*kernel.Stride(l.Rows))
		s := hi - lo
		k.ToLanes(x[lo*inN:hi*inN], cin, s, xl)
		k.WinoIn(xl, cin, v, kernel.Cols, kernel.Stride(cin))
		k.Products(l, v, m)
		if op.residual {
			k.ToLanes(res[lo*outN:hi*outN], cout, s, yl)
		}
		k.WinoOut(m, l.Rows, cout, l.Bias, yl, op.residual, op.relu)
		k.FromLanes(yl, cout, s, y[lo*outN:hi*outN], outN)
	})
	return out, nil
}

func (op winoConvOp) DiffWRT(n int) []bool {
	d := []bool{op.inputGrad, true, true, true}
	return d[:n]
}

// SymDiff implements gorgonia.SDOp: one winoConvGradOp computes every
// gradient; its output is dx (dw without inputGrad), and winoGradPartOp
// nodes hand on the others.
func (op winoConvOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	gop := winoConvGradOp{cin: op.cin, cout: op.cout, relu: op.relu, residual: op.residual, inputGrad: op.inputGrad,
		out: newOutBuf(), st: &winoGradState{dw: newOutBuf(), db: newOutBuf(), dPre: newOutBuf()}, ws: op.ws, fwd: op.layer, layer: op.trLayer}
	all, err := G.ApplyOp(gop, grad, output, inputs[0], inputs[1])
	if err != nil {
		return nil, err
	}
	part := func(p winoGradPart) (*G.Node, error) {
		return G.ApplyOp(winoGradPartOp{part: p, cin: op.cin, cout: op.cout, st: gop.st}, all, grad)
	}
	var dx, dw, db, dres *G.Node
	if op.inputGrad {
		dx = all
		if dw, err = part(partDW); err != nil {
			return nil, err
		}
	} else {
		dw = all
	}
	if db, err = part(partDB); err != nil {
		return nil, err
	}
	grads := G.Nodes{dx, dw, db}
	if op.residual {
		if dres, err = part(partDRes); err != nil {
			return nil, err
		}
		grads = append(grads, dres)
	}
	return grads, nil
}
