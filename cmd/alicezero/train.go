package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/alicezero/alicezero/configs"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/mcts/engine"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/train"
)

func runTrain(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("train", "", stderr)
	config := fs.String("config", configs.Default, "built-in configuration ("+strings.Join(configs.Names(), ", ")+") or a YAML file")
	name := fs.String("run", "", "name of the run's folder (default: CONFIG-DATE-TIME)")
	runsDir := fs.String("runs-dir", runs.DefaultRunsDir, "folder that holds the runs")
	resume := fs.String("resume", "", "continue the run `NAME` from its latest checkpoint")
	iterations := fs.Int("iterations", 0, "total iterations the run aims for (overrides the config)")
	variant := fs.String("variant", "", "rule set to train for, "+variantNames+" (overrides the config's; without --config, the built-in configuration made for it if there is one: mini for alice-mini)")
	seed := fs.Int64("seed", -1, "seed of the run (overrides the config)")
	quiet := fs.Bool("quiet", false, "no progress bars, only the summary lines")
	initFrom := fs.String("init", "", "start the new run from these `WEIGHTS` instead of a random network: builtin (the built-in network of the run's variant), a run folder (its newest checkpoint) or a checkpoint file; their architecture must be the configuration's; weights of another variant (for --variant alice-3, an alice checkpoint, such as the built-in alice network written by export --format azck) give what the encodings share, and the run's first lines say what")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if err := checkIterationsAndSeed(fs, *iterations, *seed); err != nil {
		return err
	}
	opts := train.Options{RunsDir: *runsDir, Name: *name, Iterations: *iterations, Out: stdout}
	if !*quiet {
		opts.Progress = stderr
	}
	if *seed >= 0 {
		s := uint64(*seed)
		opts.Seed = &s
	}
	if *resume != "" {
		for _, f := range []string{"config", "seed"} {
			if flagSet(fs, f) {
				return usageError(fs, "--resume continues a run with the configuration saved in its folder; --%s cannot change it (edit that run's config.yaml, or start a new run)", f)
			}
		}
	}
	if *resume != "" && flagSet(fs, "init") {
		return usageError(fs, "--init starts a new run from existing weights; a resumed run continues from its own checkpoint")
	}
	if *resume != "" && flagSet(fs, "variant") {
		return usageError(fs, "--resume continues a run for the variant its network was trained for; --variant cannot change it (start a new run)")
	}
	runName, err := checkRun(*runsDir, *name, *resume)
	if err != nil {
		return err
	}
	opts.Name = runName
	if *resume != "" {
		opts.Resume = true
	} else {
		var v env.Variant
		if flagSet(fs, "variant") {
			if v, err = lookupVariant(*variant); err != nil {
				return err
			}
			if !flagSet(fs, "config") {
				*config = configFor(v)
			}
		}
		cfg, err := loadConfig(*config)
		if err != nil {
			return err
		}
		if v.Name != "" {
			cfg.Variant = v.Name
		}
		opts.Config = cfg
		if flagSet(fs, "init") {
			if opts.Init, opts.InitName, opts.InitVariant, err = loadInit(*initFrom, cfg.Variant); err != nil {
				return err
			}
		}
	}
	return train.Run(ctx, opts)
}

// checkIterationsAndSeed refuses an --iterations below 1 and a negative
// --seed where they were given (the flags' defaults, 0 and -1, mean
// "the configuration's").
func checkIterationsAndSeed(fs *flag.FlagSet, iterations int, seed int64) error {
	if flagSet(fs, "iterations") && iterations < 1 {
		return fmt.Errorf("--iterations %d: want the total the run aims for, at least 1", iterations)
	}
	if flagSet(fs, "seed") && seed < 0 {
		return fmt.Errorf("--seed %d: want a seed ≥ 0", seed)
	}
	return nil
}

