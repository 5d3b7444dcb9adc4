package runs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// makeRun creates a run folder with empty checkpoint files of the given
// iterations.
func makeRun(t *testing.T, runsDir, name string, its ...int) string {
	t.Helper()
	dir := filepath.Join(runsDir, name)
	if err := os.MkdirAll(filepath.Join(dir, CheckpointDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, it := range its {
		if err := os.WriteFile(CheckpointPath(dir, it), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCheckpointsNewestFirst(t *testing.T) {
	dir := makeRun(t, t.TempDir(), "r", 0, 10, 2, 100)
	// Look-alikes are not checkpoints.
	for _, name := range []string{"iter-7.azck", ".iter-000011.azck.tmp-1", "iter-000012.azck.bak", "notes.txt"} {
		os.WriteFile(filepath.Join(dir, CheckpointDir, name), nil, 0o644)
	}
	its, err := Checkpoints(dir)
	if err != nil || !slices.Equal(its, []int{100, 10, 2, 0}) {
		t.Fatalf("Checkpoints = %v, %v", its, err)
	}
	newest, err := Newest(dir)
	if err != nil || newest != filepath.Join(dir, "checkpoints", "iter-000100.azck") {
		t.Fatalf("Newest = %q, %v", newest, err)
	}
}

func TestResolve(t *testing.T) {
	runsDir := t.TempDir()
	dir := makeRun(t, runsDir, "r", 3, 5)
	empty := makeRun(t, runsDir, "empty")
	want := CheckpointPath(dir, 5)
	file := CheckpointPath(dir, 3)
	for _, tt := range []struct{ in, want string }{
		{dir, want},
		{filepath.Join(dir, CheckpointDir), want},
		{filepath.Join(dir, CheckpointDir) + "/", want},
		{file, file},
	} {
		if got, err := Resolve(tt.in); err != nil || got != tt.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, tt := range []struct{ in, msg string }{
		{filepath.Join(runsDir, "nosuch"), "does not exist"},
		{empty, "holds no checkpoints"},
	} {
		if _, err := Resolve(tt.in); err == nil || !strings.Contains(err.Error(), tt.msg) || !strings.Contains(err.Error(), tt.in) {
			t.Errorf("Resolve(%q): error %v, want one naming the path and saying %q", tt.in, err, tt.msg)
		}
	}
}

func TestDirKeepsRunsInside(t *testing.T) {
	got, err := Dir("runs", "small-1")
	if err != nil || got != filepath.Join("runs", "small-1") {
		t.Errorf("Dir = %q, %v", got, err)
	}
	if got, _ := Dir("", "x"); got != filepath.Join(DefaultRunsDir, "x") {
		t.Errorf("Dir with the default runs folder = %q", got)
	}
	for _, bad := range []string{"", ".", "..", "../x", "a/../../x", "/tmp/x", `a\b`, "a/b", ".hidden"} {
		if got, err := Dir("runs", bad); err == nil {
			t.Errorf("Dir(runs, %q) = %q, accepted", bad, got)
		}
	}
}

func TestList(t *testing.T) {
	runsDir := t.TempDir()
	makeRun(t, runsDir, "b", 1)
	makeRun(t, runsDir, "a")
	os.MkdirAll(filepath.Join(runsDir, "c"), 0o755) // a folder that is no run
	os.WriteFile(filepath.Join(runsDir, "c", ConfigFile), []byte("name: c\n"), 0o644)
	os.MkdirAll(filepath.Join(runsDir, "notarun"), 0o755)
	names, err := List(runsDir)
	if err != nil || !slices.Equal(names, []string{"a", "b", "c"}) {
		t.Errorf("List = %v, %v", names, err)
	}
	if names, err := List(filepath.Join(runsDir, "missing")); err != nil || len(names) != 0 {
		t.Errorf("List of a missing folder = %v, %v", names, err)
	}
}
