// Package bustest is the test suite every transport of package bus
// passes: shards arrive once with their description, a learner that stops
// before its checkpoint gets them again, one that stops after it never
// does, rejected shards stay out, and networks come back as published.
package bustest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/train/bus"
	"github.com/alicezero/alicezero/train/replay"
)

// Transport is one fresh instance of a transport under test.
type Transport struct {
	// Source opens the learner's side; it is called again for a learner
	// restarted after Crash.
	Source func(t *testing.T) bus.Source
	// Crash abandons a source as a killed learner would: nothing settled,
	// nothing handed back.
	Crash func(t *testing.T, s bus.Source)
	// Sink opens a worker's side.
	Sink func(t *testing.T, worker string) bus.Sink
	// Inject stores data as a shard of worker, as a misbehaving worker
	// would, bypassing the Sink's encoding.
	Inject func(t *testing.T, worker string, data []byte)
	// Networks opens both sides of the networks.
	Networks func(t *testing.T) (bus.NetworkPublisher, bus.NetworkFetcher)
	// Redelivery bounds how long a restarted learner waits for the shards
	// its predecessor held.
	Redelivery time.Duration
}

// Run runs the suite; open makes a fresh transport for each test.
func Run(t *testing.T, open func(t *testing.T) Transport) {
	tests := []struct {
		name string
		f    func(*testing.T, Transport)
	}{
		{"ShardsArriveOnceWithTheirDescription", testArrive},
		{"StopBeforeCheckpointHandsShardsAgain", testStopBeforeCheckpoint},
		{"StopAfterCheckpointNeverHandsThemAgain", testStopAfterCheckpoint},
		{"RejectedShardsStayOut", testReject},
		{"Networks", testNetworks},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.f(t, open(t)) })
	}
}

// Samples returns n distinct positions of random play.
func Samples(t testing.TB, seed uint64, n int) []replay.Sample {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	p := env.NewPosition(env.Alice)
	var out []replay.Sample
	for len(out) < n {
		var ml env.MoveList
		p.LegalMoves(&ml)
		if ml.N == 0 {
			p = env.NewPosition(env.Alice)
			continue
		}
		m := ml.Moves[rng.IntN(ml.N)]
		out = append(out, replay.Sample{Position: p.Snapshot(), Result: int8(rng.IntN(3) - 1), RootValue: float32(rng.Float64()*2 - 1),
			Policy: []replay.PolicyEntry{{Index: uint16(p.PolicyIndex(m)), Prob: 1}}})
		p.MakeMove(m)
	}
	return out
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return c
}

// collect takes deliveries from src until it has n or until wait passes
// without one.
func collect(t *testing.T, src bus.Source, n int, wait time.Duration) []*bus.Delivery {
	t.Helper()
	var out []*bus.Delivery
	deadline := time.Now().Add(wait)
	for len(out) < n && time.Now().Before(deadline) {
		ds, err := src.Next(ctx(t), min(time.Until(deadline), 500*time.Millisecond)+time.Millisecond)
		if err != nil {
			t.Fatalf("next: %v", err)
		}
		out = append(out, ds...)
	}
	return out
}

// none checks that src hands out nothing within wait.
func none(t *testing.T, src bus.Source, wait time.Duration) {
	t.Helper()
	if ds := collect(t, src, 1, wait); len(ds) > 0 {
		t.Fatalf("handed out %s again", ds[0].ID)
	}
}

func send(t *testing.T, sink bus.Sink, info bus.ShardInfo, samples []replay.Sample) {
	t.Helper()
	if err := sink.Send(ctx(t), info, samples); err != nil {
		t.Fatalf("send: %v", err)
	}
}

func commitAck(t *testing.T, src bus.Source, ds []*bus.Delivery) []byte {
	t.Helper()
	state, err := src.Commit(ds)
	if err != nil {
		t.Fatalf("commit: %v", err)
	}
	if err := src.Ack(ctx(t), ds); err != nil {
		t.Fatalf("ack: %v", err)
	}
	return state
}

