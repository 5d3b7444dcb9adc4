package training

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/alicezero/alicezero/model/internal/modeltest"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// winoCase is one configuration of winoConvOp under test.
type winoCase struct {
	batch, cin, cout         int
	relu, residual, inputGrd bool
}

func (c winoCase) String() string {
	return fmt.Sprintf("b%d_%dx%d_relu=%v_res=%v_dx=%v", c.batch, c.cin, c.cout, c.relu, c.residual, c.inputGrd)
}

// gradRun adds cost = Σ r ⊙ y to y's graph, runs one machine twice (the
// second run reuses its buffers) and returns y's values and the gradients
// of wrt, in order.
func gradRun(t *testing.T, y *G.Node, r []float32, wrt ...*G.Node) (yv []float32, grads [][]float32) {
	t.Helper()
	g := y.Graph()
	shape := y.Shape()
	rn := G.NewTensor(g, tensor.Float32, shape.Dims(), G.WithShape(shape...), G.WithName("r"),
		G.WithValue(tensor.New(tensor.WithShape(shape...), tensor.WithBacking(append([]float32(nil), r...)))))
	prod, err := G.HadamardProd(y, rn)
	if err != nil {
		t.Fatal(err)
	}
	cost, err := G.Sum(prod)
	if err != nil {
		t.Fatal(err)
	}
	gn, err := G.Grad(cost, wrt...)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]G.Value, len(gn)+1)
	G.Read(y, &vals[0])
	for i, n := range gn {
		G.Read(n, &vals[i+1])
	}
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	for run := 0; run < 2; run++ {
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
	for _, v := range vals[1:] {
		grads = append(grads, get(v))
	}
	return get(vals[0]), grads
}

// tensorNode returns a float32 node of the given shape over a copy of data.
func tensorNode(g *G.ExprGraph, name string, data []float32, shape ...int) *G.Node {
	return G.NewTensor(g, tensor.Float32, len(shape), G.WithShape(shape...), G.WithName(name),
		G.WithValue(tensor.New(tensor.WithShape(shape...), tensor.WithBacking(append([]float32(nil), data...)))))
}

// checkGradient compares grad with central differences of cost (a float64
// function of param) at the largest gradient's entry and a few random
// ones.
func checkGradient(t *testing.T, rng *rand.Rand, name string, param []float64, grad []float32, cost func() float64) {
	t.Helper()
	if len(grad) != len(param) {
		t.Fatalf("%s: gradient has %d entries for %d", name, len(grad), len(param))
	}
	top := 0
	for j := range grad {
		if math.Abs(float64(grad[j])) > math.Abs(float64(grad[top])) {
			top = j
		}
	}
	for k := 0; k < 6; k++ {
		j := top
		if k > 0 {
			j = rng.IntN(len(param))
		}
		const eps = 1e-6
		orig := param[j]
		param[j] = orig + eps
		up := cost()
		param[j] = orig - eps
		down := cost()
		param[j] = orig
		num := (up - down) / (2 * eps)
		if d := math.Abs(num - float64(grad[j])); d > 1e-4*(1+math.Abs(num)) {
			t.Errorf("%s[%d]: gradient %v, central difference %v", name, j, grad[j], num)
		}
	}
}

// winoOpRun builds winoConv(x, w, b [, res]) and returns y and the
// gradients of x (nil unless inputGrd), w, b and res (nil unless
// residual) of Σ r ⊙ y.
func winoOpRun(t *testing.T, c winoCase, x, w, b, res, r []float32) (y, dx, dw, db, dres []float32) {
	t.Helper()
	ws, err := newWorkspace()
	if err != nil {
		t.Fatal(err)
	}
	defer ws.close()
	g := G.NewGraph()
	xn := tensorNode(g, "x", x, c.batch, c.cin, 8, 8)
	wn := tensorNode(g, "w", w, c.cout, c.cin, 3, 3)
	bn := tensorNode(g, "b", b, c.cout)
	ins := G.Nodes{xn, wn, bn}
	if c.residual {
		ins = append(ins, tensorNode(g, "res", res, c.batch, c.cout, 8, 8))
	}
	yn, err := G.ApplyOp(newWinoConvOp("conv", nil, nil, c.cin, c.cout, c.relu, c.residual, c.inputGrd, ws), ins...)
	if err != nil {
		t.Fatal(err)
	}
	wrt := G.Nodes{wn, bn}
	if c.inputGrd {
		wrt = append(wrt, xn)
	}
	if c.residual {
		wrt = append(wrt, ins[3])
	}
	y, grads := gradRun(t, yn, r, wrt...)
	dw, db = grads[0], grads[1]
	i := 2
	if c.inputGrd {
		dx = grads[i]
		i++
	}
	if c.residual {
		dres = grads[i]
	}
	return y, dx, dw, db, dres
}

