package training

import (
	"fmt"
	"sync"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// gorgoniaBuildMu serialises graph construction. Gorgonia v0.9.18 adds
// package-level constant nodes (e.g. the 0 of Rectify, the 1 that seeds
// Grad) to each graph and lazily caches their hashes, which races when two
// goroutines build graphs at once. It guards no state of ours.
var gorgoniaBuildMu sync.Mutex

// netGraph is the network's forward pass in one gorgonia graph, for a fixed
// batch size.
type netGraph struct {
	g      *G.ExprGraph
	batch  int
	input  *G.Node   // [batch, NumPlanes, 8, 8]
	params []*G.Node // in Weights.Params() order
	policy *G.Node   // [batch, PolicySize] logits, plane-major (env/policy.go)
	value  *G.Node   // [batch, WDLSize] logits
}

// paramValues returns tensors shaped like w's parameters, over w's own
// arrays if share, else over copies. Callers make one set per graph: the
// arrays may be shared, but gorgonia reshapes a value's header in place
// during a run, so headers must not be shared between graphs.
func paramValues(w *model.Weights, share bool) []*tensor.Dense {
	vals := make([]*tensor.Dense, len(w.Params()))
	for i, p := range w.Params() {
		data := p.Data
		if !share {
			data = append([]float32(nil), p.Data...)
		}
		vals[i] = tensor.New(tensor.WithShape(p.Shape...), tensor.WithBacking(data))
	}
	return vals
}

// buildNet builds the forward pass of w's architecture over parameter
// values vals (one per parameter of w, in order, shaped alike). The graph reads the values' backing arrays
// at every run, so updating them in place updates the net.
//
// With a workspace, the 3×3 convolutions are Winograd ops with their bias,
// ReLU and residual add fused (winoconv.go), as training uses them; without,
// they are gorgonia's own convolution, bias and ReLU nodes (with the
// faster im2col of conv.go): the plain reference the fast path is tested
// against.
func buildNet(w *model.Weights, batch int, vals []*tensor.Dense, ws *workspace) (ng *netGraph, err error) {
	defer catch(&err, "building gorgonia graph")
	cfg, specs := w.Config(), w.Params()
	if len(vals) != len(specs) {
		return nil, fmt.Errorf("model: %d parameter values for %d parameters", len(vals), len(specs))
	}
	g := G.NewGraph()
	ng = &netGraph{g: g, batch: batch}
	ng.input = G.NewTensor(g, tensor.Float32, 4, G.WithShape(batch, cfg.NumInputPlanes(), 8, 8), G.WithName("planes"))
	byName := make(map[string]*G.Node, len(specs))
	paramIndex := make(map[string]int, len(specs))
	for i, s := range specs {
		paramIndex[s.Name] = i
		if !tensor.Shape(s.Shape).Eq(vals[i].Shape()) {
			return nil, fmt.Errorf("model: parameter %s has shape %v, want %v", s.Name, vals[i].Shape(), s.Shape)
		}
		n := G.NewTensor(g, tensor.Float32, len(s.Shape), G.WithShape(s.Shape...), G.WithName(s.Name), G.WithValue(vals[i]))
		ng.params = append(ng.params, n)
		byName[s.Name] = n
	}

	must := func(n *G.Node, err error) *G.Node {
		if err != nil {
			panic(err) // caught by catch above: keeps the builder readable
		}
		return n
	}
	// conv applies a same-padded k×k convolution plus bias.
	conv := func(x *G.Node, name string, k int) *G.Node {
		w, b := byName[name+".w"], byName[name+".b"]
		pad := k / 2
		y := must(conv2d(x, w, k, pad)) // gorgonia's Conv2d with faster im2col, see conv.go
		b4 := must(G.Reshape(b, tensor.Shape{1, b.Shape()[0], 1, 1}))
		return must(G.BroadcastAdd(y, b4, nil, []byte{0, 2, 3}))
	}
	fc := func(x *G.Node, name string) *G.Node {
		w, b := byName[name+".w"], byName[name+".b"]
		y := must(G.Mul(x, w))
		b2 := must(G.Reshape(b, tensor.Shape{1, b.Shape()[0]}))
		return must(G.BroadcastAdd(y, b2, nil, []byte{0}))
	}
	relu := func(x *G.Node) *G.Node { return must(G.Rectify(x)) }
	// reluConv3 is relu(conv3x3(x) + b [+ res]).
	reluConv3 := func(x *G.Node, name string, res *G.Node, inputGrad bool) *G.Node {
		if ws == nil {
			y := conv(x, name, 3)
			if res != nil {
				y = must(G.Add(res, y))
			}
			return relu(y)
		}
		w, b := byName[name+".w"], byName[name+".b"]
		wsh := w.Shape()
		op := newWinoConvOp(name, vals[paramIndex[name+".w"]].Float32s(), vals[paramIndex[name+".b"]].Float32s(), wsh[1], wsh[0], true, res != nil, inputGrad, ws)
		if res != nil {
			return must(G.ApplyOp(op, x, w, b, res))
		}
		return must(G.ApplyOp(op, x, w, b))
	}

	x := reluConv3(ng.input, "stem", nil, false)
	for i := 0; i < cfg.Blocks; i++ {
		y := reluConv3(x, fmt.Sprintf("res%d.conv1", i), nil, true)
		x = reluConv3(y, fmt.Sprintf("res%d.conv2", i), x, true)
	}
	// The policy head's output planes are the move-type planes: reshaping
	// [batch, planes, 8, 8] to [batch, planes·64] lays the logits out
	// plane-major, index plane·64 + from-square, as env's policy map does.
	// conv1 is the heads' 1×1 convolution with bias, flattened to
	// [batch, cout·64], through a ReLU if relu.
	conv1 := func(x *G.Node, name string, relu bool) *G.Node {
		if ws == nil {
			y := conv(x, name, 1)
			if relu {
				y = must(G.Rectify(y))
			}
			ys := y.Shape()
			return must(G.Reshape(y, tensor.Shape{ys[0], ys[1] * ys[2] * ys[3]}))
		}
		w, b := byName[name+".w"], byName[name+".b"]
		wsh := w.Shape()
		return must(G.ApplyOp(conv1x1Op{cin: wsh[1], cout: wsh[0], relu: relu, out: newOutBuf(), ws: ws}, x, w, b))
	}
	p := reluConv3(x, "policy.conv", nil, true)
	ng.policy = conv1(p, "policy.logits", false)

	v := conv1(x, "value.conv", true)
	if ws != nil {
		v = must(G.ApplyOp(planeMeanOp{channels: cfg.ValueChannels, out: newOutBuf()}, v)) // global average pooling
	} else {
		v = must(G.Reshape(v, tensor.Shape{batch, cfg.ValueChannels, env.PlaneSize}))
		v = must(G.Mean(v, 2)) // global average pooling
	}
	v = relu(fc(v, "value.fc1"))
	ng.value = fc(v, "value.fc2")
	return ng, nil
}
