package nats

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/train/bus"
	"github.com/alicezero/alicezero/train/bus/bustest"
	"github.com/alicezero/alicezero/train/replay"
)

// benchSamples are n positions with policies of 20 moves, about the size
// of self-play's (32 simulations spread over the root's moves).
func benchSamples(b *testing.B, n int) []replay.Sample {
	s := bustest.Samples(b, 1, n)
	for i := range s {
		s[i].Policy = make([]replay.PolicyEntry, 20)
		for j := range s[i].Policy {
			s[i].Policy[j] = replay.PolicyEntry{Index: uint16(50*j + i%50), Prob: 0.05}
		}
	}
	return s
}

func benchServer(b *testing.B) (*Server, Names) {
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: filepath.Join(b.TempDir(), "js")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Shutdown)
	return srv, NamesFor("bench")
}

// BenchmarkShardTrip is one shard's way from a worker into the learner: the
// worker's Send (stored and synced to disk by the server, acknowledged),
// the learner's Next, its check of the data (replay.DecodeShard), Commit
// and Ack.
func BenchmarkShardTrip(b *testing.B) {
	for _, positions := range []int{40, 4000} { // about one game; a shard of 100 games
		b.Run(fmt.Sprintf("positions=%d", positions), func(b *testing.B) {
			srv, names := benchServer(b)
			ctx := context.Background()
			lc, err := Connect(ConnOptions{URL: srv.URL()})
			if err != nil {
				b.Fatal(err)
			}
			defer lc.Close()
			src, err := NewSource(ctx, lc, names, SourceOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer src.Close()
			wc, err := Connect(ConnOptions{URL: srv.URL()})
			if err != nil {
				b.Fatal(err)
			}
			defer wc.Close()
			sink, err := NewSink(ctx, wc, names, "w", nil)
			if err != nil {
				b.Fatal(err)
			}
			samples := benchSamples(b, positions)
			b.SetBytes(int64(len(replay.EncodeShard(samples))))
			b.ResetTimer()
			for range b.N {
				if err := sink.Send(ctx, bus.ShardInfo{Worker: "w", Games: 1}, samples); err != nil {
					b.Fatal(err)
				}
				var ds []*bus.Delivery
				for len(ds) == 0 {
					if ds, err = src.Next(ctx, time.Second); err != nil {
						b.Fatal(err)
					}
				}
				for _, d := range ds {
					if _, err := replay.DecodeShard(d.Data, d.ID); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := src.Commit(ds); err != nil {
					b.Fatal(err)
				}
				if err := src.Ack(ctx, ds); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(positions*b.N)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}

// BenchmarkDecodeShard is the learner's own cost per shard: checking and
// decoding 4000 positions.
func BenchmarkDecodeShard(b *testing.B) {
	data := replay.EncodeShard(benchSamples(b, 4000))
	b.SetBytes(int64(len(data)))
	for range b.N {
		if _, err := replay.DecodeShard(data, "bench"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(4000*b.N)/b.Elapsed().Seconds(), "positions/s")
}

// BenchmarkNetwork is one network's way to one worker: the learner's
// publication (weights only, preset small) and a worker's fetch with its
// digest check.
func BenchmarkNetwork(b *testing.B) {
	for _, preset := range []string{"small", "medium"} {
		b.Run(preset, func(b *testing.B) {
			arch, err := model.Preset(preset)
			if err != nil {
				b.Fatal(err)
			}
			w, err := model.NewWeights(arch, 1)
			if err != nil {
				b.Fatal(err)
			}
			var buf bytes.Buffer
			if err := model.WriteCheckpoint(&buf, &model.Checkpoint{Weights: w}); err != nil {
				b.Fatal(err)
			}
			srv, names := benchServer(b)
			ctx := context.Background()
			nc, err := Connect(ConnOptions{URL: srv.URL()})
			if err != nil {
				b.Fatal(err)
			}
			defer nc.Close()
			nets, err := NewNetworks(ctx, nc, names, true)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(buf.Len()))
			b.Run("publish", func(b *testing.B) {
				for i := range b.N {
					if err := nets.PublishNetwork(ctx, i, buf.Bytes()); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("fetch", func(b *testing.B) {
				it, err := nets.NewestNetwork(ctx)
				if err != nil {
					b.Fatal(err)
				}
				for range b.N {
					if _, err := nets.FetchNetwork(ctx, it); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
