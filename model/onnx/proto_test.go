package onnx

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	"google.golang.org/protobuf/encoding/protowire"
)

// pb is a decoded protobuf message: every field's values in order, as
// varints (uint64), fixed32s (uint32) or length-delimited bytes ([]byte).
type pb map[protowire.Number][]any

func decode(t *testing.T, b []byte) pb {
	t.Helper()
	m := pb{}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		var v any
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(b)
		case protowire.Fixed32Type:
			v, n = protowire.ConsumeFixed32(b)
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		default:
			t.Fatalf("field %d: unexpected wire type %v", num, typ)
		}
		if n < 0 {
			t.Fatalf("field %d: %v", num, protowire.ParseError(n))
		}
		b = b[n:]
		m[num] = append(m[num], v)
	}
	return m
}

func (m pb) str(num protowire.Number) string {
	if len(m[num]) == 0 {
		return ""
	}
	return string(m[num][0].([]byte))
}

func (m pb) strs(num protowire.Number) []string {
	var s []string
	for _, v := range m[num] {
		s = append(s, string(v.([]byte)))
	}
	return s
}

func (m pb) int(num protowire.Number) int64 {
	if len(m[num]) == 0 {
		return 0
	}
	return int64(m[num][0].(uint64))
}

func (m pb) ints(num protowire.Number) []int64 {
	var s []int64
	for _, v := range m[num] {
		s = append(s, int64(v.(uint64)))
	}
	return s
}

func (m pb) msgs(t *testing.T, num protowire.Number) []pb {
	var s []pb
	for _, v := range m[num] {
		s = append(s, decode(t, v.([]byte)))
	}
	return s
}

// decodedModel is what the tests read back from an encoded ModelProto.
type decodedModel struct {
	irVersion, opset int64
	producer         string
	metadata         map[string]string
	nodes            []decodedNode
	inits            map[string]decodedTensor
	initOrder        []string
	inputs, outputs  []decodedValue
}

type decodedNode struct {
	name, op        string
	inputs, outputs []string
	attrs           map[string]pb
}

type decodedTensor struct {
	dims []int64
	data []float32
}

type decodedValue struct {
	name string
	dims []string // "batch" or a number
}

