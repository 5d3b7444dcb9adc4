package train

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/alicezero/alicezero/internal/fileutil"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/train/replay"
)

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
	Metrics *runs.Metrics `json:"metrics,omitempty"`
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

// saveCheckpoint writes the weights, the optimiser and the run's state as
// the checkpoint of the iteration completed.
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
