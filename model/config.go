package model

import (
	"errors"
	"fmt"
	"sort"
	"strings"

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
	// before the 1×1 convolution to the policy layout's move-type planes.
	PolicyChannels int `json:"policy_channels"`
	// ValueChannels is the number of 1×1 filters in the value head, each
	// averaged over the board before the hidden layer.
	ValueChannels int `json:"value_channels"`
	// ValueHidden is the width of the value head's hidden layer.
	ValueHidden int `json:"value_hidden"`
	// InputPlanes and PolicyLayout are the encoding the network reads and
	// emits: the variant's number of input planes (env.Variant.NumPlanes)
	// and the name of its policy layout (env.PolicyLayout.Name). Zero
	// values stand for the encoding of the variants of two boards with one
	// man per square (env.NumPlanes planes, the 73-plane layout), which
	// every network before the other variants had, so that their files
	// read unchanged; ForVariant keeps that canonical form, in which equal
	// encodings compare equal.
	InputPlanes  int    `json:"input_planes,omitempty"`
	PolicyLayout string `json:"policy_layout,omitempty"`
}

// ForVariant returns c with the encoding of variant v: the same trunk and
// heads, the input layer and policy planes v needs.
func (c Config) ForVariant(v env.Variant) Config {
	c.InputPlanes, c.PolicyLayout = 0, ""
	if n := v.NumPlanes(); n != env.NumPlanes {
		c.InputPlanes = n
	}
	if name := v.Policy().Name(); name != env.Alice.Policy().Name() {
		c.PolicyLayout = name
	}
	return c
}

// NumInputPlanes is the number of input planes the network reads.
func (c Config) NumInputPlanes() int {
	if c.InputPlanes == 0 {
		return env.NumPlanes
	}
	return c.InputPlanes
}

// InputSize is the floats of one encoded position, NumInputPlanes·64.
func (c Config) InputSize() int { return c.NumInputPlanes() * env.PlaneSize }

// Layout returns the policy layout the network emits, or nil if
// PolicyLayout names none (Validate reports it).
func (c Config) Layout() *env.PolicyLayout {
	if c.PolicyLayout == "" {
		return env.Alice.Policy()
	}
	return env.PolicyLayoutByName(c.PolicyLayout)
}

// NumPolicyPlanes is the number of move-type planes the network emits.
func (c Config) NumPolicyPlanes() int {
	if l := c.Layout(); l != nil {
		return l.Planes()
	}
	return 0
}

// PolicySize is the number of policy logits per position.
func (c Config) PolicySize() int { return c.NumPolicyPlanes() * env.PlaneSize }

// Fits reports whether the network's encoding is variant v's: nil, or an
// error naming both.
func (c Config) Fits(v env.Variant) error {
	if c.NumInputPlanes() != v.NumPlanes() || c.Layout() != v.Policy() {
		return fmt.Errorf("model: %w: the network reads %d input planes and emits policy layout %s; variant %s has %d planes and layout %s",
			ErrEncoding, c.NumInputPlanes(), c.layoutName(), v.Name, v.NumPlanes(), v.Policy().Name())
	}
	return nil
}

// layoutName names the policy layout, the default's included.
func (c Config) layoutName() string {
	if c.PolicyLayout == "" {
		return env.Alice.Policy().Name()
	}
	return c.PolicyLayout
}

// architecture is c without its encoding: what presets describe.
func (c Config) architecture() Config {
	c.InputPlanes, c.PolicyLayout = 0, ""
	return c
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

// PresetName returns the name of the preset whose trunk and heads c has
// (whatever its encoding), or "" if none has.
func (c Config) PresetName() string {
	for _, n := range PresetNames() {
		if p, _ := Preset(n); p == c.architecture() {
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
	if c.InputPlanes != 0 {
		check("InputPlanes", c.InputPlanes, 1)
	}
	if c.PolicyLayout != "" && env.PolicyLayoutByName(c.PolicyLayout) == nil {
		errs = append(errs, fmt.Errorf("PolicyLayout %q is no policy layout of this build (known: %s)", c.PolicyLayout, strings.Join(env.PolicyLayoutNames(), ", ")))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("model: invalid config: %w", err)
	}
	return nil
}

// String renders the config compactly, e.g. "4x32 p4 v2/64", with the
// encoding where it is not the default's ("4x32 p4 v2/64 in51
// move-planes-3x2x73x8x8").
func (c Config) String() string {
	s := fmt.Sprintf("%dx%d p%d v%d/%d", c.Blocks, c.Channels, c.PolicyChannels, c.ValueChannels, c.ValueHidden)
	if c.InputPlanes != 0 {
		s += fmt.Sprintf(" in%d", c.InputPlanes)
	}
	if c.PolicyLayout != "" {
		s += " " + c.PolicyLayout
	}
	return s
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
	conv("stem", C, c.NumInputPlanes(), 3, 1)
	for b := 0; b < c.Blocks; b++ {
		conv(fmt.Sprintf("res%d.conv1", b), C, C, 3, 1)
		conv(fmt.Sprintf("res%d.conv2", b), C, C, 3, resScale)
	}
	// Output layers start small so that an untrained net gives a nearly
	// uniform policy and an even WDL, which is what the search wants from a
	// net that knows nothing.
	conv("policy.conv", P, C, 3, 1)
	conv("policy.logits", c.NumPolicyPlanes(), P, 1, 0.1)
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
	f := 2 * sq * C * c.NumInputPlanes() * 9
	f += c.Blocks * 2 * (2 * sq * C * C * 9)
	f += 2*sq*C*P*9 + 2*sq*P*c.NumPolicyPlanes()
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
