package training

import (
	"fmt"
	"hash"

	"github.com/alicezero/alicezero/model/internal/kernel"
	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The heads' 1×1 convolutions in the training graph: one op each with its
// bias and (value head) ReLU fused, whose output is already flattened to
// [batch, cout·64] as the heads use it, in place of gorgonia's
// convolution (an im2col, a product with a transposed operand, a
// transpose back), bias broadcast, ReLU and reshape nodes.
//
//	conv1x1Op            y_p = act(W x_p + b) for every position p
//	conv1x1InputGradOp   dx_p = Wᵀ dPre_p
//	conv1x1FilterGradOp  dW = Σ_p dPre_p x_pᵀ
//
// with reluGradOp and biasGradOp as for the 3×3 convolutions.

// conv1x1Op: inputs x [batch, cin, 8, 8], w [cout, cin, 1, 1], b [cout];
// output [batch, cout·64].
type conv1x1Op struct {
	cin, cout int
	relu      bool
	out       outBuf
	ws        *workspace
}

func (op conv1x1Op) Arity() int { return 3 }
func (op conv1x1Op) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: 4, Of: a}, G.TensorType{Dims: 4, Of: a}, G.TensorType{Dims: 1, Of: a}, G.TensorType{Dims: 2, Of: a})
}
func (op conv1x1Op) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	if len(in) != 3 {
		return nil, fmt.Errorf("%v: want 3 input shapes, got %d", op, len(in))
	}
	x, ok1 := in[0].(tensor.Shape)
	w, ok2 := in[1].(tensor.Shape)
	b, ok3 := in[2].(tensor.Shape)
	if !ok1 || !ok2 || !ok3 || x.Dims() != 4 || !x.Eq(tensor.Shape{x[0], op.cin, 8, 8}) ||
		!w.Eq(tensor.Shape{op.cout, op.cin, 1, 1}) || !b.Eq(tensor.Shape{op.cout}) {
		return nil, fmt.Errorf("%v: input shapes %v do not fit", op, in)
	}
	return tensor.Shape{x[0], op.cout * planeSquares}, nil
}
func (op conv1x1Op) ReturnsPtr() bool      { return false }
func (op conv1x1Op) CallsExtern() bool     { return false }
func (op conv1x1Op) OverwritesInput() int  { return -1 }
func (op conv1x1Op) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op conv1x1Op) Hashcode() uint32      { return hashOf(op) }
func (op conv1x1Op) String() string {
	return fmt.Sprintf("conv1x1<%d→%d,relu=%v>", op.cin, op.cout, op.relu)
}

func (op conv1x1Op) Do(in ...G.Value) (G.Value, error) {
	ts, err := denseF32s(in, 3, op)
	if err != nil {
		return nil, err
	}
	oshape, err := op.InferShape(ts[0].Shape(), ts[1].Shape(), ts[2].Shape())
	if err != nil {
		return nil, err
	}
	out := op.out.tensor(oshape)
	x, w, b, y := ts[0].Float32s(), ts[1].Float32s(), ts[2].Float32s(), out.Float32s()
	cin, cout, k := op.cin, op.cout, op.ws.k
	if k.Name == kernel.AVX512 {
		a := op.ws
		pw, pb := a.packRows(w, cout, cin, cin, 1, b)
		a.run(oshape[0], kernel.Lanes, func(wk, lo, hi int) {
			blk := grown(&a.scratch(wk).blk, kernel.RowBlock*planeSquares)
			for p := lo; p < hi; p++ {
				packedRows(cin, cout, pw, pb, x[p*cin*planeSquares:(p+1)*cin*planeSquares], y[p*cout*planeSquares:(p+1)*cout*planeSquares], blk, op.relu)
			}
		})
		return out, nil
	}
	op.ws.run(oshape[0], kernel.Lanes, func(_, lo, hi int) {
		for p := lo; p < hi; p++ {
			yp := y[p*cout*planeSquares : (p+1)*cout*planeSquares]
			for c := 0; c < cout; c++ {
				kernel.Fill(yp[c*planeSquares:(c+1)*planeSquares], b[c])
			}
			k.Gemm(cout, planeSquares, cin, w, cin, x[p*cin*planeSquares:], planeSquares, yp, planeSquares, op.relu)
		}
	})
	return out, nil
}

func (op conv1x1Op) DiffWRT(n int) []bool { return []bool{true, true, true}[:n] }

