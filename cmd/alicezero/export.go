package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/mcts/engine"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/builtin"
	"github.com/alicezero/alicezero/model/onnx"
)

// runExport writes a checkpoint's network as model.onnx plus model.json
// (see docs/ONNX.md).
func runExport(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("export", "", stderr)
	ckpt := fs.String("checkpoint", "", "checkpoint `file`, or a run folder (or its checkpoints/ folder) to export its newest checkpoint (default: the built-in network)")
	out := fs.String("out", "", "output `folder` for model.onnx and model.json (created if missing)")
	variant := fs.String("variant", "", "rule set the net plays ("+variantNames+"); default: the checkpoint's, else alice, else the one variant with the network's encoding")
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
		// An unknown rule set fails before the checkpoint is looked for.
		if _, err := lookupVariant(*variant); err != nil {
			return err
		}
	}
	c, path, err := exportSource(*ckpt)
	if err != nil {
		return err
	}
	v, err := exportVariant(*variant, c.Meta["variant"], path, c.Config())
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

// exportSource loads the checkpoint to export: the one ckpt names (read
// as every command reads a network's name, engine.LoadCheckpoint), or the
// built-in network. path names it in messages and the sidecar.
func exportSource(ckpt string) (*model.Checkpoint, string, error) {
	if ckpt == "" {
		c, err := builtin.Checkpoint()
		return c, "built-in-" + builtin.Variant + ".azck", err
	}
	return engine.LoadCheckpoint(ckpt)
}

// exportVariant picks the rule set: the flag's, which must agree with the
// checkpoint's if both are given, else the checkpoint's, else alice if the
// network has its encoding (model.Config.Fits), else the one variant
// whose encoding it has (a weights-only checkpoint of alice-3, say).
func exportVariant(flagName, ckptName, path string, cfg model.Config) (env.Variant, error) {
	switch {
	case flagName != "" && ckptName != "" && flagName != ckptName:
		return env.Variant{}, fmt.Errorf("--variant %s, but %s was trained for %s", flagName, filepath.Base(path), ckptName)
	case flagName != "":
		return lookupVariant(flagName)
	case ckptName != "":
		return lookupVariant(ckptName)
	case cfg.Fits(env.Alice) == nil:
		return env.Alice, nil
	}
	var fit []string
	for _, v := range env.Variants() {
		if cfg.Fits(v) == nil {
			fit = append(fit, v.Name)
		}
	}
	if len(fit) == 1 {
		return env.VariantByName(fit[0])
	}
	if len(fit) == 0 {
		return env.Variant{}, fmt.Errorf("%s: no variant has the encoding of its network (%v)", filepath.Base(path), cfg)
	}
	return env.Variant{}, fmt.Errorf("%s does not record its variant and its network (%v) is not alice's; name it with --variant (%s)",
		filepath.Base(path), cfg, strings.Join(fit, ", "))
}
