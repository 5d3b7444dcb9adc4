package training

import (
	"fmt"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/cputime"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/internal/bench"
	"github.com/alicezero/alicezero/model/internal/modeltest"
)

// BenchmarkInference: positions per second of the fast path and of the
// gorgonia graph, preset small, at several batch sizes. Run with -benchmem
// to see the fast path's zero allocations per call.
func BenchmarkInference(b *testing.B) {
	cfg := modeltest.MustPreset(b, "small")
	w, err := model.NewWeights(cfg, 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, impl := range []string{"fast", "gorgonia"} {
		for _, batch := range []int{1, 16, 64, 256} {
			b.Run(fmt.Sprintf("%s/batch=%d", impl, batch), func(b *testing.B) {
				var ev evaluator
				switch impl {
				case "fast":
					f, err := model.NewFastEvaluator(w, model.FastOptions{})
					if err != nil {
						b.Fatal(err)
					}
					defer f.Close()
					ev = f
				default:
					g, err := NewGraphEvaluator(w, batch)
					if err != nil {
						b.Fatal(err)
					}
					defer g.Close()
					ev = g
				}
				planes, _, _, _ := bench.SyntheticBatch(batch, 1)
				pol := make([]float32, batch*env.PolicySize)
				wdl := make([]float32, batch*env.WDLSize)
				if err := ev.Evaluate(planes, batch, pol, wdl); err != nil { // warm up
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				cpu0 := cputime.Process()
				for i := 0; i < b.N; i++ {
					if err := ev.Evaluate(planes, batch, pol, wdl); err != nil {
						b.Fatal(err)
					}
				}
				modeltest.ReportRates(b, b.N*batch, cputime.Process()-cpu0)
			})
		}
	}
}

// BenchmarkTrainStep: one SGD step of preset small at the default training
// batch size (256) and at the small configuration's (128).
func BenchmarkTrainStep(b *testing.B) {
	for _, batch := range []int{DefaultTrainBatch, 128} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			w, err := model.NewWeights(modeltest.MustPreset(b, "small"), 1)
			if err != nil {
				b.Fatal(err)
			}
			tc := DefaultTrainConfig()
			tc.BatchSize = batch
			t, err := NewTrainer(w, tc)
			if err != nil {
				b.Fatal(err)
			}
			defer t.Close()
			planes, pol, mask, wdl := bench.SyntheticBatch(tc.BatchSize, 2)
			if _, err := t.Step(planes, pol, mask, wdl); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cputime.Process()
			for i := 0; i < b.N; i++ {
				if _, err := t.Step(planes, pol, mask, wdl); err != nil {
					b.Fatal(err)
				}
			}
			modeltest.ReportRates(b, b.N*tc.BatchSize, cputime.Process()-cpu0)
		})
	}
}

// The bench subcommand's entry points work and report positive rates.
func TestMeasure(t *testing.T) {
	cfg := modeltest.MustPreset(t, "tiny")
	fast, graph, err := MeasureInference(cfg, 4, 20*time.Millisecond)
	if err != nil || fast <= 0 || graph <= 0 {
		t.Fatalf("MeasureInference: %v %v %v", fast, graph, err)
	}
	tc := DefaultTrainConfig()
	tc.BatchSize = 8
	if _, _, err := MeasureInference(cfg, 0, time.Millisecond); err == nil {
		t.Error("batch 0 accepted")
	}
	sp, err := MeasureSpeeds(cfg, tc, 40*time.Millisecond)
	if err != nil || sp.Fast <= 0 || sp.FastB16 <= 0 || sp.Fast1Core <= 0 || sp.Train <= 0 {
		t.Fatalf("MeasureSpeeds: %+v %v", sp, err)
	}
	t.Logf("tiny: fast %.0f pos/s, gorgonia %.0f pos/s, training %.0f pos/s", fast, graph, sp.Train)
}