// SymDiff implements gorgonia.SDOp.
func (op conv1x1Op) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	dPre := grad
	var err error
	if op.relu {
		if dPre, err = G.ApplyOp(reluGradOp{out: newOutBuf(), ws: op.ws}, grad, output); err != nil {
			return nil, err
		}
	}
	dx, err := G.ApplyOp(conv1x1InputGradOp{cin: op.cin, cout: op.cout, out: newOutBuf(), ws: op.ws, wt: new([]float32)}, dPre, inputs[1])
	if err != nil {
		return nil, err
	}
	dw, err := G.ApplyOp(conv1x1FilterGradOp{cin: op.cin, cout: op.cout, out: newOutBuf(), ws: op.ws}, dPre, inputs[0])
	if err != nil {
		return nil, err
	}
	db, err := G.ApplyOp(biasGradOp{out: newOutBuf(), ws: op.ws, channels: op.cout}, dPre)
	if err != nil {
		return nil, err
	}
	return G.Nodes{dx, dw, db}, nil
}

// conv1x1InputGradOp: inputs dPre [batch, cout·64] and w [cout, cin, 1, 1];
// output dx [batch, cin, 8, 8].
type conv1x1InputGradOp struct {
	cin, cout int
	out       outBuf
	ws        *workspace
	wt        *[]float32 // Wᵀ, [cin][cout], rebuilt at every run
}

func (op conv1x1InputGradOp) Arity() int { return 2 }
func (op conv1x1InputGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 4, Of: a}, G.TensorType{Dims: 4, Of: a})
}
func (op conv1x1InputGradOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("%v: want 2 input shapes, got %d", op, len(in))
	}
	d, ok1 := in[0].(tensor.Shape)
	w, ok2 := in[1].(tensor.Shape)
	if !ok1 || !ok2 || d.Dims() != 2 || d[1] != op.cout*planeSquares || !w.Eq(tensor.Shape{op.cout, op.cin, 1, 1}) {
		return nil, fmt.Errorf("%v: input shapes %v do not fit", op, in)
	}
	return tensor.Shape{d[0], op.cin, 8, 8}, nil
}
func (op conv1x1InputGradOp) ReturnsPtr() bool      { return false }
func (op conv1x1InputGradOp) CallsExtern() bool     { return false }
func (op conv1x1InputGradOp) OverwritesInput() int  { return -1 }
func (op conv1x1InputGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op conv1x1InputGradOp) Hashcode() uint32      { return hashOf(op) }
func (op conv1x1InputGradOp) String() string {
	return fmt.Sprintf("conv1x1Dx<%d→%d>", op.cin, op.cout)
}

func (op conv1x1InputGradOp) Do(in ...G.Value) (G.Value, error) {
	ts, err := denseF32s(in, 2, op)
	if err != nil {
		return nil, err
	}
	oshape, err := op.InferShape(ts[0].Shape(), ts[1].Shape())
	if err != nil {
		return nil, err
	}
	out := op.out.tensor(oshape)
	dPre, w, dx := ts[0].Float32s(), ts[1].Float32s(), out.Float32s()
	cin, cout, k := op.cin, op.cout, op.ws.k
	if k.Name == kernel.AVX512 {
		a := op.ws
		pw, pb := a.packRows(w, cin, cout, 1, cin, nil) // Wᵀ
		a.run(oshape[0], kernel.Lanes, func(wk, lo, hi int) {
			blk := grown(&a.scratch(wk).blk, kernel.RowBlock*planeSquares)
			for p := lo; p < hi; p++ {
				packedRows(cout, cin, pw, pb, dPre[p*cout*planeSquares:(p+1)*cout*planeSquares], dx[p*cin*planeSquares:(p+1)*cin*planeSquares], blk, false)
			}
		})
		return out, nil
	}
	wt := grown(op.wt, cin*cout)
	transposeInto(cout, cin, w, cin, wt, cout)
	op.ws.run(oshape[0], kernel.Lanes, func(_, lo, hi int) {
		for p := lo; p < hi; p++ {
			k.GemmTo(cin, planeSquares, cout, wt, cout, dPre[p*cout*planeSquares:], planeSquares, dx[p*cin*planeSquares:], planeSquares, false)
		}
	})
	return out, nil
}

// conv1x1Slab is how many positions conv1x1FilterGradOp sums into one
// array, in order; slabs are summed in a fixed order.
const conv1x1Slab = 64

// conv1x1FilterGradOp: inputs dPre [batch, cout·64] and x
// [batch, cin, 8, 8]; output dw [cout, cin, 1, 1].
type conv1x1FilterGradOp struct {
	cin, cout int
	out       outBuf
	ws        *workspace
}

