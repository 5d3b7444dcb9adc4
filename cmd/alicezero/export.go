package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/builtin"
	"github.com/alicezero/alicezero/model/onnx"
	"github.com/alicezero/alicezero/train/runs"
)

// runExport writes a checkpoint's network as model.onnx plus model.json
// (see docs/ONNX.md).
func runExport(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("export", "", stderr)
	ckpt := fs.String("checkpoint", "", "checkpoint `file`, or a run folder (or its checkpoints/ folder) to export its newest checkpoint (default: the built-in network)")
	out := fs.String("out", "", "output `folder` for model.onnx and model.json (created if missing)")
	variant := fs.String("variant", "", "rule set the net plays ("+variantNames+"); default: the checkpoint's, else alice")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if *out == "" {
		return usageError(fs, "missing --out, the folder to write model.onnx and model.json to")
	}
	if *variant != "" {
		// A rule set the network cannot play fails before the checkpoint
		// is looked for.
		if _, err := lookupVariant(*variant); err != nil {
			return err
		}
	}
	c, path, err := exportSource(*ckpt)
	if err != nil {
		return err
	}
	v, err := exportVariant(*variant, c.Meta["variant"], path)
	if err != nil {
		return err
	}
	m, err := onnx.Export(c.Weights, onnx.Metadata{Variant: v, Checkpoint: filepath.Base(path), Step: c.Step, Meta: c.Meta})
	if err != nil {
		return err
	}
	if err := m.WriteDir(*out); err != nil {
		return fmt.Errorf("writing to %s: %w", *out, err)
	}
	cfg := c.Config()
	preset := cfg.PresetName()
	if preset == "" {
		preset = "custom"
	}
	fmt.Fprintf(stdout, "exported %s (%s %v, %d parameters, step %d, variant %s)\n", path, preset, cfg, cfg.NumParams(), c.Step, v.Name)
	fmt.Fprintf(stdout, "wrote %s (%d bytes)\n", filepath.Join(*out, onnx.ONNXFile), len(m.ONNX))
	fmt.Fprintf(stdout, "wrote %s (%d bytes)\n", filepath.Join(*out, onnx.JSONFile), len(m.JSON))
	return nil
}

// exportSource loads the checkpoint to export: the one ckpt names, or the
// built-in network. path names it in messages and the sidecar.
func exportSource(ckpt string) (*model.Checkpoint, string, error) {
	if ckpt == "" {
		c, err := builtin.Checkpoint()
		return c, "built-in-" + builtin.Variant + ".azck", err
	}
	path, err := runs.Resolve(ckpt)
	if err != nil {
		return nil, "", err
	}
	c, err := model.LoadCheckpoint(path)
	return c, path, err
}

// exportVariant picks the rule set: the flag's, which must agree with the
// checkpoint's if both are given, else the checkpoint's, else alice.
func exportVariant(flagName, ckptName, path string) (env.Variant, error) {
	switch {
	case flagName != "" && ckptName != "" && flagName != ckptName:
		return env.Variant{}, fmt.Errorf("--variant %s, but %s was trained for %s", flagName, filepath.Base(path), ckptName)
	case flagName != "":
		return lookupVariant(flagName)
	case ckptName != "":
		return lookupVariant(ckptName)
	}
	return env.Alice, nil
}
