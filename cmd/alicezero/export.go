package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/mcts/engine"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/builtin"
	"github.com/alicezero/alicezero/model/onnx"
)

// Export formats (--format).
const (
	// formatONNX is model.onnx plus model.json (docs/ONNX.md).
	formatONNX = "onnx"
	// formatAZCK is the checkpoint stripped to its weights: the file
	// model/builtin ships.
	formatAZCK = "azck"
)

// runExport writes a checkpoint's network as model.onnx plus model.json
// (see docs/ONNX.md), or as a weights-only checkpoint (--format azck).
func runExport(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("export", "", stderr)
	ckpt := fs.String("checkpoint", "", "checkpoint `file`, or a run folder (or its checkpoints/ folder) to export its newest checkpoint (default: the built-in network of --variant, alice's without it)")
	format := fs.String("format", formatONNX, "what to write: "+formatONNX+" (model.onnx and model.json in the --out folder) or "+formatAZCK+
		" (the checkpoint stripped to its weights, no optimiser or run state, in the --out file: what model/builtin ships)")
	out := fs.String("out", "", "output `folder` for model.onnx and model.json (created if missing); with --format "+formatAZCK+", the file to write")
	variant := fs.String("variant", "", "rule set the net plays ("+variantNames+"); default: the checkpoint's, else alice, else the one variant with the network's encoding")
	var meta metaFlag
	fs.Var(&meta, "meta", "with --format "+formatAZCK+", set the written file's metadata `KEY=VALUE` (repeatable; KEY= removes KEY), as the built-in network's trained_by and iterations")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	switch *format {
	case formatONNX:
		if len(meta) > 0 {
			return usageError(fs, "--meta sets the metadata of a checkpoint written with --format %s; an ONNX export carries the checkpoint's own", formatAZCK)
		}
	case formatAZCK:
	default:
		return usageError(fs, "--format %s: want %s or %s", *format, formatONNX, formatAZCK)
	}
	if *out == "" {
		if *format == formatAZCK {
			return usageError(fs, "missing --out, the file to write the weights to")
		}
		return usageError(fs, "missing --out, the folder to write model.onnx and model.json to")
	}
	if *variant != "" {
		// An unknown rule set fails before the checkpoint is looked for.
		if _, err := lookupVariant(*variant); err != nil {
			return err
		}
	}
	c, path, err := exportSource(*ckpt, *variant)
	if err != nil {
		return err
	}
	v, err := exportVariant(*variant, c.Meta["variant"], path, c.Config())
	if err != nil {
		return err
	}
	if *format == formatAZCK {
		// The variant is recorded where it is known, not where
		// exportVariant guessed it from the encoding alone.
		known := *variant != "" || c.Meta["variant"] != ""
		return writeWeightsOnly(c, path, v, known, meta, *out, stdout)
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
// built-in network of variant (alice's for ""). path names it in messages
// and the sidecar.
func exportSource(ckpt, variant string) (*model.Checkpoint, string, error) {
	if ckpt == "" {
		if variant == "" {
			variant = env.Alice.Name
		}
		c, err := builtin.Checkpoint(variant)
		return c, "built-in-" + variant + ".azck", err
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

// writeWeightsOnly writes c, read from path, stripped to what a network
// that ships needs (model/builtin): its weights, step, training
// configuration and metadata, without the optimiser state and the run's
// own state (Checkpoint.Extra), which only resuming the run reads. The
// variant v is recorded where known; meta's entries are set last. The file
// is written atomically once c has loaded whole, so that a damaged source
// never replaces what out held, and read back to check it holds c's
// network bit for bit.
func writeWeightsOnly(c *model.Checkpoint, path string, v env.Variant, known bool, meta metaFlag, out string, stdout io.Writer) error {
	if st, err := os.Stat(out); err == nil {
		if st.IsDir() {
			return fmt.Errorf("--out %s is a folder: --format %s writes one file, name it (%s, say)", out, formatAZCK, filepath.Join(out, v.Name+".azck"))
		}
		if src, err := os.Stat(path); err == nil && os.SameFile(st, src) {
			return fmt.Errorf("--out %s is the checkpoint being stripped: write the weights elsewhere (the run still needs its optimiser state to resume)", out)
		}
	}
	w := &model.Checkpoint{Preset: c.Preset, Step: c.Step, TrainConfig: c.TrainConfig, Meta: maps.Clone(c.Meta), Weights: c.Weights}
	if w.Meta == nil {
		w.Meta = map[string]string{}
	}
	if known {
		w.Meta["variant"] = v.Name
	}
	for _, kv := range meta {
		if kv.value == "" {
			delete(w.Meta, kv.key)
		} else {
			w.Meta[kv.key] = kv.value
		}
	}
	if len(w.Meta) == 0 {
		w.Meta = nil
	}
	if err := model.SaveCheckpoint(out, w); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	back, err := model.LoadCheckpoint(out)
	if err != nil {
		return fmt.Errorf("reading back what was written: %w", err)
	}
	if !back.Weights.Equal(c.Weights) || back.Optimizer != nil || len(back.Extra) > 0 {
		return fmt.Errorf("%s does not read back as %s's weights alone", out, path)
	}
	st, err := os.Stat(out)
	if err != nil {
		return fmt.Errorf("reading back what was written: %w", err)
	}
	cfg := c.Config()
	var dropped []string
	if c.Optimizer != nil {
		dropped = append(dropped, "its optimiser state ("+c.Optimizer.Kind+")")
	}
	if len(c.Extra) > 0 {
		dropped = append(dropped, fmt.Sprintf("its run state (%d bytes)", len(c.Extra)))
	}
	what := "it held weights only"
	if len(dropped) > 0 {
		what = "dropped " + strings.Join(dropped, " and ")
	}
	was := ""
	if src, err := os.Stat(path); err == nil {
		was = fmt.Sprintf(", from %d", src.Size())
	}
	fmt.Fprintf(stdout, "read %s (%v, %d parameters, step %d, variant %s): %s\n", path, cfg, cfg.NumParams(), c.Step, v.Name, what)
	fmt.Fprintf(stdout, "wrote %s (%d bytes%s)\n", out, st.Size(), was)
	return nil
}

// metaFlag is --meta KEY=VALUE, repeatable, in the order given.
type metaFlag []metaEntry

type metaEntry struct{ key, value string }

func (m *metaFlag) String() string {
	if m == nil {
		return ""
	}
	var s []string
	for _, kv := range *m {
		s = append(s, kv.key+"="+kv.value)
	}
	return strings.Join(s, ",")
}

func (m *metaFlag) Set(s string) error {
	key, value, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(key) == "" {
		return fmt.Errorf("%q: want KEY=VALUE (KEY= removes KEY)", s)
	}
	*m = append(*m, metaEntry{strings.TrimSpace(key), value})
	return nil
}
