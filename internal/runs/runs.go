// Package runs owns the layout of a training run's folder: where the
// configuration, the checkpoints, the replay shards, the sampled games and
// the metrics go, how checkpoints are named, which one is the newest, and
// how a path given by a user (a checkpoint file, a run folder, a run's
// checkpoints folder) becomes a checkpoint file, the lock that lets one
// process at a time train a run (Acquire), and the record of the metrics
// file (Metrics: the training loop writes it, the web server reads it).
// It imports nothing of the project, so the engine, the exporter, the
// training loop and the server can all use it without linking each other.
//
// A run folder looks like this:
//
//	checkpoints/small-20250101-120000/   the run (in the runs folder)
//	    config.yaml                      its configuration
//	    metrics.jsonl                    one JSON line per iteration
//	    checkpoints/iter-000012.azck     network, optimiser and run state
//	    buffer/iter-000012.shard         the iteration's self-play positions
//	    games/iter-000012.pgn            sampled self-play games
//	    curves.png, curves.svg           the plots
//	    run.lock                         the process training it (Acquire)
package runs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultRunsDir is the folder that holds the runs unless told otherwise.
const DefaultRunsDir = "checkpoints"

// The names inside a run folder.
const (
	ConfigFile    = "config.yaml"
	MetricsFile   = "metrics.jsonl"
	CheckpointDir = "checkpoints"
	BufferDir     = "buffer"
	GamesDir      = "games"
	PlotPNG       = "curves.png"
	PlotSVG       = "curves.svg"

	// CheckpointPattern, ShardPattern and PGNPattern name an iteration's
	// files (fmt patterns of the iteration number).
	CheckpointPattern = "iter-%06d.azck"
	ShardPattern      = "iter-%06d.shard"
	PGNPattern        = "iter-%06d.pgn"
)

// CheckName reports whether name can name a run: one folder name, not a
// path, so that a run never lands outside its runs folder ("../x", "/x",
// "a/b" and "." are refused).
func CheckName(name string) error {
	switch {
	case name == "":
		return errors.New("empty run name")
	case name == "." || name == "..":
		return fmt.Errorf("run name %q: want a folder name", name)
	case strings.ContainsAny(name, `/\`) || filepath.IsAbs(name) || filepath.VolumeName(name) != "":
		return fmt.Errorf("run name %q: want a folder name inside the runs folder, not a path", name)
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("run name %q: must not start with a dot", name)
	}
	return nil
}

// Dir returns the folder of run name inside runsDir ("" means
// DefaultRunsDir), refusing names that are not plain folder names.
func Dir(runsDir, name string) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	if runsDir == "" {
		runsDir = DefaultRunsDir
	}
	return filepath.Join(runsDir, name), nil
}

// CheckpointPath returns the path of iteration it's checkpoint in runDir.
func CheckpointPath(runDir string, it int) string {
	return filepath.Join(runDir, CheckpointDir, fmt.Sprintf(CheckpointPattern, it))
}

// ShardName returns iteration it's shard file relative to the run folder
// (as a checkpoint's run state lists it).
func ShardName(it int) string {
	return filepath.Join(BufferDir, fmt.Sprintf(ShardPattern, it))
}

// GamesPath returns the path of iteration it's sampled games in runDir.
func GamesPath(runDir string, it int) string {
	return filepath.Join(runDir, GamesDir, fmt.Sprintf(PGNPattern, it))
}

// Checkpoints lists the iterations of runDir's checkpoints, newest first.
// Files that merely look like checkpoints (iter-7.azck, temporary files)
// are not listed.
func Checkpoints(runDir string) ([]int, error) {
	entries, err := os.ReadDir(filepath.Join(runDir, CheckpointDir))
	if err != nil {
		return nil, err
	}
	var its []int
	for _, e := range entries {
		if it, ok := checkpointIteration(e.Name()); ok && !e.IsDir() {
			its = append(its, it)
		}
	}
	slices.Sort(its)
	slices.Reverse(its)
	return its, nil
}

// checkpointIteration reads the iteration of a checkpoint file's name.
func checkpointIteration(name string) (int, bool) {
	var it int
	if n, _ := fmt.Sscanf(name, CheckpointPattern, &it); n != 1 || it < 0 || name != fmt.Sprintf(CheckpointPattern, it) {
		return 0, false
	}
	return it, true
}

// Newest returns the path of runDir's newest checkpoint.
func Newest(runDir string) (string, error) {
	its, err := Checkpoints(runDir)
	if err != nil || len(its) == 0 {
		return "", fmt.Errorf("%s holds no checkpoints (want a checkpoint file or a run folder)", runDir)
	}
	return CheckpointPath(runDir, its[0]), nil
}

// Resolve turns what a user names as a network into a checkpoint file: a
// file stands for itself, a run folder (or its checkpoints folder) for its
// newest checkpoint. The error says which of these path is not.
func Resolve(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("%s does not exist (want a checkpoint file or a run folder)", path)
		}
		return "", err
	}
	if !st.IsDir() {
		return path, nil
	}
	newest, err := Newest(path)
	if err == nil {
		return newest, nil
	}
	// A run's checkpoints folder stands for its run.
	if clean := filepath.Clean(path); filepath.Base(clean) == CheckpointDir {
		if n, perr := Newest(filepath.Dir(clean)); perr == nil {
			return n, nil
		}
	}
	return "", err
}

// List returns the names of the runs in runsDir ("" means DefaultRunsDir):
// its folders that hold a configuration or a checkpoints folder, sorted.
// A missing runsDir holds no runs.
func List(runsDir string) ([]string, error) {
	if runsDir == "" {
		runsDir = DefaultRunsDir
	}
	entries, err := os.ReadDir(runsDir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() || CheckName(e.Name()) != nil {
			continue
		}
		dir := filepath.Join(runsDir, e.Name())
		if exists(filepath.Join(dir, ConfigFile)) || exists(filepath.Join(dir, CheckpointDir)) {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
