// Package onnx exports an AliceZero network (model.Weights) as an ONNX
// model, so that it can run outside Go: ONNX Runtime in Node, a browser or
// Python, or any other ONNX consumer.
//
// The protobuf is written by hand with protowire (no ONNX library): opset
// 17, IR version 8, one input
//
//	planes         float32 [batch, P, 8, 8]   (env/planes.go's encoding)
//
// and two outputs
//
//	policy_logits  float32 [batch, L*64]      raw logits, L policy planes × 64
//	                                          from-squares (env/policy.go's indices)
//	wdl            float32 [batch, 3]         win/draw/loss probabilities
//
// with a symbolic batch dimension "batch". P and L are the network's
// encoding (model.Config.ForVariant), which must be the variant's: P = 37
// input planes in every variant of two boards and 51 in alice-3; L = 73
// planes (4672 logits) for alice, alice-ep, alice-black-b and alice-mini,
// 74 for alice-null, 146 for alice-optional-transfer, 296 for alice-stone
// and 438 for alice-3. The graph uses Conv, Relu, Add, GlobalAveragePool,
// Flatten, Gemm and Softmax only; the network has no batch normalisation,
// so the parameters are exported as they are, named like the Go
// parameters.
//
// Export also builds a Description (model.json): the variant's rules, FEN
// convention and UCI notation, the input plane table, the perspective
// rule, the policy's planes (move type, from-board, landing choice) and
// the full policy index ↔ UCI table, the output
// meanings, the architecture and test positions with their encoded input
// and the Go network's outputs. The same JSON is embedded in the ONNX
// file's metadata_props under the key "alicezero".
//
//	m, err := onnx.Export(w, onnx.Metadata{Variant: env.Alice})
//	err = m.WriteDir("out") // out/model.onnx, out/model.json
//
// The package's tests run exported models in ONNX Runtime through Node
// (see ortcheck/) and compare them with model.FastEvaluator. On demand,
// TestCompareORT also times the two side by side (ortcheck/bench.js):
//
//	go test ./model/onnx -run TestCompareORT -ort.compare -v
package onnx
