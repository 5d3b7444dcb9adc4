package main

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/alicezero/alicezero/configs"
	"github.com/alicezero/alicezero/train"
	"github.com/alicezero/alicezero/train/runs"
)

func runSelfPlay(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("selfplay", "", stderr)
	config := fs.String("config", configs.Default, "built-in configuration ("+strings.Join(configs.Names(), ", ")+") or a YAML file: its search and selfplay sections apply")
	weights := fs.String("weights", "", "checkpoint file or run folder (its newest checkpoint); default: an untrained network")
	follow := fs.Bool("follow", false, "before each shard, switch to the run folder's newest checkpoint (to feed a 'learn' process)")
	out := fs.String("out", "", "folder to write shard files to (required)")
	games := fs.Int("games", 0, "games to play (0: until interrupted)")
	shardGames := fs.Int("shard-games", 0, "games per shard file (default: the config's games_per_iteration)")
	id := fs.String("id", "", "name of this process's shards, unique among the processes sharing --out (default: from seed and time)")
	seed := fs.Int64("seed", -1, "seed (overrides the config; give each process its own)")
	quiet := fs.Bool("quiet", false, "no progress bars")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if *out == "" {
		return usageError(fs, "missing --out, the folder to write shards to")
	}
	if *follow && *weights == "" {
		return errors.New("--follow needs --weights naming a run folder")
	}
	cfg, err := loadConfig(*config)
	if err != nil {
		return err
	}
	if *seed >= 0 {
		cfg.Seed = uint64(*seed)
	}
	o := train.SelfPlayOptions{Config: cfg, Weights: *weights, Follow: *follow, OutDir: *out, ShardGames: *shardGames,
		Games: *games, ID: *id, Out: stdout}
	if !*quiet {
		o.Progress = stderr
	}
	return train.SelfPlayToFolder(ctx, o)
}

func runLearn(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("learn", "", stderr)
	config := fs.String("config", configs.Default, "built-in configuration ("+strings.Join(configs.Names(), ", ")+") or a YAML file, for a new run")
	data := fs.String("data", "", "folder the self-play processes write shards to (required)")
	name := fs.String("run", "", "name of the run's folder (default: CONFIG-DATE-TIME)")
	runsDir := fs.String("runs-dir", runs.DefaultRunsDir, "folder that holds the runs")
	resume := fs.String("resume", "", "continue the run `NAME`")
	once := fs.Bool("once", false, "train on the shards present, then stop (default: keep waiting for more)")
	poll := fs.Duration("poll", 5*time.Second, "how often to look for new shards")
	seed := fs.Int64("seed", -1, "seed of a new run (overrides the config)")
	quiet := fs.Bool("quiet", false, "no progress bars")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if *data == "" {
		return usageError(fs, "missing --data, the folder the self-play processes write shards to")
	}
	o := train.LearnOptions{RunsDir: *runsDir, Name: *name, DataDir: *data, Once: *once, Poll: *poll, Out: stdout}
	if !*quiet {
		o.Progress = stderr
	}
	runName, err := checkRun(*runsDir, *name, *resume)
	if err != nil {
		return err
	}
	o.Name = runName
	if *resume != "" {
		o.Resume = true
	} else {
		cfg, err := loadConfig(*config)
		if err != nil {
			return err
		}
		if *seed >= 0 {
			cfg.Seed = uint64(*seed)
		}
		o.Config = cfg
	}
	return train.Learn(ctx, o)
}
