package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
)

// saveTinyCheckpoint writes a weights-only checkpoint of a tiny network.
func saveTinyCheckpoint(t *testing.T, path string, seed uint64, meta map[string]string) {
	t.Helper()
	cfg, err := model.Preset("tiny")
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWeights(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := model.SaveCheckpoint(path, &model.Checkpoint{Weights: w, Step: int64(seed), Meta: meta}); err != nil {
		t.Fatal(err)
	}
}

// readExport checks the two files of an export and returns model.json.
func readExport(t *testing.T, dir string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "model.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	// A ModelProto starts with ir_version (field 1, varint): 0x08 0x08.
	if len(b) < 1000 || !bytes.HasPrefix(b, []byte{0x08, 0x08}) {
		t.Fatalf("model.onnx: %d bytes starting % x", len(b), b[:min(len(b), 8)])
	}
	js, err := os.ReadFile(filepath.Join(dir, "model.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, js) {
		t.Error("model.onnx does not embed model.json")
	}
	var d map[string]any
	if err := json.Unmarshal(js, &d); err != nil {
		t.Fatalf("model.json: %v", err)
	}
	for _, k := range []string{"format", "format_version", "rules", "onnx", "network", "input", "outputs", "policy", "source", "test_positions"} {
		if _, ok := d[k]; !ok {
			t.Errorf("model.json lacks %q", k)
		}
	}
	if d["format"] != "alicezero-onnx" {
		t.Errorf("format %v", d["format"])
	}
	// The shapes are those of the variant the sidecar names.
	name, _ := d["rules"].(map[string]any)["variant"].(string)
	v, err := env.VariantByName(name)
	if err != nil {
		t.Fatalf("rules.variant: %v", err)
	}
	if moves, _ := d["policy"].(map[string]any)["moves"].([]any); len(moves) != v.PolicySize() || moves[64] != v.Policy().UCI(64) {
		t.Errorf("policy.moves has %d entries, index 64 %v", len(moves), moves[64])
	}
	if v == env.Alice && d["policy"].(map[string]any)["moves"].([]any)[64] != "a1a3" {
		t.Errorf("alice's policy index 64 is not a1a3")
	}
	if planes, _ := d["input"].(map[string]any)["planes"].([]any); len(planes) != v.NumPlanes() {
		t.Errorf("input.planes has %d entries", len(planes))
	}
	if shape := d["input"].(map[string]any)["shape"].([]any); len(shape) != 4 || shape[0] != "batch" || shape[1] != float64(v.NumPlanes()) {
		t.Errorf("input.shape %v", shape)
	}
	outs := d["outputs"].([]any)
	if shape := outs[0].(map[string]any)["shape"].([]any); len(shape) != 2 || shape[1] != float64(v.PolicySize()) {
		t.Errorf("policy_logits shape %v", shape)
	}
	if shape := d["policy"].(map[string]any)["shape"].([]any); len(shape) != 3 || shape[0] != float64(v.Policy().Planes()) {
		t.Errorf("policy.shape %v", shape)
	}
	tps, _ := d["test_positions"].([]any)
	if len(tps) != 4 {
		t.Fatalf("%d test positions", len(tps))
	}
	for _, tp := range tps {
		m := tp.(map[string]any)
		p, _ := m["planes"].([]any)
		l, _ := m["policy_logits"].([]any)
		w, _ := m["wdl"].([]any)
		if m["fen"] == "" || len(p) != v.InputSize() || len(l) != v.PolicySize() || len(w) != env.WDLSize {
			t.Errorf("test position %v: %d planes, %d logits, %d wdl", m["name"], len(p), len(l), len(w))
		}
	}
	if bn, ok := d["network"].(map[string]any)["batch_norm"]; !ok || bn != false {
		t.Errorf("network.batch_norm = %v", bn)
	}
	return d
}

func source(d map[string]any) (string, float64) {
	s := d["source"].(map[string]any)
	c, _ := s["checkpoint"].(string)
	step, _ := s["step"].(float64)
	return c, step
}

func TestExportCommand(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	saveTinyCheckpoint(t, filepath.Join(run, "checkpoints", "iter-000001.azck"), 1, map[string]string{"variant": "alice"})
	saveTinyCheckpoint(t, filepath.Join(run, "checkpoints", "iter-000012.azck"), 12, map[string]string{"variant": "alice"})
	file := filepath.Join(dir, "net.azck")
	saveTinyCheckpoint(t, file, 5, nil)

	tests := []struct {
		name, arg, wantCkpt string
		wantStep            float64
	}{
		{"file", file, "net.azck", 5},
		{"run folder", run, "iter-000012.azck", 12},
		{"checkpoints folder", filepath.Join(run, "checkpoints"), "iter-000012.azck", 12},
		{"older file", filepath.Join(run, "checkpoints", "iter-000001.azck"), "iter-000001.azck", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "new", "sub")
			stdout, stderr, code := runCLI(t, "", "export", "--checkpoint", tc.arg, "--out", out)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, "model.onnx") || !strings.Contains(stdout, "model.json") {
				t.Errorf("stdout %q", stdout)
			}
			d := readExport(t, out)
			if c, step := source(d); c != tc.wantCkpt || step != tc.wantStep {
				t.Errorf("source %s step %v, want %s step %v", c, step, tc.wantCkpt, tc.wantStep)
			}
			if v := d["rules"].(map[string]any)["variant"]; v != "alice" {
				t.Errorf("variant %v", v)
			}
			// Nothing but the two files (no temporary files left behind).
			entries, _ := os.ReadDir(out)
			if len(entries) != 2 {
				t.Errorf("output folder holds %d entries", len(entries))
			}
		})
	}

	t.Run("variant flag", func(t *testing.T) {
		out := t.TempDir()
		if _, stderr, code := runCLI(t, "", "export", "--checkpoint", file, "--out", out, "--variant", "alice-ep"); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		d := readExport(t, out)
		if v := d["rules"].(map[string]any)["variant"]; v != "alice-ep" {
			t.Errorf("variant %v", v)
		}
	})

	corrupt := filepath.Join(dir, "corrupt.azck")
	b, _ := os.ReadFile(file)
	b[len(b)/2] ^= 0xff
	os.WriteFile(corrupt, b, 0o644)
	notCkpt := filepath.Join(dir, "text.azck")
	os.WriteFile(notCkpt, []byte("hello"), 0o644)
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	blocker := filepath.Join(dir, "blocker")
	os.WriteFile(blocker, []byte("x"), 0o644)

	errs := []struct {
		name    string
		args    []string
		code    int
		wantErr string
	}{
		{"missing", []string{"--checkpoint", filepath.Join(dir, "nope.azck"), "--out", dir}, 1, "does not exist"},
		{"corrupt", []string{"--checkpoint", corrupt, "--out", t.TempDir()}, 1, "checksum"},
		{"not a checkpoint", []string{"--checkpoint", notCkpt, "--out", t.TempDir()}, 1, "not an AliceZero checkpoint"},
		{"empty folder", []string{"--checkpoint", empty, "--out", t.TempDir()}, 1, "holds no checkpoints"},
		{"unwritable out", []string{"--checkpoint", file, "--out", filepath.Join(blocker, "out")}, 1, "writing to"},
		{"variant conflict", []string{"--checkpoint", run, "--out", t.TempDir(), "--variant", "alice-ep"}, 1, "trained for alice"},
		{"unknown variant", []string{"--checkpoint", file, "--out", t.TempDir(), "--variant", "crazy"}, 1, "unknown variant"},
		{"no out", []string{"--checkpoint", file}, 2, "missing --out"},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, "", append([]string{"export"}, tc.args...)...)
			if code != tc.code || !strings.Contains(stderr, tc.wantErr) {
				t.Fatalf("exit %d (want %d), stderr %q (want %q)", code, tc.code, stderr, tc.wantErr)
			}
		})
	}
}

