package training

import (
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"math/bits"

	"github.com/alicezero/alicezero/model/internal/kernel"
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
//
// The masked form takes a third [batch, k] input, a mask (1 for an entry
// that takes part, 0 for one that does not), and computes the softmax over
// the row's masked-in entries only: the policy loss over the legal moves,
// the distribution the search uses. Masked-out entries contribute nothing
// and get zero gradient, whatever their logits; their targets must be zero
// (Trainer checks). A row with no masked-in entry has loss 0.
type softmaxXent struct {
	masked bool
	out    outBuf     // the gradient's array, reused from run to run (softmaxXentDiff)
	ws     *workspace // whose team splits the rows; nil: goroutines of their own
}

// softmaxXentDiff computes the gradient above times the upstream gradient
// of loss[b]. Inputs: logits, targets, the mask if masked, upstream
// [batch].
type softmaxXentDiff softmaxXent

// softmaxCrossEntropy returns the per-row cross-entropy [batch] of
// softmax(logits) against target, all [batch, k]; with a mask (nil for
// none), of the softmax over the entries the mask keeps.
func softmaxCrossEntropy(logits, target, mask *G.Node, ws *workspace) (*G.Node, error) {
	in := G.Nodes{logits, target}
	if mask != nil {
		in = append(in, mask)
	}
	for _, n := range in[1:] {
		if logits.Dims() != 2 || !logits.Shape().Eq(n.Shape()) {
			return nil, fmt.Errorf("model: softmax cross-entropy wants [batch, k] nodes of one shape, got %v and %v", logits.Shape(), n.Shape())
		}
	}
	return G.ApplyOp(softmaxXent{masked: mask != nil, ws: ws}, in...)
}

func (o softmaxXent) Arity() int {
	if o.masked {
		return 3
	}
	return 2
}
func (o softmaxXent) Type() hm.Type {
	a := hm.TypeVariable('a')
	m := G.TensorType{Dims: 2, Of: a}
	v := G.TensorType{Dims: 1, Of: a}
	if o.masked {
		return hm.NewFnType(m, m, m, v)
	}
	return hm.NewFnType(m, m, v)
}
func (softmaxXent) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, ok := in[0].(tensor.Shape)
	if !ok || s.Dims() != 2 {
		return nil, fmt.Errorf("softmaxXent: want a 2-d input, got %v", in[0])
	}
	return tensor.Shape{s[0]}, nil
}
func (softmaxXent) ReturnsPtr() bool        { return false }
func (softmaxXent) CallsExtern() bool       { return false }
func (softmaxXent) OverwritesInput() int    { return -1 }
func (o softmaxXent) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", o.String()) }
func (o softmaxXent) Hashcode() uint32      { return hashOf(o) }
func (o softmaxXent) String() string {
	if o.masked {
		return "MaskedSoftmaxXent"
	}
	return "SoftmaxXent"
}

func (o softmaxXent) Do(in ...G.Value) (G.Value, error) {
	ms, err := sameMatrices(in, o.Arity(), o.String())
	if err != nil {
		return nil, err
	}
	z := ms[0]
	rows := z.Shape()[0]
	out := tensor.New(tensor.Of(z.Dtype()), tensor.WithShape(rows))
	switch z.Dtype() {
	case tensor.Float32:
		xentRows(o.ws, backings[float32](ms), nil, out.Float32s())
	case tensor.Float64:
		xentRows(o.ws, backings[float64](ms), nil, out.Float64s())
	default:
		return nil, fmt.Errorf("%v: unsupported dtype %v", o, z.Dtype())
	}
	return out, nil
}

// SymDiff implements gorgonia.SDOp.
func (o softmaxXent) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	d, err := G.ApplyOp(softmaxXentDiff{masked: o.masked, out: newOutBuf(), ws: o.ws}, append(inputs[:len(inputs):len(inputs)], grad)...)
	if err != nil {
		return nil, err
	}
	out := make(G.Nodes, len(inputs))
	out[0] = d
	return out, nil
}

// DiffWRT implements gorgonia.SDOp: only the logits get a gradient.
func (o softmaxXent) DiffWRT(n int) []bool {
	d := make([]bool, n)
	d[0] = true
	return d
}

