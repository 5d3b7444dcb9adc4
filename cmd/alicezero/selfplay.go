package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/alicezero/alicezero/configs"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/progress"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/internal/sleep"
	"github.com/alicezero/alicezero/train"
	"github.com/alicezero/alicezero/train/bus"
	"github.com/alicezero/alicezero/train/bus/folder"
	natsbus "github.com/alicezero/alicezero/train/bus/nats"
)

// tokenEnv is the environment variable that may carry the bus token, so
// that it need not appear in the process list.
const tokenEnv = "ALICEZERO_TOKEN"

func runSelfPlay(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("selfplay", "", stderr)
	config := fs.String("config", configs.Default, "built-in configuration ("+strings.Join(configs.Names(), ", ")+") or a YAML file: its search and selfplay sections apply (with --connect or --follow, default: the run's own, from the learner)")
	out := fs.String("out", "", "folder to write shard files to, for a 'learn --data' process")
	connect := fs.String("connect", "", "learner to send shards to: nats://HOST:PORT (tls://HOST:PORT for TLS) of 'learn --listen' or --bus")
	weights := fs.String("weights", "", "with --out: checkpoint file or run folder (its newest checkpoint); default: an untrained network")
	follow := fs.Bool("follow", false, "with --out: before each shard, switch to the run folder's newest checkpoint (to feed a 'learn' process)")
	runName := fs.String("run", "", "with --connect: the run to work for (default: the only run on the server)")
	token := fs.String("token", os.Getenv(tokenEnv), "with --connect: the learner's token (default: $"+tokenEnv+")")
	tlsCA := fs.String("tls-ca", "", "with --connect: PEM file of the authority that signed the learner's TLS certificate")
	games := fs.Int("games", 0, "games to play (0: until interrupted)")
	shardGames := fs.Int("shard-games", 0, "games per shard (default: the config's games_per_iteration)")
	id := fs.String("id", "", "this worker's name in shards and the learner's metrics (default: HOST-PID)")
	seed := fs.Int64("seed", -1, "seed (default: a random one, printed)")
	threads := fs.Int("threads", 0, "cores the network uses (0: all; 1 suits one worker per core)")
	quiet := fs.Bool("quiet", false, "no progress display")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if flagSet(fs, "seed") && *seed < 0 {
		return fmt.Errorf("--seed %d: want a seed ≥ 0 (leave it out for a random one)", *seed)
	}
	if (*out == "") == (*connect == "") {
		return usageError(fs, "needs one of --out FOLDER (a shared folder) and --connect URL (a learner's bus)")
	}
	if *follow && *weights == "" {
		return errors.New("--follow needs --weights naming a run folder")
	}
	if *connect != "" && (*weights != "" || *follow) {
		return errors.New("--weights and --follow are for --out: with --connect the learner supplies the network")
	}
	worker := *id
	if worker == "" {
		worker = defaultWorkerName()
	}
	if err := bus.ValidWorker(worker); err != nil {
		return err
	}
	o := train.WorkerOptions{Worker: worker, ShardGames: *shardGames, Games: *games, Threads: *threads, Out: stdout}
	switch {
	case *quiet:
		o.ProgressEvery = 1<<63 - 1
	case progress.IsTerminal(stderr):
		o.Progress = stderr // bars; else plain progress lines
	}
	configSet := flagSet(fs, "config")
	if *out != "" {
		var err error
		if configSet || !*follow {
			if o.Config, err = loadConfig(*config); err != nil {
				return err
			}
		}
		if o.Sink, err = folder.NewSink(*out, worker); err != nil {
			return err
		}
		if *follow {
			// The learner may not have started yet: its run folder appears
			// with its first checkpoint.
			if err := waitForRunFolder(ctx, *weights, worker, stdout, followPoll, followNote); err != nil {
				return quietCancel(ctx, err)
			}
			o.Networks = folder.Networks{Dir: filepath.Join(*weights, runs.CheckpointDir)}
			if o.Config == nil {
				if o.Config, err = runFolderConfig(*weights); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "worker %s: the configuration of run %s (%s)\n", worker, *weights, o.Config.Name)
			}
		} else {
			o.Weights = *weights
		}
	} else {
		nc, err := natsbus.ConnectWait(ctx, natsbus.ConnOptions{URL: *connect, Token: *token, CAFile: *tlsCA, Name: "alicezero selfplay " + worker, Out: stdout})
		if err != nil {
			return quietCancel(ctx, err)
		}
		defer nc.Close()
		names, err := natsbus.WaitForRun(ctx, nc, *runName, stdout)
		if err != nil {
			return quietCancel(ctx, err)
		}
		nets, err := natsbus.NewNetworks(ctx, nc, names, false)
		if err != nil {
			return err
		}
		o.Networks = nets
		if configSet {
			o.Config, err = loadConfig(*config)
		} else {
			o.Config, err = runConfig(ctx, nets, names.Run)
		}
		if err != nil {
			return err
		}
		sink, err := natsbus.NewSink(ctx, nc, names, worker, stdout)
		if err != nil {
			return err
		}
		o.Sink = sink
		fmt.Fprintf(stdout, "worker %s: connected to %s, run %s, session %s\n", worker, nc.ConnectedUrlRedacted(), names.Run, sink.Session())
	}
	defer o.Sink.Close()
	o.Config.Seed = randomSeed()
	if *seed >= 0 {
		o.Config.Seed = uint64(*seed)
	}
	return train.SelfPlayWorker(ctx, o)
}