// Without --checkpoint, export writes the built-in network.
func TestExportBuiltin(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, "", "export", "--out", dir)
	if code != 0 || !strings.Contains(out, "built-in-alice.azck") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, f := range []string{"model.onnx", "model.json"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestExportVariantRuns trains an alice-3 and an alice-stone network for
// one tiny iteration and exports each run: the sidecar names the variant
// (from the checkpoint's metadata) and has its shapes (readExport); an
// alice network is refused for alice-3, and a weights-only checkpoint of
// alice-3 exports as alice-3, the one variant of its encoding.
func TestExportVariantRuns(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		v             env.Variant
		planes, logit float64
	}{{env.Alice3, 51, 438 * 64}, {env.AliceStone, 37, 296 * 64}} {
		t.Run(c.v.Name, func(t *testing.T) {
			if out, errOut, code := runCLI(t, "", "train", "--variant", c.v.Name, "--config", "tiny", "--iterations", "1", "--runs-dir", dir, "--run", c.v.Name, "--quiet"); code != 0 {
				t.Fatalf("train: exit %d\n%s\n%s", code, out, errOut)
			}
			out := t.TempDir()
			stdout, errOut, code := runCLI(t, "", "export", "--checkpoint", filepath.Join(dir, c.v.Name), "--out", out)
			if code != 0 || !strings.Contains(stdout, "variant "+c.v.Name) {
				t.Fatalf("export: exit %d\n%s\n%s", code, stdout, errOut)
			}
			d := readExport(t, out)
			rules := d["rules"].(map[string]any)
			if rules["variant"] != c.v.Name || rules["boards"] != float64(c.v.Boards()) || rules["shared_squares"] != true || rules["start_fen"] != c.v.StartFEN() {
				t.Errorf("rules %v", rules)
			}
			if shape := d["input"].(map[string]any)["shape"].([]any); shape[1] != c.planes {
				t.Errorf("input.shape %v, want %v planes", shape, c.planes)
			}
			if shape := d["outputs"].([]any)[0].(map[string]any)["shape"].([]any); shape[1] != c.logit {
				t.Errorf("policy_logits shape %v, want %v", shape, c.logit)
			}
			if cfg := d["network"].(map[string]any)["config"].(map[string]any); cfg["policy_layout"] != c.v.Policy().Name() {
				t.Errorf("network.config %v", cfg)
			}
			if _, errOut, code := runCLI(t, "", "export", "--checkpoint", filepath.Join(dir, c.v.Name), "--out", t.TempDir(), "--variant", "alice"); code != 1 || !strings.Contains(errOut, "trained for "+c.v.Name) {
				t.Errorf("--variant alice: exit %d, %q", code, errOut)
			}
		})
	}

	alice := filepath.Join(dir, "alice.azck")
	saveTinyCheckpoint(t, alice, 3, nil)
	if _, errOut, code := runCLI(t, "", "export", "--checkpoint", alice, "--out", t.TempDir(), "--variant", "alice-3"); code != 1 ||
		!strings.Contains(errOut, "the network reads 37 input planes and emits policy layout move-planes-73x8x8; variant alice-3 has 51 planes") {
		t.Errorf("an alice network exported for alice-3: exit %d, %q", code, errOut)
	}

	cfg, _ := model.Preset("tiny")
	w, err := model.NewWeights(cfg.ForVariant(env.Alice3), 4)
	if err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(dir, "three.azck")
	if err := model.SaveCheckpoint(bare, &model.Checkpoint{Weights: w, Step: 4}); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if stdout, errOut, code := runCLI(t, "", "export", "--checkpoint", bare, "--out", out); code != 0 || !strings.Contains(stdout, "variant alice-3") {
		t.Fatalf("a weights-only alice-3 checkpoint: exit %d\n%s\n%s", code, stdout, errOut)
	}
	if v := readExport(t, out)["rules"].(map[string]any)["variant"]; v != "alice-3" {
		t.Errorf("variant %v", v)
	}
}

