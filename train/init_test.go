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
	init := aliceWeights(t, cfg)
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

// Weights of another architecture are refused with the reason, before
// the run starts, and so are weights said to be of a variant whose
// encoding they do not have.
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
		name        string
		variant     string
		arch        model.Config
		initVariant string
		want        string
		wantErr     error
	}{
		{"other architecture", "alice", small.ForVariant(env.Alice), "", "choose a configuration of that architecture", model.ErrArchMismatch},
		{"other architecture and variant", "alice-3", small.ForVariant(env.Alice), "alice", "choose a configuration of that architecture", model.ErrArchMismatch},
		{"not the encoding said", "alice-3", tiny.ForVariant(env.Alice), "alice-null", "it says it was trained for alice-null", model.ErrEncoding},
		{"unknown variant", "alice", tiny.ForVariant(env.Alice), "no-such-variant", "cannot start a run of alice", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, err := model.NewWeights(tc.arch, 1)
			if err != nil {
				t.Fatal(err)
			}
			c := tinyConfig(t)
			c.Variant = tc.variant
			err = Run(context.Background(), Options{RunsDir: t.TempDir(), Name: "x", Config: c, Init: w, InitName: "W", InitVariant: tc.initVariant})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--init W") {
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("%v does not wrap %v", err, tc.wantErr)
			}
		})
	}
}

// A run of another variant starts from alice's weights: its first lines
// say what carried over, its iteration-0 network is alice's copied by
// model.Weights.CopyFromVariant, and it plays its own variant (a whole
// iteration of self-play, training and its strength match). Weights that
// do not say their variant are taken for the first whose encoding they
// have, alice's.
func TestInitAcrossVariants(t *testing.T) {
	for _, tc := range []struct {
		v           env.Variant
		initVariant string
		say         string
	}{
		{env.Alice3, "alice", "init from test weights, trained for alice: copied the trunk, the value head, 37 of 51 input planes and 146 of 438 policy planes"},
		{env.AliceNull, "", "init from test weights, trained for alice: copied the trunk, the value head, 37 of 37 input planes and 73 of 74 policy planes; fresh 1 policy plane (null moves)"},
	} {
		t.Run(tc.v.Name, func(t *testing.T) {
			cfg := tinyConfig(t)
			cfg.Variant = tc.v.Name
			init := aliceWeights(t, cfg)
			dir := t.TempDir()
			var out bytes.Buffer
			opts := Options{RunsDir: dir, Name: "across", Config: cfg, Iterations: 1, Init: init, InitName: "test weights", InitVariant: tc.initVariant, Out: &out}
			if err := Run(context.Background(), opts); err != nil {
				t.Fatalf("run: %v\n%s", err, out.String())
			}
			if !strings.Contains(out.String(), tc.say) {
				t.Errorf("the run does not say %q:\n%s", tc.say, out.String())
			}
			c0, err := model.LoadCheckpoint(runs.CheckpointPath(filepath.Join(dir, "across"), 0))
			if err != nil {
				t.Fatal(err)
			}
			if err := c0.Config().Fits(tc.v); err != nil {
				t.Fatal(err)
			}
			want := c0.Weights.Clone()
			if _, err := want.CopyFromVariant(init, env.Alice, tc.v); err != nil {
				t.Fatal(err)
			}
			if !c0.Weights.Equal(want) {
				t.Error("iteration 0 is not alice's network copied into the variant's")
			}
			if c0.Meta["variant"] != tc.v.Name {
				t.Errorf("iteration 0 is recorded as %q's", c0.Meta["variant"])
			}
		})
	}
}

// aliceWeights returns fresh alice weights of cfg's model preset.
func aliceWeights(t *testing.T, cfg *Config) *model.Weights {
	t.Helper()
	arch, err := model.Preset(cfg.Model.Preset)
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWeights(arch.ForVariant(env.Alice), 12345)
	if err != nil {
		t.Fatal(err)
	}
	return w
}
