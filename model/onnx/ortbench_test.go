package onnx

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/cputime"
	"github.com/alicezero/alicezero/model"
)

// Flags of TestCompareORT, which only runs when -ort.compare is given:
//
//	go test ./model/onnx -run TestCompareORT -ort.compare -v \
//	    [-ort.preset small] [-ort.batches 64,16] [-ort.threads 1,2] [-ort.rounds 5] [-ort.seconds 2]
var (
	ortCompare = flag.Bool("ort.compare", false, "TestCompareORT: time the Go fast path against ONNX Runtime")
	ortPreset  = flag.String("ort.preset", model.DefaultPreset, "TestCompareORT: the network preset")
	ortBatches = flag.String("ort.batches", "64,16", "TestCompareORT: comma-separated batch sizes")
	ortThreads = flag.String("ort.threads", "1,2", "TestCompareORT: comma-separated thread counts")
	ortRounds  = flag.Int("ort.rounds", 5, "TestCompareORT: rounds; each times every configuration once, Go and ONNX Runtime back to back")
	ortSeconds = flag.Float64("ort.seconds", 2, "TestCompareORT: seconds each timing runs")
)

// The bar TestCompareORT holds: the fast path makes at least ortBar times
// ONNX Runtime's positions per second at batches of ortBarBatch or more.
const (
	ortBar      = 0.8
	ortBarBatch = 64
)

// ortTiming is bench.js's report.
type ortTiming struct {
	ORTVersion string  `json:"ort_version"`
	Runs       int     `json:"runs"`
	PosPerS    float64 `json:"pos_per_s"`
	PosPerCPUS float64 `json:"pos_per_cpu_s"`
}

