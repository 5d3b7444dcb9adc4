package training

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/alicezero/alicezero/env"
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

// maskedCase is a batch of rows for the masked cross-entropy: logits,
// targets (zero outside the mask) and the mask.
type maskedCase struct {
	z, t, mask []float64
	rows, k    int
}

func randomMaskedCase(rng *rand.Rand, rows, k int) maskedCase {
	c := maskedCase{z: make([]float64, rows*k), t: make([]float64, rows*k), mask: make([]float64, rows*k), rows: rows, k: k}
	for b := 0; b < rows; b++ {
		var sum float64
		for j := b * k; j < (b+1)*k; j++ {
			c.z[j] = 4 * rng.NormFloat64()
			if rng.IntN(3) > 0 {
				c.mask[j] = 1
				if rng.IntN(2) == 0 {
					c.t[j] = rng.Float64()
					sum += c.t[j]
				}
			}
		}
		for j := b * k; j < (b+1)*k; j++ {
			c.t[j] /= max(sum, 1e-300)
		}
	}
	return c
}

// run returns the op's losses and its gradient times upstream up.
func (c maskedCase) run(t *testing.T, up []float64) (loss, grad []float64) {
	t.Helper()
	m := func(v []float64) *tensor.Dense {
		return tensor.New(tensor.WithShape(c.rows, c.k), tensor.WithBacking(slices.Clone(v)))
	}
	op := softmaxXent{masked: true}
	out, err := op.Do(m(c.z), m(c.t), m(c.mask))
	if err != nil {
		t.Fatal(err)
	}
	g, err := softmaxXentDiff(op).Do(m(c.z), m(c.t), m(c.mask), tensor.New(tensor.WithShape(c.rows), tensor.WithBacking(slices.Clone(up))))
	if err != nil {
		t.Fatal(err)
	}
	return out.(*tensor.Dense).Float64s(), g.(*tensor.Dense).Float64s()
}

// TestMaskedXentIgnoresIllegalLogits: whatever the logits outside the mask
// (huge, tiny, infinite, NaN), the loss and the gradient of the legal
// logits are those of the softmax over the legal logits alone, and the
// illegal logits get exactly zero gradient.
func TestMaskedXentIgnoresIllegalLogits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	c := randomMaskedCase(rng, 6, 9)
	up := []float64{1, 2, 0.5, 1, 1, 3}
	loss, grad := c.run(t, up)
	// Reference: the unmasked op on each row's legal entries only.
	for b := 0; b < c.rows; b++ {
		var z, tg []float64
		var idx []int
		for j := b * c.k; j < (b+1)*c.k; j++ {
			if c.mask[j] != 0 {
				z, tg, idx = append(z, c.z[j]), append(tg, c.t[j]), append(idx, j)
			}
		}
		g := make([]float64, len(z))
		want := xentRow(z, tg, nil, g, 1, make([]int32, 0, len(z)))
		if math.Abs(loss[b]-want) > 1e-12 {
			t.Errorf("row %d: loss %v, want %v (softmax over the legal logits)", b, loss[b], want)
		}
		for i, j := range idx {
			if math.Abs(grad[j]-up[b]*g[i]) > 1e-12 {
				t.Errorf("row %d: gradient[%d] = %v, want %v", b, j, grad[j], up[b]*g[i])
			}
		}
	}
	for _, v := range []float64{1e4, -1e4, math.Inf(1), math.NaN()} {
		d := c
		d.z = slices.Clone(c.z)
		for j := range d.z {
			if d.mask[j] == 0 {
				d.z[j] = v
			}
		}
		l2, g2 := d.run(t, up)
		if !slices.Equal(l2, loss) {
			t.Errorf("illegal logits %v change the loss: %v, was %v", v, l2, loss)
		}
		for j := range g2 {
			if c.mask[j] == 0 && g2[j] != 0 || c.mask[j] != 0 && g2[j] != grad[j] {
				t.Fatalf("illegal logits %v: gradient[%d] (mask %v) = %v, was %v", v, j, c.mask[j], g2[j], grad[j])
			}
		}
	}
}

