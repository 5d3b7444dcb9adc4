package main

import (
	"encoding/json"
	"errors"
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

// goList returns the module's packages with their imports and, where
// deps, everything they link.
func goList(t *testing.T, deps bool, patterns ...string) []listedPackage {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	fields := "-json=ImportPath,Imports"
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
	ImportPath string
	Imports    []string
	Deps       []string
}

// No package imports one on a floor above its own, and the search never
// imports the network: it defines the evaluator it needs.
func TestFloors(t *testing.T) {
	for _, p := range goList(t, false, module+"/...") {
		floor, what, ok := floorOf(p.ImportPath)
		if !ok {
			t.Errorf("%s is on no floor: add it to floors", p.ImportPath)
			continue
		}
		for _, imp := range p.Imports {
			f, impWhat, ours := floorOf(imp)
			if !ours {
				continue
			}
			if f > floor {
				t.Errorf("%s (%s, floor %d) imports %s (%s, floor %d)", p.ImportPath, what, floor, imp, impWhat, f)
			}
			if p.ImportPath == module+"/mcts" && strings.HasPrefix(imp, module+"/model") {
				t.Errorf("mcts imports %s; it defines the evaluator interface it needs instead", imp)
			}
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