func decodeModel(t *testing.T, b []byte) *decodedModel {
	t.Helper()
	top := decode(t, b)
	d := &decodedModel{irVersion: top.int(modelIRVersion), producer: top.str(modelProducerName),
		metadata: map[string]string{}, inits: map[string]decodedTensor{}}
	ops := top.msgs(t, modelOpsetImport)
	if len(ops) != 1 || ops[0].str(opsetDomain) != "" {
		t.Fatalf("opset_import %v, want one entry for the default domain", ops)
	}
	d.opset = ops[0].int(opsetVersion)
	for _, e := range top.msgs(t, modelMetadataProps) {
		d.metadata[e.str(entryKey)] = e.str(entryValue)
	}
	gs := top.msgs(t, modelGraph)
	if len(gs) != 1 {
		t.Fatalf("%d graphs", len(gs))
	}
	g := gs[0]
	for _, n := range g.msgs(t, graphNode) {
		dn := decodedNode{name: n.str(nodeName), op: n.str(nodeOpType), inputs: n.strs(nodeInput), outputs: n.strs(nodeOutput), attrs: map[string]pb{}}
		for _, a := range n.msgs(t, nodeAttribute) {
			dn.attrs[a.str(attrName)] = a
		}
		d.nodes = append(d.nodes, dn)
	}
	for _, tp := range g.msgs(t, graphInitializer) {
		if dt := tp.int(tensorDataType); dt != dataTypeFloat {
			t.Fatalf("initializer %s: data_type %d", tp.str(tensorName), dt)
		}
		raw := tp[tensorRawData][0].([]byte)
		data := make([]float32, len(raw)/4)
		for i := range data {
			data[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		name := tp.str(tensorName)
		d.inits[name] = decodedTensor{dims: tp.ints(tensorDims), data: data}
		d.initOrder = append(d.initOrder, name)
	}
	vals := func(num protowire.Number) []decodedValue {
		var out []decodedValue
		for _, v := range g.msgs(t, num) {
			dv := decodedValue{name: v.str(valueInfoName)}
			typ := v.msgs(t, valueInfoType)[0]
			tt := typ.msgs(t, typeTensorType)[0]
			if et := tt.int(tensorTypeElemType); et != dataTypeFloat {
				t.Fatalf("value %s: elem_type %d", dv.name, et)
			}
			for _, dim := range tt.msgs(t, tensorTypeShape)[0].msgs(t, shapeDim) {
				if p := dim.str(dimParam); p != "" {
					dv.dims = append(dv.dims, p)
				} else {
					dv.dims = append(dv.dims, fmt.Sprint(dim.int(dimValue)))
				}
			}
			out = append(out, dv)
		}
		return out
	}
	d.inputs, d.outputs = vals(graphInput), vals(graphOutput)
	return d
}

// testWeights returns a network of preset name with random weights and,
// unlike NewWeights, nonzero biases (so that the bias paths are exercised)
// and output layers scaled up to a trained net's range (logits of order
// one or more rather than NewWeights' deliberately small ones).
func testWeights(t testing.TB, preset string, seed uint64) *model.Weights {
	t.Helper()
	cfg, err := model.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	return testWeightsCfg(t, cfg, seed)
}

func testWeightsCfg(t testing.TB, cfg model.Config, seed uint64) *model.Weights {
	t.Helper()
	w, err := model.NewWeights(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	x := seed*2654435761 + 1
	for _, p := range w.Params() {
		scale := map[string]float32{"policy.logits.w": 20, "value.fc2.w": 4}[p.Name]
		for i := range p.Data {
			if scale != 0 {
				p.Data[i] *= scale
			}
		}
		if p.Decay {
			continue
		}
		for i := range p.Data {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			p.Data[i] = float32(int64(x%2001)-1000) / 5000 // in [-0.2, 0.2]
			if p.Name == "value.conv.b" {
				p.Data[i] += 0.3 // keep tiny's one value channel alive
			}
		}
	}
	return w
}

func TestEncodedStructure(t *testing.T) {
	// Every variant's network has its encoding's shapes: the input planes
	// and the policy of its layout.
	for _, v := range env.Variants() {
		m, err := Export(variantWeights(t, v, 1), Metadata{Variant: v})
		if err != nil {
			t.Fatal(err)
		}
		d := decodeModel(t, m.ONNX)
		in, policy := strconv.Itoa(v.NumPlanes()), strconv.Itoa(v.PolicySize())
		if len(d.inputs) != 1 || !slices.Equal(d.inputs[0].dims, []string{"batch", in, "8", "8"}) ||
			len(d.outputs) != 2 || !slices.Equal(d.outputs[0].dims, []string{"batch", policy}) {
			t.Errorf("%s: inputs %+v, outputs %+v", v.Name, d.inputs, d.outputs)
		}
		if got := d.inits["policy.logits.w"].dims; !slices.Equal(got, []int64{int64(v.Policy().Planes()), 8, 1, 1}) {
			t.Errorf("%s: policy.logits.w has dims %v", v.Name, got)
		}
		if got := d.inits["stem.w"].dims; !slices.Equal(got, []int64{8, int64(v.NumPlanes()), 3, 3}) {
			t.Errorf("%s: stem.w has dims %v", v.Name, got)
		}
	}
	w := testWeights(t, "tiny", 1)
	m, err := Export(w, Metadata{Variant: env.Alice, Checkpoint: "x.azck", Step: 7})
	if err != nil {
		t.Fatal(err)
	}
	d := decodeModel(t, m.ONNX)
	if d.irVersion != IRVersion || d.opset != Opset || d.producer != "alicezero" {
		t.Fatalf("ir %d opset %d producer %q", d.irVersion, d.opset, d.producer)
	}
	if d.metadata[MetadataKey] != string(m.JSON) {
		t.Fatalf("metadata_props[%q] differs from model.json", MetadataKey)
	}
	if len(d.inputs) != 1 || d.inputs[0].name != InputName || !slices.Equal(d.inputs[0].dims, []string{"batch", "37", "8", "8"}) {
		t.Fatalf("inputs %+v", d.inputs)
	}
	if len(d.outputs) != 2 || d.outputs[0].name != PolicyName || !slices.Equal(d.outputs[0].dims, []string{"batch", "4672"}) ||
		d.outputs[1].name != WDLName || !slices.Equal(d.outputs[1].dims, []string{"batch", "3"}) {
		t.Fatalf("outputs %+v", d.outputs)
	}
	// Every parameter, bit for bit, under its own name.
	if len(d.inits) != len(w.Params()) {
		t.Fatalf("%d initializers, %d parameters", len(d.inits), len(w.Params()))
	}
	for _, p := range w.Params() {
		got, ok := d.inits[p.Name]
		if !ok {
			t.Fatalf("no initializer %s", p.Name)
		}
		if !slices.Equal(got.dims, toInt64(p.Shape)) || !slices.Equal(got.data, p.Data) {
			t.Fatalf("initializer %s: dims %v (want %v) or data differ", p.Name, got.dims, p.Shape)
		}
	}
	var ops []string
	for _, n := range d.nodes {
		ops = append(ops, n.op)
	}
	// tiny: stem conv+relu, one block (5 nodes), policy 4, value 8.
	want := []string{"Conv", "Relu", "Conv", "Relu", "Conv", "Add", "Relu",
		"Conv", "Relu", "Conv", "Flatten",
		"Conv", "Relu", "GlobalAveragePool", "Flatten", "Gemm", "Relu", "Gemm", "Softmax"}
	if !slices.Equal(ops, want) {
		t.Fatalf("ops %v\nwant %v", ops, want)
	}
	// onnx.ops lists every op type the graph uses.
	for _, op := range ops {
		if !slices.Contains(m.Description.ONNX.Ops, op) {
			t.Errorf("the graph uses %s, which onnx.ops (%v) does not list", op, m.Description.ONNX.Ops)
		}
	}
	stem := d.nodes[0].attrs
	if stem["pads"].ints(attrInts) == nil || !slices.Equal(stem["pads"].ints(attrInts), []int64{1, 1, 1, 1}) ||
		stem["pads"].int(attrType) != attrTypeInts || !slices.Equal(stem["kernel_shape"].ints(attrInts), []int64{3, 3}) {
		t.Fatalf("stem attributes %v", stem)
	}
	var desc map[string]any
	if err := json.Unmarshal(m.JSON, &desc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"format", "format_version", "rules", "onnx", "network", "input", "outputs", "policy", "source", "test_positions"} {
		if _, ok := desc[k]; !ok {
			t.Errorf("model.json lacks %q", k)
		}
	}
}

func toInt64(s []int) []int64 {
	out := make([]int64, len(s))
	for i, v := range s {
		out[i] = int64(v)
	}
	return out
}

// interpret runs a decoded model with naive loops, independently of the
// encoder's builder and of the Go network's code: a check of the graph's
// semantics that needs no ONNX runtime.
func interpret(t *testing.T, d *decodedModel, planes []float32, batch int) (policy, wdl []float32) {
	t.Helper()
	type tensor struct {
		dims []int
		data []float32
	}
	vals := map[string]tensor{InputName: {[]int{batch, len(planes) / batch / env.PlaneSize, 8, 8}, planes}}
	for name, it := range d.inits {
		dims := make([]int, len(it.dims))
		for i, v := range it.dims {
			dims[i] = int(v)
		}
		vals[name] = tensor{dims, it.data}
	}
	get := func(name string) tensor {
		v, ok := vals[name]
		if !ok {
			t.Fatalf("value %q used before definition", name)
		}
		return v
	}
	for _, n := range d.nodes {
		var out tensor
		switch n.op {
		case "Conv":
			x, w, b := get(n.inputs[0]), get(n.inputs[1]), get(n.inputs[2])
			N, Ci, Hh, Ww := x.dims[0], x.dims[1], x.dims[2], x.dims[3]
			Co, k := w.dims[0], w.dims[2]
			pad := int(n.attrs["pads"].ints(attrInts)[0])
			out = tensor{[]int{N, Co, Hh, Ww}, make([]float32, N*Co*Hh*Ww)}
			for bi := 0; bi < N; bi++ {
				for co := 0; co < Co; co++ {
					for y := 0; y < Hh; y++ {
						for xx := 0; xx < Ww; xx++ {
							s := float64(b.data[co])
							for ci := 0; ci < Ci; ci++ {
								for ky := 0; ky < k; ky++ {
									for kx := 0; kx < k; kx++ {
										iy, ix := y+ky-pad, xx+kx-pad
										if iy < 0 || iy >= Hh || ix < 0 || ix >= Ww {
											continue
										}
										s += float64(w.data[((co*Ci+ci)*k+ky)*k+kx]) * float64(x.data[((bi*Ci+ci)*Hh+iy)*Ww+ix])
									}
								}
							}
							out.data[((bi*Co+co)*Hh+y)*Ww+xx] = float32(s)
						}
					}
				}
			}
		case "Relu":
			x := get(n.inputs[0])
			out = tensor{x.dims, make([]float32, len(x.data))}
			for i, v := range x.data {
				out.data[i] = max(v, 0)
			}
		case "Add":
			a, b := get(n.inputs[0]), get(n.inputs[1])
			out = tensor{a.dims, make([]float32, len(a.data))}
			for i := range a.data {
				out.data[i] = a.data[i] + b.data[i]
			}
		case "GlobalAveragePool":
			x := get(n.inputs[0])
			N, C, area := x.dims[0], x.dims[1], x.dims[2]*x.dims[3]
			out = tensor{[]int{N, C, 1, 1}, make([]float32, N*C)}
			for i := range out.data {
				var s float64
				for _, v := range x.data[i*area : (i+1)*area] {
					s += float64(v)
				}
				out.data[i] = float32(s / float64(area))
			}
		case "Flatten":
			x := get(n.inputs[0])
			out = tensor{[]int{x.dims[0], len(x.data) / x.dims[0]}, x.data}
		case "Gemm":
			a, w, b := get(n.inputs[0]), get(n.inputs[1]), get(n.inputs[2])
			if n.attrs["transB"].int(attrI) != 0 || n.attrs["transA"].int(attrI) != 0 {
				t.Fatal("interpreter handles transA = transB = 0 only")
			}
			M, K, N := a.dims[0], a.dims[1], w.dims[1]
			out = tensor{[]int{M, N}, make([]float32, M*N)}
			for i := 0; i < M; i++ {
				for j := 0; j < N; j++ {
					s := float64(b.data[j])
					for k := 0; k < K; k++ {
						s += float64(a.data[i*K+k]) * float64(w.data[k*N+j])
					}
					out.data[i*N+j] = float32(s)
				}
			}
		case "Softmax":
			x := get(n.inputs[0])
			M, N := x.dims[0], x.dims[1]
			out = tensor{x.dims, make([]float32, len(x.data))}
			for i := 0; i < M; i++ {
				row := x.data[i*N : (i+1)*N]
				m := slices.Max(row)
				var sum float64
				for j, v := range row {
					e := math.Exp(float64(v - m))
					out.data[i*N+j] = float32(e)
					sum += e
				}
				for j := range row {
					out.data[i*N+j] = float32(float64(out.data[i*N+j]) / sum)
				}
			}
		default:
			t.Fatalf("interpreter does not know op %s", n.op)
		}
		vals[n.outputs[0]] = out
	}
	return get(PolicyName).data, get(WDLName).data
}

func maxAbs(a []float32) float64 {
	var m float64
	for _, v := range a {
		m = max(m, math.Abs(float64(v)))
	}
	return m
}

func maxAbsDiff(a, b []float32) float64 {
	var m float64
	for i := range a {
		m = max(m, math.Abs(float64(a[i])-float64(b[i])))
	}
	return m
}

// TestInterpretedGraphMatchesGo executes the decoded ONNX graph with a
// naive interpreter and compares it with the Go network on the test
// positions recorded in the description.
func TestInterpretedGraphMatchesGo(t *testing.T) {
	for _, preset := range []string{"tiny", "small", "no-blocks", "tiny/alice-stone", "tiny/alice-3"} {
		t.Run(preset, func(t *testing.T) {
			var w *model.Weights
			v := env.Alice
			switch preset {
			case "no-blocks":
				w = testWeightsCfg(t, model.Config{Blocks: 0, Channels: 5, PolicyChannels: 3, ValueChannels: 2, ValueHidden: 7}, 3)
			case "tiny", "small":
				w = testWeights(t, preset, 3)
			default:
				v, _ = env.VariantByName(strings.TrimPrefix(preset, "tiny/"))
				w = variantWeights(t, v, 3)
			}
			m, err := Export(w, Metadata{Variant: v})
			if err != nil {
				t.Fatal(err)
			}
			d := decodeModel(t, m.ONNX)
			tps := m.Description.TestPositions
			var planes, wantP, wantW []float32
			for _, tp := range tps {
				planes = append(planes, tp.Planes...)
				wantP = append(wantP, tp.PolicyLogits...)
				wantW = append(wantW, tp.WDL...)
			}
			gotP, gotW := interpret(t, d, planes, len(tps))
			if len(gotP) != len(tps)*v.PolicySize() {
				t.Fatalf("%d policy logits for %d positions", len(gotP), len(tps))
			}
			dp, dw := maxAbsDiff(gotP, wantP), maxAbsDiff(gotW, wantW)
			t.Logf("%s: interpreter vs Go: max |Δ| policy logits %.3g (max |logit| %.3g), wdl %.3g (wdl %v)", preset, dp, maxAbs(wantP), dw, wantW[:3])
			if dp > 1e-4 || dw > 1e-4 {
				t.Fatalf("interpreted ONNX graph differs from the Go network: policy %g, wdl %g", dp, dw)
			}
		})
	}
}
