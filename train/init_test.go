package train

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/model"
)

// A run started with Init begins from those weights: its iteration-0
// checkpoint holds them bit for bit, and its first iteration trains on.
func TestInitStartsFromTheGivenWeights(t *testing.T) {
	cfg := tinyConfig(t)
	arch, err := model.Preset(cfg.Model.Preset)
	if err != nil {
		t.Fatal(err)
	}
	init, err := model.NewWeights(arch.ForVariant(env.Alice), 12345)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var out bytes.Buffer
	opts := Options{RunsDir: dir, Name: "warm", Config: cfg, Iterations: 1, Init: init, InitName: "test weights", Out: &out}
	if err := Run(context.Background(), opts); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "starting from test weights") {
		t.Errorf("the first line does not say where the run started:\n%s", out.String())
	}
	c0, err := model.LoadCheckpoint(runs.CheckpointPath(filepath.Join(dir, "warm"), 0))
	if err != nil {
		t.Fatal(err)
	}
	if !c0.Weights.Equal(init) {
		t.Error("iteration 0 does not hold the --init weights")
	}
	c1, err := model.LoadCheckpoint(runs.CheckpointPath(filepath.Join(dir, "warm"), 1))
	if err != nil {
		t.Fatal(err)
	}
	if c1.Weights.Equal(init) {
		t.Error("iteration 1 did not train")
	}
	// A run without Init at the same seed starts elsewhere.
	if err := Run(context.Background(), Options{RunsDir: dir, Name: "cold", Config: tinyConfig(t), Iterations: 1}); err != nil {
		t.Fatal(err)
	}
	c, err := model.LoadCheckpoint(runs.CheckpointPath(filepath.Join(dir, "cold"), 0))
	if err != nil {
		t.Fatal(err)
	}
	if c.Weights.Equal(init) {
		t.Error("a run without --init starts from the same weights")
	}
}

// Weights of another encoding or architecture are refused with the reason,
// before the run starts.
func TestInitRefusesForeignWeights(t *testing.T) {
	small, err := model.Preset("small")
	if err != nil {
		t.Fatal(err)
	}
	cfg := tinyConfig(t)
	tiny, err := model.Preset(cfg.Model.Preset)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		variant string
		arch    model.Config
		want    string
		wantErr error
	}{
		{"other architecture", "alice", small.ForVariant(env.Alice), "choose a configuration of that architecture", nil},
		{"other encoding", "alice-3", tiny.ForVariant(env.Alice), "cannot start a run of alice-3", model.ErrEncoding},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, err := model.NewWeights(tc.arch, 1)
			if err != nil {
				t.Fatal(err)
			}
			c := tinyConfig(t)
			c.Variant = tc.variant
			err = Run(context.Background(), Options{RunsDir: t.TempDir(), Name: "x", Config: c, Init: w, InitName: "W"})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--init W") {
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("%v does not wrap %v", err, tc.wantErr)
			}
		})
	}
}
