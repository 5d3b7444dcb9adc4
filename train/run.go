package train

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/progress"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/internal/seed"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/training"
	"github.com/alicezero/alicezero/train/replay"
)

// Options configures Run.
type Options struct {
	// RunsDir holds the runs (default "checkpoints"); Name is this run's
	// folder in it (default: a dated name for a new run).
	RunsDir string
	Name    string
	// Resume continues the run Name from its latest readable checkpoint,
	// with the configuration saved in the run folder.
	Resume bool
	// Config is a new run's configuration (ignored on resume).
	Config *Config
	// Init, if set, are the weights a new run starts from instead of a
	// random network (train --init): the built-in network, a run's or a
	// checkpoint's. They must be of the configuration's architecture;
	// InitVariant names the variant they were trained for, and where its
	// encoding is not the run's variant's, what the two share carries over
	// (model.Weights.CopyFromVariant) and the rest starts afresh. With no
	// InitVariant they are taken for the run's variant's if they have its
	// encoding, else for the first variant's that has theirs. InitName
	// says where they came from (for the run's first lines). Only the
	// weights carry over: the optimiser, the replay buffer and the step
	// count start afresh.
	Init        *model.Weights
	InitName    string
	InitVariant string
	// Iterations, if positive, overrides the total the run aims for; Seed,
	// if set, the run's seed.
	Iterations int
	Seed       *uint64
	// Out receives the per-iteration summary lines and warnings; Progress,
	// if set, the progress bars.
	Out      io.Writer
	Progress io.Writer
}

// runner is one training run in progress.
type runner struct {
	opts    Options
	cfg     *Config
	dir     string
	variant env.Variant
	out     io.Writer

	trainer  *training.Trainer
	eval     *model.FastEvaluator
	searcher *mcts.Searcher
	buf      *replay.Buffer
	state    runState
	history  []runs.Metrics
	started  time.Time
	// skippedShards counts the unreadable shards of the last resume, for
	// the next metrics line.
	skippedShards int
	// checkpointed, if set, is called once an iteration's checkpoint is
	// on disk ("learn" acknowledges its shards there).
	checkpointed func()
	// learner is set for a run trained by Learn: it has no last
	// iteration, so none is announced.
	learner bool
	// lock holds the run folder from its opening to close.
	lock *runs.Lock
	// initReport says what the network took from Options.Init, for the
	// new run's first lines.
	initReport string
}

