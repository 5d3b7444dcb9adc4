package nats_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/train"
	"github.com/alicezero/alicezero/train/bus"
	"github.com/alicezero/alicezero/train/bus/bustest"
	natsbus "github.com/alicezero/alicezero/train/bus/nats"
	"github.com/alicezero/alicezero/train/replay"
)

// TestLearnerRejectsOversizeShard reaches the learner's own size check,
// which the server's limits normally pre-empt: shards stored while the
// stream allowed 1 MiB reach a learner restarted with a 64 KiB limit
// (--max-shard-mb lowered over a backlog). The one over the new limit is
// rejected and counted, its positions never enter the buffer, it is gone
// from the stream, and the learner trains on the shards around it.
func TestLearnerRejectsOversizeShard(t *testing.T) {
	const oldLimit, newLimit = 1 << 20, 64 << 10
	dir := t.TempDir()
	srv, err := natsbus.StartServer(natsbus.ServerOptions{Listen: "127.0.0.1:0", StoreDir: filepath.Join(dir, "js")})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	nc, err := natsbus.Connect(natsbus.ConnOptions{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	names := natsbus.NamesFor("oversize")

	// The earlier learner set the stream up with the larger limit.
	old, err := natsbus.NewSource(ctx, nc, names, natsbus.SourceOptions{MaxShardBytes: oldLimit})
	if err != nil {
		t.Fatal(err)
	}
	old.Close()
	sink, err := natsbus.NewSink(ctx, nc, names, "w", nil)
	if err != nil {
		t.Fatal(err)
	}
	send := func(seed uint64, n int) []replay.Sample {
		t.Helper()
		s := bustest.Samples(t, seed, n)
		if err := sink.Send(ctx, bus.ShardInfo{Worker: "w", Network: 0, Games: 1, PlaySeconds: 1}, s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := send(1, 10)
	big := bustest.Samples(t, 2, 2000)
	if n := len(replay.EncodeShard(big)); n <= newLimit || n >= oldLimit-8<<10 {
		t.Fatalf("the big shard is %d bytes: want it between the limits, whole in one message", n)
	}
	send(2, 2000)
	after := send(3, 10)

	var out bytes.Buffer
	open := func(ctx context.Context, _ string) (*train.LearnBus, error) {
		src, err := natsbus.NewSource(ctx, nc, names, natsbus.SourceOptions{AckWait: time.Second, MaxShardBytes: newLimit})
		if err != nil {
			return nil, err
		}
		nets, err := natsbus.NewNetworks(ctx, nc, names, true)
		if err != nil {
			src.Close()
			return nil, err
		}
		return &train.LearnBus{Source: src, Networks: nets}, nil
	}
	cfg, err := train.BuiltinConfig("tiny")
	if err != nil {
		t.Fatal(err)
	}
	err = train.Learn(ctx, train.LearnOptions{RunsDir: dir, Name: "run", Config: cfg, Open: open, Once: true, Out: &out})
	if err != nil {
		t.Fatalf("learn: %v\n%s", err, out.String())
	}
	if want := fmt.Sprintf("over the limit of %d", newLimit); !strings.Contains(out.String(), "rejected shard") || !strings.Contains(out.String(), want) {
		t.Errorf("no warning of the rejection (%q):\n%s", want, out.String())
	}

	// Counted in the round's metrics, which hold the other shards only.
	f, err := os.Open(filepath.Join(dir, "run", runs.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rounds []runs.Metrics
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var m runs.Metrics
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		if m.Iteration >= 1 {
			rounds = append(rounds, m)
		}
	}
	want := append(before, after...)
	if len(rounds) != 1 {
		t.Fatalf("%d rounds, want 1\n%s", len(rounds), out.String())
	}
	if m := rounds[0]; m.RejectedShards != 1 || m.Positions != len(want) || m.Games != 2 {
		t.Fatalf("round 1: %d positions, %d games, %d shards rejected; want %d, 2 and 1\n%s", m.Positions, m.Games, m.RejectedShards, len(want), out.String())
	}
	got, err := replay.ReadShard(filepath.Join(dir, "run", runs.ShardName(1)))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("the buffer holds %d positions, want the %d of the shards within the limit", len(got), len(want))
	}
	for i := range got {
		if got[i].Position != want[i].Position {
			t.Fatalf("position %d of the buffer is not from the shards within the limit", i)
		}
	}

	// Terminated, not left for the next learner.
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := js.Stream(ctx, names.Stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 0 {
		t.Fatalf("%d messages left in the stream after the round", info.State.Msgs)
	}
}
