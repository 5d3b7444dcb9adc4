package training

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// conv2d is gorgonia v0.9.18's Conv2d for a k×k kernel, stride 1, dilation
// 1 and padding pad, built from the same nodes (im2col, one matrix product
// of the patches by the transposed filter, a transpose back to BCHW) except
// that im2col, its gradient col2im and the transpose are our ops below
// rather than gorgonia's. Gorgonia's are correct but slow (one goroutine
// per image and a bounds test per element; a generic strided iterator):
// together about 40% of a training step once the products run on the AVX2
// kernel. Ours compute the same values bit for bit (col2im sums in
// gorgonia's order; see TestConvOpsMatchGorgonia) and reuse their output
// arrays (see outBuf).
//
// The product is BatchedMatMul over a batch of one with transB, the only
// public way to get Conv2d's A·Bᵀ node; it makes the same BLAS calls as
// Conv2d's product and its gradients.
func conv2d(x, w *G.Node, k, pad int) (*G.Node, error) {
	xs, ws := x.Shape(), w.Shape()
	if xs.Dims() != 4 || ws.Dims() != 4 || ws[1] != xs[1] || ws[2] != k || ws[3] != k {
		return nil, fmt.Errorf("model: conv2d: input %v and filter %v do not fit a %d×%d kernel", xs, ws, k, k)
	}
	col, err := G.ApplyOp(im2colOp{k: k, pad: pad, out: newOutBuf()}, x)
	if err != nil {
		return nil, fmt.Errorf("model: conv2d im2col: %w", err)
	}
	cs := col.Shape() // [batch, outH, outW, cin·k·k]
	batch, oh, ow, z := cs[0], cs[1], cs[2], cs[3]
	cout := ws[0]
	patch, err := G.Reshape(col, tensor.Shape{1, batch * oh * ow, z})
	if err != nil {
		return nil, err
	}
	flat, err := G.Reshape(w, tensor.Shape{1, cout, z})
	if err != nil {
		return nil, err
	}
	y, err := G.BatchedMatMul(patch, flat, false, true) // [1, batch·oh·ow, cout]
	if err != nil {
		return nil, fmt.Errorf("model: conv2d product: %w", err)
	}
	if y, err = G.Reshape(y, tensor.Shape{batch, oh, ow, cout}); err != nil {
		return nil, err
	}
	return G.ApplyOp(permuteOp{toNCHW: true, out: newOutBuf()}, y) // Conv2d's Transpose(y, 0, 3, 1, 2)
}

// im2colOp turns a [batch, c, h, w] image into [batch, outH, outW, c·k·k]
// patches for a k×k kernel with stride 1, dilation 1 and zero padding pad,
// in gorgonia's im2col layout (channel, kernel row, kernel column within a
// patch). Float32 only.
type im2colOp struct {
	k, pad int
	out    outBuf
}

// outBuf is the output array an op node reuses from run to run (nil: a
// fresh array each time). The patches are the largest values of a training
// step (one activation ×k², 19 MB per layer of preset small at batch 256),
// and allocating them, their gradients and the transposed activations anew
// at every step cost more in page faults and zeroing than computing them.
// Reuse is sound because a graph's machine runs one run at a time, every
// run recomputes (overwrites entirely) such an output before anything reads
// it, and nothing reads a run's values after the next run starts (callers
// take their results out with gorgonia.Read during the run). Each node gets
// its own buffer (conv2d, SymDiff); the buffer is not part of an op's
// identity (hash, String).
type outBuf struct{ p *[]float32 }

func newOutBuf() outBuf { return outBuf{new([]float32)} }

// tensor returns a float32 tensor of the given shape over the reused array
// (with a new header every time: gorgonia reshapes headers in place). Its
// contents are stale: the caller overwrites all of them.
func (b outBuf) tensor(shape tensor.Shape) *tensor.Dense {
	n := shape.TotalSize()
	var data []float32
	if b.p == nil {
		data = make([]float32, n)
	} else {
		if cap(*b.p) < n {
			*b.p = make([]float32, n)
		}
		data = (*b.p)[:n]
	}
	return tensor.New(tensor.WithShape(shape.Clone()...), tensor.WithBacking(data))
}

func (op im2colOp) outHW(h, w int) (int, int) {
	return h + 2*op.pad - op.k + 1, w + 2*op.pad - op.k + 1
}

