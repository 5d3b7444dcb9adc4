// Package modeltest holds what the tests of model and model/training
// share: a naive float64 forward pass the evaluators are checked against,
// plausible random inputs and comparisons.
package modeltest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
)

// RefForward is a deliberately naive float64 forward pass, written
// straight from the architecture's definition, that both the gorgonia graph
// and the fast path are checked against. It returns policy logits and WDL
// probabilities for one position.
func RefForward(w *model.Weights, planes []float32) (policy []float64, wdl []float64) {
	cfg := w.Config()
	P := func(name string) *model.Param { return w.Param(name) }
	x := make([]float64, cfg.NumInputPlanes()*64)
	for i := range x {
		x[i] = float64(planes[i])
	}
	conv := func(in []float64, cin int, name string, k int) []float64 {
		wt, b := P(name+".w"), P(name+".b")
		cout := wt.Shape[0]
		out := make([]float64, cout*64)
		pad := k / 2
		for co := 0; co < cout; co++ {
			for y := 0; y < 8; y++ {
				for xx := 0; xx < 8; xx++ {
					s := float64(b.Data[co])
					for ci := 0; ci < cin; ci++ {
						for ky := 0; ky < k; ky++ {
							for kx := 0; kx < k; kx++ {
								sy, sx := y+ky-pad, xx+kx-pad
								if sy < 0 || sy >= 8 || sx < 0 || sx >= 8 {
									continue
								}
								s += float64(wt.Data[((co*cin+ci)*k+ky)*k+kx]) * in[ci*64+sy*8+sx]
							}
						}
					}
					out[co*64+y*8+xx] = s
				}
			}
		}
		return out
	}
	relu := func(v []float64) []float64 {
		for i := range v {
			v[i] = math.Max(v[i], 0)
		}
		return v
	}
	fc := func(in []float64, name string) []float64 {
		wt, b := P(name+".w"), P(name+".b")
		nin, nout := wt.Shape[0], wt.Shape[1]
		out := make([]float64, nout)
		for j := 0; j < nout; j++ {
			s := float64(b.Data[j])
			for i := 0; i < nin; i++ {
				s += in[i] * float64(wt.Data[i*nout+j])
			}
			out[j] = s
		}
		return out
	}
	C := cfg.Channels
	h := relu(conv(x, cfg.NumInputPlanes(), "stem", 3))
	for i := 0; i < cfg.Blocks; i++ {
		y := relu(conv(h, C, fmt.Sprintf("res%d.conv1", i), 3))
		y = conv(y, C, fmt.Sprintf("res%d.conv2", i), 3)
		for j := range h {
			h[j] = math.Max(h[j]+y[j], 0)
		}
	}
	// The policy planes, channel-major: index plane·64 + square.
	policy = conv(relu(conv(h, C, "policy.conv", 3)), cfg.PolicyChannels, "policy.logits", 1)
	vc := relu(conv(h, C, "value.conv", 1))
	pooled := make([]float64, cfg.ValueChannels)
	for c := range pooled {
		for sq := 0; sq < 64; sq++ {
			pooled[c] += vc[c*64+sq] / 64
		}
	}
	v := relu(fc(pooled, "value.fc1"))
	v = fc(v, "value.fc2")
	m := math.Max(v[0], math.Max(v[1], v[2]))
	var s float64
	wdl = make([]float64, 3)
	for i := range v {
		wdl[i] = math.Exp(v[i] - m)
		s += wdl[i]
	}
	for i := range wdl {
		wdl[i] /= s
	}
	return policy, wdl
}

// RandomPlanes returns n positions of plausible input: sparse one-hot piece
// planes, random attack planes, random constant planes and a one-hot
// en-passant square.
func RandomPlanes(rng *rand.Rand, n int) []float32 {
	p := make([]float32, n*env.InputSize)
	for b := 0; b < n; b++ {
		pos := p[b*env.InputSize : (b+1)*env.InputSize]
		for sq := 0; sq < 64; sq++ {
			if rng.IntN(3) == 0 {
				pos[rng.IntN(24)*64+sq] = 1
			}
			for pl := env.PlaneAttacks; pl < env.PlaneAttacks+4; pl++ {
				pos[pl*64+sq] = float32(rng.IntN(2))
			}
		}
		for pl := env.PlaneRepetitions; pl < env.NumPlanes; pl++ {
			v := float32(rng.IntN(2))
			switch pl {
			case env.PlaneEnPassant:
				continue
			case env.PlaneHalfmove:
				v = rng.Float32()
			}
			for sq := 0; sq < 64; sq++ {
				pos[pl*64+sq] = v
			}
		}
		pos[env.PlaneEnPassant*64+rng.IntN(64)] = 1
	}
	return p
}

// MustPreset returns the named preset or fails the test.
func MustPreset(t testing.TB, name string) model.Config {
	t.Helper()
	c, err := model.Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// MustWeights returns seeded weights of cfg, with non-zero biases, or
// fails the test.
func MustWeights(t testing.TB, cfg model.Config, seed uint64) *model.Weights {
	t.Helper()
	w, err := model.NewWeights(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	// Non-zero biases so that bias handling is exercised too.
	rng := rand.New(rand.NewPCG(seed, 7))
	for _, p := range w.Params() {
		if !p.Decay {
			for i := range p.Data {
				p.Data[i] = float32(rng.NormFloat64() * 0.1)
			}
		}
	}
	return w
}

// MaxAbsDiff64 returns the largest difference of float32 results from
// float64 ones.
func MaxAbsDiff64(a []float32, b []float64) float64 {
	var m float64
	for i := range b {
		m = math.Max(m, math.Abs(float64(a[i])-b[i]))
	}
	return m
}

// MaxAbsDiff returns the largest difference between a and b.
func MaxAbsDiff(a, b []float32) float64 {
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(float64(a[i])-float64(b[i])))
	}
	return m
}

// RandomNormal returns n normal variates of standard deviation scale.
func RandomNormal(rng *rand.Rand, n int, scale float64) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.NormFloat64() * scale)
	}
	return s
}

// ReportRates reports positions per wall second and per CPU-second of the
// process (the latter is the cost, and is less disturbed by neighbours on a
// shared machine; with 2 busy cores it is half the wall rate).
func ReportRates(b *testing.B, positions int, cpu time.Duration) {
	b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "pos/s")
	if cpu > 0 {
		b.ReportMetric(float64(positions)/cpu.Seconds(), "pos/cpu-s")
	}
}