// export --format azck strips a run's checkpoint to the weights-only file
// a network ships as: it loads, evaluates bit for bit as the run's, keeps
// the metadata (--meta adds to it) and is smaller; stripping the built-in
// network reproduces its file byte for byte; a damaged source is refused
// before anything is written, and so is writing over the source.
func TestExportWeightsOnly(t *testing.T) {
	dir := t.TempDir()
	cfg, err := model.Preset("tiny")
	if err != nil {
		t.Fatal(err)
	}
	w, err := model.NewWeights(cfg, 9)
	if err != nil {
		t.Fatal(err)
	}
	opt := &model.OptimizerState{Kind: model.OptimizerSGD, Step: 40}
	for _, p := range w.Params() {
		v := make([]float32, len(p.Data))
		for i := range v {
			v[i] = float32(i%7) * 0.01
		}
		opt.Slots = append(opt.Slots, model.OptimizerSlot{Slot: "velocity", Param: p.Name, Data: v})
	}
	run := filepath.Join(dir, "run")
	src := filepath.Join(run, "checkpoints", "iter-000003.azck")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	full := &model.Checkpoint{Weights: w, Optimizer: opt, Step: 40, Extra: []byte("the run's own state"),
		TrainConfig: []byte(`{"lr":0.1}`), Meta: map[string]string{"variant": "alice", "run": "run", "iteration": "3"}}
	if err := model.SaveCheckpoint(src, full); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(dir, "ship", "net.azck")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "", "export", "--format", "azck", "--checkpoint", run, "--out", out, "--meta", "trained_by=the test", "--meta", "run=")
	if code != 0 || !strings.Contains(stdout, "dropped its optimiser state (sgd) and its run state") || !strings.Contains(stdout, "wrote "+out) {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	c, err := model.LoadCheckpoint(out)
	if err != nil {
		t.Fatal(err)
	}
	if c.Optimizer != nil || len(c.Extra) > 0 || c.Step != 40 || string(c.TrainConfig) != `{"lr":0.1}` {
		t.Errorf("stripped: optimiser %v, %d extra bytes, step %d, train config %s", c.Optimizer != nil, len(c.Extra), c.Step, c.TrainConfig)
	}
	if want := map[string]string{"variant": "alice", "iteration": "3", "trained_by": "the test"}; !maps.Equal(c.Meta, want) {
		t.Errorf("metadata %v, want %v", c.Meta, want)
	}
	srcSt, _ := os.Stat(src)
	outSt, _ := os.Stat(out)
	if outSt.Size() >= srcSt.Size() {
		t.Errorf("the stripped file has %d bytes, the checkpoint %d", outSt.Size(), srcSt.Size())
	}
	samePlay(t, w, c.Weights)

	// Each built-in network, stripped again, is its own file (alice's
	// without --variant).
	for _, v := range env.Variants() {
		again := filepath.Join(dir, "builtin-"+v.Name+".azck")
		_, stderr, code := runCLI(t, "", "export", "--format", "azck", "--variant", v.Name, "--out", again)
		if code != 0 {
			t.Fatalf("the built-in network of %s: exit %d: %s", v.Name, code, stderr)
		}
		shipped, err := os.ReadFile(filepath.Join("..", "..", "model", "builtin", v.Name+".azck"))
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(again); !bytes.Equal(b, shipped) {
			t.Errorf("stripping the built-in network of %s does not give its file back", v.Name)
		}
	}
	plain := filepath.Join(dir, "builtin.azck")
	if _, stderr, code := runCLI(t, "", "export", "--format", "azck", "--out", plain); code != 0 {
		t.Fatalf("the built-in network: exit %d: %s", code, stderr)
	}
	a, _ := os.ReadFile(plain)
	if b, _ := os.ReadFile(filepath.Join(dir, "builtin-alice.azck")); len(a) == 0 || !bytes.Equal(a, b) {
		t.Error("without --variant the export is not alice's built-in network")
	}

	// Damaged sources leave an existing output as it was.
	whole, _ := os.ReadFile(src)
	truncated := filepath.Join(dir, "truncated.azck")
	os.WriteFile(truncated, whole[:len(whole)*2/3], 0o644)
	corrupt := filepath.Join(dir, "corrupt.azck")
	flipped := bytes.Clone(whole)
	flipped[len(flipped)/2] ^= 0x10
	os.WriteFile(corrupt, flipped, 0o644)
	before, _ := os.ReadFile(out)
	for _, tc := range []struct {
		name, src, want string
	}{
		{"truncated", truncated, "truncated"},
		{"corrupt", corrupt, "checksum"},
		{"missing", filepath.Join(dir, "nope.azck"), "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, "", "export", "--format", "azck", "--checkpoint", tc.src, "--out", out)
			if code != 1 || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, filepath.Base(tc.src)) {
				t.Errorf("exit %d, stderr %q, want it to name the file and say %q", code, stderr, tc.want)
			}
			if after, _ := os.ReadFile(out); !bytes.Equal(after, before) {
				t.Error("the output was overwritten")
			}
			if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
				t.Errorf("the output's folder holds %d entries", len(entries))
			}
		})
	}

	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"onto the source", []string{"--format", "azck", "--checkpoint", src, "--out", src}, 1, "is the checkpoint being stripped"},
		{"a folder", []string{"--format", "azck", "--checkpoint", src, "--out", dir}, 1, "is a folder"},
		{"no out", []string{"--format", "azck", "--checkpoint", src}, 2, "missing --out, the file"},
		{"unknown format", []string{"--format", "pt", "--checkpoint", src, "--out", out}, 2, "--format pt"},
		{"meta for onnx", []string{"--checkpoint", src, "--out", dir, "--meta", "a=b"}, 2, "--meta sets the metadata"},
		{"meta without =", []string{"--format", "azck", "--checkpoint", src, "--out", out, "--meta", "ab"}, 2, "want KEY=VALUE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, "", append([]string{"export"}, tc.args...)...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d (want %d), stderr %q (want %q)", code, tc.code, stderr, tc.want)
			}
		})
	}
	if after, _ := os.ReadFile(src); !bytes.Equal(after, whole) {
		t.Error("the source checkpoint changed")
	}
}

// samePlay checks that two networks give bit-identical outputs on a few
// positions of a game.
func samePlay(t *testing.T, a, b *model.Weights) {
	t.Helper()
	var evs [2]*model.FastEvaluator
	for i, w := range []*model.Weights{a, b} {
		ev, err := model.NewFastEvaluator(w, model.FastOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer ev.Close()
		evs[i] = ev
	}
	p := env.NewPosition(env.Alice)
	for ply := 0; ply < 8; ply++ {
		planes := make([]float32, env.InputSize)
		p.Encode(planes)
		var pol [2][]float32
		var wdl [2][]float32
		for i, ev := range evs {
			pol[i], wdl[i] = make([]float32, env.PolicySize), make([]float32, env.WDLSize)
			if err := ev.Evaluate(planes, 1, pol[i], wdl[i]); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(pol[0], pol[1]) || !slices.Equal(wdl[0], wdl[1]) {
			t.Fatalf("%s: the stripped network's outputs differ", p.FEN())
		}
		var ml env.MoveList
		p.LegalMoves(&ml)
		if ml.N == 0 {
			break
		}
		p.MakeMove(ml.Moves[ply%ml.N])
	}
}
