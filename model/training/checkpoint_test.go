package training

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/internal/modeltest"
)

// batchFor returns the deterministic training batch for a step.
func batchFor(step int, n int) (planes, pol, mask, wdl []float32) {
	rng := rand.New(rand.NewPCG(uint64(step), 99))
	planes = modeltest.RandomPlanes(rng, n)
	pol, mask, wdl = randomTargets(rng, n)
	return
}

func TestCheckpointRoundTrip(t *testing.T) {
	w := modeltest.MustWeights(t, modeltest.MustPreset(t, "tiny"), 31)
	tr, err := NewTrainer(w, smallTrainConfig(4))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	for i := 0; i < 3; i++ {
		if _, err := tr.Step(batchFor(i, 4)); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "net.azck")
	meta := map[string]string{"run": "test", "games": "12"}
	extra := []byte("opaque trainer state \x00\x01\x02")
	if err := model.SaveCheckpoint(path, tr.Checkpoint(meta, extra)); err != nil {
		t.Fatal(err)
	}
	c, err := model.LoadCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Step != 3 || c.Preset != "tiny" || c.Meta["games"] != "12" || !bytes.Equal(c.Extra, extra) {
		t.Errorf("header round trip: step %d preset %q meta %v extra %q", c.Step, c.Preset, c.Meta, c.Extra)
	}
	if tc, err := CheckpointTrainConfig(c); err != nil || tc == nil || tc.BatchSize != 4 || tc.LR.Base != 0.05 {
		t.Errorf("train config round trip: %+v, %v", tc, err)
	}
	if !c.Weights.Equal(w) {
		t.Fatal("weights differ after round trip")
	}
	if c.Optimizer == nil || c.Optimizer.Step != 3 || c.Optimizer.Kind != model.OptimizerSGD {
		t.Fatalf("optimizer state: %+v", c.Optimizer)
	}

	// Identical outputs from the saved and the loaded weights.
	w2, _ := model.NewWeights(w.Config(), 999)
	if err := model.LoadWeights(path, w2); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(32, 32))
	planes := modeltest.RandomPlanes(rng, 5)
	out := func(w *model.Weights) ([]float32, []float32) {
		ev, err := model.NewFastEvaluator(w, model.FastOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer ev.Close()
		p, v := make([]float32, 5*env.PolicySize), make([]float32, 5*env.WDLSize)
		if err := ev.Evaluate(planes, 5, p, v); err != nil {
			t.Fatal(err)
		}
		return p, v
	}
	p1, v1 := out(w)
	p2, v2 := out(w2)
	if modeltest.MaxAbsDiff(p1, p2) != 0 || modeltest.MaxAbsDiff(v1, v2) != 0 {
		t.Error("loaded weights give different outputs")
	}
	// No temporary files left behind; overwriting works.
	if err := model.SaveCheckpoint(path, &model.Checkpoint{Weights: w}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries after saves, want 1", len(entries))
	}
	c, err = model.LoadCheckpoint(path)
	if err != nil || c.Optimizer != nil || c.Step != 0 {
		t.Errorf("weights-only checkpoint: %v %+v", err, c)
	}
	if err := tr.Restore(c); err == nil {
		t.Error("Restore accepted a checkpoint without optimizer state")
	}
	if err := model.SaveCheckpoint(filepath.Join(t.TempDir(), "missing", "x"), &model.Checkpoint{Weights: w}); err == nil {
		t.Error("save into a missing directory succeeded")
	}
}

