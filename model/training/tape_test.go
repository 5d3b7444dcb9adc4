package training

import (
	"errors"
	"fmt"
	"hash"
	"slices"
	"strings"
	"testing"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// runTape skips RunAll's flush of batched BLAS calls, so the BLAS gorgonia
// uses must not batch them.
func TestKernelBLASIsNotBatched(t *testing.T) {
	installKernelBLAS()
	for _, b := range []any{kernelBLAS{}, G.WhichBLAS()} {
		if _, ok := b.(G.Batched); ok {
			t.Fatalf("%T batches its calls: runTape would leave them unflushed", b)
		}
	}
}

// tapeGraph is relu(x·w) with x bound to a [2, 3] matrix, its output read
// into out.
func tapeGraph(t *testing.T, out *G.Value, op G.Op) (*G.ExprGraph, *G.Node) {
	t.Helper()
	g := G.NewGraph()
	x := G.NewMatrix(g, tensor.Float32, G.WithShape(2, 3), G.WithName("x"),
		G.WithValue(tensor.New(tensor.WithShape(2, 3), tensor.WithBacking([]float32{1, -2, 3, -4, 5, -6}))))
	w := G.NewMatrix(g, tensor.Float32, G.WithShape(3, 2), G.WithName("w"),
		G.WithValue(tensor.New(tensor.WithShape(3, 2), tensor.WithBacking([]float32{0.5, -1, 2, 0.25, -0.75, 1.5}))))
	y := G.Must(G.Rectify(G.Must(G.Mul(x, w))))
	if op != nil {
		y = G.Must(G.ApplyOp(op, y))
	}
	G.Read(y, out)
	return g, x
}

// runTape computes what RunAll computes, run after run, and returns the
// errors RunAll returns.
func TestRunTapeMatchesRunAll(t *testing.T) {
	var want, got, failed G.Value
	g1, _ := tapeGraph(t, &want, nil)
	g2, _ := tapeGraph(t, &got, nil)
	m1, m2 := G.NewTapeMachine(g1), G.NewTapeMachine(g2)
	defer m1.Close()
	defer m2.Close()
	for run := range 3 {
		m1.Reset()
		m2.Reset()
		if err := m1.RunAll(); err != nil {
			t.Fatal(err)
		}
		if err := runTape(m2); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if !slices.Equal(want.Data().([]float32), got.Data().([]float32)) {
			t.Fatalf("run %d: runTape read %v, RunAll %v", run, got.Data(), want.Data())
		}
	}
	g3, _ := tapeGraph(t, &failed, testOp{})
	m3 := G.NewTapeMachine(g3)
	defer m3.Close()
	if err := runTape(m3); err == nil || !strings.Contains(err.Error(), "testOp failed") {
		t.Fatalf("got %v, want the op's error", err)
	}
}

// A panic in an op reaches the caller of runTape, whose catch turns it
// into an error (under RunAll it would end the process).
func TestRunTapeOpPanicIsAnError(t *testing.T) {
	var out G.Value
	g, _ := tapeGraph(t, &out, testOp{panics: true})
	m := G.NewTapeMachine(g)
	defer m.Close()
	err := func() (err error) {
		defer catch(&err, "running test graph")
		return runTape(m)
	}()
	if err == nil || !strings.Contains(err.Error(), "testOp panicked") {
		t.Fatalf("got %v, want the op's panic as an error", err)
	}
}

// testOp is an identity op whose run fails: it returns an error, or
// panics.
type testOp struct{ panics bool }

func (testOp) Arity() int { return 1 }
func (testOp) Type() hm.Type {
	a := G.TensorType{Dims: 2, Of: hm.TypeVariable('a')}
	return hm.NewFnType(a, a)
}
func (testOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	s, ok := in[0].(tensor.Shape)
	if !ok {
		return nil, fmt.Errorf("testOp: no shape")
	}
	return s.Clone(), nil
}
func (o testOp) Do(...G.Value) (G.Value, error) {
	if o.panics {
		panic("testOp panicked")
	}
	return nil, errors.New("testOp failed")
}
func (testOp) ReturnsPtr() bool        { return false }
func (testOp) CallsExtern() bool       { return false }
func (testOp) OverwritesInput() int    { return -1 }
func (o testOp) WriteHash(h hash.Hash) { fmt.Fprint(h, o.String()) }
func (o testOp) Hashcode() uint32      { return hashOf(o) }
func (o testOp) String() string        { return fmt.Sprintf("testOp<%v>", o.panics) }
