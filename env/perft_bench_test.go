package env

import "testing"

func BenchmarkPerftStart5(b *testing.B) {
	p := NewPosition(Alice)
	var nodes uint64
	for b.Loop() {
		nodes += p.Perft(5)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