func (o softmaxXentDiff) Arity() int { return softmaxXent(o).Arity() + 1 }
func (o softmaxXentDiff) Type() hm.Type {
	a := hm.TypeVariable('a')
	m := G.TensorType{Dims: 2, Of: a}
	v := G.TensorType{Dims: 1, Of: a}
	if o.masked {
		return hm.NewFnType(m, m, m, v, m)
	}
	return hm.NewFnType(m, m, v, m)
}
func (softmaxXentDiff) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, ok := in[0].(tensor.Shape)
	if !ok {
		return nil, fmt.Errorf("softmaxXentDiff: want a shape, got %v", in[0])
	}
	return s.Clone(), nil
}
func (softmaxXentDiff) ReturnsPtr() bool        { return false }
func (softmaxXentDiff) CallsExtern() bool       { return false }
func (softmaxXentDiff) OverwritesInput() int    { return -1 }
func (o softmaxXentDiff) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", o.String()) }
func (o softmaxXentDiff) Hashcode() uint32      { return hashOf(o) }
func (o softmaxXentDiff) String() string        { return softmaxXent(o).String() + "Diff" }

func (o softmaxXentDiff) Do(in ...G.Value) (G.Value, error) {
	if len(in) != o.Arity() {
		return nil, fmt.Errorf("%v: want %d inputs, got %d", o, o.Arity(), len(in))
	}
	ms, err := sameMatrices(in[:len(in)-1], len(in)-1, o.String())
	if err != nil {
		return nil, err
	}
	z := ms[0]
	up, ok := in[len(in)-1].(*tensor.Dense)
	rows, k := z.Shape()[0], z.Shape()[1]
	if !ok || up.Shape().TotalSize() != rows || up.Dtype() != z.Dtype() {
		return nil, fmt.Errorf("%v: upstream gradient %v does not match %v", o, in[len(in)-1], z.Shape())
	}
	var out *tensor.Dense
	if z.Dtype() == tensor.Float32 && o.out.p != nil {
		out = o.out.tensor(tensor.Shape{rows, k}) // overwritten entirely below
	} else {
		out = tensor.New(tensor.Of(z.Dtype()), tensor.WithShape(rows, k))
	}
	switch z.Dtype() {
	case tensor.Float32:
		xentRows(o.ws, backings[float32](ms), up.Float32s(), out.Float32s())
	case tensor.Float64:
		xentRows(o.ws, backings[float64](ms), up.Float64s(), out.Float64s())
	default:
		return nil, fmt.Errorf("%v: unsupported dtype %v", o, z.Dtype())
	}
	return out, nil
}

type float interface{ ~float32 | ~float64 }

// xentRows runs xentRow over the rows of ms = logits, targets and
// optionally a mask, all [rows, k] row-major. With up nil it writes each
// row's loss to out [rows]; otherwise it writes the gradient times up[b]
// to out [rows, k].
func xentRows[F float](a *workspace, ms [][]F, up, out []F) {
	z, t := ms[0], ms[1]
	rows := len(out)
	if up != nil {
		rows = len(up)
	}
	k := len(z) / max(rows, 1)
	// Rows are independent: split them across the cores (each row's
	// result does not depend on the split).
	a.split(rows, func(lo, hi int) {
		idx := make([]int32, 0, k)
		for b := lo; b < hi; b++ {
			var mask, grad []F
			if len(ms) == 3 {
				mask = ms[2][b*k : (b+1)*k]
			}
			scale := F(1)
			if up != nil {
				grad = out[b*k : (b+1)*k]
				scale = up[b]
			}
			loss := xentRow(z[b*k:(b+1)*k], t[b*k:(b+1)*k], mask, grad, scale, idx)
			if up == nil {
				out[b] = F(loss)
			}
		}
	})
}

// xentRow returns -Σ t·log softmax(z) over the entries where mask is not
// zero (every entry if mask is nil), accumulating in float64, and if grad
// is not nil writes ∂/∂z times scale into it: 0 outside the mask. idx is
// scratch space for the row's entries (capacity len(z)): a policy row has
// a few dozen legal moves among 4672 entries, so everything after one scan
// of the mask runs over those only.
func xentRow[F float](z, t, mask, grad []F, scale F, idx []int32) float64 {
	idx = maskedIndices(mask, len(z), idx[:0])
	clear(grad)
	if len(idx) == 0 {
		return 0 // nothing masked in: no loss, no gradient
	}
	m := math.Inf(-1)
	for _, j := range idx {
		m = max(m, float64(z[j]))
	}
	if math.IsInf(m, -1) {
		return 0 // every entry's logit is −∞: no loss, no gradient
	}
	var sumExp, sumT, dot float64
	for _, j := range idx {
		d := float64(z[j]) - m
		sumExp += math.Exp(d)
		sumT += float64(t[j])
		dot += float64(t[j]) * d
	}
	lse := math.Log(sumExp)
	if grad != nil {
		for _, j := range idx {
			grad[j] = F(math.Exp(float64(z[j])-m-lse)*sumT-float64(t[j])) * scale
		}
	}
	return sumT*lse - dot
}

