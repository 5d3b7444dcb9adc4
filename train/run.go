package train

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/fileutil"
	"github.com/alicezero/alicezero/internal/progress"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/internal/seed"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/training"
	"github.com/alicezero/alicezero/train/replay"
	"go.yaml.in/yaml/v3"
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
	// checkpoint's. They must be of the configuration's architecture and
	// encoding for its variant; InitName says where they came from (for
	// the run's first line). Only the weights carry over: the optimiser,
	// the replay buffer and the step count start afresh.
	Init     *model.Weights
	InitName string
	// Iterations, if positive, overrides the total the run aims for; Seed,
	// if set, the run's seed.
	Iterations int
	Seed       *uint64
	// Out receives the per-iteration summary lines and warnings; Progress,
	// if set, the progress bars.
	Out      io.Writer
	Progress io.Writer
}

// runState is the run's progress, saved inside every checkpoint (its Extra
// field), so that a checkpoint alone says where the run stood.
type runState struct {
	Iteration      int     `json:"iteration"` // iterations completed
	TotalGames     int     `json:"total_games"`
	TotalPositions int     `json:"total_positions"`
	ElapsedSec     float64 `json:"elapsed_s"`
	// Shards are the files the replay window was filled from, oldest
	// first, as few as cover it: the run's own buffer/ shards (relative to
	// the run folder) or, for "learn", the shards it took from the data
	// folder (absolute). Older shards stay on disk but are not read on
	// resume.
	Shards []shardRef `json:"shards"`
	// Uses are the replay buffer's use counts (little-endian uint16s), one
	// per position of the window, oldest first.
	Uses []byte `json:"uses"`
	// Resign is the resignation calibration; ResignThreshold the threshold
	// in force for the next iteration (0: no resignation).
	Resign          resignCalibration `json:"resign"`
	ResignThreshold float64           `json:"resign_threshold"`
	// Heldout are the newest held-out measurements, oldest first (at most
	// heldoutKept).
	Heldout []heldout `json:"heldout,omitempty"`
	// Metrics is the completed iteration's metrics line, kept here so that
	// a run stopped between its checkpoint and metrics.jsonl writes the
	// line on resume.
	Metrics *Metrics `json:"metrics,omitempty"`
	// Consumed is the state of the bus "learn" takes shards from, as of
	// this checkpoint (bus.Source.Commit): the shard folder's files of the
	// completed round, or the ledger of the messages taken.
	Consumed json.RawMessage `json:"consumed,omitempty"`
}

// shardRef is one shard of the replay window and its number of positions.
type shardRef struct {
	Path      string `json:"path"`
	Positions int    `json:"positions"`
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
	history  []Metrics
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

func (r *runner) applyOverrides() {
	if r.opts.Iterations > 0 {
		r.cfg.Iterations = r.opts.Iterations
	}
	if r.opts.Seed != nil {
		r.cfg.Seed = *r.opts.Seed
	}
}

func (r *runner) create() error {
	if r.opts.Config == nil {
		return errors.New("train: a new run needs a configuration")
	}
	cfg := *r.opts.Config
	r.cfg = &cfg
	r.applyOverrides()
	if err := r.cfg.Validate(); err != nil {
		return err
	}
	name := r.opts.Name
	if name == "" {
		name = r.cfg.Name + "-" + time.Now().Format("20060102-150405")
	}
	var err error
	if r.dir, err = runs.Dir(r.opts.RunsDir, name); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	// A folder with a checkpoint or data is a run; one without (a run
	// stopped while it was being created, before its iteration-0
	// checkpoint was written) is taken over, its leftovers removed.
	started, err := runStarted(r.dir)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if started {
		return fmt.Errorf("run %s already exists in %s: continue it with --resume %s, or choose another --run name", name, r.opts.RunsDir, name)
	}
	if err := removeLeftovers(r.dir); err != nil {
		return fmt.Errorf("train: taking over the unfinished folder %s: %w", r.dir, err)
	}
	for _, d := range []string{runs.CheckpointDir, runs.BufferDir, runs.GamesDir} {
		if err := os.MkdirAll(filepath.Join(r.dir, d), 0o755); err != nil {
			return err
		}
	}
	if err := r.writeConfig(); err != nil {
		return err
	}
	if err := r.setUp(nil); err != nil {
		return err
	}
	// Iteration 0 is the untrained network: the first "earlier
	// checkpoint" and a starting point to resume from.
	if err := r.saveCheckpoint(); err != nil {
		return err
	}
	from := ""
	if r.opts.Init != nil {
		from = ", starting from " + r.opts.InitName
	}
	fmt.Fprintf(r.out, "new run %s: config %s, network %s (%d parameters%s), %s\n",
		r.dir, r.cfg.Name, r.cfg.Model.Preset, r.trainer.Weights().Config().NumParams(), from, r.goal())
	return nil
}

// goal describes how long the run trains: its iterations, or until it is
// stopped for a learner.
func (r *runner) goal() string {
	if r.learner {
		return "training until stopped"
	}
	return fmt.Sprintf("%d iterations", r.cfg.Iterations)
}

// runStarted reports whether the run folder dir holds a checkpoint or
// data (self-play shards, metrics); a missing folder has neither.
func runStarted(dir string) (bool, error) {
	its, err := runs.Checkpoints(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	if len(its) > 0 {
		return true, nil
	}
	for _, sub := range []string{runs.BufferDir, runs.GamesDir} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), ".") {
				return true, nil
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, runs.MetricsFile)); err == nil {
		return true, nil
	}
	return false, nil
}

