package model_test

import (
	"fmt"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/cputime"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/internal/bench"
	"github.com/alicezero/alicezero/model/internal/kernel"
	"github.com/alicezero/alicezero/model/internal/modeltest"
)

// BenchmarkInference: positions per second of the fast path, preset
// small, at several batch sizes. Run with -benchmem to see its zero
// allocations per call.
func BenchmarkInference(b *testing.B) {
	w, err := model.NewWeights(modeltest.MustPreset(b, "small"), 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, batch := range []int{1, 16, 64, 256} {
		b.Run(fmt.Sprintf("fast/batch=%d", batch), func(b *testing.B) {
			f, err := model.NewFastEvaluator(w, model.FastOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			planes, _, _, _ := bench.SyntheticBatch(batch, 1)
			pol := make([]float32, batch*env.PolicySize)
			wdl := make([]float32, batch*env.WDLSize)
			if err := f.Evaluate(planes, batch, pol, wdl); err != nil { // warm up
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cputime.Process()
			for i := 0; i < b.N; i++ {
				if err := f.Evaluate(planes, batch, pol, wdl); err != nil {
					b.Fatal(err)
				}
			}
			modeltest.ReportRates(b, b.N*batch, cputime.Process()-cpu0)
		})
	}
}

// BenchmarkFastKernels: the fast path at batch 64 on each kernel set this
// CPU can run (avx512, avx2, portable), one worker.
func BenchmarkFastKernels(b *testing.B) {
	w, err := model.NewWeights(modeltest.MustPreset(b, "small"), 1)
	if err != nil {
		b.Fatal(err)
	}
	const batch = 64
	planes, _, _, _ := bench.SyntheticBatch(batch, 1)
	pol := make([]float32, batch*env.PolicySize)
	wdl := make([]float32, batch*env.WDLSize)
	for _, k := range kernel.Available() {
		b.Run(k, func(b *testing.B) {
			f, err := model.NewFastEvaluator(w, model.WithKernels(model.FastOptions{Workers: 1}, k))
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			if err := f.Evaluate(planes, batch, pol, wdl); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			cpu0 := cputime.Process()
			for i := 0; i < b.N; i++ {
				if err := f.Evaluate(planes, batch, pol, wdl); err != nil {
					b.Fatal(err)
				}
			}
			modeltest.ReportRates(b, b.N*batch, cputime.Process()-cpu0)
		})
	}
}