// Run trains: self-play, optimiser steps and a checkpoint per iteration,
// until the configured number of iterations is reached or ctx is
// cancelled. A cancelled run abandons the iteration in progress and stays
// resumable from its last checkpoint.
func Run(ctx context.Context, opts Options) error {
	r, err := openRun(opts, false)
	if err != nil {
		return err
	}
	defer r.close()
	if err := r.finishInterrupted(ctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	for it := r.state.Iteration + 1; it <= r.cfg.Iterations; it++ {
		if err := r.iteration(ctx, it); err != nil {
			if ctx.Err() != nil {
				fmt.Fprintf(r.out, "interrupted during iteration %d: the run stays at iteration %d; continue with --resume %s\n",
					it, r.state.Iteration, filepath.Base(r.dir))
				return ctx.Err()
			}
			return fmt.Errorf("iteration %d: %w", it, err)
		}
	}
	fmt.Fprintf(r.out, "run %s complete: %d iterations, %d games, %d positions, in %s\n", filepath.Base(r.dir),
		r.state.Iteration, r.state.TotalGames, r.state.TotalPositions, time.Duration(r.state.ElapsedSec*float64(time.Second)).Round(time.Second))
	return nil
}

// openRun creates or resumes the run; learner says it is trained by
// Learn, which has no last iteration (it trains until stopped).
func openRun(opts Options, learner bool) (*runner, error) {
	if opts.RunsDir == "" {
		opts.RunsDir = runs.DefaultRunsDir
	}
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	r := &runner{opts: opts, out: opts.Out, started: time.Now(), learner: learner}
	if st, err := os.Stat(opts.RunsDir); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("the runs folder %s is not a directory", opts.RunsDir)
	}
	var err error
	if opts.Resume {
		err = r.resume()
	} else {
		err = r.create()
	}
	if err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// setUp builds the network, optimiser, search and replay buffer, fresh or
// from a checkpoint.
func (r *runner) setUp(ckpt *model.Checkpoint) error {
	var err error
	if r.variant, err = env.VariantByName(r.cfg.Variant); err != nil {
		return err
	}
	arch, err := model.Preset(r.cfg.Model.Preset)
	if err != nil {
		return err
	}
	w, err := model.NewWeights(arch.ForVariant(r.variant), seed.Derive(r.cfg.Seed, "weights", uint64(0), uint64(0)))
	if err != nil {
		return err
	}
	if ckpt == nil && r.opts.Init != nil {
		if r.initReport, err = initWeights(w, r.opts, r.cfg, r.variant); err != nil {
			return err
		}
	}
	tc, err := r.cfg.ModelTrainConfig()
	if err != nil {
		return err
	}
	if r.trainer, err = training.NewTrainer(w, tc); err != nil {
		return err
	}
	t := &r.cfg.Train
	r.buf = replay.NewBuffer(replay.WindowConfig{Min: t.WindowMin, Max: t.WindowMax, Fraction: t.WindowFraction}, t.MaxUses)
	if ckpt != nil {
		if err := r.trainer.Restore(ckpt); err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		if err := json.Unmarshal(ckpt.Extra, &r.state); err != nil {
			return fmt.Errorf("resume: run state: %w", err)
		}
		if err := r.loadBuffer(); err != nil {
			return err
		}
		hist, err := readMetrics(filepath.Join(r.dir, runs.MetricsFile), r.state.Iteration+1)
		if err != nil {
			return err
		}
		r.history = hist
		if err := r.rewriteMetrics(); err != nil {
			return err
		}
	}
	if r.eval, err = model.NewFastEvaluator(r.trainer.Weights(), model.FastOptions{}); err != nil {
		return err
	}
	r.searcher, err = mcts.NewSearcher(r.eval, r.cfg.MCTSConfig())
	return err
}

// initWeights copies opts.Init, the weights a new run starts from, into
// w, the configuration's fresh network for variant v, and says what it
// copied; the error says why weights of another architecture, or of no
// variant's encoding, cannot be taken.
func initWeights(w *model.Weights, opts Options, cfg *Config, v env.Variant) (string, error) {
	init, name := opts.Init, opts.InitName
	from, err := initVariant(init.Config(), opts.InitVariant, v)
	if err != nil {
		return "", fmt.Errorf("--init %s: cannot start a run of %s from it: %w", name, v.Name, err)
	}
	r, err := w.CopyFromVariant(init, from, v)
	if errors.Is(err, model.ErrArchMismatch) {
		return "", fmt.Errorf("--init %s: the configuration's model preset is %q: %w: choose a configuration of that architecture", name, cfg.Model.Preset, err)
	}
	if err != nil {
		return "", fmt.Errorf("--init %s: cannot start a run of %s from it: %w", name, v.Name, err)
	}
	return fmt.Sprintf("init from %s, trained for %s: %s", name, from.Name, r), nil
}

// initVariant returns the variant init weights of architecture cfg were
// trained for: the one named, which must have their encoding; with none
// named, the run's variant v if they have its encoding, else the first
// variant whose encoding they have.
func initVariant(cfg model.Config, named string, v env.Variant) (env.Variant, error) {
	if named != "" {
		from, err := env.VariantByName(named)
		if err != nil {
			return env.Variant{}, fmt.Errorf("its network was trained for %q: %w", named, err)
		}
		if err := cfg.Fits(from); err != nil {
			return env.Variant{}, fmt.Errorf("it says it was trained for %s, but: %w", from.Name, err)
		}
		return from, nil
	}
	if cfg.Fits(v) == nil {
		return v, nil
	}
	for _, from := range env.Variants() {
		if cfg.Fits(from) == nil {
			return from, nil
		}
	}
	return env.Variant{}, fmt.Errorf("%w: no variant has the encoding of its network (%v)", model.ErrEncoding, cfg)
}

// close releases the evaluator, the trainer and the run folder.
func (r *runner) close() {
	if r.eval != nil {
		r.eval.Close()
	}
	if r.trainer != nil {
		r.trainer.Close()
	}
	if err := r.lock.Release(); err != nil {
		fmt.Fprintf(r.out, "warning: releasing the run folder: %v\n", err)
	}
	r.lock = nil
}

// elapsed is the run's training time so far, over all its sessions.
func (r *runner) elapsed() float64 {
	return r.state.ElapsedSec + time.Since(r.started).Seconds()
}

// newBar returns a progress bar on w (plain periodic lines when w is not
// a terminal), or nil when w is nil.
func newBar(w io.Writer, max int, desc, unit string) *progress.Bar {
	if w == nil {
		return nil
	}
	return progress.New(w, max, desc, unit)
}
