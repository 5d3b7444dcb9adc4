package onnx_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/onnx"
)

// The package documentation's snippet: a network exported as model.onnx
// and its description model.json.
func ExampleExport() {
	arch, err := model.Preset("tiny")
	if err != nil {
		panic(err)
	}
	w, err := model.NewWeights(arch, 1)
	if err != nil {
		panic(err)
	}
	m, err := onnx.Export(w, onnx.Metadata{Variant: env.Alice})
	if err != nil {
		panic(err)
	}
	out, err := os.MkdirTemp("", "onnx-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(out)
	if err := m.WriteDir(out); err != nil {
		panic(err)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*"))
	for _, f := range files {
		fmt.Println(filepath.Base(f))
	}
	// Output:
	// model.json
	// model.onnx
}
