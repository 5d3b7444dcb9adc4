package onnx

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
)

// ortRun is one run of ortcheck/check.js.
type ortRun struct {
	Batch        int       `json:"batch"`
	PolicyDims   []int     `json:"policy_dims"`
	PolicyLogits []float32 `json:"policy_logits"`
	WDLDims      []int     `json:"wdl_dims"`
	WDL          []float32 `json:"wdl"`
}

type ortResult struct {
	ORTVersion  string   `json:"ort_version"`
	InputNames  []string `json:"input_names"`
	OutputNames []string `json:"output_names"`
	Runs        []ortRun `json:"runs"`
}

// needORT returns the node binary and the check script, or skips the test
// when node or onnxruntime-node is missing, unless the CI environment
// variable is set: CI must run the check.
func needORT(t *testing.T) (node, script string) {
	t.Helper()
	fail := t.Skipf
	if os.Getenv("CI") != "" {
		fail = t.Fatalf
	}
	node, err := exec.LookPath("node")
	if err != nil {
		fail("node is not installed, so the ONNX Runtime check cannot run (install Node.js, then run 'ONNXRUNTIME_NODE_INSTALL=skip npm install' in model/onnx/ortcheck)")
		return "", ""
	}
	dir, err := filepath.Abs("ortcheck")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "onnxruntime-node", "package.json")); err != nil {
		fail("onnxruntime-node is not installed: run 'ONNXRUNTIME_NODE_INSTALL=skip npm install' in %s", dir)
		return "", ""
	}
	script = filepath.Join(dir, "check.js")
	if _, err := os.ReadFile(script); err != nil { // read, so that go test's cache notices edits
		t.Fatal(err)
	}
	return node, script
}

func writePlanes(t *testing.T, path string, planes []float32) {
	t.Helper()
	b := make([]byte, 4*len(planes))
	for i, v := range planes {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestONNXRuntimeMatchesGo exports tiny and small networks, and a tiny
// one of each other policy layout (the variants' input planes and policy
// sizes), runs them in ONNX Runtime (Node) at batch sizes 1, 3 and 19
// through one session (the symbolic batch dimension), and compares with
// the Go network.
func TestONNXRuntimeMatchesGo(t *testing.T) {
	node, script := needORT(t)
	const tol = 1e-4
	for _, preset := range []string{"tiny", "small", "no-blocks", "tiny/alice-null", "tiny/alice-optional-transfer", "tiny/alice-stone", "tiny/alice-3"} {
		t.Run(preset, func(t *testing.T) {
			var w *model.Weights
			v := env.Alice
			switch preset {
			case "no-blocks":
				w = testWeightsCfg(t, model.Config{Blocks: 0, Channels: 5, PolicyChannels: 3, ValueChannels: 2, ValueHidden: 7}, 11)
			case "tiny", "small":
				w = testWeights(t, preset, 11)
			default:
				v, _ = env.VariantByName(strings.TrimPrefix(preset, "tiny/"))
				w = variantWeights(t, v, 11)
			}
			np := v.PolicySize()
			m, err := Export(w, Metadata{Variant: v})
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := m.WriteDir(dir); err != nil {
				t.Fatal(err)
			}
			// Batch 1: the start position. Batch 3: the other three test
			// positions (two with Black to move). Batch 19: positions from
			// random games, which the Go network evaluates as two lane groups
			// of 8 and a direct group of 3.
			type run struct {
				planes, policy, wdl []float32
				n                   int
			}
			var runs []run
			tps := m.Description.TestPositions
			for _, idx := range [][]int{{0}, {1, 2, 3}} {
				var r run
				for _, j := range idx {
					r.planes = append(r.planes, tps[j].Planes...)
					r.policy = append(r.policy, tps[j].PolicyLogits...)
					r.wdl = append(r.wdl, tps[j].WDL...)
				}
				r.n = len(idx)
				runs = append(runs, r)
			}
			const games = 19
			r := run{planes: gamePlanes(v, games, 3), policy: make([]float32, games*np), wdl: make([]float32, games*env.WDLSize), n: games}
			if err := Evaluate(w, r.planes, games, r.policy, r.wdl); err != nil {
				t.Fatal(err)
			}
			runs = append(runs, r)
			args := []string{script, filepath.Join(dir, ONNXFile), filepath.Join(dir, "out.json"), strconv.Itoa(v.NumPlanes())}
			for i, r := range runs {
				in := filepath.Join(dir, fmt.Sprintf("in%d.bin", i))
				writePlanes(t, in, r.planes)
				args = append(args, fmt.Sprintf("%s:%d", in, r.n))
			}
			cmd := exec.Command(node, args...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("node %v: %v\n%s", args, err, out)
			}
			js, err := os.ReadFile(filepath.Join(dir, "out.json"))
			if err != nil {
				t.Fatal(err)
			}
			var res ortResult
			if err := json.Unmarshal(js, &res); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.InputNames, []string{InputName}) || !slices.Equal(res.OutputNames, []string{PolicyName, WDLName}) {
				t.Fatalf("session inputs %v, outputs %v", res.InputNames, res.OutputNames)
			}
			if len(res.Runs) != len(runs) {
				t.Fatalf("%d runs, want %d", len(res.Runs), len(runs))
			}
			for i, want := range runs {
				r := res.Runs[i]
				n := want.n
				if !slices.Equal(r.PolicyDims, []int{n, np}) || !slices.Equal(r.WDLDims, []int{n, env.WDLSize}) {
					t.Fatalf("batch %d: output dims %v and %v", n, r.PolicyDims, r.WDLDims)
				}
				wantP, wantW := want.policy, want.wdl
				dp, dw := maxAbsDiff(r.PolicyLogits, wantP), maxAbsDiff(r.WDL, wantW)
				t.Logf("%s batch %d: ONNX Runtime %s vs Go: max |Δ| policy logits %.3g (max |logit| %.3g), wdl %.3g (Go wdl of the first %v)",
					preset, n, res.ORTVersion, dp, maxAbs(wantP), dw, wantW[:env.WDLSize])
				if dp > tol || dw > tol {
					t.Errorf("batch %d: ONNX Runtime differs from the Go network by %g (policy) and %g (wdl), tolerance %g", n, dp, dw, tol)
				}
				for p := 0; p < n; p++ {
					s := r.WDL[3*p] + r.WDL[3*p+1] + r.WDL[3*p+2]
					if math.Abs(float64(s)-1) > 1e-5 {
						t.Errorf("batch %d position %d: wdl sums to %g", n, p, s)
					}
				}
			}
		})
	}
}
