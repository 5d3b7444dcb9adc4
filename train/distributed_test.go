package train

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/train/bus/folder"
)

// folderBus opens a shard folder as the learner's bus, with the run's
// checkpoints as its networks.
func folderBus(dir string) func(context.Context, string) (*LearnBus, error) {
	return func(_ context.Context, runDir string) (*LearnBus, error) {
		src, err := folder.NewSource(dir, nil)
		if err != nil {
			return nil, err
		}
		return &LearnBus{Source: src, Networks: folder.Networks{Dir: filepath.Join(runDir, runs.CheckpointDir)}}, nil
	}
}

func folderWorker(t *testing.T, cfg *Config, data, id string, games int, nets *folder.Networks, out *bytes.Buffer) {
	t.Helper()
	sink, err := folder.NewSink(data, id)
	if err != nil {
		t.Fatal(err)
	}
	o := WorkerOptions{Config: cfg, Sink: sink, Worker: id, Games: games, ShardGames: 2}
	if out != nil {
		o.Out = out
	}
	if nets != nil {
		o.Networks = nets
	}
	if err := SelfPlayWorker(context.Background(), o); err != nil {
		t.Fatal(err)
	}
}

// TestSelfPlayFeedsLearn runs the shared-folder pair: two workers write
// shards to a folder, a learner trains on them, and a worker following the
// run picks up the learner's checkpoint.
func TestSelfPlayFeedsLearn(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	cfg := tinyConfig(t)
	for _, id := range []string{"a", "b"} {
		folderWorker(t, cfg, data, id, 4, nil, nil)
	}
	shards, _ := filepath.Glob(filepath.Join(data, "*.shard"))
	if len(shards) != 4 {
		t.Fatalf("%d shards, want 4", len(shards))
	}
	var out bytes.Buffer
	err := Learn(context.Background(), LearnOptions{RunsDir: dir, Name: "learner", Config: cfg, Open: folderBus(data), Once: true, Out: &out})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "round 1: ") || !strings.Contains(out.String(), "8 games (a ") {
		t.Fatalf("summary line:\n%s", out.String())
	}
	ckpt, err := runs.Resolve(filepath.Join(dir, "learner"))
	if err != nil || !strings.HasSuffix(ckpt, "iter-000001.azck") {
		t.Fatalf("learner checkpoint %q, %v\n%s", ckpt, err, out.String())
	}
	c, err := model.LoadCheckpoint(ckpt)
	if err != nil || c.Step == 0 {
		t.Fatalf("learner took no steps: %v", err)
	}
	used, _ := filepath.Glob(filepath.Join(data, "*.shard.used"))
	if len(used) != 4 {
		t.Fatalf("%d shards marked used, want 4", len(used))
	}

	// A follower picks up the learner's newest checkpoint.
	out.Reset()
	folderWorker(t, cfg, data, "c", 2, &folder.Networks{Dir: filepath.Join(dir, "learner", runs.CheckpointDir)}, &out)
	if !strings.Contains(out.String(), "network 1") {
		t.Fatalf("follower:\n%s", out.String())
	}
	// Resuming the learner takes only the new shard.
	out.Reset()
	err = Learn(context.Background(), LearnOptions{RunsDir: dir, Name: "learner", Resume: true, Open: folderBus(data), Once: true, Out: &out})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "round 2: ") || !strings.Contains(out.String(), "2 games (c ") {
		t.Fatalf("second round missing:\n%s", out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "learner", runs.CheckpointDir, "iter-000002.azck")); err != nil {
		t.Fatal(err)
	}
}

func TestLearnErrors(t *testing.T) {
	dir := t.TempDir()
	err := Learn(context.Background(), LearnOptions{RunsDir: dir, Name: "x", Config: tinyConfig(t), Open: folderBus(filepath.Join(dir, "missing")), Once: true})
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("missing data folder: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	err = Learn(context.Background(), LearnOptions{RunsDir: dir, Name: "y", Config: tinyConfig(t), Open: folderBus(empty), Once: true})
	if err == nil || !strings.Contains(err.Error(), "no shards") {
		t.Fatalf("empty data folder: %v", err)
	}
	err = Learn(context.Background(), LearnOptions{RunsDir: dir, Name: "z", Config: tinyConfig(t), Once: true})
	if err == nil || !strings.Contains(err.Error(), "no bus") {
		t.Fatalf("no bus: %v", err)
	}
}

// Interrupted, a worker and the learner say where they stopped and return
// the context's error, as train does: the command exits 130 for all three.
func TestSelfPlayAndLearnInterrupted(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sink, err := folder.NewSink(data, "w")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = SelfPlayWorker(ctx, WorkerOptions{Config: tinyConfig(t), Sink: sink, Worker: "w", Games: 2, Out: &out})
	if !errors.Is(err, context.Canceled) || !strings.Contains(out.String(), "interrupted") {
		t.Errorf("selfplay: %v\n%s", err, out.String())
	}
	out.Reset()
	err = Learn(ctx, LearnOptions{RunsDir: dir, Name: "l", Config: tinyConfig(t), Open: folderBus(data), Out: &out})
	if !errors.Is(err, context.Canceled) || !strings.Contains(out.String(), "--resume l") {
		t.Errorf("learn: %v\n%s", err, out.String())
	}
}
