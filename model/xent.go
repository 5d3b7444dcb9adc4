package model

import (
	"fmt"
	"hash"
	"hash/fnv"
	"math"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// softmaxXent is a gorgonia op computing, for every row b of logits z and
// target distribution t (both [batch, k]),
//
//	loss[b] = -Σ_j t[b,j] · log softmax(z[b])_j
//
// with the usual max shift, so it is exact for any logits. We use our own
// op rather than gorgonia's LogSoftMax because, in v0.9.18, the float32
// kernel shifts each row by a maximum seeded with the first element of the
// whole batch (and skipping the row's own first element), which under- or
// overflows when logits differ widely; and fusing the loss makes its
// gradient one cheap pass:
//
//	∂loss[b]/∂z[b,j] = softmax(z[b])_j · Σ_i t[b,i] − t[b,j]
type softmaxXent struct{}

// softmaxXentDiff computes the gradient above times the upstream gradient
// of loss[b]. Inputs: logits, targets, upstream [batch].
type softmaxXentDiff struct{}

// softmaxCrossEntropy returns the per-row cross-entropy [batch] of
// softmax(logits) against target, both [batch, k].
func softmaxCrossEntropy(logits, target *G.Node) (*G.Node, error) {
	if logits.Dims() != 2 || !logits.Shape().Eq(target.Shape()) {
		return nil, fmt.Errorf("model: softmax cross-entropy wants two [batch, k] nodes of one shape, got %v and %v", logits.Shape(), target.Shape())
	}
	return G.ApplyOp(softmaxXent{}, logits, target)
}

func (softmaxXent) Arity() int { return 2 }
func (softmaxXent) Type() hm.Type {
	a := hm.TypeVariable('a')
	m := G.TensorType{Dims: 2, Of: a}
	v := G.TensorType{Dims: 1, Of: a}
	return hm.NewFnType(m, m, v)
}
func (softmaxXent) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, ok := in[0].(tensor.Shape)
	if !ok || s.Dims() != 2 {
		return nil, fmt.Errorf("softmaxXent: want a 2-d input, got %v", in[0])
	}
	return tensor.Shape{s[0]}, nil
}
func (softmaxXent) ReturnsPtr() bool      { return false }
func (softmaxXent) CallsExtern() bool     { return false }
func (softmaxXent) OverwritesInput() int  { return -1 }
func (softmaxXent) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.softmaxXent") }
func (o softmaxXent) Hashcode() uint32    { return hashOf(o) }
func (softmaxXent) String() string        { return "SoftmaxXent" }

func (softmaxXent) Do(in ...G.Value) (G.Value, error) {
	z, t, err := twoMatrices(in, "softmaxXent")
	if err != nil {
		return nil, err
	}
	rows, k := z.Shape()[0], z.Shape()[1]
	out := tensor.New(tensor.Of(z.Dtype()), tensor.WithShape(rows))
	switch z.Dtype() {
	case tensor.Float32:
		zs, ts, os := z.Float32s(), t.Float32s(), out.Float32s()
		for b := 0; b < rows; b++ {
			os[b] = float32(xentRow(zs[b*k:(b+1)*k], ts[b*k:(b+1)*k], nil))
		}
	case tensor.Float64:
		zs, ts, os := z.Float64s(), t.Float64s(), out.Float64s()
		for b := 0; b < rows; b++ {
			os[b] = xentRow64(zs[b*k:(b+1)*k], ts[b*k:(b+1)*k], nil)
		}
	default:
		return nil, fmt.Errorf("softmaxXent: unsupported dtype %v", z.Dtype())
	}
	return out, nil
}

// SymDiff implements gorgonia.SDOp.
func (softmaxXent) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	d, err := G.ApplyOp(softmaxXentDiff{}, inputs[0], inputs[1], grad)
	if err != nil {
		return nil, err
	}
	return G.Nodes{d, nil}, nil
}

// DiffWRT implements gorgonia.SDOp: only the logits get a gradient.
func (softmaxXent) DiffWRT(int) []bool { return []bool{true, false} }

func (softmaxXentDiff) Arity() int { return 3 }
func (softmaxXentDiff) Type() hm.Type {
	a := hm.TypeVariable('a')
	m := G.TensorType{Dims: 2, Of: a}
	v := G.TensorType{Dims: 1, Of: a}
	return hm.NewFnType(m, m, v, m)
}
func (softmaxXentDiff) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, ok := in[0].(tensor.Shape)
	if !ok {
		return nil, fmt.Errorf("softmaxXentDiff: want a shape, got %v", in[0])
	}
	return s.Clone(), nil
}
func (softmaxXentDiff) ReturnsPtr() bool      { return false }
func (softmaxXentDiff) CallsExtern() bool     { return false }
func (softmaxXentDiff) OverwritesInput() int  { return -1 }
func (softmaxXentDiff) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.softmaxXentDiff") }
func (o softmaxXentDiff) Hashcode() uint32    { return hashOf(o) }
func (softmaxXentDiff) String() string        { return "SoftmaxXentDiff" }

