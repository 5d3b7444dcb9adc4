package train

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/train/runs"
)

// TestSelfPlayFeedsLearn runs the distributed pair: two self-play
// processes write shards to a folder, a learner trains on them, and a
// self-play process following the run picks up the learner's checkpoint.
func TestSelfPlayFeedsLearn(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	cfg := tinyConfig(t)
	for _, id := range []string{"a", "b"} {
		if err := SelfPlayToFolder(context.Background(), SelfPlayOptions{Config: cfg, OutDir: data, Games: 4, ShardGames: 2, ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	shards, _ := filepath.Glob(filepath.Join(data, "*.shard"))
	if len(shards) != 4 {
		t.Fatalf("%d shards, want 4", len(shards))
	}
	var out bytes.Buffer
	err := Learn(context.Background(), LearnOptions{RunsDir: dir, Name: "learner", Config: cfg, DataDir: data, Once: true, Out: &out})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	ckpt, err := runs.Resolve(filepath.Join(dir, "learner"))
	if err != nil || !strings.HasSuffix(ckpt, "iter-000001.azck") {
		t.Fatalf("learner checkpoint %q, %v\n%s", ckpt, err, out.String())
	}
	c, err := model.LoadCheckpoint(ckpt)
	if err != nil || c.Step == 0 {
		t.Fatalf("learner took no steps: %v", err)
	}

	// A follower picks up the learner's newest checkpoint.
	out.Reset()
	err = SelfPlayToFolder(context.Background(), SelfPlayOptions{Config: cfg, Weights: filepath.Join(dir, "learner"), Follow: true,
		OutDir: data, Games: 2, ID: "c", Out: &out})
	if err != nil || !strings.Contains(out.String(), "iter-000001.azck") {
		t.Fatalf("follower: %v\n%s", err, out.String())
	}
	// Resuming the learner takes only the new shard.
	out.Reset()
	err = Learn(context.Background(), LearnOptions{RunsDir: dir, Name: "learner", Resume: true, DataDir: data, Once: true, Out: &out})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "round 2:") {
		t.Fatalf("second round missing:\n%s", out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "learner", runs.CheckpointDir, "iter-000002.azck")); err != nil {
		t.Fatal(err)
	}
}

func TestLearnErrors(t *testing.T) {
	dir := t.TempDir()
	err := Learn(context.Background(), LearnOptions{RunsDir: dir, Name: "x", Config: tinyConfig(t), DataDir: filepath.Join(dir, "missing"), Once: true})
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("missing data folder: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	err = Learn(context.Background(), LearnOptions{RunsDir: dir, Name: "y", Config: tinyConfig(t), DataDir: empty, Once: true})
	if err == nil || !strings.Contains(err.Error(), "no shards") {
		t.Fatalf("empty data folder: %v", err)
	}
}

// Interrupted, selfplay and learn say where they stopped and return the
// context's error, as train does: the command exits 130 for all three.
func TestSelfPlayAndLearnInterrupted(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	err := SelfPlayToFolder(ctx, SelfPlayOptions{Config: tinyConfig(t), OutDir: filepath.Join(dir, "data"), Games: 2, Out: &out})
	if !errors.Is(err, context.Canceled) || !strings.Contains(out.String(), "interrupted") {
		t.Errorf("selfplay: %v\n%s", err, out.String())
	}
	out.Reset()
	os.Mkdir(filepath.Join(dir, "data"), 0o755)
	err = Learn(ctx, LearnOptions{RunsDir: dir, Name: "l", Config: tinyConfig(t), DataDir: filepath.Join(dir, "data"), Out: &out})
	if !errors.Is(err, context.Canceled) || !strings.Contains(out.String(), "--resume l") {
		t.Errorf("learn: %v\n%s", err, out.String())
	}
}

// A follower started before its learner waits for the run's first
// checkpoint instead of failing.
func TestFollowerWaitsForTheRun(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "late")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	var mu sync.Mutex
	errc := make(chan error, 1)
	go func() {
		errc <- SelfPlayToFolder(ctx, SelfPlayOptions{Config: tinyConfig(t), Weights: run, Follow: true,
			OutDir: filepath.Join(dir, "data"), Games: 1, Out: &lockedBuffer{b: &out, mu: &mu}})
	}()
	time.Sleep(300 * time.Millisecond)
	var lout bytes.Buffer
	if err := Learn(ctx, LearnOptions{RunsDir: dir, Name: "late", Config: tinyConfig(t), DataDir: dir, Once: true, Out: &lout}); err == nil {
		t.Fatal("learn with no shards succeeded")
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(out.String(), "waiting for the first checkpoint") || !strings.Contains(out.String(), "iter-000000.azck") {
		t.Errorf("follower output:\n%s", out.String())
	}
}

type lockedBuffer struct {
	b  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