func (op im2colOp) Arity() int { return 1 }
func (op im2colOp) Type() hm.Type {
	t := G.TensorType{Dims: 4, Of: hm.TypeVariable('a')}
	return hm.NewFnType(t, t)
}
func (op im2colOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, ok := oneShape(in)
	if !ok || s.Dims() != 4 {
		return nil, fmt.Errorf("%v: want one 4-d input shape, got %v", op, in)
	}
	oh, ow := op.outHW(s[2], s[3])
	if oh < 1 || ow < 1 {
		return nil, fmt.Errorf("%v: image %v smaller than the kernel", op, s)
	}
	return tensor.Shape{s[0], oh, ow, s[1] * op.k * op.k}, nil
}
func (op im2colOp) ReturnsPtr() bool      { return false }
func (op im2colOp) CallsExtern() bool     { return false }
func (op im2colOp) OverwritesInput() int  { return -1 }
func (op im2colOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op im2colOp) Hashcode() uint32      { return hashOf(op) }
func (op im2colOp) String() string        { return fmt.Sprintf("im2col<k%d,p%d>", op.k, op.pad) }

func (op im2colOp) Do(in ...G.Value) (G.Value, error) {
	x, err := denseF32(in, op)
	if err != nil {
		return nil, err
	}
	s := x.Shape()
	if s.Dims() != 4 {
		return nil, fmt.Errorf("%v: want a 4-d input, got %v", op, s)
	}
	b, c, h, w := s[0], s[1], s[2], s[3]
	oshape, err := op.InferShape(s)
	if err != nil {
		return nil, err
	}
	out := op.out.tensor(oshape)
	im, col := x.Float32s(), out.Float32s()
	imN, colN := c*h*w, oshape[1]*oshape[2]*oshape[3]
	parallelImages(b, func(lo, hi int) {
		padded := make([]float32, c*(h+2*op.pad)*(w+2*op.pad))
		for i := lo; i < hi; i++ {
			op.f32(im[i*imN:(i+1)*imN], c, h, w, padded, col[i*colN:(i+1)*colN])
		}
	})
	return out, nil
}

// f32 is im2col of one image, through padded, a scratch copy of the image
// with a zero border of op.pad, so that every patch entry is a plain load.
func (op im2colOp) f32(im []float32, c, h, w int, padded, col []float32) {
	k, pad := op.k, op.pad
	ph, pw := h+2*pad, w+2*pad
	for ch := 0; ch < c; ch++ {
		for y := 0; y < h; y++ {
			copy(padded[(ch*ph+y+pad)*pw+pad:][:w], im[(ch*h+y)*w:][:w])
		}
	}
	oh, ow := op.outHW(h, w)
	z := c * k * k
	for oy := 0; oy < oh; oy++ {
		for ox := 0; ox < ow; ox++ {
			dst := col[(oy*ow+ox)*z:][:z]
			if k == 3 {
				for ch := 0; ch < c; ch++ {
					p := padded[(ch*ph+oy)*pw+ox:]
					p0, p1, p2 := p[:3:3], p[pw:pw+3:pw+3], p[2*pw:2*pw+3:2*pw+3]
					d := dst[ch*9 : ch*9+9 : ch*9+9]
					d[0], d[1], d[2] = p0[0], p0[1], p0[2]
					d[3], d[4], d[5] = p1[0], p1[1], p1[2]
					d[6], d[7], d[8] = p2[0], p2[1], p2[2]
				}
				continue
			}
			i := 0
			for ch := 0; ch < c; ch++ {
				for ky := 0; ky < k; ky++ {
					src := padded[(ch*ph+oy+ky)*pw+ox:][:k]
					for kx, v := range src {
						dst[i+kx] = v
					}
					i += k
				}
			}
		}
	}
}

func (op im2colOp) DiffWRT(int) []bool { return []bool{true} }

// SymDiff implements gorgonia.SDOp.
func (op im2colOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	s := inputs[0].Shape()
	if s.Dims() != 4 {
		return nil, fmt.Errorf("%v: want a 4-d input, got %v", op, s)
	}
	d, err := G.ApplyOp(col2imOp{k: op.k, pad: op.pad, c: s[1], h: s[2], w: s[3], out: newOutBuf()}, grad)
	if err != nil {
		return nil, err
	}
	return G.Nodes{d}, nil
}