func (softmaxXentDiff) Do(in ...G.Value) (G.Value, error) {
	if len(in) != 3 {
		return nil, fmt.Errorf("softmaxXentDiff: want 3 inputs, got %d", len(in))
	}
	z, t, err := twoMatrices(in[:2], "softmaxXentDiff")
	if err != nil {
		return nil, err
	}
	up, ok := in[2].(*tensor.Dense)
	rows, k := z.Shape()[0], z.Shape()[1]
	if !ok || up.Shape().TotalSize() != rows || up.Dtype() != z.Dtype() {
		return nil, fmt.Errorf("softmaxXentDiff: upstream gradient %v does not match %v", in[2], z.Shape())
	}
	out := tensor.New(tensor.Of(z.Dtype()), tensor.WithShape(rows, k))
	switch z.Dtype() {
	case tensor.Float32:
		zs, ts, us, os := z.Float32s(), t.Float32s(), up.Float32s(), out.Float32s()
		for b := 0; b < rows; b++ {
			r := os[b*k : (b+1)*k]
			xentRow(zs[b*k:(b+1)*k], ts[b*k:(b+1)*k], r)
			for j := range r {
				r[j] *= us[b]
			}
		}
	case tensor.Float64:
		zs, ts, us, os := z.Float64s(), t.Float64s(), up.Float64s(), out.Float64s()
		for b := 0; b < rows; b++ {
			r := os[b*k : (b+1)*k]
			xentRow64(zs[b*k:(b+1)*k], ts[b*k:(b+1)*k], r)
			for j := range r {
				r[j] *= us[b]
			}
		}
	default:
		return nil, fmt.Errorf("softmaxXentDiff: unsupported dtype %v", z.Dtype())
	}
	return out, nil
}

// xentRow returns -Σ t·logsoftmax(z), accumulating in float64, and if grad
// is not nil writes ∂/∂z into it.
func xentRow(z, t, grad []float32) float64 {
	m := z[0]
	for _, v := range z[1:] {
		if v > m {
			m = v
		}
	}
	var sumExp, sumT, dot float64
	for j, v := range z {
		sumExp += math.Exp(float64(v - m))
		sumT += float64(t[j])
		dot += float64(t[j]) * float64(v-m)
	}
	lse := math.Log(sumExp)
	if grad != nil {
		for j, v := range z {
			grad[j] = float32(math.Exp(float64(v-m)-lse)*sumT - float64(t[j]))
		}
	}
	return sumT*lse - dot
}

func xentRow64(z, t, grad []float64) float64 {
	m := z[0]
	for _, v := range z[1:] {
		if v > m {
			m = v
		}
	}
	var sumExp, sumT, dot float64
	for j, v := range z {
		sumExp += math.Exp(v - m)
		sumT += t[j]
		dot += t[j] * (v - m)
	}
	lse := math.Log(sumExp)
	if grad != nil {
		for j, v := range z {
			grad[j] = math.Exp(v-m-lse)*sumT - t[j]
		}
	}
	return sumT*lse - dot
}

func twoMatrices(in []G.Value, op string) (z, t *tensor.Dense, err error) {
	if len(in) != 2 {
		return nil, nil, fmt.Errorf("%s: want 2 inputs, got %d", op, len(in))
	}
	z, ok1 := in[0].(*tensor.Dense)
	t, ok2 := in[1].(*tensor.Dense)
	if !ok1 || !ok2 || z.Dims() != 2 || !z.Shape().Eq(t.Shape()) || z.Dtype() != t.Dtype() {
		return nil, nil, fmt.Errorf("%s: want two dense [batch, k] tensors of one shape and dtype, got %v and %v", op, in[0], in[1])
	}
	if z.IsView() || t.IsView() {
		// Views' Float32s() would not be laid out row-major.
		if z.IsView() {
			z = z.Materialize().(*tensor.Dense)
		}
		if t.IsView() {
			t = t.Materialize().(*tensor.Dense)
		}
	}
	return z, t, nil
}

func hashOf(o fmt.Stringer) uint32 {
	h := fnv.New32a()
	fmt.Fprint(h, "alicezero.", o.String())
	return h.Sum32()
}

// rowSoftmax is a forward-only gorgonia op: the softmax of each row of a
// [batch, k] matrix, shifted by the row's own maximum (see softmaxXent for
// why not gorgonia's SoftMax). Used for the WDL output of inference graphs.
type rowSoftmax struct{}

func (rowSoftmax) Arity() int { return 1 }
func (rowSoftmax) Type() hm.Type {
	m := G.TensorType{Dims: 2, Of: hm.TypeVariable('a')}
	return hm.NewFnType(m, m)
}
func (rowSoftmax) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, ok := in[0].(tensor.Shape)
	if !ok || s.Dims() != 2 {
		return nil, fmt.Errorf("rowSoftmax: want a 2-d input, got %v", in[0])
	}
	return s.Clone(), nil
}
func (rowSoftmax) ReturnsPtr() bool      { return false }
func (rowSoftmax) CallsExtern() bool     { return false }
func (rowSoftmax) OverwritesInput() int  { return -1 }
func (rowSoftmax) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.rowSoftmax") }
func (o rowSoftmax) Hashcode() uint32    { return hashOf(o) }
func (rowSoftmax) String() string        { return "RowSoftmax" }

func (rowSoftmax) Do(in ...G.Value) (G.Value, error) {
	z, ok := in[0].(*tensor.Dense)
	if len(in) != 1 || !ok || z.Dims() != 2 || z.Dtype() != tensor.Float32 {
		return nil, fmt.Errorf("rowSoftmax: want one dense float32 [batch, k] tensor, got %v", in)
	}
	if z.IsView() {
		z = z.Materialize().(*tensor.Dense)
	}
	rows, k := z.Shape()[0], z.Shape()[1]
	out := tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(rows, k))
	zs, os := z.Float32s(), out.Float32s()
	for b := 0; b < rows; b++ {
		r, o := zs[b*k:(b+1)*k], os[b*k:(b+1)*k]
		m := r[0]
		for _, v := range r[1:] {
			m = max(m, v)
		}
		var sum float64
		for j, v := range r {
			e := math.Exp(float64(v - m))
			o[j] = float32(e)
			sum += e
		}
		for j := range o {
			o[j] = float32(float64(o[j]) / sum)
		}
	}
	return out, nil
}