// key identifies a shard by content: its first position and size.
func key(t *testing.T, d *bus.Delivery) string {
	t.Helper()
	if d.Err != nil {
		t.Fatalf("delivery %s: %v", d.ID, d.Err)
	}
	s, err := replay.DecodeShard(d.Data, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s/%d/%s", d.Info.Worker, len(s), s[0].Position.FEN())
}

func testArrive(t *testing.T, tr Transport) {
	src := tr.Source(t)
	defer src.Close()
	if err := src.Resume(ctx(t), nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]bus.ShardInfo{}
	for w, worker := range []string{"alpha", "beta.2"} {
		sink := tr.Sink(t, worker)
		for i := range 3 {
			info := bus.ShardInfo{Worker: worker, Network: i - 1, Games: 2 + i, PlaySeconds: 1.5 * float64(i+1)}
			samples := Samples(t, uint64(10*w+i), 5+i)
			send(t, sink, info, samples)
			want[fmt.Sprintf("%s/%d/%s", worker, len(samples), samples[0].Position.FEN())] = info
		}
		sink.Close()
	}
	got := collect(t, src, 6, 10*time.Second)
	if len(got) != 6 {
		t.Fatalf("%d shards arrived, want 6", len(got))
	}
	for _, d := range got {
		k := key(t, d)
		info, ok := want[k]
		if !ok {
			t.Fatalf("unexpected or duplicate shard %s (%s)", d.ID, k)
		}
		delete(want, k)
		if d.Info != info {
			t.Errorf("shard %s: description %+v, sent %+v", d.ID, d.Info, info)
		}
	}
	none(t, src, 300*time.Millisecond)
	commitAck(t, src, got)
}

func testStopBeforeCheckpoint(t *testing.T, tr Transport) {
	src := tr.Source(t)
	if err := src.Resume(ctx(t), nil); err != nil {
		t.Fatal(err)
	}
	sink := tr.Sink(t, "w")
	defer sink.Close()
	send(t, sink, bus.ShardInfo{Worker: "w", Network: 0, Games: 1}, Samples(t, 1, 4))
	send(t, sink, bus.ShardInfo{Worker: "w", Network: 0, Games: 1}, Samples(t, 2, 4))
	first := collect(t, src, 2, 10*time.Second)
	if len(first) != 2 {
		t.Fatalf("%d shards, want 2", len(first))
	}
	tr.Crash(t, src)

	src = tr.Source(t)
	defer src.Close()
	if err := src.Resume(ctx(t), nil); err != nil {
		t.Fatal(err)
	}
	again := collect(t, src, 2, tr.Redelivery+10*time.Second)
	if len(again) != 2 {
		t.Fatalf("the restarted learner got %d of the 2 shards it did not checkpoint", len(again))
	}
	var a, b []string
	for i := range first {
		a, b = append(a, key(t, first[i])), append(b, key(t, again[i]))
	}
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		t.Fatalf("handed %v again, want %v", b, a)
	}
	commitAck(t, src, again)
}

func testStopAfterCheckpoint(t *testing.T, tr Transport) {
	src := tr.Source(t)
	if err := src.Resume(ctx(t), nil); err != nil {
		t.Fatal(err)
	}
	sink := tr.Sink(t, "w")
	defer sink.Close()
	send(t, sink, bus.ShardInfo{Worker: "w", Network: 0, Games: 1}, Samples(t, 1, 4))
	send(t, sink, bus.ShardInfo{Worker: "w", Network: 0, Games: 1}, Samples(t, 2, 4))
	ds := collect(t, src, 2, 10*time.Second)
	if len(ds) != 2 {
		t.Fatalf("%d shards, want 2", len(ds))
	}
	// The checkpoint holds the state; the learner dies before the
	// acknowledgement.
	state, err := src.Commit(ds)
	if err != nil {
		t.Fatal(err)
	}
	tr.Crash(t, src)

	src = tr.Source(t)
	defer src.Close()
	if err := src.Resume(ctx(t), state); err != nil {
		t.Fatal(err)
	}
	none(t, src, tr.Redelivery+time.Second)
	// New shards still come.
	send(t, sink, bus.ShardInfo{Worker: "w", Network: 1, Games: 1}, Samples(t, 3, 4))
	if got := collect(t, src, 1, 10*time.Second); len(got) != 1 || got[0].Info.Network != 1 {
		t.Fatalf("after the restart: %d shards", len(got))
	} else {
		commitAck(t, src, got)
	}
}

func testReject(t *testing.T, tr Transport) {
	src := tr.Source(t)
	if err := src.Resume(ctx(t), nil); err != nil {
		t.Fatal(err)
	}
	tr.Inject(t, "mallory", []byte("not a shard at all"))
	good := Samples(t, 4, 3)
	data := replay.EncodeShard(good)
	data[len(data)/2] ^= 0x40
	tr.Inject(t, "mallory", data)
	ds := collect(t, src, 2, 10*time.Second)
	if len(ds) != 2 {
		t.Fatalf("%d shards, want 2", len(ds))
	}
	for _, d := range ds {
		_, err := replay.DecodeShard(d.Data, d.ID)
		if d.Err == nil && err == nil {
			t.Fatalf("%s: damaged data decoded", d.ID)
		}
		if err := src.Reject(ctx(t), d, errors.Join(d.Err, err)); err != nil {
			t.Fatalf("reject: %v", err)
		}
	}
	tr.Crash(t, src)
	src = tr.Source(t)
	defer src.Close()
	if err := src.Resume(ctx(t), nil); err != nil {
		t.Fatal(err)
	}
	none(t, src, tr.Redelivery+time.Second)
}

func testNetworks(t *testing.T, tr Transport) {
	pub, fetch := tr.Networks(t)
	if _, err := fetch.NewestNetwork(ctx(t)); !errors.Is(err, bus.ErrNoNetwork) {
		t.Fatalf("before any: %v, want ErrNoNetwork", err)
	}
	nets := map[int][]byte{}
	for _, it := range []int{0, 1, 7} {
		nets[it] = []byte(fmt.Sprintf("network %d %s", it, string(make([]byte, 300<<10))))
		if err := pub.PublishNetwork(ctx(t), it, nets[it]); err != nil {
			t.Fatal(err)
		}
		newest, err := fetch.NewestNetwork(ctx(t))
		if err != nil || newest != it {
			t.Fatalf("newest %d, %v; want %d", newest, err, it)
		}
		data, err := fetch.FetchNetwork(ctx(t), it)
		if err != nil || string(data) != string(nets[it]) {
			t.Fatalf("network %d: %d bytes, %v", it, len(data), err)
		}
	}
	if _, err := fetch.FetchNetwork(ctx(t), 5); err == nil {
		t.Fatal("fetched a network never published")
	}
}