func (op conv1x1FilterGradOp) Arity() int { return 2 }
func (op conv1x1FilterGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 4, Of: a}, G.TensorType{Dims: 4, Of: a})
}
func (op conv1x1FilterGradOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("%v: want 2 input shapes, got %d", op, len(in))
	}
	d, ok1 := in[0].(tensor.Shape)
	x, ok2 := in[1].(tensor.Shape)
	if !ok1 || !ok2 || d.Dims() != 2 || d[1] != op.cout*planeSquares || !x.Eq(tensor.Shape{d[0], op.cin, 8, 8}) {
		return nil, fmt.Errorf("%v: input shapes %v do not fit", op, in)
	}
	return tensor.Shape{op.cout, op.cin, 1, 1}, nil
}
func (op conv1x1FilterGradOp) ReturnsPtr() bool      { return false }
func (op conv1x1FilterGradOp) CallsExtern() bool     { return false }
func (op conv1x1FilterGradOp) OverwritesInput() int  { return -1 }
func (op conv1x1FilterGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op conv1x1FilterGradOp) Hashcode() uint32      { return hashOf(op) }
func (op conv1x1FilterGradOp) String() string {
	return fmt.Sprintf("conv1x1Dw<%d→%d>", op.cin, op.cout)
}

func (op conv1x1FilterGradOp) Do(in ...G.Value) (G.Value, error) {
	ts, err := denseF32s(in, 2, op)
	if err != nil {
		return nil, err
	}
	oshape, err := op.InferShape(ts[0].Shape(), ts[1].Shape())
	if err != nil {
		return nil, err
	}
	out := op.out.tensor(oshape)
	a := op.ws
	dPre, x := ts[0].Float32s(), ts[1].Float32s()
	batch, cin, cout := ts[0].Shape()[0], op.cin, op.cout
	// Rows rounded up to the dot-product kernel's blocks; the extra rows'
	// products are computed from stale values and never read.
	rin, rout := (cin+3)&^3, (cout+3)&^3
	slabs := (batch + conv1x1Slab - 1) / conv1x1Slab
	dwN := rout * rin
	dw := grown(&a.slabs, slabs*dwN)
	a.run(batch, conv1x1Slab, func(wk, p0, p1 int) {
		k := a.k
		slab := dw[p0/conv1x1Slab*dwN : (p0/conv1x1Slab+1)*dwN]
		// Position by position, dW_slab += dPre_p · x_pᵀ: rows are planes
		// of 64 squares, as they lie. The rows beyond cout and cin read
		// the next position's planes (or, for the last, scratch padding)
		// and are never read back.
		for p := p0; p < p1; p++ {
			g, xs := dPre[p*cout*planeSquares:], x[p*cin*planeSquares:]
			if p == batch-1 && (rout > cout || rin > cin) {
				sc := a.scratch(wk)
				g = grown(&sc.m, rout*planeSquares)
				copy(g, dPre[p*cout*planeSquares:(p+1)*cout*planeSquares])
				xs = grown(&sc.v, rin*planeSquares)
				copy(xs, x[p*cin*planeSquares:(p+1)*cin*planeSquares])
			}
			k.GemmNT(rout, rin, planeSquares, g, planeSquares, xs, planeSquares, slab, rin, p > p0)
		}
	})
	d := out.Float32s()
	for co := 0; co < cout; co++ {
		for ci := 0; ci < cin; ci++ {
			var s float64
			for sl := 0; sl < slabs; sl++ {
				s += float64(dw[sl*dwN+co*rin+ci])
			}
			d[co*cin+ci] = float32(s)
		}
	}
	return out, nil
}

// planeMeanOp is the value head's global average pooling: input x
// [batch, c·64] (c planes of 64 squares per position, as conv1x1Op
// writes them), output [batch, c], each the mean of its plane. In place
// of gorgonia's reshape and mean, whose gradient broadcasts by copying
// one float at a time.
type planeMeanOp struct {
	channels int
	out      outBuf
}

func (op planeMeanOp) Arity() int { return 1 }
func (op planeMeanOp) Type() hm.Type {
	m := G.TensorType{Dims: 2, Of: hm.TypeVariable('a')}
	return hm.NewFnType(m, m)
}
func (op planeMeanOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, ok := oneShape(in)
	if !ok || s.Dims() != 2 || s[1] != op.channels*planeSquares {
		return nil, fmt.Errorf("%v: input shape %v does not fit", op, in)
	}
	return tensor.Shape{s[0], op.channels}, nil
}
func (op planeMeanOp) ReturnsPtr() bool      { return false }
func (op planeMeanOp) CallsExtern() bool     { return false }
func (op planeMeanOp) OverwritesInput() int  { return -1 }
func (op planeMeanOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op planeMeanOp) Hashcode() uint32      { return hashOf(op) }
func (op planeMeanOp) String() string        { return fmt.Sprintf("planeMean<%d>", op.channels) }

func (op planeMeanOp) Do(in ...G.Value) (G.Value, error) {
	x, err := denseF32(in, op)
	if err != nil {
		return nil, err
	}
	oshape, err := op.InferShape(x.Shape())
	if err != nil {
		return nil, err
	}
	out := op.out.tensor(oshape)
	planeMeans(x.Float32s(), out.Float32s())
	return out, nil
}

