package training

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// convRun builds x → conv → Σ conv·r in a fresh graph, with gorgonia's
// Conv2d or ours, and returns the output and the gradients for x and w.
func convRun(t *testing.T, ours bool, xs, ws []int, k, pad int, x, w, r []float32) (y, dx, dw []float32) {
	t.Helper()
	g := G.NewGraph()
	xn := G.NewTensor(g, tensor.Float32, 4, G.WithShape(xs...), G.WithName("x"),
		G.WithValue(tensor.New(tensor.WithShape(xs...), tensor.WithBacking(append([]float32(nil), x...)))))
	wn := G.NewTensor(g, tensor.Float32, 4, G.WithShape(ws...), G.WithName("w"),
		G.WithValue(tensor.New(tensor.WithShape(ws...), tensor.WithBacking(append([]float32(nil), w...)))))
	var yn *G.Node
	var err error
	if ours {
		yn, err = conv2d(xn, wn, k, pad)
	} else {
		yn, err = G.Conv2d(xn, wn, tensor.Shape{k, k}, []int{pad, pad}, []int{1, 1}, []int{1, 1})
	}
	if err != nil {
		t.Fatal(err)
	}
	rn := G.NewTensor(g, tensor.Float32, 4, G.WithShape(yn.Shape()...), G.WithName("r"),
		G.WithValue(tensor.New(tensor.WithShape(yn.Shape()...), tensor.WithBacking(r[:yn.Shape().TotalSize()]))))
	prod, err := G.HadamardProd(yn, rn)
	if err != nil {
		t.Fatal(err)
	}
	cost, err := G.Sum(prod)
	if err != nil {
		t.Fatal(err)
	}
	grads, err := G.Grad(cost, xn, wn)
	if err != nil {
		t.Fatal(err)
	}
	var yv, dxv, dwv G.Value
	G.Read(yn, &yv)
	G.Read(grads[0], &dxv)
	G.Read(grads[1], &dwv)
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	for run := 0; run < 2; run++ { // a second run reuses whatever the machine kept
		vm.Reset()
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
	}
	get := func(v G.Value) []float32 {
		d := v.(*tensor.Dense)
		if d.IsView() {
			d = d.Materialize().(*tensor.Dense)
		}
		return append([]float32(nil), d.Float32s()...)
	}
	return get(yv), get(dxv), get(dwv)
}

// TestConvOpsMatchGorgonia: conv2d (our im2col and col2im ops) computes
// the forward pass and both gradients bit for bit as gorgonia's Conv2d.
func TestConvOpsMatchGorgonia(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, tc := range []struct{ b, cin, h, w, cout, k, pad int }{
		{3, 5, 8, 8, 4, 3, 1},
		{2, 3, 8, 8, 2, 1, 0},
		{2, 2, 6, 7, 3, 3, 0},
		{1, 2, 5, 4, 2, 5, 2},
		{4, 34, 8, 8, 16, 3, 1},
	} {
		t.Run(fmt.Sprintf("%+v", tc), func(t *testing.T) {
			xs, ws := []int{tc.b, tc.cin, tc.h, tc.w}, []int{tc.cout, tc.cin, tc.k, tc.k}
			rnd := func(n int) []float32 {
				s := make([]float32, n)
				for i := range s {
					s[i] = float32(rng.NormFloat64())
				}
				return s
			}
			x, w, r := rnd(tc.b*tc.cin*tc.h*tc.w), rnd(tc.cout*tc.cin*tc.k*tc.k), rnd(tc.b*tc.cout*tc.h*tc.w)
			y0, dx0, dw0 := convRun(t, false, xs, ws, tc.k, tc.pad, x, w, r)
			y1, dx1, dw1 := convRun(t, true, xs, ws, tc.k, tc.pad, x, w, r)
			for name, p := range map[string][2][]float32{"y": {y0, y1}, "dx": {dx0, dx1}, "dw": {dw0, dw1}} {
				if len(p[0]) != len(p[1]) {
					t.Fatalf("%s: %d values, gorgonia %d", name, len(p[1]), len(p[0]))
				}
				for i := range p[0] {
					if math.Float32bits(p[0][i]) != math.Float32bits(p[1][i]) {
						t.Fatalf("%s[%d] = %v, gorgonia's Conv2d gives %v", name, i, p[1][i], p[0][i])
					}
				}
			}
		})
	}
}

// TestConvOpsReject: the ops refuse what they cannot compute, with errors.
func TestConvOpsReject(t *testing.T) {
	f64 := tensor.New(tensor.WithShape(1, 1, 3, 3), tensor.WithBacking(make([]float64, 9)))
	if _, err := (im2colOp{k: 3, pad: 1}).Do(f64); err == nil {
		t.Error("im2col accepted float64")
	}
	small := tensor.New(tensor.WithShape(1, 1, 2, 2), tensor.WithBacking(make([]float32, 4)))
	if _, err := (im2colOp{k: 3, pad: 0}).Do(small); err == nil {
		t.Error("im2col accepted an image smaller than its kernel")
	}
	bad := tensor.New(tensor.WithShape(1, 8, 8, 10), tensor.WithBacking(make([]float32, 640)))
	if _, err := (col2imOp{k: 3, pad: 1, c: 2, h: 8, w: 8}).Do(bad); err == nil {
		t.Error("col2im accepted patches of the wrong width")
	}
	g := G.NewGraph()
	x := G.NewTensor(g, tensor.Float32, 4, G.WithShape(1, 2, 8, 8), G.WithName("x"))
	w := G.NewTensor(g, tensor.Float32, 4, G.WithShape(4, 3, 3, 3), G.WithName("w"))
	if _, err := conv2d(x, w, 3, 1); err == nil {
		t.Error("conv2d accepted a filter with the wrong input channels")
	}
}

func BenchmarkIm2col(b *testing.B) {
	const batch, c, h, w = 256, 32, 8, 8
	x := tensor.New(tensor.WithShape(batch, c, h, w), tensor.WithBacking(make([]float32, batch*c*h*w)))
	op := im2colOp{k: 3, pad: 1}
	col, err := op.Do(x)
	if err != nil {
		b.Fatal(err)
	}
	back := col2imOp{k: 3, pad: 1, c: c, h: h, w: w}
	b.Run("im2col", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := op.Do(x); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("col2im", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := back.Do(col); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// A panic in a helper goroutine of parallelImages reaches the caller, where
// the graph runner's recovery can turn it into an error.
func TestParallelImagesRelaysPanics(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	for _, bad := range []int{0, 7} { // on the caller's range, on a helper's
		var covered [8]bool
		r := func() (r any) {
			defer func() { r = recover() }()
			parallelImages(len(covered), func(lo, hi int) {
				if lo <= bad && bad < hi {
					panic("image " + strconv.Itoa(bad))
				}
				for i := lo; i < hi; i++ {
					covered[i] = true
				}
			})
			return nil
		}()
		if r == nil || !strings.Contains(fmt.Sprint(r), "image "+strconv.Itoa(bad)) {
			t.Errorf("panic on image %d: recovered %v", bad, r)
		}
	}
}
