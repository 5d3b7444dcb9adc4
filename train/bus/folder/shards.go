package folder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/alicezero/alicezero/internal/sleep"
	"github.com/alicezero/alicezero/train/bus"
	"github.com/alicezero/alicezero/train/replay"
)

// shardName matches a worker's shard file; the description is optional.
// It is compiled on first use: at package level it would cost every
// process, most of which never read a shard folder, at start-up.
var shardName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^sp-(.+)-(\d{6,})(?:\.n(-?\d+)\.g(\d+)\.t(\d+))?\.shard$`)
})

// Source reads the shard files of a folder for a learner.
type Source struct {
	dir string
	// Out receives warnings about files that could not be renamed.
	out io.Writer

	mu sync.Mutex
	// handed are the files handed out and not yet acknowledged or
	// rejected.
	handed map[string]bool
}

// NewSource returns the source of dir's shards; warnings go to out.
func NewSource(dir string, out io.Writer) (*Source, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("shard folder %s: not a folder (%v)", dir, err)
	}
	if out == nil {
		out = io.Discard
	}
	return &Source{dir: abs, out: out, handed: map[string]bool{}}, nil
}

// Resume implements bus.Source: the state is the files of the last
// round, renamed now if the learner stopped before it did so. The state of
// another transport (a run fed over NATS before) is not a list: there is
// nothing to rename.
func (s *Source) Resume(_ context.Context, state json.RawMessage) error {
	if len(state) == 0 || state[0] != '[' {
		return nil
	}
	var used []string
	if err := json.Unmarshal(state, &used); err != nil {
		return fmt.Errorf("shard folder: the checkpoint's list of used shards: %w", err)
	}
	s.mark(used, ".used")
	return nil
}

// Next implements bus.Source: the complete shard files, oldest first.
func (s *Source) Next(ctx context.Context, wait time.Duration) ([]*bus.Delivery, error) {
	paths, err := s.fresh()
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		if err := sleep.For(ctx, wait); err != nil {
			return nil, err
		}
		if paths, err = s.fresh(); err != nil {
			return nil, err
		}
	}
	out := make([]*bus.Delivery, 0, len(paths))
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range paths {
		d := &bus.Delivery{ID: p, Info: parseName(filepath.Base(p))}
		d.Data, d.Err = os.ReadFile(p)
		s.handed[p] = true
		out = append(out, d)
	}
	return out, nil
}

// parseName reads a shard's description from its file name.
func parseName(name string) bus.ShardInfo {
	info := bus.ShardInfo{Network: -1}
	m := shardName().FindStringSubmatch(name)
	if m == nil {
		return info
	}
	info.Worker = m[1]
	if m[3] != "" {
		info.Network, _ = strconv.Atoi(m[3])
		info.Games, _ = strconv.Atoi(m[4])
		ms, _ := strconv.ParseInt(m[5], 10, 64)
		info.PlaySeconds = float64(ms) / 1000
	}
	return info
}

// fresh lists the complete shard files not handed out, oldest first (by
// modification time, then name). Taken ones carry a suffix after .shard.
func (s *Source) fresh() ([]string, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, err
	}
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	s.mu.Lock()
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(s.dir, name)
		// Temporary files of an atomic write start with a dot.
		if e.IsDir() || !strings.HasSuffix(name, ".shard") || strings.HasPrefix(name, ".") || s.handed[path] {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, file{path, info.ModTime()})
	}
	s.mu.Unlock()
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

// Reject implements bus.Source: the file is renamed .bad.
func (s *Source) Reject(_ context.Context, d *bus.Delivery, _ error) error {
	s.settle([]*bus.Delivery{d})
	return s.rename(d.ID, ".bad")
}

// Commit implements bus.Source: the state is the files taken.
func (s *Source) Commit(ds []*bus.Delivery) (json.RawMessage, error) {
	paths := make([]string, len(ds))
	for i, d := range ds {
		paths[i] = d.ID
	}
	return json.Marshal(paths)
}

// Ack implements bus.Source: the files are renamed .used.
func (s *Source) Ack(_ context.Context, ds []*bus.Delivery) error {
	s.settle(ds)
	paths := make([]string, len(ds))
	for i, d := range ds {
		paths[i] = d.ID
	}
	s.mark(paths, ".used")
	return nil
}

// Close implements bus.Source.
func (s *Source) Close() error { return nil }

func (s *Source) settle(ds []*bus.Delivery) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range ds {
		delete(s.handed, d.ID)
	}
}

// mark renames files with suffix, warning about those it cannot rename;
// files already renamed are skipped.
func (s *Source) mark(paths []string, suffix string) {
	for _, p := range paths {
		if err := s.rename(p, suffix); err != nil {
			fmt.Fprintf(s.out, "warning: %v\n", err)
		}
	}
}

func (s *Source) rename(path, suffix string) error {
	if err := os.Rename(path, path+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// Sink writes a worker's shards into a folder.
type Sink struct {
	dir    string
	worker string
	seq    int
}

// NewSink returns the sink of worker into dir (created if missing). Its
// shards are numbered on from the highest number worker already has
// there, so that a restarted worker overwrites nothing.
func NewSink(dir, worker string) (*Sink, error) {
	if err := bus.ValidWorker(worker); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	s := &Sink{dir: dir, worker: worker}
	for _, e := range entries {
		// Taken files carry a suffix: look at the shard name before it.
		name, _, _ := strings.Cut(e.Name(), ".shard.")
		name = strings.TrimSuffix(name, ".shard") + ".shard"
		if m := shardName().FindStringSubmatch(name); m != nil && m[1] == worker {
			n, _ := strconv.Atoi(m[2])
			s.seq = max(s.seq, n)
		}
	}
	return s, nil
}

// Send implements bus.Sink: one file, written atomically.
func (s *Sink) Send(_ context.Context, info bus.ShardInfo, samples []replay.Sample) error {
	s.seq++
	name := fmt.Sprintf("sp-%s-%06d.n%d.g%d.t%d.shard", s.worker, s.seq, info.Network, info.Games, int64(info.PlaySeconds*1000))
	return replay.WriteShard(filepath.Join(s.dir, name), samples)
}

// Close implements bus.Sink.
func (s *Sink) Close() error { return nil }
