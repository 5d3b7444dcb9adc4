package model

import (
	"errors"
	"fmt"
	"sort"

	"github.com/alicezero/alicezero/env"
)

// Config describes the network's architecture. Two networks with equal
// Configs have identically named and shaped parameters, so weights and
// checkpoints move freely between them.
type Config struct {
	// Blocks is the number of residual blocks after the stem (may be 0).
	Blocks int `json:"blocks"`
	// Channels is the width of the stem and of every residual block.
	Channels int `json:"channels"`
	// PolicyChannels is the number of 3×3 filters in the policy head,
	// before the 1×1 convolution to the env.PolicyPlanes move-type planes.
	PolicyChannels int `json:"policy_channels"`
	// ValueChannels is the number of 1×1 filters in the value head, each
	// averaged over the board before the hidden layer.
	ValueChannels int `json:"value_channels"`
	// ValueHidden is the width of the value head's hidden layer.
	ValueHidden int `json:"value_hidden"`
}

// DefaultPreset names the preset used when the caller does not choose one.
const DefaultPreset = "small"

// presets are returned by value from a function so that no caller can
// modify them (the package keeps no mutable globals).
func presets() map[string]Config {
	return map[string]Config{
		// tiny trains in seconds: unit tests and CI.
		"tiny": {Blocks: 1, Channels: 8, PolicyChannels: 8, ValueChannels: 8, ValueHidden: 16},
		// small learns visibly within an hour on 2 cores and evaluates
		// well over a thousand positions per second on the fast path.
		"small": {Blocks: 4, Channels: 32, PolicyChannels: 32, ValueChannels: 32, ValueHidden: 64},
		// medium is for longer runs on more cores.
		"medium": {Blocks: 6, Channels: 64, PolicyChannels: 64, ValueChannels: 64, ValueHidden: 128},
	}
}

// Preset returns the architecture registered under name ("tiny", "small",
// "medium").
func Preset(name string) (Config, error) {
	c, ok := presets()[name]
	if !ok {
		return Config{}, fmt.Errorf("model: unknown preset %q (known: %v)", name, PresetNames())
	}
	return c, nil
}

// PresetNames lists the known presets in alphabetical order.
func PresetNames() []string {
	p := presets()
	names := make([]string, 0, len(p))
	for n := range p {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// PresetName returns the name of the preset equal to c, or "" if none is.
func (c Config) PresetName() string {
	for _, n := range PresetNames() {
		if p, _ := Preset(n); p == c {
			return n
		}
	}
	return ""
}

// maxWidth bounds every width so that a corrupt header cannot make us
// allocate absurd amounts of memory.
const maxWidth = 4096

// Validate reports whether the architecture can be built.
func (c Config) Validate() error {
	var errs []error
	check := func(name string, v, lo int) {
		if v < lo || v > maxWidth {
			errs = append(errs, fmt.Errorf("%s = %d, want %d..%d", name, v, lo, maxWidth))
		}
	}
	check("Blocks", c.Blocks, 0)
	check("Channels", c.Channels, 1)
	check("PolicyChannels", c.PolicyChannels, 1)
	check("ValueChannels", c.ValueChannels, 1)
	check("ValueHidden", c.ValueHidden, 1)
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("model: invalid config: %w", err)
	}
	return nil
}

// String renders the config compactly, e.g. "4x32 p4 v2/64".
func (c Config) String() string {
	return fmt.Sprintf("%dx%d p%d v%d/%d", c.Blocks, c.Channels, c.PolicyChannels, c.ValueChannels, c.ValueHidden)
}

// paramSpec is the name and shape of one parameter tensor.
type paramSpec struct {
	name  string
	shape []int
	// decay is true for weights (L2 applies) and false for biases.
	decay bool
	// fanIn drives He initialisation.
	fanIn int
	// initScale multiplies the He standard deviation; see NewWeights.
	initScale float64
}

// specs lists every parameter in a fixed order. The order is part of the
// checkpoint format's contract only through the names: checkpoints store
// names and shapes, and loading matches by name.
func (c Config) specs() []paramSpec {
	C, P, V, H := c.Channels, c.PolicyChannels, c.ValueChannels, c.ValueHidden
	const sq = env.PlaneSize
	var s []paramSpec
	conv := func(name string, out, in, k int, scale float64) {
		s = append(s,
			paramSpec{name: name + ".w", shape: []int{out, in, k, k}, decay: true, fanIn: in * k * k, initScale: scale},
			paramSpec{name: name + ".b", shape: []int{out}, fanIn: in * k * k})
	}
	fc := func(name string, in, out int, scale float64) {
		s = append(s,
			paramSpec{name: name + ".w", shape: []int{in, out}, decay: true, fanIn: in, initScale: scale},
			paramSpec{name: name + ".b", shape: []int{out}, fanIn: in})
	}
	// Without batch normalisation every residual block adds its branch's
	// variance to the trunk; shrinking the last conv of each branch keeps
	// the trunk's activations of order one however deep the net is.
	resScale := 1.0
	if c.Blocks > 0 {
		resScale = 1 / sqrtf(float64(c.Blocks))
	}
	conv("stem", C, env.NumPlanes, 3, 1)
	for b := 0; b < c.Blocks; b++ {
		conv(fmt.Sprintf("res%d.conv1", b), C, C, 3, 1)
		conv(fmt.Sprintf("res%d.conv2", b), C, C, 3, resScale)
	}
	// Output layers start small so that an untrained net gives a nearly
	// uniform policy and an even WDL, which is what the search wants from a
	// net that knows nothing.
	conv("policy.conv", P, C, 3, 1)
	conv("policy.logits", env.PolicyPlanes, P, 1, 0.1)
	// The value head averages its 1×1 filters over the board before its
	// hidden layer (global average pooling, as KataGo's heads do): what
	// decides a position's value, such as material, is counted wherever it
	// stands, and a layer over every square's features would learn where
	// pieces stood in the games it saw instead.
	conv("value.conv", V, C, 1, 1)
	fc("value.fc1", V, H, 1)
	fc("value.fc2", H, env.WDLSize, 0.1)
	return s
}

// NumParams returns the number of scalar parameters of the architecture.
func (c Config) NumParams() int {
	n := 0
	for _, s := range c.specs() {
		n += prod(s.shape)
	}
	return n
}

// FLOPsPerPosition estimates the multiply-adds ×2 of one forward pass.
func (c Config) FLOPsPerPosition() int {
	C, P, V, H := c.Channels, c.PolicyChannels, c.ValueChannels, c.ValueHidden
	sq := env.PlaneSize
	f := 2 * sq * C * env.NumPlanes * 9
	f += c.Blocks * 2 * (2 * sq * C * C * 9)
	f += 2*sq*C*P*9 + 2*sq*P*env.PolicyPlanes
	f += 2*sq*C*V + sq*V + 2*V*H + 2*H*env.WDLSize
	return f
}

func prod(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}
