package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/alicezero/alicezero/configs"
	"github.com/alicezero/alicezero/train"
	"github.com/alicezero/alicezero/train/runs"
)

func runTrain(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("train", "", stderr)
	config := fs.String("config", configs.Default, "built-in configuration ("+strings.Join(configs.Names(), ", ")+") or a YAML file")
	name := fs.String("run", "", "name of the run's folder (default: CONFIG-DATE-TIME)")
	runsDir := fs.String("runs-dir", runs.DefaultRunsDir, "folder that holds the runs")
	resume := fs.String("resume", "", "continue the run `NAME` from its latest checkpoint")
	iterations := fs.Int("iterations", 0, "total iterations the run aims for (overrides the config)")
	seed := fs.Int64("seed", -1, "seed of the run (overrides the config)")
	quiet := fs.Bool("quiet", false, "no progress bars, only the summary lines")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
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
	if *resume != "" && flagSet(fs, "config") {
		return usageError(fs, "--resume continues a run with the configuration saved in its folder; --config cannot change it (edit that run's config.yaml, or start a new run)")
	}
	runName, err := checkRun(*runsDir, *name, *resume)
	if err != nil {
		return err
	}
	opts.Name = runName
	if *resume != "" {
		opts.Resume = true
	} else {
		cfg, err := loadConfig(*config)
		if err != nil {
			return err
		}
		opts.Config = cfg
	}
	return train.Run(ctx, opts)
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

// loadConfig reads a built-in configuration by name or a YAML file.
func loadConfig(nameOrPath string) (*train.Config, error) {
	if data, err := os.ReadFile(nameOrPath); err == nil {
		return train.ParseConfig(data, nameOrPath)
	} else if strings.ContainsAny(nameOrPath, "/.") {
		return nil, err
	}
	return train.BuiltinConfig(nameOrPath)
}
