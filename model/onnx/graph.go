package onnx

import (
	"fmt"
	"slices"
	"sort"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
)

// ONNX versions written. Opset 17 needs IR version 8.
const (
	Opset     = 17
	IRVersion = 8
)

// Tensor names of the graph's input and outputs.
const (
	InputName  = "planes"
	PolicyName = "policy_logits"
	WDLName    = "wdl"
)

// MetadataKey is the metadata_props key under which EncodeModel's callers
// (Export) store the model.json description inside the ONNX file.
const MetadataKey = "alicezero"

// builder accumulates the graph's nodes and initializers.
type builder struct {
	w     *model.Weights
	g     *graph
	names map[string]bool
}

// param adds parameter name of w as an initializer after checking its
// shape, and returns its name.
func (b *builder) param(name string, shape ...int) (string, error) {
	p := b.w.Param(name)
	if p == nil {
		return "", fmt.Errorf("onnx: network has no parameter %q", name)
	}
	if !slices.Equal(p.Shape, shape) {
		return "", fmt.Errorf("onnx: parameter %s has shape %v, want %v", name, p.Shape, shape)
	}
	if len(p.Data) != prod(shape) {
		return "", fmt.Errorf("onnx: parameter %s holds %d values, shape %v needs %d", name, len(p.Data), shape, prod(shape))
	}
	b.g.initializers = append(b.g.initializers, initializer{name: name, dims: slices.Clone(shape), data: p.Data})
	return name, nil
}

// op adds a node whose output is called out (also the node's name).
func (b *builder) op(opType, out string, inputs []string, attrs ...attribute) (string, error) {
	if b.names[out] {
		return "", fmt.Errorf("onnx: duplicate value name %q", out)
	}
	b.names[out] = true
	b.g.nodes = append(b.g.nodes, node{name: out, opType: opType, inputs: inputs, outputs: []string{out}, attrs: attrs})
	return out, nil
}

// conv adds a same-padded k×k convolution with bias, parameters name.w
// ([out, in, k, k], ONNX's OIHW layout as is) and name.b.
func (b *builder) conv(x, name string, in, out, k int) (string, error) {
	w, err := b.param(name+".w", out, in, k, k)
	if err != nil {
		return "", err
	}
	bias, err := b.param(name+".b", out)
	if err != nil {
		return "", err
	}
	p := int64(k / 2)
	return b.op("Conv", name, []string{x, w, bias},
		intsAttr("kernel_shape", int64(k), int64(k)),
		intsAttr("pads", p, p, p, p),
		intsAttr("strides", 1, 1),
		intsAttr("dilations", 1, 1),
		intAttr("group", 1))
}

// fc adds a fully connected layer with output value result. The Go weights
// are [in, out] (row vectors multiplied on the left), which is Gemm's B
// without transposition.
func (b *builder) fc(x, name, result string, in, out int) (string, error) {
	w, err := b.param(name+".w", in, out)
	if err != nil {
		return "", err
	}
	bias, err := b.param(name+".b", out)
	if err != nil {
		return "", err
	}
	return b.op("Gemm", result, []string{x, w, bias},
		intAttr("transA", 0), intAttr("transB", 0))
}

func (b *builder) relu(x, out string) (string, error) { return b.op("Relu", out, []string{x}) }

