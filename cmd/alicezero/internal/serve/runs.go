package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/alicezero/alicezero/internal/runs"
)

// This file is the server's only reader of run folders; their layout is
// internal/runs's.
const (
	runConfigFile  = runs.ConfigFile
	runMetricsFile = runs.MetricsFile
	runCkptDir     = runs.CheckpointDir
	runGamesDir    = runs.GamesDir
	runCkptExt     = ".azck"
	runGamesExt    = ".pgn"
)

// iterFileRE matches the per-iteration files: iter-NNNNNN.azck, .pgn.
// It is compiled on first use, not in every process's start-up.
var iterFileRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^iter-([0-9]{6,9})\.(azck|pgn)$`) })

// runFile is a per-iteration file of a run.
type runFile struct {
	File      string    `json:"file"`
	Iteration int       `json:"iteration"`
	Size      int64     `json:"size"`
	Modified  time.Time `json:"modified"`
}

// runSummary describes a run in the runs list.
type runSummary struct {
	Name          string    `json:"name"`
	Iteration     int       `json:"iteration"` // the newest metrics line's
	Checkpoints   int       `json:"checkpoints"`
	Games         int       `json:"games"`
	HasMetrics    bool      `json:"has_metrics"`
	Modified      time.Time `json:"modified"`
	NewestWeights string    `json:"newest_weights,omitempty"`
}

// runsFolder reads the runs under one folder.
type runsFolder struct{ dir string }

// validRunName reports whether name can be a run's folder name (see
// runs.CheckName).
func validRunName(name string) bool {
	return len(name) <= 255 && !strings.Contains(name, "\x00") && runs.CheckName(name) == nil
}

// runDir returns the folder of the run name.
func (rf runsFolder) runDir(name string) (string, error) {
	if rf.dir == "" {
		return "", notFound("no runs folder: start the server with --runs-dir")
	}
	if !validRunName(name) {
		return "", badRequest("%q is not a run name", name)
	}
	dir := filepath.Join(rf.dir, name)
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return "", notFound("no run %q in the runs folder", name)
	}
	return dir, nil
}

// list returns the runs, the most recently changed first. A folder is a
// run when it holds a metrics file, a configuration or checkpoints.
func (rf runsFolder) list() ([]runSummary, error) {
	if rf.dir == "" {
		return []runSummary{}, nil
	}
	entries, err := os.ReadDir(rf.dir)
	if errors.Is(err, os.ErrNotExist) {
		return []runSummary{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("runs folder: %w", err)
	}
	out := []runSummary{}
	for _, e := range entries {
		if !e.IsDir() || !validRunName(e.Name()) {
			continue
		}
		if s, ok := rf.summary(e.Name()); ok {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Modified.After(out[j].Modified) })
	return out, nil
}

func (rf runsFolder) summary(name string) (runSummary, bool) {
	dir := filepath.Join(rf.dir, name)
	s := runSummary{Name: name}
	isRun := false
	if st, err := os.Stat(filepath.Join(dir, runConfigFile)); err == nil {
		isRun, s.Modified = true, st.ModTime()
	}
	if st, err := os.Stat(filepath.Join(dir, runMetricsFile)); err == nil {
		isRun, s.HasMetrics = true, true
		if st.ModTime().After(s.Modified) {
			s.Modified = st.ModTime()
		}
		s.Iteration = lastIteration(filepath.Join(dir, runMetricsFile), st.Size())
	}
	ckpts, _ := rf.iterFiles(name, runCkptDir, runCkptExt)
	games, _ := rf.iterFiles(name, runGamesDir, runGamesExt)
	s.Checkpoints, s.Games = len(ckpts), len(games)
	if len(ckpts) > 0 {
		isRun = true
		s.NewestWeights = "run:" + name + "/" + ckpts[0].File
		if ckpts[0].Modified.After(s.Modified) {
			s.Modified = ckpts[0].Modified
		}
	}
	return s, isRun
}

// lastIteration reads the "iteration" of the last complete line of a
// metrics file, looking at its tail only; 0 when there is none.
func lastIteration(path string, size int64) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	const tail = 64 << 10
	off := max(0, size-tail)
	b, err := io.ReadAll(io.NewSectionReader(f, off, size-off))
	if err != nil {
		return 0
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte{'\n'})
	for i := len(lines) - 1; i >= 0; i-- {
		var m runs.Metrics
		if json.Unmarshal(lines[i], &m) == nil {
			return m.Iteration
		}
	}
	return 0
}

// iterFiles lists a run's per-iteration files in sub with the extension
// ext, newest iteration first.
func (rf runsFolder) iterFiles(name, sub, ext string) ([]runFile, error) {
	dir, err := rf.runDir(name)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(filepath.Join(dir, sub))
	if errors.Is(err, os.ErrNotExist) {
		return []runFile{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", name, err)
	}
	out := []runFile{}
	for _, e := range entries {
		m := iterFileRE().FindStringSubmatch(e.Name())
		if m == nil || "."+m[2] != ext || e.IsDir() {
			continue
		}
		it, _ := strconv.Atoi(m[1])
		f := runFile{File: e.Name(), Iteration: it}
		if info, err := e.Info(); err == nil {
			f.Size, f.Modified = info.Size(), info.ModTime()
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Iteration > out[j].Iteration })
	return out, nil
}

// iterFile returns the path of a run's per-iteration file, which must
// exist.
func (rf runsFolder) iterFile(name, sub, ext, file string) (string, error) {
	dir, err := rf.runDir(name)
	if err != nil {
		return "", err
	}
	m := iterFileRE().FindStringSubmatch(file)
	if m == nil || "."+m[2] != ext {
		return "", badRequest("%q is not a file name like iter-000012%s", file, ext)
	}
	path := filepath.Join(dir, sub, file)
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return "", notFound("run %s has no %s/%s", name, sub, file)
	}
	return path, nil
}

// maxMetricsBytes bounds the metrics file the server reads.
const maxMetricsBytes = 64 << 20

// metricsRows reads a run's metrics: one row per line, every number in
// it flattened to a dotted key ("eval.vs_random.score"; array elements
// get their index, "eval.vs_random.ci95.0"), plus "time" when the line
// has it. Lines that do not parse (a line cut short while the run writes
// it) are counted, not fatal. The rows are read as JSON, not as
// runs.Metrics, on purpose: the page plots every number, a key of a newer
// trainer (or one an older trainer wrote) included.
func metricsRows(path string) (rows []map[string]any, skipped int, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return []map[string]any{}, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxMetricsBytes))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	rows = []map[string]any{}
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal(line, &v); err != nil {
			skipped++
			continue
		}
		row := map[string]any{}
		flattenNumbers("", v, row)
		if t, ok := v["time"].(string); ok {
			row["time"] = t
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return rows, skipped, nil
}

// flattenNumbers copies the numbers (and booleans, as 0 or 1) in v to
// out under dotted keys.
func flattenNumbers(prefix string, v any, out map[string]any) {
	switch x := v.(type) {
	case float64:
		if prefix != "" && finite(x) {
			out[prefix] = x
		}
	case bool:
		if prefix != "" {
			out[prefix] = map[bool]float64{false: 0, true: 1}[x]
		}
	case map[string]any:
		for k, e := range x {
			flattenNumbers(joinKey(prefix, k), e, out)
		}
	case []any:
		for i, e := range x {
			flattenNumbers(joinKey(prefix, strconv.Itoa(i)), e, out)
		}
	}
}

func joinKey(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// evalByIteration reads the "eval" object of each metrics line that has
// one, by iteration: the evaluation results of that iteration's
// checkpoint.
func evalByIteration(path string) map[int]*runs.EvalMetrics {
	out := map[int]*runs.EvalMetrics{}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxMetricsBytes))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var m runs.Metrics
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.Eval != nil {
			out[m.Iteration] = m.Eval
		}
	}
	return out
}
