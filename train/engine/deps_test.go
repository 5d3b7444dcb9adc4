package engine_test

import (
	"os/exec"
	"strings"
	"testing"
)

// Engine mode — this package and the front ends built on it — links no
// training tools: no plots, no YAML, no progress bars, no training loop.
func TestEngineModeDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	pkgs := []string{
		"github.com/alicezero/alicezero/train/engine",
		"github.com/alicezero/alicezero/internal/uci",
		"github.com/alicezero/alicezero/internal/xboard",
		"github.com/alicezero/alicezero/internal/console",
	}
	out, err := exec.Command(goTool, append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"gonum.org/v1/plot", "yaml", "progressbar", "github.com/alicezero/alicezero/train/replay", "github.com/alicezero/alicezero/configs"} {
			if strings.Contains(dep, banned) {
				t.Errorf("engine mode depends on %s", dep)
			}
		}
		if dep == "github.com/alicezero/alicezero/train" {
			t.Errorf("engine mode depends on the training loop (package train)")
		}
	}
}