// col2imOp is im2colOp's gradient: it sums each patch entry back onto the
// image pixel it came from. Input [batch, outH, outW, c·k·k], output
// [batch, c, h, w].
type col2imOp struct {
	k, pad  int
	c, h, w int // the image's shape
	out     outBuf
}

func (op col2imOp) Arity() int { return 1 }
func (op col2imOp) Type() hm.Type {
	t := G.TensorType{Dims: 4, Of: hm.TypeVariable('a')}
	return hm.NewFnType(t, t)
}
func (op col2imOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, ok := oneShape(in)
	if !ok || s.Dims() != 4 {
		return nil, fmt.Errorf("%v: want one 4-d input shape, got %v", op, in)
	}
	if oh, ow := (im2colOp{k: op.k, pad: op.pad}).outHW(op.h, op.w); s[1] != oh || s[2] != ow || s[3] != op.c*op.k*op.k {
		return nil, fmt.Errorf("%v: input %v is not the patches of a %d×%d×%d image", op, s, op.c, op.h, op.w)
	}
	return tensor.Shape{s[0], op.c, op.h, op.w}, nil
}
func (op col2imOp) ReturnsPtr() bool      { return false }
func (op col2imOp) CallsExtern() bool     { return false }
func (op col2imOp) OverwritesInput() int  { return -1 }
func (op col2imOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op col2imOp) Hashcode() uint32      { return hashOf(op) }
func (op col2imOp) String() string {
	return fmt.Sprintf("col2im<k%d,p%d,%dx%dx%d>", op.k, op.pad, op.c, op.h, op.w)
}

func (op col2imOp) Do(in ...G.Value) (G.Value, error) {
	x, err := denseF32(in, op)
	if err != nil {
		return nil, err
	}
	s := x.Shape()
	oshape, err := op.InferShape(s)
	if err != nil {
		return nil, err
	}
	out := op.out.tensor(oshape)
	col, im := x.Float32s(), out.Float32s()
	imN, colN := op.c*op.h*op.w, s[1]*s[2]*s[3]
	parallelImages(s[0], func(lo, hi int) {
		padded := make([]float32, op.c*(op.h+2*op.pad)*(op.w+2*op.pad))
		for i := lo; i < hi; i++ {
			op.f32(col[i*colN:(i+1)*colN], padded, im[i*imN:(i+1)*imN])
		}
	})
	return out, nil
}

// f32 is col2im of one image. Like gorgonia's, it adds the patch entries
// onto a zeroed image for output positions in raster order, so that every
// pixel gets the same sum in the same order (bit-identical results); but it
// adds into padded, a scratch image with a zero border of op.pad, so that
// there is no bounds test per entry, and then copies the interior out.
func (op col2imOp) f32(col, padded, im []float32) {
	k, pad, c, h, w := op.k, op.pad, op.c, op.h, op.w
	ph, pw := h+2*pad, w+2*pad
	oh, ow := (im2colOp{k: k, pad: pad}).outHW(h, w)
	z := c * k * k
	clear(padded)
	for oy := 0; oy < oh; oy++ {
		for ox := 0; ox < ow; ox++ {
			src := col[(oy*ow+ox)*z:][:z]
			if k == 3 {
				for ch := 0; ch < c; ch++ {
					p := padded[(ch*ph+oy)*pw+ox:]
					p0, p1, p2 := p[:3:3], p[pw:pw+3:pw+3], p[2*pw:2*pw+3:2*pw+3]
					d := src[ch*9 : ch*9+9 : ch*9+9]
					p0[0] += d[0]
					p0[1] += d[1]
					p0[2] += d[2]
					p1[0] += d[3]
					p1[1] += d[4]
					p1[2] += d[5]
					p2[0] += d[6]
					p2[1] += d[7]
					p2[2] += d[8]
				}
				continue
			}
			i := 0
			for ch := 0; ch < c; ch++ {
				for ky := 0; ky < k; ky++ {
					dst := padded[(ch*ph+oy+ky)*pw+ox:][:k]
					for kx := range dst {
						dst[kx] += src[i+kx]
					}
					i += k
				}
			}
		}
	}
	for ch := 0; ch < c; ch++ {
		for y := 0; y < h; y++ {
			copy(im[(ch*h+y)*w:][:w], padded[(ch*ph+y+pad)*pw+pad:][:w])
		}
	}
}