// refWinoCost is Σ r ⊙ act(conv(x, w) + b [+ res]) in float64, straight
// from the definition (NCHW, zero padding), and the pre-activation values.
func refWinoCost(c winoCase, x, w, b, res, r []float64) (cost float64, y []float64) {
	y = make([]float64, c.batch*c.cout*64)
	for n := 0; n < c.batch; n++ {
		for co := 0; co < c.cout; co++ {
			for sq := 0; sq < 64; sq++ {
				rr, ff := sq/8, sq%8
				s := b[co]
				for ci := 0; ci < c.cin; ci++ {
					for ky := 0; ky < 3; ky++ {
						for kx := 0; kx < 3; kx++ {
							sy, sx := rr+ky-1, ff+kx-1
							if sy < 0 || sy > 7 || sx < 0 || sx > 7 {
								continue
							}
							s += w[((co*c.cin+ci)*3+ky)*3+kx] * x[((n*c.cin+ci)*8+sy)*8+sx]
						}
					}
				}
				i := (n*c.cout+co)*64 + sq
				if c.residual {
					s += res[i]
				}
				if c.relu {
					s = math.Max(s, 0)
				}
				y[i] = s
				cost += r[i] * s
			}
		}
	}
	return cost, y
}

func to64(s []float32) []float64 {
	d := make([]float64, len(s))
	for i, v := range s {
		d[i] = float64(v)
	}
	return d
}

// TestWinoConvOpGradients checks winoConvOp's forward values against a
// float64 convolution and each of its gradients (input, filters, bias,
// residual) against central differences of that float64 cost, for partial
// lane groups, several filter-gradient slabs and every variant of the op.
func TestWinoConvOpGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	cases := []winoCase{
		{batch: 3, cin: 2, cout: 3, relu: true, inputGrd: true},
		{batch: 11, cin: 5, cout: 4, relu: false, residual: true, inputGrd: true},
		{batch: 9, cin: 37, cout: 6, relu: true, inputGrd: false},
		{batch: 70, cin: 3, cout: 9, relu: true, residual: true, inputGrd: true}, // 9 groups: 2 slabs
		{batch: 41, cin: 6, cout: 5, relu: false, residual: true, inputGrd: false},
		{batch: 17, cin: 37, cout: 32, relu: true, residual: true, inputGrd: true}, // the stem's and trunk's widths
	}
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			x := modeltest.RandomNormal(rng, c.batch*c.cin*64, 1)
			w := modeltest.RandomNormal(rng, c.cout*c.cin*9, 1/math.Sqrt(float64(c.cin*9)))
			b := modeltest.RandomNormal(rng, c.cout, 0.3)
			res := modeltest.RandomNormal(rng, c.batch*c.cout*64, 1)
			r := modeltest.RandomNormal(rng, c.batch*c.cout*64, 1)
			y, dx, dw, db, dres := winoOpRun(t, c, x, w, b, res, r)
			x64, w64, b64, res64, r64 := to64(x), to64(w), to64(b), to64(res), to64(r)
			_, want := refWinoCost(c, x64, w64, b64, res64, r64)
			for i := range want {
				if d := math.Abs(float64(y[i]) - want[i]); d > 1e-5*(1+math.Abs(want[i])) {
					t.Fatalf("y[%d] = %v, want %v", i, y[i], want[i])
				}
			}
			cost := func() float64 { v, _ := refWinoCost(c, x64, w64, b64, res64, r64); return v }
			check := func(name string, param []float64, grad []float32) {
				if grad == nil {
					t.Fatalf("no gradient for %s", name)
				}
				checkGradient(t, rng, name, param, grad, cost)
			}
			check("w", w64, dw)
			check("b", b64, db)
			if c.inputGrd {
				check("x", x64, dx)
			} else if dx != nil {
				t.Error("an input gradient without inputGrad")
			}
			if c.residual {
				check("res", res64, dres)
			}
		})
	}
}

// The op's outputs and gradients do not depend on the number of goroutines
// (training stays bit-reproducible whatever GOMAXPROCS is).
func TestWinoConvOpDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 22))
	c := winoCase{batch: 150, cin: 6, cout: 8, relu: true, residual: true, inputGrd: true}
	rnd := func(n int) []float32 { return modeltest.RandomNormal(rng, n, 1) }
	x, w, b, res, r := rnd(c.batch*c.cin*64), rnd(c.cout*c.cin*9), rnd(c.cout), rnd(c.batch*c.cout*64), rnd(c.batch*c.cout*64)
	var ref [][]float32
	for _, procs := range []int{1, 2, 3} {
		old := runtime.GOMAXPROCS(procs)
		y, dx, dw, db, dres := winoOpRun(t, c, x, w, b, res, r)
		runtime.GOMAXPROCS(old)
		got := [][]float32{y, dx, dw, db, dres}
		if ref == nil {
			ref = got
			continue
		}
		for i := range got {
			for j := range got[i] {
				if math.Float32bits(got[i][j]) != math.Float32bits(ref[i][j]) {
					t.Fatalf("GOMAXPROCS %d: output %d differs at %d: %v, with 1: %v", procs, i, j, got[i][j], ref[i][j])
				}
			}
		}
	}
}

