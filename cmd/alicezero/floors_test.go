package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/alicezero/alicezero"

// floors ranks the module's packages, lowest first: a package may import
// its own floor and those below, never one above. The longest matching
// prefix decides.
var floors = []struct {
	prefix string
	floor  int
	what   string
}{
	{"env", 0, "the rules"},
	{"internal", 1, "plumbing and small shared types (env at most below them)"},
	{"mcts", 2, "the search"},
	{"mcts/reference", 2, "the reference players"},
	{"mcts/alphabeta", 2, "the classical alpha-beta"},
	{"model", 2, "the network and fast inference"},
	{"model/builtin", 2, "the built-in network"},
	{"model/onnx", 3, "the ONNX export"},
	{"model/training", 3, "the training graph (gorgonia)"},
	{"mcts/engine", 3, "the playing engine"},
	{"configs", 4, "training configurations"},
	{"train", 4, "training, tournaments, the bus"},
	{"cmd/alicezero/internal", 5, "the front ends"},
	{"cmd/alicezero", 6, "the binary"},
}

// apart names groups of packages (by prefix) that share a floor but
// never import each other, even in tests: the search declares the
// evaluator it needs (mcts.Evaluator) and the network supplies one; they
// meet a floor up, in mcts/engine.
var apart = [][2]string{{"mcts", "model"}}

func floorOf(pkg string) (int, string, bool) {
	rel, ok := strings.CutPrefix(pkg, module+"/")
	if !ok {
		return 0, "", false
	}
	best, floor, what := -1, 0, ""
	for _, f := range floors {
		if (rel == f.prefix || strings.HasPrefix(rel, f.prefix+"/")) && len(f.prefix) > best {
			best, floor, what = len(f.prefix), f.floor, f.what
		}
	}
	return floor, what, best >= 0
}