// How a worker following a run folder waits for the learner: how often it
// looks for the first checkpoint, and how often it says it still waits.
const (
	followPoll = time.Second
	followNote = 30 * time.Second
)

// waitForRunFolder waits until the run folder dir holds a checkpoint,
// saying so on out at once and again every note; it returns ctx's error
// if ctx ends first. dir need not exist yet.
func waitForRunFolder(ctx context.Context, dir, worker string, out io.Writer, poll, note time.Duration) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return fmt.Errorf("--follow needs --weights naming a run folder: %s is a file", dir)
	}
	nets := folder.Networks{Dir: filepath.Join(dir, runs.CheckpointDir)}
	start, said := time.Now(), time.Duration(-1)
	for {
		_, err := nets.NewestNetwork(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, bus.ErrNoNetwork) {
			return fmt.Errorf("--follow %s: %w", dir, err)
		}
		switch waited := time.Since(start); {
		case said < 0:
			fmt.Fprintf(out, "worker %s: waiting for the learner's first checkpoint in %s\n", worker, dir)
			said = 0
		case waited-said >= note:
			fmt.Fprintf(out, "worker %s: still waiting for a checkpoint in %s (%s so far)\n", worker, dir, waited.Round(time.Second))
			said = waited
		}
		if err := sleep.For(ctx, poll); err != nil {
			return err
		}
	}
}

// runFolderConfig is the configuration a run folder's learner saved (it
// writes it before its first checkpoint).
func runFolderConfig(dir string) (*train.Config, error) {
	path := filepath.Join(dir, runs.ConfigFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--follow: the run's configuration (name one with --config): %w", err)
	}
	return train.ParseConfig(data, path)
}

// runConfig is the run's configuration as its learner published it.
func runConfig(ctx context.Context, nets *natsbus.Networks, run string) (*train.Config, error) {
	data, err := nets.Config(ctx)
	if err != nil {
		return nil, err
	}
	return train.ParseConfig(data, "of run "+run+" (from the learner)")
}

