package train

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/progress"
	"github.com/alicezero/alicezero/internal/seed"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/train/engine"
	"github.com/alicezero/alicezero/train/replay"
	"github.com/alicezero/alicezero/train/runs"
)

// SelfPlayOptions configures SelfPlayToFolder.
type SelfPlayOptions struct {
	Config *Config
	// Weights is a checkpoint file or a run folder (its newest
	// checkpoint); "" plays with the untrained network of Config's seed.
	Weights string
	// Follow re-reads a run folder's newest checkpoint before each shard,
	// so that self-play keeps up with a "learn" process; it waits for the
	// run's first checkpoint if there is none yet.
	Follow bool
	// OutDir receives one shard file per ShardGames games.
	OutDir     string
	ShardGames int
	// Games is the total to play; 0 plays until ctx is cancelled.
	Games int
	// ID names this process's shards (default: from the seed and time), so
	// that several processes can share OutDir.
	ID       string
	Out      io.Writer
	Progress io.Writer
}

// SelfPlayToFolder generates games with a fixed or followed network and
// writes their positions as shards for a learner. When ctx is cancelled
// it says how many games it wrote and returns ctx.Err(); the game in
// progress is lost, the shards written stay.
func SelfPlayToFolder(ctx context.Context, o SelfPlayOptions) error {
	cfg := o.Config
	if cfg == nil {
		return errors.New("selfplay: no configuration")
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.ShardGames <= 0 {
		o.ShardGames = cfg.SelfPlay.GamesPerIteration
	}
	if o.ID == "" {
		o.ID = fmt.Sprintf("%x-%d", cfg.Seed, time.Now().UnixNano()%1e9)
	}
	if strings.ContainsAny(o.ID, `/\`) {
		return fmt.Errorf("selfplay: id %q must not contain path separators", o.ID)
	}
	if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
		return err
	}
	variant, err := env.VariantByName(cfg.Variant)
	if err != nil {
		return err
	}
	if o.Follow {
		// The learner may still be creating the run: wait for its first
		// checkpoint rather than fail, so both can be started at once.
		if err := waitForCheckpoint(ctx, o.Weights, o.Out); err != nil {
			return err
		}
	}
	w, source, err := loadOrInitWeights(cfg, variant, o.Weights)
	if err != nil {
		return err
	}
	eval, err := model.NewFastEvaluator(w, model.FastOptions{})
	if err != nil {
		return err
	}
	defer eval.Close()
	searcher, err := mcts.NewSearcher(eval, cfg.MCTSConfig())
	if err != nil {
		return err
	}
	followed := "" // the checkpoint file followed last
	if o.Follow {
		followed, _ = runs.Resolve(o.Weights)
	}
	fmt.Fprintf(o.Out, "self-play with %s, writing shards to %s\n", source, o.OutDir)
	played := 0
	for shard := 1; o.Games == 0 || played < o.Games; shard++ {
		if o.Follow && o.Weights != "" {
			if path, err := runs.Resolve(o.Weights); err == nil && path != followed {
				net, err := engine.LoadNetwork(path, variant)
				if err != nil {
					fmt.Fprintf(o.Out, "warning: keeping %s: %v\n", source, err)
				} else if err := eval.SetWeights(net.Weights); err != nil {
					return err
				} else {
					searcher.ClearCache()
					source, followed = net.Description, path
					fmt.Fprintf(o.Out, "now playing with %s\n", source)
				}
			}
		}
		n := o.ShardGames
		if o.Games > 0 {
			n = min(n, o.Games-played)
		}
		bar := progress.New(o.Progress, n, fmt.Sprintf("shard %d self-play", shard), "games")
		start := time.Now()
		// Workers play every game out: the threshold is calibrated by a
		// training run from its own games.
		games, err := selfPlay(ctx, cfg, variant, searcher, shard, n, 0, func(*SelfPlayGame) { bar.Add(1) })
		bar.Finish()
		if err != nil {
			if ctx.Err() != nil {
				fmt.Fprintf(o.Out, "interrupted: %d games written\n", played)
				return ctx.Err()
			}
			return err
		}
		var samples []replay.Sample
		for _, g := range games {
			samples = append(samples, g.Samples...)
		}
		name := filepath.Join(o.OutDir, fmt.Sprintf("sp-%s-%06d.shard", o.ID, shard))
		if err := replay.WriteShard(name, samples); err != nil {
			return err
		}
		played += len(games)
		fmt.Fprintf(o.Out, "%s: %d games, %d positions in %s (%d games in all)\n",
			filepath.Base(name), len(games), len(samples), time.Since(start).Round(time.Second), played)
	}
	return nil
}

// followPoll is how often a following self-play process looks for the
// run's first checkpoint.
const followPoll = time.Second

// waitForCheckpoint returns once path (a run folder) holds a checkpoint,
// saying once that it waits; it returns ctx's error if ctx ends first.
func waitForCheckpoint(ctx context.Context, path string, out io.Writer) error {
	for said := false; ; said = true {
		if _, err := runs.Resolve(path); err == nil {
			return nil
		}
		if !said {
			fmt.Fprintf(out, "waiting for the first checkpoint in %s (start 'alicezero learn' for it)\n", path)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(followPoll):
		}
	}
}

// loadOrInitWeights loads the network path names (as engine.LoadNetwork
// reads it: a checkpoint file or a run folder) or, for "", makes the
// configuration's untrained network, the one a new run starts from. It
// returns where the weights came from.
func loadOrInitWeights(cfg *Config, variant env.Variant, path string) (*model.Weights, string, error) {
	if path == "" {
		arch, err := model.Preset(cfg.Model.Preset)
		if err != nil {
			return nil, "", err
		}
		w, err := model.NewWeights(arch, seed.Derive(cfg.Seed, "weights", uint64(0), uint64(0)))
		return w, "an untrained " + cfg.Model.Preset + " network", err
	}
	net, err := engine.LoadNetwork(path, variant)
	if err != nil {
		return nil, "", err
	}
	if net.Weights == nil {
		return nil, "", fmt.Errorf("self-play needs a network, not %s", net.Description)
	}
	return net.Weights, net.Description, nil
}

// LearnOptions configures Learn.
type LearnOptions struct {
	// The run, as for Run: Name in RunsDir, new (with Config) or resumed.
	RunsDir, Name string
	Resume        bool
	Config        *Config
	// DataDir is where self-play processes write their shards.
	DataDir string
	// Once trains on the shards present and returns; otherwise Learn
	// waits for more (polling every Poll) until ctx is cancelled.
	Once     bool
	Poll     time.Duration
	Out      io.Writer
	Progress io.Writer
}

// Learn trains a run from shards that "selfplay" processes write to a
// folder: each round takes the new shards (at least min_buffer positions
// before the first), takes optimiser steps and writes a checkpoint that the
// self-play processes can follow. When ctx is cancelled it says where the
// run stands and returns ctx.Err(), as Run does.
func Learn(ctx context.Context, o LearnOptions) error {
	if o.Poll <= 0 {
		o.Poll = 5 * time.Second
	}
	dataDir, err := filepath.Abs(o.DataDir)
	if err != nil {
		return err
	}
	if st, err := os.Stat(dataDir); err != nil || !st.IsDir() {
		return fmt.Errorf("learn: data folder %s: not a folder (%v)", o.DataDir, err)
	}
	r, err := openRun(Options{RunsDir: o.RunsDir, Name: o.Name, Resume: o.Resume, Config: o.Config, Out: o.Out, Progress: o.Progress})
	if err != nil {
		return err
	}
	defer r.close()
	// A round that was checkpointed may have stopped before it marked its
	// shards as used.
	markUsed(r.out, r.state.Consumed, ".used")
	for it := r.state.Iteration + 1; ; {
		shards, err := newShards(dataDir)
		if err != nil {
			return err
		}
		var samples []replay.Sample
		var used []string
		for _, path := range shards {
			s, err := replay.ReadShard(path)
			if err != nil {
				fmt.Fprintf(r.out, "warning: skipping %v (renamed to .bad)\n", err)
				markUsed(r.out, []string{path}, ".bad")
				continue
			}
			samples = append(samples, s...)
			used = append(used, path)
		}
		if len(samples) > 0 && (r.buf.Len()+len(samples) >= r.cfg.Train.MinBuffer || o.Once) {
			// The round's positions become one shard of the run, as in
			// "train", and the shards they came from are marked as used once
			// the checkpoint records them.
			shard := runs.ShardName(it)
			if err := replay.WriteShard(filepath.Join(r.dir, shard), samples); err != nil {
				return err
			}
			r.state.Consumed = used
			m := Metrics{Iteration: it, Positions: len(samples)}
			if err := r.learn(ctx, it, []shardRef{{Path: shard, Positions: len(samples)}}, samples, &m); err != nil {
				if ctx.Err() != nil {
					fmt.Fprintf(r.out, "interrupted: the run stays at round %d; continue with --resume %s\n", r.state.Iteration, filepath.Base(r.dir))
					return ctx.Err()
				}
				return err
			}
			markUsed(r.out, used, ".used")
			it++
			continue
		}
		if o.Once {
			if r.state.Iteration == 0 {
				return fmt.Errorf("learn: no shards in %s", o.DataDir)
			}
			return nil
		}
		select {
		case <-ctx.Done():
			fmt.Fprintf(r.out, "stopped at round %d; continue with --resume %s\n", r.state.Iteration, filepath.Base(r.dir))
			return ctx.Err()
		case <-time.After(o.Poll):
		}
	}
}

// markUsed renames consumed shard files with suffix, so that no later
// round reads them again; files already renamed are skipped.
func markUsed(out io.Writer, paths []string, suffix string) {
	for _, p := range paths {
		if err := os.Rename(p, p+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(out, "warning: %v\n", err)
		}
	}
}

// newShards lists the complete shard files of dir, oldest first (by
// modification time, then name). Used ones carry a suffix after .shard.
func newShards(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	for _, e := range entries {
		name := e.Name()
		// Temporary files of an atomic write start with a dot.
		if e.IsDir() || !strings.HasSuffix(name, ".shard") || strings.HasPrefix(name, ".") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, file{filepath.Join(dir, name), info.ModTime()})
	}
	slices.SortFunc(files, func(a, b file) int {
		if c := a.mod.Compare(b.mod); c != 0 {
			return c
		}
		return strings.Compare(a.path, b.path)
	})
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.path
	}
	return out, nil
}
