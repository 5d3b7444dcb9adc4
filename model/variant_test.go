package model_test

import (
	"bytes"
	"testing"

	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/internal/modeltest"
)

// TestConfigRejectsUnknownLayout: a config naming a policy layout this
// build does not have is invalid, with the layouts it has named.
func TestConfigRejectsUnknownLayout(t *testing.T) {
	cfg := modeltest.MustPreset(t, "tiny")
	cfg.PolicyLayout = "move-planes-9x8x8"
	if err := cfg.Validate(); err == nil || !bytes.Contains([]byte(err.Error()), []byte("move-planes-3x2x73x8x8")) {
		t.Fatalf("Validate: %v", err)
	}
	if _, err := model.NewWeights(cfg, 1); err == nil {
		t.Fatal("weights built for an unknown layout")
	}
}