// planeMeans writes the mean of each block of 64 floats of x to y (eight
// interleaved sums per block, combined pairwise, then scaled by 1/64,
// which is exact).
func planeMeans(x, y []float32) {
	for i := range y {
		blk := x[i*planeSquares : (i+1)*planeSquares : (i+1)*planeSquares]
		var acc [8]float32
		for r := 0; r < 8; r++ {
			row := blk[r*8 : r*8+8 : r*8+8]
			for l, v := range row {
				acc[l] += v
			}
		}
		y[i] = (((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))) * (1.0 / planeSquares)
	}
}

func (op planeMeanOp) DiffWRT(n int) []bool { return []bool{true}[:n] }

// SymDiff implements gorgonia.SDOp.
func (op planeMeanOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	dx, err := G.ApplyOp(planeMeanGradOp{channels: op.channels, out: newOutBuf()}, grad)
	if err != nil {
		return nil, err
	}
	return G.Nodes{dx}, nil
}

// planeMeanGradOp is planeMeanOp's gradient: input dy [batch, c], output
// dx [batch, c·64] = dy/64 over each plane.
type planeMeanGradOp struct {
	channels int
	out      outBuf
}

func (op planeMeanGradOp) Arity() int { return 1 }
func (op planeMeanGradOp) Type() hm.Type {
	m := G.TensorType{Dims: 2, Of: hm.TypeVariable('a')}
	return hm.NewFnType(m, m)
}
func (op planeMeanGradOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, ok := oneShape(in)
	if !ok || s.Dims() != 2 || s[1] != op.channels {
		return nil, fmt.Errorf("%v: input shape %v does not fit", op, in)
	}
	return tensor.Shape{s[0], op.channels * planeSquares}, nil
}
func (op planeMeanGradOp) ReturnsPtr() bool      { return false }
func (op planeMeanGradOp) CallsExtern() bool     { return false }
func (op planeMeanGradOp) OverwritesInput() int  { return -1 }
func (op planeMeanGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op planeMeanGradOp) Hashcode() uint32      { return hashOf(op) }
func (op planeMeanGradOp) String() string        { return fmt.Sprintf("planeMeanGrad<%d>", op.channels) }

func (op planeMeanGradOp) Do(in ...G.Value) (G.Value, error) {
	dy, err := denseF32(in, op)
	if err != nil {
		return nil, err
	}
	oshape, err := op.InferShape(dy.Shape())
	if err != nil {
		return nil, err
	}
	out := op.out.tensor(oshape)
	dx := out.Float32s()
	for i, g := range dy.Float32s() {
		kernel.Fill(dx[i*planeSquares:(i+1)*planeSquares], g*(1.0/planeSquares))
	}
	return out, nil
}

// packRows packs the rows×k matrix whose element (r, l) is
// src[r·rowStride + l·colStride] as the AVX-512 product reads its A: for
// each block of winoRowBlock rows, k groups of winoRowBlock floats, the
// rows beyond rows zero; and the rows' bias (zeros if bias is nil) padded
// alike. The arrays are the workspace's, valid until the next call.
func (a *workspace) packRows(src []float32, rows, k, rowStride, colStride int, bias []float32) (packed, pbias []float32) {
	n := (rows + kernel.PadRows) / kernel.RowBlock * kernel.RowBlock
	packed, pbias = grown(&a.pack, n*k), grown(&a.packBias, n)
	clear(pbias)
	copy(pbias, bias)
	for r := 0; r < n; r++ {
		blk, rr := r/kernel.RowBlock, r%kernel.RowBlock
		dst := packed[blk*kernel.RowBlock*k+rr:]
		for l := 0; l < k; l++ {
			v := float32(0)
			if r < rows {
				v = src[r*rowStride+l*colStride]
			}
			dst[l*kernel.RowBlock] = v
		}
	}
	return packed, pbias
}

// packedRows computes y = act(A·x + bias) for one position: A (rows×k,
// packed by packRows with its bias), x [k][64], y [rows][64]; the last
// partial block of rows goes through blk (winoRowBlock×64 floats).
func packedRows(k, rows int, a, bias, x, y, blk []float32, relu bool) {
	full := rows / kernel.RowBlock * kernel.RowBlock
	for r := 0; r < full; r += kernel.RowBlock {
		kernel.PackedProductBias(k, a[r*k:], x, planeSquares, y[r*planeSquares:], planeSquares, planeSquares, bias[r:], relu)
	}
	if full < rows {
		kernel.PackedProductBias(k, a[full*k:], x, planeSquares, blk, planeSquares, planeSquares, bias[full:], relu)
		copy(y[full*planeSquares:rows*planeSquares], blk)
	}
}