// removeLeftovers deletes what an interrupted creation of the run folder
// dir left: half-written files (fileutil's ".NAME.tmp-*") in it and its
// checkpoint folder, and its config.yaml, which is written again.
func removeLeftovers(dir string) error {
	for _, d := range []string{dir, filepath.Join(dir, runs.CheckpointDir)} {
		tmps, err := filepath.Glob(filepath.Join(d, ".*.tmp-*"))
		if err != nil {
			return err
		}
		for _, f := range tmps {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	if err := os.Remove(filepath.Join(dir, runs.ConfigFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func (r *runner) writeConfig() error {
	b, err := yaml.Marshal(r.cfg)
	if err != nil {
		return err
	}
	header := "# The configuration of this run (flags applied). Documented field by field in configs/.\n"
	return fileutil.WriteAtomic(filepath.Join(r.dir, runs.ConfigFile), append([]byte(header), b...))
}

func (r *runner) resume() error {
	if r.opts.Name == "" {
		return errors.New("train: --resume needs the run's name")
	}
	var err error
	if r.dir, err = runs.Dir(r.opts.RunsDir, r.opts.Name); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if started, err := runStarted(r.dir); err == nil && !started {
		if _, err := os.Stat(r.dir); err == nil {
			return fmt.Errorf("resume %s: %s holds no checkpoint and no data: the run was stopped while it was being created; start it again with --run %s", r.opts.Name, r.dir, r.opts.Name)
		}
	}
	data, err := os.ReadFile(filepath.Join(r.dir, runs.ConfigFile))
	if err != nil {
		return fmt.Errorf("resume %s: %w", r.opts.Name, err)
	}
	cfg, defaulted, err := ParseConfigDefaulted(data, filepath.Join(r.dir, runs.ConfigFile))
	if err != nil {
		return err
	}
	if len(defaulted) > 0 {
		fmt.Fprintf(r.out, "note: %s lacks %s: taking the default's value (written back to the file)\n",
			filepath.Join(r.dir, runs.ConfigFile), strings.Join(defaulted, ", "))
	}
	r.cfg = cfg
	r.applyOverrides()
	if err := r.cfg.Validate(); err != nil {
		return err
	}
	ckpt, err := r.latestCheckpoint()
	if err != nil {
		return err
	}
	if err := r.setUp(ckpt); err != nil {
		return err
	}
	// --iterations is the total the run aims for, not a number more.
	if n := r.opts.Iterations; n > 0 && n < r.state.Iteration && !r.learner {
		return fmt.Errorf("resume %s: the run is at iteration %d already; --iterations is the total it aims for: give at least %d (e.g. --iterations %d for %d more)",
			r.opts.Name, r.state.Iteration, r.state.Iteration, r.state.Iteration+n, n)
	}
	if err := r.writeConfig(); err != nil {
		return err
	}
	at := fmt.Sprintf("iteration %d of %d", r.state.Iteration, r.cfg.Iterations)
	if r.learner {
		at = fmt.Sprintf("iteration %d", r.state.Iteration)
	}
	fmt.Fprintf(r.out, "resuming run %s at %s (%d games, %d positions so far)\n",
		r.dir, at, r.state.TotalGames, r.state.TotalPositions)
	return nil
}

// latestCheckpoint loads the newest readable checkpoint, warning about
// each newer one that is damaged.
func (r *runner) latestCheckpoint() (*model.Checkpoint, error) {
	its, err := runs.Checkpoints(r.dir)
	if err != nil {
		return nil, fmt.Errorf("resume: %w", err)
	}
	for _, it := range its {
		c, err := model.LoadCheckpoint(runs.CheckpointPath(r.dir, it))
		if err == nil {
			var st runState
			if err = json.Unmarshal(c.Extra, &st); err == nil && st.Iteration != it {
				err = fmt.Errorf("holds the state of iteration %d", st.Iteration)
			}
			if err == nil {
				return c, nil
			}
		}
		fmt.Fprintf(r.out, "warning: checkpoint %s is unreadable (%v); falling back to the one before\n", runs.CheckpointPath(r.dir, it), err)
	}
	return nil, fmt.Errorf("resume: no readable checkpoint in %s", filepath.Join(r.dir, runs.CheckpointDir))
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
		if err := initWeights(w, r.opts.Init, r.opts.InitName, r.cfg, r.variant); err != nil {
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

// initWeights copies init, the weights a new run starts from, into w, the
// configuration's fresh network; the error says why weights of another
// encoding or architecture cannot be taken.
func initWeights(w, init *model.Weights, name string, cfg *Config, v env.Variant) error {
	if err := init.Config().Fits(v); err != nil {
		return fmt.Errorf("--init %s: cannot start a run of %s from it: %w", name, v.Name, err)
	}
	if err := w.CopyFrom(init); err != nil {
		return fmt.Errorf("--init %s: the configuration's model preset is %q: %w: choose a configuration of that architecture", name, cfg.Model.Preset, err)
	}
	return nil
}

// loadBuffer rebuilds the replay window from the shards the checkpoint
// lists, newest first until they cover it, with the saved use counts. A
// shard that cannot be read is skipped with a warning (its positions are
// lost to the window; the use counts are then reset).
func (r *runner) loadBuffer() error {
	uses := make([]uint16, len(r.state.Uses)/2)
	for i := range uses {
		uses[i] = binary.LittleEndian.Uint16(r.state.Uses[2*i:])
	}
	var parts [][]replay.Sample
	have, skipped := 0, 0
	for i := len(r.state.Shards) - 1; i >= 0 && have < len(uses); i-- {
		ref := r.state.Shards[i]
		path := ref.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(r.dir, path)
		}
		samples, err := replay.ReadShard(path)
		if err == nil && len(samples) != ref.Positions {
			err = fmt.Errorf("replay shard %s holds %d positions, the checkpoint counts %d", path, len(samples), ref.Positions)
		}
		if err != nil {
			fmt.Fprintf(r.out, "warning: resume: skipping a replay shard: %v\n", err)
			skipped++
			continue
		}
		parts = append(parts, samples)
		have += len(samples)
	}
	window := make([]replay.Sample, 0, have)
	for i := len(parts) - 1; i >= 0; i-- {
		window = append(window, parts[i]...)
	}
	if len(window) > len(uses) {
		window = window[len(window)-len(uses):]
	}
	r.buf.SetTotal(r.state.TotalPositions - len(window))
	r.buf.Add(window)
	r.skippedShards = skipped
	if skipped > 0 {
		fmt.Fprintf(r.out, "warning: resume: %d replay shard(s) skipped; the window holds %d of %d positions and its use counts start again\n",
			skipped, len(window), len(uses))
		return nil
	}
	return r.buf.SetUses(uses)
}

// rewriteMetrics rewrites metrics.jsonl with the history kept on resume,
// so that redone iterations do not appear twice.
func (r *runner) rewriteMetrics() error {
	var sb strings.Builder
	for i := range r.history {
		b, err := json.Marshal(&r.history[i])
		if err != nil {
			return err
		}
		sb.Write(b)
		sb.WriteByte('\n')
	}
	return fileutil.WriteAtomic(filepath.Join(r.dir, runs.MetricsFile), []byte(sb.String()))
}

func (r *runner) close() {
	if r.eval != nil {
		r.eval.Close()
	}
	if r.trainer != nil {
		r.trainer.Close()
	}
}

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

// iteration runs one iteration: self-play, training, checkpoint, and
// (every few iterations) the strength matches.
func (r *runner) iteration(ctx context.Context, it int) error {
	m := Metrics{Iteration: it}
	cfg := r.cfg

	// Self-play.
	bar := newBar(r.opts.Progress, cfg.SelfPlay.GamesPerIteration, fmt.Sprintf("iteration %d/%d self-play", it, cfg.Iterations), "games")
	spStart := time.Now()
	r.searcher.ResetStats()
	threshold := r.resignThreshold(it)
	games, err := selfPlay(ctx, cfg, r.variant, r.searcher, it, cfg.SelfPlay.GamesPerIteration, threshold, func(*SelfPlayGame) {
		if bar != nil {
			bar.Add(1)
		}
	})
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	spTime := time.Since(spStart).Seconds()
	var samples []replay.Sample
	plies := 0
	for _, g := range games {
		samples = append(samples, g.Samples...)
		plies += len(g.Moves)
		switch {
		case g.Resigned:
			m.Resigned++
		case g.Status == env.Adjudicated:
			m.Adjudicated++
			if g.Result != env.Draw {
				m.AdjudicatedWins++
			}
		}
		switch g.Result {
		case env.WhiteWins:
			m.WhiteWins++
		case env.BlackWins:
			m.BlackWins++
		default:
			m.Draws++
		}
		if g.NoResign {
			m.NoResignGames++
		}
	}
	m.Games, m.Positions = len(games), len(samples)
	m.MeanGameLength = float64(plies) / float64(max(1, len(games)))
	m.GamesPerHour = float64(len(games)) / spTime * 3600
	m.PositionsPerS = float64(plies) / spTime
	m.SimsPerS = float64(r.searcher.Stats().Playouts) / spTime
	r.calibrateResignation(games, threshold, &m)
	shard := runs.ShardName(it)
	if err := replay.WriteShard(filepath.Join(r.dir, shard), samples); err != nil {
		return err
	}
	if err := r.writeGames(it, games); err != nil {
		return err
	}
	r.state.TotalGames += len(games)
	return r.learn(ctx, it, []shardRef{{Path: shard, Positions: len(samples)}}, samples, &m)
}

// resignThreshold is the resignation threshold in force for iteration it:
// the calibrated one, once the iteration and the value head allow it.
func (r *runner) resignThreshold(it int) float64 {
	sp := &r.cfg.SelfPlay
	if sp.ResignFalseRate == 0 || it < sp.ResignFrom || !valueHeadBeatsGuess(r.state.Heldout) {
		return 0
	}
	return r.state.ResignThreshold
}

// calibrateResignation adds the iteration's played-out games to the
// calibration, reports how the threshold in force (else the calibrated
// one) did on them, and calibrates the threshold for the next iteration.
func (r *runner) calibrateResignation(games []*SelfPlayGame, inForce float64, m *Metrics) {
	sp := &r.cfg.SelfPlay
	if sp.ResignFalseRate == 0 {
		return
	}
	var fresh resignCalibration
	fresh.add(games)
	check := inForce
	if check == 0 {
		check = r.state.ResignThreshold
	}
	if check > 0 {
		c := checkThreshold(fresh.Records, check)
		m.ResignChecked, m.ResignCapped = c.Cases, c.Capped
		if c.Cases > 0 {
			rate := c.Rate()
			m.FalseResignRate = &rate
		}
	}
	m.ResignThreshold = inForce
	r.state.Resign.add(games)
	r.state.ResignThreshold = r.state.Resign.threshold(sp.ResignFalseRate)
}

// learn finishes an iteration whose new samples come from shards: the
// held-out measurement, optimiser steps, the checkpoint, the strength
// matches every few iterations, the metrics and the plots.
func (r *runner) learn(ctx context.Context, it int, shards []shardRef, samples []replay.Sample, m *Metrics) error {
	// Score the new positions before learning from them: the only honest
	// measure of what the network has learnt.
	h, err := measureHeldout(ctx, r.eval, r.variant, samples)
	if err != nil {
		return fmt.Errorf("held-out measurement: %w", err)
	}
	m.setHeldout(&h)
	r.state.Heldout = append(r.state.Heldout, h)
	if n := len(r.state.Heldout); n > heldoutKept {
		r.state.Heldout = append(r.state.Heldout[:0:0], r.state.Heldout[n-heldoutKept:]...)
	}
	r.buf.Add(samples)
	r.state.Shards = append(r.state.Shards, shards...)
	if err := r.trainSteps(ctx, it, len(samples), m); err != nil {
		return err
	}
	if err := r.eval.SetWeights(r.trainer.Weights()); err != nil {
		return err
	}
	r.searcher.ClearCache()

	// Checkpoint: from here on the iteration is done.
	r.state.Iteration = it
	r.state.TotalPositions += len(samples)
	r.state.ElapsedSec = r.elapsed()
	r.started = time.Now()
	m.SkippedShards, r.skippedShards = r.skippedShards, 0
	m.BufferSize, m.TotalPositions = r.buf.Len(), r.state.TotalPositions
	m.ElapsedSec = r.state.ElapsedSec
	m.Time = time.Now().UTC().Format(time.RFC3339)
	r.state.Metrics = m
	if err := r.saveCheckpoint(); err != nil {
		return err
	}
	r.pruneCheckpoints()
	if r.checkpointed != nil {
		r.checkpointed()
	}
	return r.finishIteration(ctx, *m)
}

// finishIteration runs a checkpointed iteration's strength matches (if
// due), then writes its metrics line and plots. A run stopped before the
// line was written does this on resume, so that metrics.jsonl has no gaps.
func (r *runner) finishIteration(ctx context.Context, m Metrics) error {
	if e := r.cfg.Evaluate.Every; e > 0 && m.Iteration%e == 0 && m.Eval == nil {
		ev, err := r.evaluate(ctx, m.Iteration)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			fmt.Fprintf(r.out, "warning: strength matches of iteration %d failed: %v\n", m.Iteration, err)
		} else {
			m.Eval = ev
		}
	}
	if err := appendMetrics(filepath.Join(r.dir, runs.MetricsFile), &m); err != nil {
		return err
	}
	r.history = append(r.history, m)
	if err := writePlots(r.dir, r.history); err != nil {
		fmt.Fprintf(r.out, "warning: plotting: %v\n", err)
	}
	fmt.Fprintln(r.out, summaryLine(&m))
	return nil
}

// finishInterrupted completes the newest checkpoint's iteration if the run
// stopped before its metrics line (and strength matches) were written.
func (r *runner) finishInterrupted(ctx context.Context) error {
	m := r.state.Metrics
	if m == nil || m.Iteration != r.state.Iteration {
		return nil
	}
	if n := len(r.history); n > 0 && r.history[n-1].Iteration >= m.Iteration {
		return nil
	}
	fmt.Fprintf(r.out, "completing iteration %d: its metrics line was not written before the run stopped\n", m.Iteration)
	return r.finishIteration(ctx, *m)
}

func (r *runner) trainSteps(ctx context.Context, it, newPositions int, m *Metrics) error {
	t := &r.cfg.Train
	if r.buf.Len() < t.MinBuffer {
		return nil
	}
	steps := int(math.Ceil(float64(newPositions) * t.SampleReuse / float64(t.BatchSize)))
	rng := rand.New(rand.NewPCG(seed.Derive(r.cfg.Seed, "train", uint64(it), uint64(0)), 2))
	batch := replay.NewBatch(t.BatchSize, r.variant)
	bar := newBar(r.opts.Progress, steps, fmt.Sprintf("iteration %d/%d training", it, r.cfg.Iterations), "steps")
	start := time.Now()
	var sum training.Losses
	done := 0
	for ; done < steps; done++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		samples, err := r.buf.Sample(rng, t.BatchSize)
		if errors.Is(err, replay.ErrExhausted) {
			fmt.Fprintf(r.out, "note: every position in the window reached max_uses after %d of %d steps\n", done, steps)
			break
		}
		if err != nil {
			return err
		}
		batch.Fill(samples, rng, float32(t.ValueQWeight))
		l, err := r.trainer.Step(batch.Planes, batch.Policy, batch.Legal, batch.WDL)
		if err != nil {
			return fmt.Errorf("training step %d: %w", done+1, err)
		}
		sum.Policy += l.Policy
		sum.PolicyEntropy += l.PolicyEntropy
		sum.Value += l.Value
		sum.L2 += l.L2
		sum.Total += l.Total
		m.LearningRate = l.LR
		if bar != nil {
			bar.Add(1)
		}
	}
	if bar != nil {
		bar.Finish()
	}
	m.Steps = done
	m.TotalSteps = r.trainer.Steps()
	if done > 0 {
		n := float64(done)
		m.LossPolicy, m.LossValue, m.LossL2, m.LossTotal = sum.Policy/n, sum.Value/n, sum.L2/n, sum.Total/n
		m.PolicyEntropy = sum.PolicyEntropy / n
		m.PolicyKL = m.LossPolicy - m.PolicyEntropy
		m.TrainPosPerS = n * float64(t.BatchSize) / time.Since(start).Seconds()
	}
	return nil
}

func (r *runner) saveCheckpoint() error {
	uses := r.buf.Uses()
	r.state.Uses = make([]byte, 2*len(uses))
	for i, u := range uses {
		binary.LittleEndian.PutUint16(r.state.Uses[2*i:], u)
	}
	// List only the shards the window still draws from, so that resuming
	// costs what the window holds, not what the run ever produced.
	covered, first := 0, len(r.state.Shards)
	for first > 0 && covered < len(uses) {
		first--
		covered += r.state.Shards[first].Positions
	}
	r.state.Shards = append([]shardRef(nil), r.state.Shards[first:]...)
	extra, err := json.Marshal(&r.state)
	if err != nil {
		return err
	}
	meta := map[string]string{"run": filepath.Base(r.dir), "config": r.cfg.Name, "variant": r.cfg.Variant,
		"iteration": fmt.Sprint(r.state.Iteration)}
	return model.SaveCheckpoint(runs.CheckpointPath(r.dir, r.state.Iteration), r.trainer.Checkpoint(meta, extra))
}

// pruneCheckpoints keeps the newest KeepLast checkpoints, every
// KeepEvery-th, and iteration 0.
func (r *runner) pruneCheckpoints() {
	its, err := runs.Checkpoints(r.dir)
	if err != nil {
		return
	}
	k := &r.cfg.Checkpoint
	for i, it := range its {
		if i < k.KeepLast || it == 0 || (k.KeepEvery > 0 && it%k.KeepEvery == 0) {
			continue
		}
		if err := os.Remove(runs.CheckpointPath(r.dir, it)); err != nil {
			fmt.Fprintf(r.out, "warning: %v\n", err)
		}
	}
}

// summaryLine is the one line printed per iteration.
func summaryLine(m *Metrics) string {
	var sb strings.Builder
	switch {
	case len(m.Workers) > 0 || m.StaleShards > 0 || m.RejectedShards > 0:
		learnerRound(&sb, m)
	case m.Games > 0:
		fmt.Fprintf(&sb, "iter %d: %d games (%.0f/h, %.0f pos/s), len %.1f, W/D/B %d/%d/%d (adj %d, resign %d)",
			m.Iteration, m.Games, m.GamesPerHour, m.PositionsPerS, m.MeanGameLength, m.WhiteWins, m.Draws, m.BlackWins, m.Adjudicated, m.Resigned)
	default:
		fmt.Fprintf(&sb, "round %d: %d new positions", m.Iteration, m.Positions)
	}
	if m.Steps > 0 {
		fmt.Fprintf(&sb, " | %d steps, loss p %.3f (kl %.3f) v %.3f l2 %.4f", m.Steps, m.LossPolicy, m.PolicyKL, m.LossValue, m.LossL2)
	} else {
		sb.WriteString(" | no training yet")
	}
	if m.HeldoutValueBaseline > 0 {
		fmt.Fprintf(&sb, " | held-out v %.3f (const %.3f) kl %.2f", m.HeldoutValueLoss, m.HeldoutValueBaseline, m.HeldoutPolicyKL)
	}
	if m.ResignThreshold > 0 {
		fmt.Fprintf(&sb, " | resign < -%.2f", m.ResignThreshold)
	}
	if m.FalseResignRate != nil {
		fmt.Fprintf(&sb, " (false %.0f%% of %d)", 100**m.FalseResignRate, m.ResignChecked)
	}
	fmt.Fprintf(&sb, " | buffer %d", m.BufferSize)
	if e := m.Eval; e != nil {
		for _, s := range []*MatchScore{e.VsRandom, e.VsAlphaBeta, e.VsPrevious} {
			if s != nil {
				fmt.Fprintf(&sb, " | vs %s %.0f%%", s.Opponent, 100*s.Score)
			}
		}
	}
	fmt.Fprintf(&sb, " | %s", time.Duration(m.ElapsedSec*float64(time.Second)).Round(time.Second))
	return sb.String()
}
