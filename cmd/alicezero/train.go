package main

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/alicezero/alicezero/configs"
	"github.com/alicezero/alicezero/train"
)

func runTrain(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("train", "", stderr)
	config := fs.String("config", configs.Default, "built-in configuration ("+strings.Join(configs.Names(), ", ")+") or a YAML file")
	name := fs.String("run", "", "name of the run's folder (default: CONFIG-DATE-TIME)")
	runsDir := fs.String("runs-dir", "checkpoints", "folder that holds the runs")
	resume := fs.String("resume", "", "continue the run `NAME` from its latest checkpoint")
	iterations := fs.Int("iterations", 0, "total iterations the run aims for (overrides the config)")
	seed := fs.Int64("seed", -1, "seed of the run (overrides the config)")
	quiet := fs.Bool("quiet", false, "no progress bars, only the summary lines")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
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
		if *name != "" && *name != *resume {
			return errors.New("--run and --resume name different runs")
		}
		opts.Name, opts.Resume = *resume, true
	} else {
		cfg, err := loadConfig(*config)
		if err != nil {
			return err
		}
		opts.Config = cfg
	}
	return train.Run(ctx, opts)
}

// loadConfig reads a built-in configuration by name or a YAML file.
func loadConfig(nameOrPath string) (*train.Config, error) {
	if data, err := os.ReadFile(nameOrPath); err == nil {
		return train.ParseConfig(data, nameOrPath)
	} else if strings.ContainsAny(nameOrPath, "/.") {
		return nil, err
	}
	return train.BuiltinConfig(nameOrPath)
}
