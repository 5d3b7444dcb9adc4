package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

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

// winoOpRun builds cost = Σ r ⊙ winoConv(x, w, b [, res]) in a fresh graph
// and returns y and the gradients of x (nil unless inputGrd), w, b and res
// (nil unless residual), after two runs of one machine (the second reuses
// the buffers).
func winoOpRun(t *testing.T, c winoCase, x, w, b, res, r []float32) (y, dx, dw, db, dres []float32) {
	t.Helper()
	arena, err := newConvArena()
	if err != nil {
		t.Fatal(err)
	}
	g := G.NewGraph()
	node := func(name string, data []float32, shape ...int) *G.Node {
		return G.NewTensor(g, tensor.Float32, len(shape), G.WithShape(shape...), G.WithName(name),
			G.WithValue(tensor.New(tensor.WithShape(shape...), tensor.WithBacking(append([]float32(nil), data...)))))
	}
	xn := node("x", x, c.batch, c.cin, 8, 8)
	wn := node("w", w, c.cout, c.cin, 3, 3)
	bn := G.NewVector(g, tensor.Float32, G.WithShape(c.cout), G.WithName("b"),
		G.WithValue(tensor.New(tensor.WithShape(c.cout), tensor.WithBacking(append([]float32(nil), b...)))))
	ins := G.Nodes{xn, wn, bn}
	if c.residual {
		ins = append(ins, node("res", res, c.batch, c.cout, 8, 8))
	}
	yn, err := G.ApplyOp(newWinoConvOp(c.cin, c.cout, c.relu, c.residual, c.inputGrd, arena), ins...)
	if err != nil {
		t.Fatal(err)
	}
	prod, err := G.HadamardProd(yn, node("r", r, c.batch, c.cout, 8, 8))
	if err != nil {
		t.Fatal(err)
	}
	cost, err := G.Sum(prod)
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
	grads, err := G.Grad(cost, wrt...)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]G.Value, len(grads)+1)
	G.Read(yn, &vals[0])
	for i, gn := range grads {
		G.Read(gn, &vals[i+1])
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
	y, dw, db = get(vals[0]), get(vals[1]), get(vals[2])
	i := 3
	if c.inputGrd {
		dx = get(vals[i])
		i++
	}
	if c.residual {
		dres = get(vals[i])
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
	}
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			rnd := func(n int, scale float64) []float32 {
				s := make([]float32, n)
				for i := range s {
					s[i] = float32(rng.NormFloat64() * scale)
				}
				return s
			}
			x := rnd(c.batch*c.cin*64, 1)
			w := rnd(c.cout*c.cin*9, 1/math.Sqrt(float64(c.cin*9)))
			b := rnd(c.cout, 0.3)
			res := rnd(c.batch*c.cout*64, 1)
			r := rnd(c.batch*c.cout*64, 1)
			y, dx, dw, db, dres := winoOpRun(t, c, x, w, b, res, r)
			x64, w64, b64, res64, r64 := to64(x), to64(w), to64(b), to64(res), to64(r)
			_, want := refWinoCost(c, x64, w64, b64, res64, r64)
			for i := range want {
				if d := math.Abs(float64(y[i]) - want[i]); d > 1e-5*(1+math.Abs(want[i])) {
					t.Fatalf("y[%d] = %v, want %v", i, y[i], want[i])
				}
			}
			// Central differences of the float64 cost, at a few entries of
			// every input (the largest gradient and random ones).
			check := func(name string, param []float64, grad []float32) {
				if grad == nil {
					t.Fatalf("no gradient for %s", name)
				}
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
					up, _ := refWinoCost(c, x64, w64, b64, res64, r64)
					param[j] = orig - eps
					down, _ := refWinoCost(c, x64, w64, b64, res64, r64)
					param[j] = orig
					num := (up - down) / (2 * eps)
					if d := math.Abs(num - float64(grad[j])); d > 1e-4*(1+math.Abs(num)) {
						t.Errorf("%s[%d]: gradient %v, central difference %v", name, j, grad[j], num)
					}
				}
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
	rnd := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(rng.NormFloat64())
		}
		return s
	}
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