// checkRun checks the --run and --resume flags: plain folder names inside
// runsDir (so that "../x" cannot write elsewhere) that agree, and a run to
// resume that exists. It returns the run's name ("" for a new run's
// default).
func checkRun(runsDir, name, resume string) (string, error) {
	for flagName, v := range map[string]string{"--run": name, "--resume": resume} {
		if v != "" {
			if err := runs.CheckName(v); err != nil {
				return "", fmt.Errorf("%s: %w", flagName, err)
			}
		}
	}
	if resume == "" {
		return name, nil
	}
	if name != "" && name != resume {
		return "", errors.New("--run and --resume name different runs")
	}
	dir, err := runs.Dir(runsDir, resume)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		names, _ := runs.List(runsDir)
		if len(names) == 0 {
			return "", fmt.Errorf("--resume: no run %q in %s (it holds no runs)", resume, runsDir)
		}
		return "", fmt.Errorf("--resume: no run %q in %s (runs there: %s)", resume, runsDir, strings.Join(names, ", "))
	}
	return resume, nil
}

// configFor names the built-in configuration that --variant v takes
// without --config: the default if it trains v, else the first built-in
// made for v (mini for alice-mini), else the default (whose variant the
// flag then replaces).
func configFor(v env.Variant) string {
	names := append([]string{configs.Default}, configs.Names()...)
	for _, name := range names {
		if c, err := train.BuiltinConfig(name); err == nil && c.Variant == v.Name {
			return name
		}
	}
	return configs.Default
}

// loadConfig reads a built-in configuration by name or a YAML file.
func loadConfig(nameOrPath string) (*train.Config, error) {
	if data, err := os.ReadFile(nameOrPath); err == nil {
		cfg, defaulted, err := train.ParseConfigDefaulted(data, nameOrPath)
		if err != nil {
			return nil, err
		}
		// A file without a name is named by its file, not by the
		// default configuration it inherits the rest from.
		if slices.Contains(defaulted, "name") {
			cfg.Name = strings.TrimSuffix(filepath.Base(nameOrPath), filepath.Ext(nameOrPath))
		}
		return cfg, nil
	} else if strings.ContainsAny(nameOrPath, "/.") {
		return nil, err
	}
	return train.BuiltinConfig(nameOrPath)
}

// loadInit reads the weights --init names, as every command reads
// weights (engine.LoadNetwork), for the variant they were trained for
// (which the run's, runVariant, may differ from: train.Options.InitVariant),
// and returns them with their description and that variant ("" where a
// file does not say). builtin is runVariant's built-in network.
func loadInit(name, runVariant string) (w *model.Weights, description, variant string, err error) {
	weights := strings.TrimSpace(name)
	switch weights {
	case "":
		return nil, "", "", errors.New("--init needs weights: builtin, a run folder or a checkpoint file")
	case engine.NoWeights:
		return nil, "", "", errors.New("--init none: the plain search has no weights to start from (leave --init out for a random network)")
	}
	if variant, err = engine.TrainedVariant(weights); err != nil {
		return nil, "", "", fmt.Errorf("--init: %w", err)
	}
	if weights == engine.BuiltinWeights {
		variant = runVariant
	}
	// A file that does not say is loaded for the first variant whose
	// encoding its network has (LoadNetwork checks it); Run takes it for
	// the run's variant where that has the same encoding.
	candidates := env.Variants()
	if variant != "" {
		v, err := env.VariantByName(variant)
		if err != nil {
			return nil, "", "", fmt.Errorf("--init %s: %w", name, err)
		}
		candidates = []env.Variant{v}
	}
	var net *engine.Network
	for _, v := range candidates {
		if net, err = engine.LoadNetwork(weights, v); err == nil || !errors.Is(err, engine.ErrOtherVariant) {
			break
		}
	}
	if err != nil {
		return nil, "", "", fmt.Errorf("--init: %w", err)
	}
	if net.Weights == nil {
		return nil, "", "", fmt.Errorf("--init %s: %s", name, net.Description)
	}
	return net.Weights, net.Description, variant, nil
}