func runLearn(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("learn", "", stderr)
	config := fs.String("config", configs.Default, "built-in configuration ("+strings.Join(configs.Names(), ", ")+") or a YAML file, for a new run")
	data := fs.String("data", "", "take shards from this folder, where 'selfplay --out' processes write them")
	listen := fs.String("listen", "", "take shards from workers over the network: HOST:PORT of an embedded NATS server ('selfplay --connect nats://HOST:PORT'); its data lives in the run folder")
	busURL := fs.String("bus", "", "take shards through an external NATS JetStream server: nats://HOST:PORT")
	token := fs.String("token", os.Getenv(tokenEnv), "with --listen: the secret workers must present, required unless HOST is loopback; with --bus: the server's token (default: $"+tokenEnv+")")
	tlsCert := fs.String("tls-cert", "", "with --listen: PEM certificate, to serve workers over TLS")
	tlsKey := fs.String("tls-key", "", "with --listen: PEM private key of --tls-cert")
	tlsCA := fs.String("tls-ca", "", "with --bus: PEM file of the authority that signed the server's certificate")
	maxStale := fs.Int("max-stale", train.DefaultMaxStale, "drop shards played by a network more than this many iterations old (-1: keep all)")
	ackWait := clock.TimeFlag(fs, "ack-wait", 30*time.Second, "with --listen or --bus: the `time` after which a restarted learner gets again the shards its predecessor held")
	maxShardMB := fs.Int("max-shard-mb", natsbus.DefaultMaxShardBytes>>20, "with --listen or --bus: largest shard message accepted, in MiB (workers split larger shards)")
	name := fs.String("run", "", "name of the run's folder (default: CONFIG-DATE-TIME)")
	runsDir := fs.String("runs-dir", runs.DefaultRunsDir, "folder that holds the runs")
	resume := fs.String("resume", "", "continue the run `NAME`")
	once := fs.Bool("once", false, "train on the shards there are, then stop (default: keep waiting for more)")
	poll := clock.TimeFlag(fs, "poll", 5*time.Second, "`time` to wait for new shards at each look")
	seed := fs.Int64("seed", -1, "seed of a new run (overrides the config)")
	quiet := fs.Bool("quiet", false, "no progress bars")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	modes := 0
	for _, s := range []string{*data, *listen, *busURL} {
		if s != "" {
			modes++
		}
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	switch {
	case modes == 0:
		return usageError(fs, "needs one of --data FOLDER, --listen HOST:PORT and --bus URL")
	case modes > 1:
		var given []string
		for _, f := range []string{"data", "listen", "bus"} {
			if flagSet(fs, f) {
				given = append(given, "--"+f)
			}
		}
		return usageError(fs, "takes only one of --data, --listen and --bus, got %s", strings.Join(given, " and "))
	}
	if flagSet(fs, "seed") && *seed < 0 {
		return fmt.Errorf("--seed %d: want a seed ≥ 0", *seed)
	}
	if *maxStale == 0 {
		return errors.New("--max-stale 0 would drop every shard not played by the newest network; use 1 or more, or -1 to keep all")
	}
	o := train.LearnOptions{RunsDir: *runsDir, Name: *name, Once: *once, Poll: *poll, MaxStale: *maxStale, Out: stdout}
	if !*quiet && progress.IsTerminal(stderr) {
		o.Progress = stderr // bars; else plain progress lines
	}
	switch {
	case *data != "":
		o.Open = func(_ context.Context, runDir string) (*train.LearnBus, error) {
			src, err := folder.NewSource(*data, stdout)
			if err != nil {
				return nil, err
			}
			return &train.LearnBus{Source: src, Networks: folder.Networks{Dir: filepath.Join(runDir, runs.CheckpointDir)}}, nil
		}
	default:
		o.Open = natsLearnBus(natsLearner{listen: *listen, url: *busURL, token: *token, tlsCert: *tlsCert, tlsKey: *tlsKey, tlsCA: *tlsCA,
			ackWait: *ackWait, maxShardBytes: *maxShardMB << 20, out: stdout, logs: stderr})
	}
	if *resume != "" {
		for _, f := range []string{"config", "seed"} {
			if flagSet(fs, f) {
				return usageError(fs, "--resume continues a run with the configuration saved in its folder; --%s cannot change it (edit that run's config.yaml, or start a new run)", f)
			}
		}
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
