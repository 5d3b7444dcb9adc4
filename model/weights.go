package model

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Param is one named parameter tensor, stored row-major.
//
// Convolution weights have shape [out, in, k, k]; fully connected weights
// [in, out] (so a batch of row vectors is multiplied on the left); biases
// [out].
type Param struct {
	Name  string
	Shape []int
	Data  []float32
	// Decay is true for weights, which L2 regularisation applies to, and
	// false for biases, which it does not.
	Decay bool
}

// Weights holds every parameter of one network. It is a plain container:
// it is not safe to mutate while another goroutine reads it. Evaluators copy
// the weights they are built from, so a Trainer may keep updating its
// Weights while evaluators built earlier keep serving the old ones.
type Weights struct {
	cfg    Config
	params []*Param
	byName map[string]*Param
}

// NewWeights allocates the parameters of cfg and initialises them
// deterministically from seed: He (Kaiming) normal for weights, zero for
// biases. Output layers and the last conv of each residual branch are
// scaled down (see Config.specs for why).
func NewWeights(cfg Config, seed uint64) (*Weights, error) {
	w, err := newZeroWeights(cfg)
	if err != nil {
		return nil, err
	}
	rng := newNormalRNG(seed)
	specs := cfg.specs()
	for i, p := range w.params {
		s := specs[i]
		if !s.decay {
			continue // biases start at zero
		}
		std := math.Sqrt(2/float64(s.fanIn)) * s.initScale
		for j := range p.Data {
			p.Data[j] = float32(rng.norm() * std)
		}
	}
	return w, nil
}

// newZeroWeights allocates all parameters of cfg as zeros, in one backing
// array so that whole-model copies are one copy.
func newZeroWeights(cfg Config) (*Weights, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	specs := cfg.specs()
	backing := make([]float32, cfg.NumParams())
	w := &Weights{cfg: cfg, byName: make(map[string]*Param, len(specs))}
	off := 0
	for _, s := range specs {
		n := prod(s.shape)
		p := &Param{Name: s.name, Shape: slices.Clone(s.shape), Data: backing[off : off+n : off+n], Decay: s.decay}
		off += n
		w.params = append(w.params, p)
		w.byName[s.name] = p
	}
	return w, nil
}

// Config returns the architecture.
func (w *Weights) Config() Config { return w.cfg }

// Params returns the parameters in their canonical order. The slice is the
// Weights' own: callers may modify the tensors' Data but not the slice.
func (w *Weights) Params() []*Param { return w.params }

// Param returns the parameter called name, or nil.
func (w *Weights) Param(name string) *Param { return w.byName[name] }

// Clone returns a deep copy.
func (w *Weights) Clone() *Weights {
	c, _ := newZeroWeights(w.cfg) // cannot fail: w.cfg was validated
	for i, p := range w.params {
		copy(c.params[i].Data, p.Data)
	}
	return c
}

// CopyFrom overwrites w's parameters with src's. Both must share one
// architecture, encoding included (CopyFromVariant copies between
// variants' encodings).
func (w *Weights) CopyFrom(src *Weights) error {
	if src == nil {
		return errors.New("model: copy weights: nil source")
	}
	if src.cfg != w.cfg {
		return fmt.Errorf("%w: cannot copy weights of %v into %v", ErrArchMismatch, src.cfg, w.cfg)
	}
	for i, p := range src.params {
		copy(w.params[i].Data, p.Data)
	}
	return nil
}

// Equal reports whether both hold bit-identical parameters of one
// architecture.
func (w *Weights) Equal(o *Weights) bool {
	if o == nil || w.cfg != o.cfg {
		return false
	}
	for i, p := range w.params {
		q := o.params[i].Data
		for j, v := range p.Data {
			if math.Float32bits(v) != math.Float32bits(q[j]) {
				return false
			}
		}
	}
	return true
}

// checkFinite returns an error naming the first parameter holding a NaN or
// an infinity.
func (w *Weights) checkFinite() error {
	for _, p := range w.params {
		for j, v := range p.Data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("model: parameter %s[%d] is %v", p.Name, j, v)
			}
		}
	}
	return nil
}

// normalRNG draws standard normal variates with Box–Muller from PCG, whose
// output the Go 1 compatibility promise fixes, so a seed gives the same
// weights on every Go version (math/rand/v2's NormFloat64 carries no such
// promise).
type normalRNG struct {
	src   *rand.PCG
	spare float64
	has   bool
}

func newNormalRNG(seed uint64) *normalRNG {
	return &normalRNG{src: rand.NewPCG(seed, 0x616c6963657a6572)} // "alicezer"
}

// uniform returns a float64 in (0, 1].
func (r *normalRNG) uniform() float64 {
	return (float64(r.src.Uint64()>>11) + 1) / (1 << 53)
}

func (r *normalRNG) norm() float64 {
	if r.has {
		r.has = false
		return r.spare
	}
	u, v := r.uniform(), r.uniform()
	m := math.Sqrt(-2 * math.Log(u))
	r.spare, r.has = m*math.Sin(2*math.Pi*v), true
	return m * math.Cos(2*math.Pi*v)
}

func sqrtf(x float64) float64 { return math.Sqrt(x) }