// goList returns the module's packages with their imports (their tests'
// too) and, where deps, everything they link.
func goList(t *testing.T, deps bool, patterns ...string) []listedPackage {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	fields := "-json=ImportPath,Imports,TestImports,XTestImports"
	if deps {
		fields += ",Deps"
	}
	out, err := exec.Command(goTool, append([]string{"list", fields}, patterns...)...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

type listedPackage struct {
	ImportPath   string
	Imports      []string
	TestImports  []string // of the package's own _test.go files
	XTestImports []string // of its external test package, package x_test
	Deps         []string
}

// floorErrors lists the imports of pkgs that break the floors: an import
// from a floor above, or between packages kept apart. Tests are held to
// the same rules as the code they test, external test packages too: the
// README's floors make no exception for them.
func floorErrors(pkgs []listedPackage) []string {
	var errs []string
	for _, p := range pkgs {
		floor, what, ok := floorOf(p.ImportPath)
		if !ok {
			errs = append(errs, fmt.Sprintf("%s is on no floor: add it to floors", p.ImportPath))
			continue
		}
		for _, in := range []struct {
			where   string
			imports []string
		}{{"", p.Imports}, {" (in its tests)", p.TestImports}, {" (in its external tests)", p.XTestImports}} {
			for _, imp := range in.imports {
				f, impWhat, ours := floorOf(imp)
				switch {
				case !ours || imp == p.ImportPath:
				case f > floor:
					errs = append(errs, fmt.Sprintf("%s (%s, floor %d) imports %s (%s, floor %d)%s", p.ImportPath, what, floor, imp, impWhat, f, in.where))
				case f == floor && keptApart(p.ImportPath, imp):
					errs = append(errs, fmt.Sprintf("%s imports %s%s: the two are kept apart on floor %d (the search defines the evaluator interface it needs; mcts/engine joins them)", p.ImportPath, imp, in.where, f))
				}
			}
		}
	}
	return errs
}

// keptApart reports whether packages a and b fall in the two groups of
// one of the apart pairs.
func keptApart(a, b string) bool {
	under := func(pkg, prefix string) bool {
		rel, _ := strings.CutPrefix(pkg, module+"/")
		return rel == prefix || strings.HasPrefix(rel, prefix+"/")
	}
	for _, pair := range apart {
		if under(a, pair[0]) && under(b, pair[1]) || under(a, pair[1]) && under(b, pair[0]) {
			return true
		}
	}
	return false
}

// No package, nor its tests, imports one on a floor above its own, and the
// search and the network never import each other.
func TestFloors(t *testing.T) {
	for _, e := range floorErrors(goList(t, false, module+"/...")) {
		t.Error(e)
	}
}

// The floors check itself: what it must refuse and what it must let by.
func TestFloorErrors(t *testing.T) {
	pkg := func(p string) string { return module + "/" + p }
	for _, tc := range []struct {
		name  string
		p     listedPackage
		fails bool
	}{
		{"down a floor", listedPackage{ImportPath: pkg("mcts"), Imports: []string{pkg("env"), pkg("internal/clock"), "fmt"}}, false},
		{"same floor", listedPackage{ImportPath: pkg("train/arena"), Imports: []string{pkg("train/replay"), pkg("configs")}}, false},
		{"itself, from its external tests", listedPackage{ImportPath: pkg("env"), XTestImports: []string{pkg("env")}}, false},
		{"the engine joins search and network", listedPackage{ImportPath: pkg("mcts/engine"), Imports: []string{pkg("mcts"), pkg("model")}}, false},
		{"training tests use the search", listedPackage{ImportPath: pkg("model/training"), TestImports: []string{pkg("mcts")}}, false},
		{"up a floor", listedPackage{ImportPath: pkg("mcts"), Imports: []string{pkg("mcts/engine")}}, true},
		{"env imports ours", listedPackage{ImportPath: pkg("env"), Imports: []string{pkg("internal/seed")}}, true},
		{"up a floor in tests", listedPackage{ImportPath: pkg("model"), TestImports: []string{pkg("model/training")}}, true},
		{"up a floor in external tests", listedPackage{ImportPath: pkg("train/replay"), XTestImports: []string{pkg("cmd/alicezero/internal/serve")}}, true},
		{"search imports the network", listedPackage{ImportPath: pkg("mcts"), Imports: []string{pkg("model")}}, true},
		{"network imports the search", listedPackage{ImportPath: pkg("model"), Imports: []string{pkg("mcts")}}, true},
		{"a reference player imports the network", listedPackage{ImportPath: pkg("mcts/reference"), Imports: []string{pkg("model/builtin")}}, true},
		{"network tests import the search", listedPackage{ImportPath: pkg("model/builtin"), XTestImports: []string{pkg("mcts/alphabeta")}}, true},
		{"on no floor", listedPackage{ImportPath: pkg("nowhere")}, true},
	} {
		if errs := floorErrors([]listedPackage{tc.p}); (len(errs) > 0) != tc.fails {
			t.Errorf("%s: errors %q, want some: %v", tc.name, errs, tc.fails)
		}
	}
}

// The engine and the front ends link no training tools: no plots, no
// YAML, no progress bars, no training loop or replay buffer, no gorgonia
// (the training graph's autodiff; inference is model's own code).
func TestEngineModeLinksNoTraining(t *testing.T) {
	pkgs := []string{module + "/mcts/engine", module + "/cmd/alicezero/internal/..."}
	banned := []string{"gonum.org/v1/plot", "yaml", "progressbar", "gorgonia.org", module + "/train", module + "/configs", module + "/model/training"}
	for _, p := range goList(t, true, pkgs...) {
		for _, dep := range p.Deps {
			for _, b := range banned {
				if dep == b || strings.HasPrefix(dep, b+"/") || (!strings.Contains(b, "/") && strings.Contains(dep, b)) {
					t.Errorf("%s links %s", p.ImportPath, dep)
				}
			}
		}
	}
}
