package onnx

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/alicezero/alicezero/internal/fileutil"
	"github.com/alicezero/alicezero/model"
)

// File names WriteDir writes.
const (
	ONNXFile = "model.onnx"
	JSONFile = "model.json"
)

// Model is an exported network: the ONNX file's bytes, model.json's bytes
// and the description they both carry.
type Model struct {
	ONNX        []byte
	JSON        []byte
	Description *Description
}

// Export converts w into an ONNX model plus its JSON description (also
// embedded in the ONNX file's metadata_props under MetadataKey).
func Export(w *model.Weights, meta Metadata) (*Model, error) {
	d, err := Describe(w, meta)
	if err != nil {
		return nil, err
	}
	js, err := json.MarshalIndent(d, "", " ")
	if err != nil {
		return nil, fmt.Errorf("onnx: encoding description: %w", err)
	}
	js = append(js, '\n')
	b, err := EncodeModel(w, map[string]string{MetadataKey: string(js)})
	if err != nil {
		return nil, err
	}
	return &Model{ONNX: b, JSON: js, Description: d}, nil
}

// WriteDir writes model.onnx and model.json into dir (created if missing),
// each atomically (internal/fileutil).
func (m *Model) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("onnx: output folder: %w", err)
	}
	if err := fileutil.WriteAtomic(filepath.Join(dir, ONNXFile), m.ONNX); err != nil {
		return fmt.Errorf("onnx: %w", err)
	}
	if err := fileutil.WriteAtomic(filepath.Join(dir, JSONFile), m.JSON); err != nil {
		return fmt.Errorf("onnx: %w", err)
	}
	return nil
}
