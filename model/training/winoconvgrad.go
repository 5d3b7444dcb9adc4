package training

import (
	"fmt"
	"hash"

	"github.com/alicezero/alicezero/model/internal/kernel"
	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// reluGradOp is the ReLU's gradient: inputs the gradient of the ReLU's
// output dy and that output y (tensors of one shape); output dy where
// y > 0, else 0.
type reluGradOp struct {
	out outBuf
	ws  *workspace
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
	k := op.ws.k
	const unit = 4096
	op.ws.run(len(d), unit, func(_, lo, hi int) {
		k.ReluGrad(dy[lo:hi], y[lo:hi], d[lo:hi])
	})
	return out, nil
}

// filterSlab is how many lane groups winoConvGradOp sums the filter
// gradient of into one array: the slabs are the units split across
// goroutines, summed in a fixed order (in float64) at the end.
const filterSlab = 4

// winoGradState holds winoConvGradOp's results other than its output, for
// its winoGradPartOp nodes. Not part of any op's identity.
type winoGradState struct {
	dw, db, dPre outBuf
	// The tensors over them of the last run, which the parts hand on.
	dwT, dbT, dPreT *tensor.Dense
}

// winoConvGradOp computes every gradient of a winoConvOp: inputs the
// gradient dy of its output [batch, cout, 8, 8], that output y (for the
// ReLU's mask), its input x [batch, cin, 8, 8] and filters w
// [cout, cin, 3, 3]; output dx [batch, cin, 8, 8] if inputGrad, else dw.
// Besides, it writes dw [cout, cin, 3, 3], db [cout] and, with residual,
// dPre [batch, cout, 8, 8] (the residual input's gradient) to st.
//
// Lane group by lane group, while the group's data is in cache: dPre =
// dy ⊙ (y > 0), its channel sums (the bias's gradient), dM = A dPre Aᵀ;
// dx: dV_ξ = U_ξᵀ dM_ξ, dx = Σ B dV Bᵀ over the tiles; dw: V = Bᵀ x B,
// dU_ξ += dM_ξ V_ξᵀ into the group's slab of filterSlab groups (in group
// order); finally dw = Gᵀ (Σ slabs dU) G.
type winoConvGradOp struct {
	cin, cout                 int
	relu, residual, inputGrad bool
	out                       outBuf
	st                        *winoGradState
	ws                        *workspace
	layer                     *kernel.Layer // the transposed filters U_ξᵀ, as a cout→cin layer (with inputGrad)
	// fwd is the forward op's layer, whose filters that op (or the
	// workspace's owner) transformed earlier in the same run from the same w;
	// layer is transposed from it here, or by the workspace's owner too.
	fwd *kernel.Layer
}

func (op winoConvGradOp) Arity() int { return 4 }
func (op winoConvGradOp) Type() hm.Type {
	t := G.TensorType{Dims: 4, Of: hm.TypeVariable('a')}
	return hm.NewFnType(t, t, t, t, t)
}
func (op winoConvGradOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	if len(in) != 4 {
		return nil, fmt.Errorf("%v: want 4 input shapes, got %d", op, len(in))
	}
	var s [4]tensor.Shape
	for i, d := range in {
		sh, ok := d.(tensor.Shape)
		if !ok {
			return nil, fmt.Errorf("%v: input %d has no shape (%T)", op, i, d)
		}
		s[i] = sh
	}
	if s[0].Dims() != 4 || !s[0].Eq(tensor.Shape{s[0][0], op.cout, 8, 8}) || !s[1].Eq(s[0]) ||
		!s[2].Eq(tensor.Shape{s[0][0], op.cin, 8, 8}) || !s[3].Eq(tensor.Shape{op.cout, op.cin, 3, 3}) {
		return nil, fmt.Errorf("%v: input shapes %v do not fit", op, s)
	}
	if op.inputGrad {
		return s[2].Clone(), nil
	}
	return s[3].Clone(), nil
}
func (op winoConvGradOp) ReturnsPtr() bool      { return false }
func (op winoConvGradOp) CallsExtern() bool     { return false }
func (op winoConvGradOp) OverwritesInput() int  { return -1 }
func (op winoConvGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op winoConvGradOp) Hashcode() uint32      { return hashOf(op) }
func (op winoConvGradOp) String() string {
	return fmt.Sprintf("winoConvGrad<%d→%d,relu=%v,res=%v,dx=%v>", op.cin, op.cout, op.relu, op.residual, op.inputGrad)
}

func (op winoConvGradOp) Do(in ...G.Value) (G.Value, error) {
	ts, err := denseF32s(in, 4, op)
	if err != nil {
		return nil, err
	}
	oshape, err := op.InferShape(ts[0].Shape(), ts[1].Shape(), ts[2].Shape(), ts[3].Shape())
	if err != nil {
		return nil, err
	}
	a, st := op.ws, op.st
	batch, cin, cout := ts[0].Shape()[0], op.cin, op.cout
	inN, outN := cin*planeSquares, cout*planeSquares
	out := op.out.tensor(oshape)
	dwT := out
	var dx, dPre []float32
	if op.inputGrad {
		dx = out.Float32s()
		dwT = st.dw.tensor(tensor.Shape{cout, cin, 3, 3})
		st.dwT = dwT
		if a.filters == nil {
			l := op.layer
			a.run(cout, 4, func(_, co0, co1 int) { l.SetTransposeOf(op.fwd, co0, co1) })
		}
	}
	if op.residual {
		st.dPreT = st.dPre.tensor(ts[0].Shape())
		dPre = st.dPreT.Float32s()
	}
	st.dbT = st.db.tensor(tensor.Shape{cout})
	db := st.dbT.Float32s()
	dy, y, x := ts[0].Float32s(), ts[1].Float32s(), ts[2].Float32s()

	// Rows rounded up to the dot-product kernel's 4×4 blocks; the extra
	// rows' products are computed from stale values and never read.
	rin, rout := (cin+3)&^3, (cout+3)&^3
	xiM := kernel.Stride(cout)                        // dM's point stride, as the products read it
	xiV := kernel.Stride(rin)                         // V's, with room for rin rows
	mN := kernel.Points*xiM + (rout-cout)*kernel.Cols // dM, with room for rout rows at the last point
	vN := kernel.Points * xiV
	if op.inputGrad {
		vN = max(vN, kernel.Points*kernel.Stride(op.layer.Rows)) // dV shares the buffer
	}
	groups := (batch + kernel.Lanes - 1) / kernel.Lanes
	slabs := (groups + filterSlab - 1) / filterSlab
	duN := kernel.Points * rout * rin
	du := grown(&a.slabs, slabs*duN)
	bsum := grown(&a.biasSlabs, slabs*cout)
	a.run(groups, filterSlab, func(wk, g0, g1 int) {
		sc, k := a.scratch(wk), a.k
		xl := grown(&sc.in, cin*kernel.LaneChannel)
		gl := grown(&sc.out, cout*kernel.LaneChannel)
		dm := grown(&sc.m, mN)
		v := grown(&sc.v, vN)
		sums := grown(&sc.sums, cout)
		s := g0 / filterSlab
		slab := du[s*duN : (s+1)*duN]
		bs := bsum[s*cout : (s+1)*cout]
		clear(bs)
		for g := g0; g < g1; g++ {
			lo, hi := g*kernel.Lanes, min(batch, (g+1)*kernel.Lanes)
			n := hi - lo
			gp := dy[lo*outN : hi*outN]
			switch {
			case op.relu && op.residual: // dPre is an output too
				k.ToLanesMaskedKeep(gp, y[lo*outN:hi*outN], dPre[lo*outN:hi*outN], cout, n, gl)
			case op.relu: // masked on the way into the lane layout
				k.ToLanesMasked(gp, y[lo*outN:hi*outN], cout, n, gl)
			default:
				if op.residual {
					copy(dPre[lo*outN:hi*outN], gp)
				}
				k.ToLanes(gp, cout, n, gl)
			}
			k.LaneSums(gl, cout, sums) // the border and lanes n.. are zero
			for c, sv := range sums {
				bs[c] += float64(sv)
			}
			k.WinoOutAdj(gl, cout, dm, kernel.Cols, xiM)
			if op.inputGrad {
				l := op.layer
				dxl := grown(&sc.dx, cin*kernel.LaneChannel)
				k.Products(l, dm, v)
				k.WinoInAdj(v, cin, kernel.Stride(l.Rows), dxl)
				k.FromLanes(dxl, cin, n, dx[lo*inN:hi*inN], inN)
			}
			k.ToLanes(x[lo*inN:hi*inN], cin, n, xl)
			k.WinoIn(xl, cin, v, kernel.Cols, xiV)
			for xi := 0; xi < kernel.Points; xi++ {
				k.GemmNT(rout, rin, kernel.Cols, dm[xi*xiM:], kernel.Cols, v[xi*xiV:], kernel.Cols, slab[xi*rout*rin:], rin, g > g0)
			}
		}
	})
	// Sum the slabs in order, in float64, then apply Gᵀ · G, output
	// channels split across the cores.
	sum := grown(&a.sums, kernel.Points*cout*cin) // [co][ξ][ci]
	dw := dwT.Float32s()
	a.run(cout, 4, func(_, co0, co1 int) {
		part := sum[co0*cin*kernel.Points : co1*cin*kernel.Points]
		clear(part)
		for s := 0; s < slabs; s++ {
			slab := du[s*duN : (s+1)*duN]
			for co := co0; co < co1; co++ {
				for xi := 0; xi < kernel.Points; xi++ {
					row := slab[(xi*rout+co)*rin:][:cin]
					dst := part[((co-co0)*kernel.Points+xi)*cin:][:cin]
					for ci, v := range row {
						dst[ci] += float64(v)
					}
				}
			}
		}
		kernel.FilterGradient(part, cin, co1-co0, dw[co0*cin*9:co1*cin*9])
		for co := co0; co < co1; co++ {
			var t float64
			for s := 0; s < slabs; s++ {
				t += bsum[s*cout+co]
			}
			db[co] = float32(t)
		}
	})
	return out, nil
}

// winoGradPart names a result of winoConvGradOp kept in its state.
type winoGradPart int

const (
	partDW   winoGradPart = iota // the filters' gradient
	partDB                       // the bias's
	partDRes                     // the residual input's (dPre)
)

// winoGradPartOp hands on one result of a winoConvGradOp: inputs that
// op's node (which orders it after that op) and the gradient dy it took
// (for the batch size); output a tensor over the result's array.
type winoGradPartOp struct {
	part      winoGradPart
	cin, cout int
	st        *winoGradState
}

func (op winoGradPartOp) Arity() int { return 2 }
func (op winoGradPartOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	t4 := G.TensorType{Dims: 4, Of: a}
	if op.part == partDB {
		return hm.NewFnType(t4, t4, G.TensorType{Dims: 1, Of: a})
	}
	return hm.NewFnType(t4, t4, t4)
}
func (op winoGradPartOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("%v: want 2 input shapes, got %d", op, len(in))
	}
	d, ok := in[1].(tensor.Shape)
	if !ok || d.Dims() != 4 || !d.Eq(tensor.Shape{d[0], op.cout, 8, 8}) {
		return nil, fmt.Errorf("%v: gradient shape %v does not fit", op, in[1])
	}
	switch op.part {
	case partDW:
		return tensor.Shape{op.cout, op.cin, 3, 3}, nil
	case partDB:
		return tensor.Shape{op.cout}, nil
	}
	return d.Clone(), nil
}
func (op winoGradPartOp) ReturnsPtr() bool      { return false }
func (op winoGradPartOp) CallsExtern() bool     { return false }
func (op winoGradPartOp) OverwritesInput() int  { return -1 }
func (op winoGradPartOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op winoGradPartOp) Hashcode() uint32      { return hashOf(op) }
func (op winoGradPartOp) String() string {
	return fmt.Sprintf("winoConvGradPart<%d,%d→%d>", op.part, op.cin, op.cout)
}

func (op winoGradPartOp) Do(in ...G.Value) (G.Value, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("%v: want 2 inputs, got %d", op, len(in))
	}
	oshape, err := op.InferShape(in[0].Shape(), in[1].Shape())
	if err != nil {
		return nil, err
	}
	t := op.st.dwT
	switch op.part {
	case partDB:
		t = op.st.dbT
	case partDRes:
		t = op.st.dPreT
	}
	if t == nil || !t.Shape().Eq(oshape) {
		return nil, fmt.Errorf("%v: no result of shape %v (run before its gradient op?)", op, oshape)
	}
	return t, nil
}

// biasGradOp sums the gradient dPre over the batch and the squares: the
// bias's gradient [c]. dPre is [batch, c, 8, 8], or, if channels is c,
// [batch, c·64] (the same layout, flattened).
type biasGradOp struct {
	out      outBuf
	ws       *workspace
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
	x32, db, k, c, batch := x.Float32s(), out.Float32s(), op.ws.k, oshape[0], x.Shape()[0]
	op.ws.run(c, 8, func(_, lo, hi int) { // channels split across the cores
		k.ChannelSums(x32, batch, c, lo, hi, db)
	})
	return out, nil
}