// sameMatrices checks that in holds n dense [batch, k] tensors of one shape
// and dtype and returns them, materialised if they are views (whose
// backing arrays would not be laid out row-major).
func sameMatrices(in []G.Value, n int, op string) ([]*tensor.Dense, error) {
	if len(in) != n {
		return nil, fmt.Errorf("%s: want %d inputs, got %d", op, n, len(in))
	}
	out := make([]*tensor.Dense, n)
	for i, v := range in {
		d, ok := v.(*tensor.Dense)
		if !ok || d.Dims() != 2 || (i > 0 && (!d.Shape().Eq(out[0].Shape()) || d.Dtype() != out[0].Dtype())) {
			return nil, fmt.Errorf("%s: want %d dense [batch, k] tensors of one shape and dtype, got %v", op, n, in)
		}
		if d.IsView() {
			d = d.Materialize().(*tensor.Dense)
		}
		out[i] = d
	}
	return out, nil
}

// backings returns the backing arrays of tensors of element type F.
func backings[F float](ms []*tensor.Dense) [][]F {
	out := make([][]F, len(ms))
	for i, m := range ms {
		out[i] = m.Data().([]F)
	}
	return out
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

// maskedIndices appends to idx the indices j < n where mask[j] is not zero
// (every index if mask is nil) and returns it. A policy mask is almost all
// zeros: float32 masks are scanned four entries at a time by their bits
// (a zero of either sign has none but the sign bit).
func maskedIndices[F float](mask []F, n int, idx []int32) []int32 {
	if mask == nil {
		for j := 0; j < n; j++ {
			idx = append(idx, int32(j))
		}
		return idx
	}
	m32, ok := any(mask).([]float32)
	if !ok {
		for j, v := range mask[:n] {
			if v != 0 {
				idx = append(idx, int32(j))
			}
		}
		return idx
	}
	m32 = m32[:n]
	const abs = 0x7fffffff
	j := 0
	// With AVX-512, sixteen entries at a time to a bit mask, a chunk of
	// words at once.
	var words [64]uint16
	for j+16 <= n {
		w := kernel.NonzeroWords(m32[j:], words[:])
		if w == 0 {
			break
		}
		for i, b := range words[:w] {
			for b != 0 {
				idx = append(idx, int32(j+16*i+bits.TrailingZeros16(b)))
				b &= b - 1
			}
		}
		j += 16 * w
	}
	for ; j+4 <= n; j += 4 {
		q := m32[j : j+4 : j+4]
		b0, b1, b2, b3 := math.Float32bits(q[0])&abs, math.Float32bits(q[1])&abs, math.Float32bits(q[2])&abs, math.Float32bits(q[3])&abs
		if b0|b1|b2|b3 == 0 {
			continue
		}
		for k, b := range [4]uint32{b0, b1, b2, b3} {
			if b != 0 {
				idx = append(idx, int32(j+k))
			}
		}
	}
	for ; j < n; j++ {
		if math.Float32bits(m32[j])&abs != 0 {
			idx = append(idx, int32(j))
		}
	}
	return idx
}

// rowEntropyFast is rowEntropy for a row of k entries, visiting only the
// entries where the target or the mask is not zero (found sixteen at a
// time with AVX-512; a policy row has a few dozen among thousands), in
// the same order, so it returns the same sum. A row with an entry
// rowEntropy rejects goes to rowEntropy, for its error.
func rowEntropyFast(target, mask []float32, b, k int) (float64, error) {
	t, m := target[b*k:(b+1)*k], mask[b*k:(b+1)*k]
	var h float64
	bad := false
	visit := func(q int) {
		mv, p := m[q], float64(t[q])
		switch {
		case mv != 0 && mv != 1, math.IsNaN(p), math.IsInf(p, 0), p < 0, p != 0 && mv == 0:
			bad = true
		case p > 0:
			h -= p * math.Log(p)
		}
	}
	var tw, mw [64]uint16
	j := 0
	for j+16 <= k && !bad {
		n := kernel.NonzeroWords(t[j:], tw[:])
		if n == 0 {
			break // no AVX-512
		}
		kernel.NonzeroWords(m[j:j+16*n], mw[:n])
		for i := 0; i < n && !bad; i++ {
			for w := tw[i] | mw[i]; w != 0; w &= w - 1 {
				visit(j + 16*i + bits.TrailingZeros16(w))
			}
		}
		j += 16 * n
	}
	for ; j < k && !bad; j++ {
		if m[j] != 0 || t[j] != 0 {
			visit(j)
		}
	}
	if bad {
		return rowEntropy(target, mask, b, k)
	}
	return h, nil
}
