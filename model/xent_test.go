package model

import (
	"math"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Rows with wildly different logit scales must each be exact: the case
// gorgonia's own softmax kernel gets wrong.
func TestSoftmaxOpsExtremeLogits(t *testing.T) {
	z := tensor.New(tensor.WithShape(3, 3), tensor.WithBacking([]float32{
		500, 0, -500,
		-900, -1000, -1000,
		0, 100, 0,
	}))
	tg := tensor.New(tensor.WithShape(3, 3), tensor.WithBacking([]float32{
		0, 1, 0,
		1, 0, 0,
		0.5, 0.5, 0,
	}))
	out, err := softmaxXent{}.Do(z, tg)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{500, math.Log(1 + 2*math.Exp(-100)), 50}
	for i, v := range out.(*tensor.Dense).Float32s() {
		if math.Abs(float64(v)-want[i]) > 1e-3*math.Max(1, want[i]) {
			t.Errorf("row %d: loss %v, want %v", i, v, want[i])
		}
	}
	up := tensor.New(tensor.WithShape(3), tensor.WithBacking([]float32{1, 1, 2}))
	g, err := softmaxXentDiff{}.Do(z, tg, up)
	if err != nil {
		t.Fatal(err)
	}
	wantG := []float32{1, -1, 0, 0, 0, 0, -1, 1, 0}
	for i, v := range g.(*tensor.Dense).Float32s() {
		if math.Abs(float64(v-wantG[i])) > 1e-5 {
			t.Errorf("gradient[%d] = %v, want %v", i, v, wantG[i])
		}
	}
	sm, err := rowSoftmax{}.Do(z)
	if err != nil {
		t.Fatal(err)
	}
	wantS := []float32{1, 0, 0, 1, 0, 0, 0, 1, 0}
	for i, v := range sm.(*tensor.Dense).Float32s() {
		if math.IsNaN(float64(v)) || math.Abs(float64(v-wantS[i])) > 1e-6 {
			t.Errorf("softmax[%d] = %v, want %v", i, v, wantS[i])
		}
	}
	var _ G.SDOp = softmaxXent{}
}
