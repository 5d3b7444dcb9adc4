package mcts

import (
	"context"
	"runtime"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// Benchmarks with the zero-cost UniformEvaluator measure the search alone:
// playouts per second and allocations per playout. Games are played out
// (tree reuse, cache) and restarted when over.
//
//	go test -run '^$' -bench . -cpu 1 ./mcts/

func reportPerSim(b *testing.B, sims int64, before *runtime.MemStats) {
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(sims)/b.Elapsed().Seconds(), "sims/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(sims), "allocs/sim")
}

func BenchmarkSearch(b *testing.B) {
	for _, bc := range []struct {
		name   string
		gumbel bool
		batch  int
	}{{"puct/batch=1", false, 1}, {"puct/batch=16", false, 16}, {"gumbel/batch=16", true, 16}} {
		b.Run(bc.name, func(b *testing.B) {
			cfg := DefaultPlayConfig()
			cfg.Gumbel = bc.gumbel
			cfg.Simulations = 800
			cfg.BatchSize = bc.batch
			s, err := NewSearcher(UniformEvaluator{}, cfg)
			if err != nil {
				b.Fatal(err)
			}
			start := env.NewPosition(env.Alice)
			tr, _ := s.NewTree(start, 1)
			var sims int64
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			for b.Loop() {
				res, err := s.Search(context.Background(), tr, clock.Limits{}, Progress{})
				if err != nil {
					b.Fatal(err)
				}
				sims += int64(res.Nodes)
				if err := tr.Advance(res.BestMove); err != nil {
					b.Fatal(err)
				}
				if tr.Status().IsOver() {
					_ = tr.Reset(start)
				}
			}
			reportPerSim(b, sims, &ms)
		})
	}
}

func BenchmarkSearchBatch(b *testing.B) {
	for _, bc := range []struct {
		name   string
		gumbel bool
		sims   int
	}{{"puct/games=64/batch=32", false, 200}, {"gumbel/games=64/batch=32", true, 32}} {
		b.Run(bc.name, func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.Gumbel = bc.gumbel
			cfg.Simulations = bc.sims
			cfg.BatchSize = 32
			s, err := NewSearcher(UniformEvaluator{}, cfg)
			if err != nil {
				b.Fatal(err)
			}
			start := env.NewPosition(env.Alice)
			trees := make([]*Tree, 64)
			for i := range trees {
				trees[i], _ = s.NewTree(start, uint64(i))
			}
			var sims int64
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			for b.Loop() {
				out, err := s.SearchBatch(context.Background(), trees)
				if err != nil {
					b.Fatal(err)
				}
				for i, r := range out {
					sims += int64(r.Nodes)
					if err := trees[i].Advance(r.BestMove); err != nil {
						b.Fatal(err)
					}
					if trees[i].Status().IsOver() {
						_ = trees[i].Reset(start)
					}
				}
			}
			reportPerSim(b, sims, &ms)
		})
	}
}