// TestMaskedXentGradient checks the masked op's gradient against central
// differences of its loss.
func TestMaskedXentGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	c := randomMaskedCase(rng, 4, 7)
	up := []float64{1, -0.5, 2, 0.25}
	_, grad := c.run(t, up)
	weighted := func(z []float64) float64 {
		d := c
		d.z = z
		l, _ := d.run(t, up)
		var s float64
		for b, v := range l {
			s += up[b] * v
		}
		return s
	}
	const eps = 1e-6
	for j := range c.z {
		z := slices.Clone(c.z)
		z[j] += eps
		lp := weighted(z)
		z[j] -= 2 * eps
		lm := weighted(z)
		if num := (lp - lm) / (2 * eps); math.Abs(num-grad[j]) > 1e-6*max(1, math.Abs(num)) {
			t.Errorf("gradient[%d] (mask %v): analytic %v, numerical %v", j, c.mask[j], grad[j], num)
		}
	}
}

// TestMaskedXentEmptyMask: a row with no legal entry (a padding row, say)
// has no loss and no gradient.
func TestMaskedXentEmptyMask(t *testing.T) {
	c := maskedCase{z: []float64{1, 2, 3}, t: make([]float64, 3), mask: make([]float64, 3), rows: 1, k: 3}
	loss, grad := c.run(t, []float64{1})
	if loss[0] != 0 || slices.ContainsFunc(grad, func(g float64) bool { return g != 0 }) {
		t.Errorf("empty mask: loss %v, gradient %v", loss, grad)
	}
}

// maskedIndices finds exactly the entries a plain comparison with zero
// finds, whatever the length, for float32 (the fast path) and float64.
func TestMaskedIndices(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 5, 16, 17, 31, 1024, 1043, 4672} {
		m32 := make([]float32, n)
		m64 := make([]float64, n)
		for i := range m32 {
			switch i % 7 {
			case 2:
				m32[i], m64[i] = 1, 1
			case 5:
				m32[i], m64[i] = float32(math.Copysign(0, -1)), math.Copysign(0, -1) // −0 is zero
			case 6:
				if i%3 == 0 {
					m32[i], m64[i] = float32(math.NaN()), math.NaN()
				}
			}
		}
		var want []int32
		for i, v := range m32 {
			if v != 0 {
				want = append(want, int32(i))
			}
		}
		if got := maskedIndices(m32, n, nil); !slices.Equal(got, want) {
			t.Errorf("float32, n=%d: %v, want %v", n, got, want)
		}
		if got := maskedIndices(m64, n, nil); !slices.Equal(got, want) {
			t.Errorf("float64, n=%d: %v, want %v", n, got, want)
		}
		if got := maskedIndices[float32](nil, n, nil); len(got) != n {
			t.Errorf("no mask, n=%d: %d indices", n, len(got))
		}
	}
}

// rowEntropyFast returns rowEntropy's sum, bit for bit, and its errors.
func TestRowEntropyFast(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 30))
	k := env.PolicySize
	for trial := 0; trial < 300; trial++ {
		target, mask := make([]float32, 2*k), make([]float32, 2*k)
		for b := 0; b < 2; b++ {
			for range 30 {
				j := b*k + rng.IntN(k)
				mask[j] = 1
				if rng.IntN(2) == 0 {
					target[j] = rng.Float32()
				}
			}
		}
		if trial%3 == 0 { // something rowEntropy rejects, or −0s it skips
			j := rng.IntN(2 * k)
			switch rng.IntN(6) {
			case 0:
				mask[j] = 0.5
			case 1:
				target[j] = float32(math.NaN())
			case 2:
				target[j] = -0.25
			case 3:
				mask[j], target[j] = 0, 0.5
			case 4:
				mask[j] = float32(math.Inf(1))
			case 5:
				mask[j], target[j] = float32(math.Copysign(0, -1)), float32(math.Copysign(0, -1))
			}
		}
		for b := 0; b < 2; b++ {
			want, werr := rowEntropy(target, mask, b, k)
			got, gerr := rowEntropyFast(target, mask, b, k)
			if math.Float64bits(got) != math.Float64bits(want) || (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
				t.Fatalf("trial %d row %d: %v, %v; want %v, %v", trial, b, got, gerr, want, werr)
			}
		}
	}
}