// buildGraph translates the network's forward pass (model/training/graph.go,
// model/fast.go) into ONNX nodes.
func buildGraph(w *model.Weights) (*graph, error) {
	if w == nil {
		return nil, fmt.Errorf("onnx: nil weights")
	}
	cfg := w.Config()
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("onnx: %w", err)
	}
	C, P, V, H := cfg.Channels, cfg.PolicyChannels, cfg.ValueChannels, cfg.ValueHidden
	const sq = env.PlaneSize
	b := &builder{w: w, g: &graph{name: "alicezero"}, names: map[string]bool{InputName: true}}
	// The encoding is the network's own (Config.ForVariant): the variant's
	// input planes and policy layout.
	in, policyPlanes, policySize := cfg.NumInputPlanes(), cfg.NumPolicyPlanes(), cfg.PolicySize()
	b.g.doc = fmt.Sprintf("AliceZero network %v: input %s [batch,%d,8,8], outputs %s [batch,%d] (raw logits) and %s [batch,%d] (win/draw/loss probabilities)",
		cfg, InputName, in, PolicyName, policySize, WDLName, env.WDLSize)
	b.g.inputs = []valueInfo{{name: InputName, dims: []int{-1, in, 8, 8}}}
	b.g.outputs = []valueInfo{
		{name: PolicyName, dims: []int{-1, policySize}},
		{name: WDLName, dims: []int{-1, env.WDLSize}},
	}

	// Chain the steps, stopping at the first error.
	var err error
	step := func(f func() (string, error)) string {
		if err != nil {
			return ""
		}
		var s string
		s, err = f()
		return s
	}
	x := step(func() (string, error) { return b.conv(InputName, "stem", in, C, 3) })
	x = step(func() (string, error) { return b.relu(x, "stem.relu") })
	for i := 0; i < cfg.Blocks; i++ {
		pre := fmt.Sprintf("res%d", i)
		y := step(func() (string, error) { return b.conv(x, pre+".conv1", C, C, 3) })
		y = step(func() (string, error) { return b.relu(y, pre+".conv1.relu") })
		y = step(func() (string, error) { return b.conv(y, pre+".conv2", C, C, 3) })
		s := step(func() (string, error) { return b.op("Add", pre+".add", []string{x, y}) })
		x = step(func() (string, error) { return b.relu(s, pre+".relu") })
	}
	// Heads. Flatten(axis 1) of [batch, c, 8, 8] is channel-major, c·64+sq:
	// the order of the Go network's reshape to [batch, c·64], and for the
	// policy's planes the policy index plane·64 + square.
	p := step(func() (string, error) { return b.conv(x, "policy.conv", C, P, 3) })
	p = step(func() (string, error) { return b.relu(p, "policy.conv.relu") })
	p = step(func() (string, error) { return b.conv(p, "policy.logits", P, policyPlanes, 1) })
	_ = step(func() (string, error) { return b.op("Flatten", PolicyName, []string{p}, intAttr("axis", 1)) })

	v := step(func() (string, error) { return b.conv(x, "value.conv", C, V, 1) })
	v = step(func() (string, error) { return b.relu(v, "value.conv.relu") })
	v = step(func() (string, error) { return b.op("GlobalAveragePool", "value.pool", []string{v}) })
	v = step(func() (string, error) { return b.op("Flatten", "value.flatten", []string{v}, intAttr("axis", 1)) })
	v = step(func() (string, error) { return b.fc(v, "value.fc1", "value.fc1", V, H) })
	v = step(func() (string, error) { return b.relu(v, "value.fc1.relu") })
	v = step(func() (string, error) { return b.fc(v, "value.fc2", "value.fc2", H, env.WDLSize) })
	_ = step(func() (string, error) { return b.op("Softmax", WDLName, []string{v}, intAttr("axis", 1)) })
	if err != nil {
		return nil, err
	}
	// Every parameter of the network must have been used exactly once:
	// otherwise the architecture has changed under us and the export would
	// silently compute something else.
	used := map[string]bool{}
	for _, t := range b.g.initializers {
		used[t.name] = true
	}
	for _, p := range w.Params() {
		if !used[p.Name] {
			return nil, fmt.Errorf("onnx: parameter %s of the network is not part of the exported graph (architecture changed?)", p.Name)
		}
	}
	if len(used) != len(w.Params()) {
		return nil, fmt.Errorf("onnx: graph uses %d parameters, the network has %d", len(used), len(w.Params()))
	}
	return b.g, nil
}

// EncodeModel returns the network as a serialised ONNX ModelProto (opset
// Opset, IR version IRVersion), with props as its metadata_props (in key
// order). Parameters are stored as float32 initializers named like the
// network's parameters ("stem.w", "res0.conv1.b", ...).
func EncodeModel(w *model.Weights, props map[string]string) ([]byte, error) {
	g, err := buildGraph(w)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	m := &modelProto{
		irVersion:    IRVersion,
		opset:        Opset,
		producerName: "alicezero",
		domain:       "org.alicezero",
		modelVersion: 1,
		doc:          "AliceZero: an AlphaZero-style network for Alice Chess. See the '" + MetadataKey + "' metadata entry (model.json) for the input and output contract.",
		graph:        g,
	}
	for _, k := range keys {
		m.metadata = append(m.metadata, metadataEntry{key: k, value: props[k]})
	}
	return m.encode(), nil
}

func prod(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}