// TestResumeBitIdentical: K steps, checkpoint, restore into a fresh
// trainer, K more steps must equal 2K uninterrupted steps bit for bit.
func TestResumeBitIdentical(t *testing.T) {
	for _, opt := range []string{model.OptimizerSGD, model.OptimizerAdamW} {
		t.Run(opt, func(t *testing.T) {
			cfg := modeltest.MustPreset(t, "tiny")
			tc := smallTrainConfig(4)
			tc.Optimizer = opt
			tc.WeightDecay = 0.01
			tc.LR = LRSchedule{Kind: "cosine", Base: 0.01, Min: 0.001, TotalSteps: 10, WarmupSteps: 2}
			const K = 4

			wa, _ := model.NewWeights(cfg, 41)
			ta, err := NewTrainer(wa, tc)
			if err != nil {
				t.Fatal(err)
			}
			defer ta.Close()
			for i := 0; i < 2*K; i++ {
				if _, err := ta.Step(batchFor(i, 4)); err != nil {
					t.Fatal(err)
				}
			}

			wb, _ := model.NewWeights(cfg, 41)
			tb, err := NewTrainer(wb, tc)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < K; i++ {
				if _, err := tb.Step(batchFor(i, 4)); err != nil {
					t.Fatal(err)
				}
			}
			path := filepath.Join(t.TempDir(), "mid.azck")
			if err := model.SaveCheckpoint(path, tb.Checkpoint(nil, nil)); err != nil {
				t.Fatal(err)
			}
			tb.Close()

			c, err := model.LoadCheckpoint(path)
			if err != nil {
				t.Fatal(err)
			}
			wc, _ := model.NewWeights(cfg, 12345) // different init: Restore must overwrite it
			ctc, err := CheckpointTrainConfig(c)
			if err != nil || ctc == nil {
				t.Fatalf("train config: %+v, %v", ctc, err)
			}
			tcc, err := NewTrainer(wc, *ctc)
			if err != nil {
				t.Fatal(err)
			}
			defer tcc.Close()
			if err := tcc.Restore(c); err != nil {
				t.Fatal(err)
			}
			if tcc.Steps() != K {
				t.Fatalf("restored trainer at step %d, want %d", tcc.Steps(), K)
			}
			for i := K; i < 2*K; i++ {
				if _, err := tcc.Step(batchFor(i, 4)); err != nil {
					t.Fatal(err)
				}
			}
			if !wc.Equal(wa) {
				t.Fatal("resumed run's weights differ from the uninterrupted run's")
			}
			sa, sc := ta.OptimizerState(), tcc.OptimizerState()
			if sa.Step != sc.Step || len(sa.Slots) != len(sc.Slots) {
				t.Fatalf("optimizer states differ: step %d vs %d", sa.Step, sc.Step)
			}
			for i := range sa.Slots {
				if modeltest.MaxAbsDiff(sa.Slots[i].Data, sc.Slots[i].Data) != 0 {
					t.Fatalf("optimizer buffer %s/%s differs", sa.Slots[i].Slot, sa.Slots[i].Param)
				}
			}
		})
	}
}