// TestCompareORT times the fast path (model.FastEvaluator) and ONNX
// Runtime (ortcheck/bench.js) on the same exported network (the preset's
// NewWeights(cfg, 1), as alicezero bench uses) and the same positions
// (from random games), for each batch size and thread count: Go with
// GOMAXPROCS = Workers = threads, ONNX Runtime with that many intra-op
// threads. Every round times each configuration once, Go and ONNX Runtime
// back to back, so that a shared machine's load hits both alike; the
// medians over the rounds are logged as a table (wall-clock positions per
// second, and per CPU-second of the process). It fails where, at a batch
// of ortBarBatch or more, the fast path's median wall-clock rate is below
// ortBar times ONNX Runtime's: the bar docs/PERFORMANCE.md records. A
// timing, so it runs on demand only.
func TestCompareORT(t *testing.T) {
	if !*ortCompare {
		t.Skip("a timing, run on demand: -ort.compare")
	}
	node, check := needORT(t)
	script := filepath.Join(filepath.Dir(check), "bench.js")
	batches, err := parseInts(*ortBatches)
	if err != nil {
		t.Fatal(err)
	}
	threads, err := parseInts(*ortThreads)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := model.Preset(*ortPreset)
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWeights(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Export(w, Metadata{Variant: env.Alice})
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	if err := m.WriteDir(tmp); err != nil {
		t.Fatal(err)
	}
	maxBatch := slices.Max(batches)
	planes := gamePlanes(env.Alice, maxBatch, 1)
	inputs := map[int]string{}
	for _, b := range batches {
		inputs[b] = filepath.Join(tmp, fmt.Sprintf("in%d.bin", b))
		writePlanes(t, inputs[b], planes[:b*env.InputSize])
	}

	type key struct{ batch, threads int }
	goWall, goCPU, ortWall, ortCPU := map[key][]float64{}, map[key][]float64{}, map[key][]float64{}, map[key][]float64{}
	version := ""
	d := time.Duration(*ortSeconds * float64(time.Second))
	for round := 0; round < *ortRounds; round++ {
		for _, b := range batches {
			for _, th := range threads {
				k := key{b, th}
				wall, cpu, err := timeGo(w, planes, b, th, d)
				if err != nil {
					t.Fatal(err)
				}
				goWall[k], goCPU[k] = append(goWall[k], wall), append(goCPU[k], cpu)
				args := []string{script, filepath.Join(tmp, ONNXFile), strconv.Itoa(env.NumPlanes), inputs[b], strconv.Itoa(b), strconv.Itoa(th), strconv.FormatFloat(*ortSeconds, 'g', -1, 64)}
				out, err := exec.Command(node, args...).Output()
				if err != nil {
					t.Fatalf("node %v: %v\n%s", args, err, out)
				}
				var r ortTiming
				if err := json.Unmarshal(out, &r); err != nil {
					t.Fatalf("bench.js output %q: %v", out, err)
				}
				version = r.ORTVersion
				ortWall[k], ortCPU[k] = append(ortWall[k], r.PosPerS), append(ortCPU[k], r.PosPerCPUS)
				t.Logf("round %d batch %d threads %d: Go %.0f pos/s (%.0f pos/cpu-s), ONNX Runtime %.0f pos/s (%.0f pos/cpu-s)",
					round+1, b, th, wall, cpu, r.PosPerS, r.PosPerCPUS)
			}
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "preset %s (%s), ONNX Runtime %s, %s/%s, %d CPUs, medians of %d rounds of %.3g s\n",
		*ortPreset, cfg, version, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), *ortRounds, *ortSeconds)
	sb.WriteString("| batch | threads | Go pos/s | ORT pos/s | Go/ORT | Go pos/cpu-s | ORT pos/cpu-s | Go/ORT (CPU) |\n|---|---|---|---|---|---|---|---|\n")
	for _, b := range batches {
		for _, th := range threads {
			k := key{b, th}
			gw, ow, gc, oc := median(goWall[k]), median(ortWall[k]), median(goCPU[k]), median(ortCPU[k])
			fmt.Fprintf(&sb, "| %d | %d | %.0f | %.0f | %.2f | %.0f | %.0f | %.2f |\n", b, th, gw, ow, gw/ow, gc, oc, gc/oc)
			if b >= ortBarBatch && gw < ortBar*ow {
				t.Errorf("batch %d, %d threads: the fast path makes %.2f× ONNX Runtime's positions/s, want ≥ %.2f×", b, th, gw/ow, ortBar)
			}
		}
	}
	t.Log("\n" + sb.String())
}

// timeGo returns the fast path's positions per wall second and per
// CPU-second of the process on the first batch positions of planes, with
// GOMAXPROCS and the evaluator's workers set to threads.
func timeGo(w *model.Weights, planes []float32, batch, threads int, d time.Duration) (wall, cpu float64, err error) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
	ev, err := model.NewFastEvaluator(w, model.FastOptions{Workers: threads})
	if err != nil {
		return 0, 0, err
	}
	defer ev.Close()
	pol := make([]float32, batch*env.PolicySize)
	wdl := make([]float32, batch*env.WDLSize)
	for range 5 {
		if err := ev.Evaluate(planes, batch, pol, wdl); err != nil {
			return 0, 0, err
		}
	}
	cpu0, start, runs := cputime.Process(), time.Now(), 0
	for time.Since(start) < d {
		if err := ev.Evaluate(planes, batch, pol, wdl); err != nil {
			return 0, 0, err
		}
		runs++
	}
	el, c := time.Since(start), cputime.Process()-cpu0
	pos := float64(runs * batch)
	return pos / el.Seconds(), pos / c.Seconds(), nil
}

// gamePlanes encodes n positions from random games of Alice chess (a new
// game whenever one ends or reaches 80 plies), deterministically.
func gamePlanes(v env.Variant, n int, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 0x0a1c))
	in := v.InputSize()
	planes := make([]float32, n*in)
	pos := env.NewPosition(v)
	var ml env.MoveList
	for i := 0; i < n; i++ {
		pos.LegalMoves(&ml)
		if ml.N == 0 || pos.Ply() >= 80 {
			pos = env.NewPosition(v)
			pos.LegalMoves(&ml)
		}
		pos.MakeMove(ml.Moves[rng.IntN(ml.N)])
		pos.Encode(planes[i*in : (i+1)*in])
	}
	return planes
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("%q: want positive integers separated by commas", s)
		}
		out = append(out, v)
	}
	return out, nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
