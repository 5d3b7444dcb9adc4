package train

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/alicezero/alicezero/internal/fileutil"
	"github.com/alicezero/alicezero/internal/runs"
)

// applyOverrides puts the options' iterations and seed over the
// configuration's.
func (r *runner) applyOverrides() {
	if r.opts.Iterations > 0 {
		r.cfg.Iterations = r.opts.Iterations
	}
	if r.opts.Seed != nil {
		r.cfg.Seed = *r.opts.Seed
	}
}

// create makes a new run folder (or takes over one whose creation was
// interrupted), writes its configuration and its iteration-0 checkpoint.
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
		return err
	}
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		return err
	}
	if err := r.hold(); err != nil {
		return err
	}
	// A folder with a checkpoint or data is a run; one without (a run
	// stopped while it was being created, before its iteration-0
	// checkpoint was written) is taken over, its leftovers removed.
	started, err := runStarted(r.dir)
	if err != nil {
		return fmt.Errorf("reading the run folder: %w", err)
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
	if r.initReport != "" {
		fmt.Fprintln(r.out, r.initReport)
	}
	return nil
}

// hold takes the run folder for this process (see runs.Acquire), so that
// a second process on the same run is refused before it writes anything.
func (r *runner) hold() error {
	command := "train"
	if r.learner {
		command = "learn"
	}
	l, err := runs.Acquire(r.dir, command)
	if err != nil {
		return err
	}
	r.lock = l
	if l.Stale != nil {
		fmt.Fprintf(r.out, "note: taking run %s over from %s, which ended without releasing it\n", r.dir, *l.Stale)
	}
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

// writeConfig writes the run's configuration, flags applied, to its
// folder.
func (r *runner) writeConfig() error {
	b, err := yaml.Marshal(r.cfg)
	if err != nil {
		return err
	}
	header := "# The configuration of this run (flags applied). Documented field by field in configs/.\n"
	return fileutil.WriteAtomic(filepath.Join(r.dir, runs.ConfigFile), append([]byte(header), b...))
}

// resume opens an existing run folder at its newest readable checkpoint,
// with the configuration saved there.
func (r *runner) resume() error {
	if r.opts.Name == "" {
		return errors.New("train: --resume needs the run's name")
	}
	var err error
	if r.dir, err = runs.Dir(r.opts.RunsDir, r.opts.Name); err != nil {
		return err
	}
	if err := r.hold(); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("resume %s: no run folder %s", r.opts.Name, r.dir)
		}
		return err
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
	// A network plays the variant it was trained for: an edited variant
	// would either not fit the checkpoint (another encoding) or, worse,
	// fit it and go on training it for other rules.
	if trained := ckpt.Meta["variant"]; trained != "" && trained != r.cfg.Variant {
		return fmt.Errorf("resume %s: %s says variant %s, but the run's network was trained for %s: set variant: %s again there, or start a new run for %s",
			r.opts.Name, filepath.Join(r.dir, runs.ConfigFile), r.cfg.Variant, trained, trained, r.cfg.Variant)
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