// permuteOp moves the channel axis of a 4-d tensor: [b, h, w, c] to
// [b, c, h, w] if toNCHW, else back. It is gorgonia's Transpose with
// pattern (0, 3, 1, 2) or (0, 2, 3, 1), values moved unchanged, without the
// generic strided iterator that made those transposes a tenth of a
// training step. Each is the other's gradient, as for Transpose.
type permuteOp struct {
	toNCHW bool
	out    outBuf
}

func (op permuteOp) Arity() int { return 1 }
func (op permuteOp) Type() hm.Type {
	t := G.TensorType{Dims: 4, Of: hm.TypeVariable('a')}
	return hm.NewFnType(t, t)
}
func (op permuteOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, ok := oneShape(in)
	if !ok || s.Dims() != 4 {
		return nil, fmt.Errorf("%v: want one 4-d input shape, got %v", op, in)
	}
	if op.toNCHW {
		return tensor.Shape{s[0], s[3], s[1], s[2]}, nil
	}
	return tensor.Shape{s[0], s[2], s[3], s[1]}, nil
}
func (op permuteOp) ReturnsPtr() bool      { return false }
func (op permuteOp) CallsExtern() bool     { return false }
func (op permuteOp) OverwritesInput() int  { return -1 }
func (op permuteOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "alicezero.", op.String()) }
func (op permuteOp) Hashcode() uint32      { return hashOf(op) }
func (op permuteOp) String() string {
	if op.toNCHW {
		return "permute<NHWC→NCHW>"
	}
	return "permute<NCHW→NHWC>"
}
func (op permuteOp) DiffWRT(int) []bool { return []bool{true} }

// SymDiff implements gorgonia.SDOp.
func (op permuteOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	d, err := G.ApplyOp(permuteOp{toNCHW: !op.toNCHW, out: newOutBuf()}, grad)
	if err != nil {
		return nil, err
	}
	return G.Nodes{d}, nil
}

func (op permuteOp) Do(in ...G.Value) (G.Value, error) {
	x, err := denseF32(in, op)
	if err != nil {
		return nil, err
	}
	s := x.Shape()
	oshape, err := op.InferShape(s)
	if err != nil {
		return nil, err
	}
	out := op.out.tensor(oshape)
	src, dst := x.Float32s(), out.Float32s()
	// Both directions are a batch of [rows, cols] → [cols, rows] transposes:
	// NHWC→NCHW has rows = h·w, cols = c; NCHW→NHWC the reverse.
	rows, cols := s[1]*s[2], s[3]
	if !op.toNCHW {
		rows, cols = s[1], s[2]*s[3]
	}
	n := rows * cols
	parallelImages(s[0], func(lo, hi int) {
		for i := lo; i < hi; i++ {
			transposeInto(rows, cols, src[i*n:(i+1)*n], cols, dst[i*n:(i+1)*n], rows)
		}
	})
	return out, nil
}

// oneShape returns the single input shape of InferShape.
func oneShape(in []G.DimSizer) (tensor.Shape, bool) {
	if len(in) != 1 {
		return nil, false
	}
	s, ok := in[0].(tensor.Shape)
	return s, ok
}

// denseF32 returns the single float32 dense input of op, materialised if it
// is a view.
func denseF32(in []G.Value, op fmt.Stringer) (*tensor.Dense, error) {
	if len(in) != 1 {
		return nil, fmt.Errorf("%v: want 1 input, got %d", op, len(in))
	}
	x, ok := in[0].(*tensor.Dense)
	if !ok || x.Dtype() != tensor.Float32 {
		return nil, fmt.Errorf("%v: want a dense float32 tensor, got %v (%T)", op, in[0], in[0])
	}
	if x.IsView() {
		x = x.Materialize().(*tensor.Dense)
	}
	return x, nil
}

// parallelImages calls f(lo, hi) on contiguous ranges that cover [0, n),
// one per core, for the reference graph's ops, which have no workspace
// (team.run with goroutines of the call's own). Each image's part of the
// output is written by one call only, from that image's input only, so
// the result does not depend on the split; a panic in f reaches the
// caller, where the graph runner's recovery turns it into an error.
func parallelImages(n int, f func(lo, hi int)) { (*workspace)(nil).split(n, f) }

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
