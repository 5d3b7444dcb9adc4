package train

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/sourcegraph/conc"

	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/internal/syncbuf"
	"github.com/alicezero/alicezero/train/bus"
	"github.com/alicezero/alicezero/train/bus/bustest"
	natsbus "github.com/alicezero/alicezero/train/bus/nats"
	"github.com/alicezero/alicezero/train/replay"
)

// crashAfterCheckpoint is a source whose learner dies right after its
// first checkpoint, before the acknowledgement reaches the server: the
// connection is cut and the learner's context cancelled.
type crashAfterCheckpoint struct {
	bus.Source
	nc     *nats.Conn
	cancel context.CancelFunc
}

func (c *crashAfterCheckpoint) Ack(context.Context, []*bus.Delivery) error {
	c.nc.Close()
	c.cancel()
	return nil
}

// TestLearnOverNATSExactlyOnce: a learner that dies between its
// checkpoint and the acknowledgement gets the round's shards again when it
// restarts, recognises them from the checkpoint's ledger and takes only
// the new ones; stale shards are dropped and counted.
func TestLearnOverNATSExactlyOnce(t *testing.T) {
	dir := t.TempDir()
	srv, err := natsbus.StartServer(natsbus.ServerOptions{Listen: "127.0.0.1:0", StoreDir: filepath.Join(dir, "js")})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	names := natsbus.NamesFor("r")
	open := func(crash context.CancelFunc) func(context.Context, string) (*LearnBus, error) {
		return func(ctx context.Context, _ string) (*LearnBus, error) {
			nc, err := natsbus.Connect(natsbus.ConnOptions{URL: srv.URL()})
			if err != nil {
				return nil, err
			}
			src, err := natsbus.NewSource(ctx, nc, names, natsbus.SourceOptions{AckWait: time.Second})
			if err != nil {
				return nil, err
			}
			nets, err := natsbus.NewNetworks(ctx, nc, names, true)
			if err != nil {
				return nil, err
			}
			lb := &LearnBus{Source: src, Networks: nets, Close: nc.Close}
			if crash != nil {
				lb.Source = &crashAfterCheckpoint{Source: src, nc: nc, cancel: crash}
			}
			return lb, nil
		}
	}
	// The stream exists once a learner has opened it.
	ctx := context.Background()
	nc, err := natsbus.Connect(natsbus.ConnOptions{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if _, err := natsbus.NewSource(ctx, nc, names, natsbus.SourceOptions{}); err != nil {
		t.Fatal(err)
	}
	sink, err := natsbus.NewSink(ctx, nc, names, "w", nil)
	if err != nil {
		t.Fatal(err)
	}
	send := func(seed uint64, network int) []replay.Sample {
		s := bustest.Samples(t, seed, 20)
		if err := sink.Send(ctx, bus.ShardInfo{Worker: "w", Network: network, Games: 2, PlaySeconds: 1}, s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	for seed := uint64(1); seed <= 3; seed++ {
		send(seed, 0)
	}
	// A message without the headers of a shard, and a shard whose data is
	// damaged: both rejected and counted, neither in the buffer.
	if err := nc.Publish(names.Subject, []byte("garbage")); err != nil {
		t.Fatal(err)
	}
	damaged := replay.EncodeShard(bustest.Samples(t, 9, 5))
	damaged[20] ^= 1
	h := nats.Header{}
	for k, v := range map[string]string{"Alice-Worker": "m", "Alice-Session": "0123456789abcdef", "Alice-Seq": "1", "Alice-Network": "0",
		"Alice-Games": "1", "Alice-Play-Ms": "5", nats.MsgIdHdr: "m/0123456789abcdef/1"} {
		h.Set(k, v)
	}
	if err := nc.PublishMsg(&nats.Msg{Subject: names.Subject, Header: h, Data: damaged}); err != nil {
		t.Fatal(err)
	}

	// Round 1, then the crash.
	lctx, cancel := context.WithCancel(ctx)
	out := &syncbuf.Buffer{}
	err = Learn(lctx, LearnOptions{RunsDir: dir, Name: "run", Config: tinyConfig(t), Open: open(cancel), Poll: 200 * time.Millisecond, Out: out})
	if !errors.Is(err, context.Canceled) || !strings.Contains(out.String(), "round 1: 60 new positions, 6 games (w 7200/h), 2 shards rejected") ||
		!strings.Contains(out.String(), "checksum mismatch") {
		t.Fatalf("first learner: %v\n%s", err, out.String())
	}

	// The restarted learner: two new shards, then a stale one and a fresh
	// one.
	lctx, cancel = context.WithCancel(ctx)
	defer cancel()
	out = &syncbuf.Buffer{}
	var wg conc.WaitGroup
	var learnErr error
	wg.Go(func() {
		learnErr = Learn(lctx, LearnOptions{RunsDir: dir, Name: "run", Resume: true, Open: open(nil), MaxStale: 1, Poll: 200 * time.Millisecond, Out: out})
	})
	// after sums the metrics of the rounds after the crash.
	after := func() (positions, stale, rounds int) {
		hist, _ := readMetrics(filepath.Join(dir, "run", runs.MetricsFile), 1<<30)
		for _, m := range hist {
			if m.Iteration >= 2 {
				positions += m.Positions
				stale += m.StaleShards
				rounds++
			}
		}
		return positions, stale, rounds
	}
	waitFor := func(positions, stale int) int {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
			p, s, rounds := after()
			if p == positions && s == stale {
				return rounds
			}
			if time.Now().After(deadline) || p > positions {
				cancel()
				wg.Wait()
				t.Fatalf("after the crash: %d positions, %d stale, want %d and %d:\n%s", p, s, positions, stale, out.String())
			}
		}
	}
	// Wait past the redelivery of round 1's shards before sending more.
	time.Sleep(2500 * time.Millisecond)
	fresh := append(send(4, 1), send(5, 1)...)
	waitFor(40, 0)
	// The learner is at iteration 2 or more: a shard of network 0 is
	// stale, one of network 2 is not.
	send(6, 0)
	fresh = append(fresh, send(7, 2)...)
	rounds := waitFor(60, 1)
	time.Sleep(1500 * time.Millisecond)
	cancel()
	wg.Wait()
	if !errors.Is(learnErr, context.Canceled) {
		t.Fatal(learnErr)
	}
	if _, _, r := after(); r != rounds {
		t.Fatalf("a shard was taken twice:\n%s", out.String())
	}
	var got []replay.Sample
	for it := 2; it < 2+rounds; it++ {
		s, err := replay.ReadShard(filepath.Join(dir, "run", runs.ShardName(it)))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s...)
	}
	if len(got) != len(fresh) {
		t.Fatalf("the rounds after the crash hold %d positions, want the %d sent after it", len(got), len(fresh))
	}
	for i := range got {
		if got[i].Position != fresh[i].Position {
			t.Fatalf("position %d differs from what was sent", i)
		}
	}
	if !strings.Contains(out.String(), "1 stale shards dropped") || !strings.Contains(out.String(), "(w 7200/h)") {
		t.Fatalf("summary lines:\n%s", out.String())
	}
}