// TestConv1x1OpGradients checks conv1x1Op's values against a float64 1×1
// convolution and its gradients (input, filters, bias) against central
// differences, with and without the ReLU, over two filter-gradient slabs
// and an output count that fills no kernel block.
func TestConv1x1OpGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 24))
	for _, tc := range []struct {
		batch, cin, cout int
		relu             bool
	}{{3, 5, 2, true}, {70, 6, 73, false}, {9, 32, 3, true}} {
		t.Run(fmt.Sprintf("%+v", tc), func(t *testing.T) {
			ws, err := newWorkspace()
			if err != nil {
				t.Fatal(err)
			}
			defer ws.close()
			x := modeltest.RandomNormal(rng, tc.batch*tc.cin*64, 1)
			w := modeltest.RandomNormal(rng, tc.cout*tc.cin, 1/math.Sqrt(float64(tc.cin)))
			b := modeltest.RandomNormal(rng, tc.cout, 0.3)
			r := modeltest.RandomNormal(rng, tc.batch*tc.cout*64, 1)
			g := G.NewGraph()
			xn, wn, bn := tensorNode(g, "x", x, tc.batch, tc.cin, 8, 8), tensorNode(g, "w", w, tc.cout, tc.cin, 1, 1), tensorNode(g, "b", b, tc.cout)
			yn, err := G.ApplyOp(conv1x1Op{cin: tc.cin, cout: tc.cout, relu: tc.relu, out: newOutBuf(), ws: ws}, xn, wn, bn)
			if err != nil {
				t.Fatal(err)
			}
			y, grads := gradRun(t, yn, r, xn, wn, bn)
			x64, w64, b64, r64 := to64(x), to64(w), to64(b), to64(r)
			ref := func() (float64, []float64) {
				out := make([]float64, tc.batch*tc.cout*64)
				var cost float64
				for p := 0; p < tc.batch; p++ {
					for o := 0; o < tc.cout; o++ {
						for q := 0; q < 64; q++ {
							s := b64[o]
							for c := 0; c < tc.cin; c++ {
								s += w64[o*tc.cin+c] * x64[(p*tc.cin+c)*64+q]
							}
							if tc.relu {
								s = math.Max(s, 0)
							}
							i := (p*tc.cout+o)*64 + q
							out[i] = s
							cost += r64[i] * s
						}
					}
				}
				return cost, out
			}
			_, want := ref()
			for i := range want {
				if d := math.Abs(float64(y[i]) - want[i]); d > 1e-5*(1+math.Abs(want[i])) {
					t.Fatalf("y[%d] = %v, want %v", i, y[i], want[i])
				}
			}
			cost := func() float64 { c, _ := ref(); return c }
			checkGradient(t, rng, "x", x64, grads[0], cost)
			checkGradient(t, rng, "w", w64, grads[1], cost)
			checkGradient(t, rng, "b", b64, grads[2], cost)
		})
	}
}

// TestPlaneMeanOpGradients checks planeMeanOp's values against float64
// means and its gradient against central differences.
func TestPlaneMeanOpGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 25))
	const batch, ch = 5, 3
	x := modeltest.RandomNormal(rng, batch*ch*64, 1)
	r := modeltest.RandomNormal(rng, batch*ch, 1)
	g := G.NewGraph()
	xn := tensorNode(g, "x", x, batch, ch*64)
	yn, err := G.ApplyOp(planeMeanOp{channels: ch, out: newOutBuf()}, xn)
	if err != nil {
		t.Fatal(err)
	}
	y, grads := gradRun(t, yn, r, xn)
	x64, r64 := to64(x), to64(r)
	ref := func() (float64, []float64) {
		out := make([]float64, batch*ch)
		var cost float64
		for i := range out {
			for q := 0; q < 64; q++ {
				out[i] += x64[i*64+q]
			}
			out[i] /= 64
			cost += r64[i] * out[i]
		}
		return cost, out
	}
	_, want := ref()
	for i := range want {
		if d := math.Abs(float64(y[i]) - want[i]); d > 1e-6*(1+math.Abs(want[i])) {
			t.Fatalf("y[%d] = %v, want %v", i, y[i], want[i])
		}
	}
	checkGradient(t, rng, "x", x64, grads[0], func() float64 { c, _ := ref(); return c })
}