func TestCheckpointRejectsDamage(t *testing.T) {
	w := modeltest.MustWeights(t, modeltest.MustPreset(t, "tiny"), 51)
	tr, err := NewTrainer(w, smallTrainConfig(2))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var buf bytes.Buffer
	if err := model.WriteCheckpoint(&buf, tr.Checkpoint(map[string]string{"k": "v"}, []byte("xyz"))); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	if _, err := model.ReadCheckpoint(bytes.NewReader(good)); err != nil {
		t.Fatalf("intact file refused: %v", err)
	}
	hlen := int(binary.LittleEndian.Uint32(good[12:]))
	read := func(b []byte) error {
		_, err := model.ReadCheckpoint(bytes.NewReader(b))
		return err
	}
	mutate := func(f func(b []byte) []byte) []byte {
		return f(append([]byte(nil), good...))
	}

	for _, cut := range []int{0, 5, 12, 16, 16 + hlen/2, 16 + hlen, 16 + hlen + 100, len(good) / 2, len(good) - 33, len(good) - 1} {
		err := read(good[:cut])
		if !errors.Is(err, model.ErrTruncated) {
			t.Errorf("truncated to %d of %d bytes: got %v, want ErrTruncated", cut, len(good), err)
		}
	}
	for name, b := range map[string][]byte{
		"payload byte":  mutate(func(b []byte) []byte { b[16+hlen+50] ^= 0x10; return b }),
		"header byte":   mutate(func(b []byte) []byte { b[20] ^= 0x01; return b }),
		"checksum byte": mutate(func(b []byte) []byte { b[len(b)-1] ^= 0xff; return b }),
		"extra byte":    mutate(func(b []byte) []byte { b[len(b)-33] ^= 0xff; return b }),
		"trailing data": mutate(func(b []byte) []byte { return append(b, 0) }),
	} {
		if err := read(b); !errors.Is(err, model.ErrChecksum) {
			t.Errorf("%s corrupted: got %v, want ErrChecksum", name, err)
		}
	}
	if err := read(mutate(func(b []byte) []byte { b[0] = 'X'; return b })); !errors.Is(err, model.ErrBadMagic) {
		t.Errorf("wrong magic: got %v", err)
	}
	if err := read([]byte("PK\x03\x04 a zip file")); !errors.Is(err, model.ErrBadMagic) {
		t.Errorf("zip file: got %v", err)
	}
	future := mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], model.CheckpointVersion+1); return b })
	if err := read(future); !errors.Is(err, model.ErrVersion) || !strings.Contains(err.Error(), "newer") {
		t.Errorf("future version: got %v", err)
	}
	for _, v := range []uint32{0, 0xdeadbeef, 1 << 31} {
		garbage := mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], v); return b })
		if err := read(garbage); !errors.Is(err, model.ErrVersion) || !strings.Contains(err.Error(), "not an AliceZero checkpoint") || strings.Contains(err.Error(), "newer") {
			t.Errorf("version %#x: got %v, want 'not an AliceZero checkpoint'", v, err)
		}
	}
	// Version 1 held the retired fully connected policy head: refused by
	// its version, with the reason, before anything else is read.
	v1 := mutate(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], 1); return b })
	if err := read(v1); !errors.Is(err, model.ErrVersion) || !strings.Contains(err.Error(), "fully connected policy head over the 1858-move table") {
		t.Errorf("version 1: got %v", err)
	}
	// A header of another encoding, checksum intact.
	for _, c := range []struct{ key, value, says string }{
		{"input_planes", "34", "records 34 input planes"},
		{"policy_layout", `"lc0-1858"`, `policy layout "lc0-1858", which this build does not have`},
		{"policy_layout", `"move-planes-74x8x8"`, "its architecture 37 and \"move-planes-73x8x8\""},
	} {
		b := rewriteHeader(t, good, c.key, c.value)
		if err := read(b); !errors.Is(err, model.ErrEncoding) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("header %s = %s: got %v, want ErrEncoding", c.key, c.value, err)
		}
	}

	// Architecture mismatch, into weights and into a trainer.
	dir := t.TempDir()
	path := filepath.Join(dir, "tiny.azck")
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	small, _ := model.NewWeights(modeltest.MustPreset(t, "small"), 1)
	err = model.LoadWeights(path, small)
	if !errors.Is(err, model.ErrArchMismatch) || !strings.Contains(err.Error(), "channels 8 (file) vs 32 (net)") {
		t.Errorf("loading tiny into small: got %v", err)
	}
	c, err := model.LoadCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := NewTrainer(small, smallTrainConfig(2))
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	if err := ts.Restore(c); !errors.Is(err, model.ErrArchMismatch) {
		t.Errorf("restoring tiny into a small trainer: got %v", err)
	}
	tcA := smallTrainConfig(2)
	tcA.Optimizer = model.OptimizerAdamW
	w2, _ := model.NewWeights(modeltest.MustPreset(t, "tiny"), 1)
	ta, err := NewTrainer(w2, tcA)
	if err != nil {
		t.Fatal(err)
	}
	defer ta.Close()
	if err := ta.Restore(c); err == nil || !strings.Contains(err.Error(), "sgd") {
		t.Errorf("restoring SGD state into an AdamW trainer: got %v", err)
	}
	if _, err := model.LoadCheckpoint(filepath.Join(dir, "absent")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v", err)
	}
}

// rewriteHeader returns the checkpoint b with one header field set to the
// JSON value, the lengths and the checksum fixed up.
func rewriteHeader(t *testing.T, b []byte, key, value string) []byte {
	t.Helper()
	hlen := int(binary.LittleEndian.Uint32(b[12:]))
	var h map[string]json.RawMessage
	if err := json.Unmarshal(b[16:16+hlen], &h); err != nil {
		t.Fatal(err)
	}
	h[key] = json.RawMessage(value)
	hj, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte(nil), b[:16]...)
	binary.LittleEndian.PutUint32(out[12:], uint32(len(hj)))
	out = append(append(out, hj...), b[16+hlen:len(b)-sha256.Size]...)
	sum := sha256.Sum256(out)
	return append(out, sum[:]...)
}
