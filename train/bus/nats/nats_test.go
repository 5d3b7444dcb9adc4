package nats

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/alicezero/alicezero/train/bus"
	"github.com/alicezero/alicezero/train/bus/bustest"
)

const testAckWait = time.Second

// startServer starts an embedded server on a free loopback port.
func startServer(t *testing.T, token string) *Server {
	t.Helper()
	s, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: filepath.Join(t.TempDir(), "js"), Token: token})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return s
}

func connect(t *testing.T, s *Server, token string) *nats.Conn {
	t.Helper()
	nc, err := Connect(ConnOptions{URL: s.URL(), Token: token, Name: t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func TestTransport(t *testing.T) {
	bustest.Run(t, func(t *testing.T) bustest.Transport {
		srv := startServer(t, "")
		names := NamesFor("suite run")
		conns := map[bus.Source]*nats.Conn{}
		return bustest.Transport{
			Source: func(t *testing.T) bus.Source {
				nc := connect(t, srv, "")
				s, err := NewSource(context.Background(), nc, names, SourceOptions{AckWait: testAckWait})
				if err != nil {
					t.Fatal(err)
				}
				conns[s] = nc
				return s
			},
			Crash: func(t *testing.T, s bus.Source) {
				conns[s].Close()
				s.Close()
			},
			Sink: func(t *testing.T, worker string) bus.Sink {
				s, err := NewSink(context.Background(), connect(t, srv, ""), names, worker, nil)
				if err != nil {
					t.Fatal(err)
				}
				return s
			},
			Inject: func(t *testing.T, worker string, data []byte) {
				publishRaw(t, connect(t, srv, ""), names, worker, data)
			},
			Networks: func(t *testing.T) (bus.NetworkPublisher, bus.NetworkFetcher) {
				pub, err := NewNetworks(context.Background(), connect(t, srv, ""), names, true)
				if err != nil {
					t.Fatal(err)
				}
				fetch, err := NewNetworks(context.Background(), connect(t, srv, ""), names, false)
				if err != nil {
					t.Fatal(err)
				}
				return pub, fetch
			},
			Redelivery: testAckWait,
		}
	})
}

// publishRaw publishes data with well-formed headers, as a worker that
// sends garbage would.
func publishRaw(t *testing.T, nc *nats.Conn, names Names, worker string, data []byte) {
	t.Helper()
	var sid [8]byte
	rand.Read(sid[:])
	msg := &nats.Msg{Subject: names.Subject, Header: header(bus.ShardInfo{Worker: worker, Network: 0, Games: 1}, hex.EncodeToString(sid[:]), 1), Data: data}
	js, _ := jetstream.New(nc)
	if _, err := js.PublishMsg(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
}

func TestLedger(t *testing.T) {
	l := ledger{}
	for _, s := range []uint64{3, 1, 2, 7, 5, 6, 9} {
		l.add("w/s", s)
	}
	want := [][2]uint64{{1, 3}, {5, 7}, {9, 9}}
	if got := l["w/s"]; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("ranges %v, want %v", got, want)
	}
	for s, in := range map[uint64]bool{1: true, 3: true, 4: false, 6: true, 8: false, 9: true, 10: false} {
		if l.has("w/s", s) != in || l.has("other/s", s) {
			t.Errorf("has(%d) = %v", s, !in)
		}
	}
	state, err := l.marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := parseLedger(state)
	if err != nil || !back.has("w/s", 6) || back.has("w/s", 8) {
		t.Fatalf("round trip: %v %v", back, err)
	}
	for _, bad := range []string{`{"format":"x","taken":{}}`, `{"format":"nats-ledger-1","taken":{"a":[[5,3]]}}`, `{"format":"nats-ledger-1","taken":{"a":[[1,3],[2,4]]}}`, `{`} {
		if _, err := parseLedger([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	// A run fed from a shard folder before starts an empty ledger.
	if l, err := parseLedger([]byte(`["/data/sp-a-000001.shard"]`)); err != nil || len(l) != 0 {
		t.Fatalf("folder state: %v %v", l, err)
	}
}

// TestTokenRequired: a server reachable from other machines needs a token,
// and a client with a wrong one is told so.
func TestTokenRequired(t *testing.T) {
	_, err := StartServer(ServerOptions{Listen: "0.0.0.0:0", StoreDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "needs a token") {
		t.Fatalf("no token on 0.0.0.0: %v", err)
	}
	srv := startServer(t, "s3cret")
	for _, token := range []string{"", "wrong"} {
		_, err := Connect(ConnOptions{URL: srv.URL(), Token: token})
		if err == nil || !strings.Contains(err.Error(), "wrong or missing token") {
			t.Fatalf("token %q: %v", token, err)
		}
	}
	connect(t, srv, "s3cret")
}

// TestMalformedAndOversize: a message with bad headers comes with Err set;
// one over the size limit is refused by the server; neither stops the
// source.
func TestMalformedAndOversize(t *testing.T) {
	srv := startServer(t, "")
	names := NamesFor("m")
	src, err := NewSource(context.Background(), connect(t, srv, ""), names, SourceOptions{AckWait: testAckWait, MaxShardBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	nc := connect(t, srv, "")
	js, _ := jetstream.New(nc)
	ctx := context.Background()
	// Bad headers.
	bad := &nats.Msg{Subject: names.Subject, Header: nats.Header{hdrWorker: {"../../etc"}}, Data: []byte("x")}
	if _, err := js.PublishMsg(ctx, bad); err != nil {
		t.Fatal(err)
	}
	// Over the stream's limit: the server refuses it.
	big := &nats.Msg{Subject: names.Subject, Data: make([]byte, 2<<20)}
	if _, err := js.PublishMsg(ctx, big); err == nil {
		t.Fatal("the stream stored a message over its size limit")
	}
	ds, err := src.Next(ctx, 5*time.Second)
	if err != nil || len(ds) != 1 || ds[0].Err == nil || !strings.Contains(ds[0].Err.Error(), hdrWorker) {
		t.Fatalf("malformed message: %v, %v", ds, err)
	}
	if err := src.Reject(ctx, ds[0], ds[0].Err); err != nil {
		t.Fatal(err)
	}
	// A good shard still comes through.
	sink, err := NewSink(ctx, nc, names, "w", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := sink.Send(ctx, bus.ShardInfo{Worker: "w", Games: 1}, bustest.Samples(t, 1, 3)); err != nil {
		t.Fatal(err)
	}
	if ds, err := src.Next(ctx, 5*time.Second); err != nil || len(ds) != 1 || ds[0].Err != nil {
		t.Fatalf("good shard after the bad: %v %v", ds, err)
	}
}

// TestSinkSplitsLargeShards: a shard over the message limit goes as
// several messages whose games and positions add up.
func TestSinkSplitsLargeShards(t *testing.T) {
	srv := startServer(t, "")
	names := NamesFor("split")
	ctx := context.Background()
	src, err := NewSource(ctx, connect(t, srv, ""), names, SourceOptions{AckWait: testAckWait, MaxShardBytes: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	sink, err := NewSink(ctx, connect(t, srv, ""), names, "w", nil)
	if err != nil {
		t.Fatal(err)
	}
	samples := bustest.Samples(t, 2, 2000)
	if err := sink.Send(ctx, bus.ShardInfo{Worker: "w", Games: 25, PlaySeconds: 10}, samples); err != nil {
		t.Fatal(err)
	}
	var ds []*bus.Delivery
	for len(ds) < 2 {
		more, err := src.Next(ctx, 2*time.Second)
		if err != nil || len(more) == 0 {
			break
		}
		ds = append(ds, more...)
	}
	games, secs := 0, 0.0
	for _, d := range ds {
		if len(d.Data) > 64<<10 {
			t.Fatalf("part of %d bytes", len(d.Data))
		}
		games += d.Info.Games
		secs += d.Info.PlaySeconds
	}
	if len(ds) < 2 || games != 25 || secs < 9.9 || secs > 10.1 {
		t.Fatalf("%d parts, %d games, %.2f s", len(ds), games, secs)
	}
}

func TestFindRun(t *testing.T) {
	srv := startServer(t, "")
	nc := connect(t, srv, "")
	ctx := context.Background()
	if _, err := FindRun(ctx, nc, ""); err != ErrNoRun {
		t.Fatalf("empty server: %v", err)
	}
	for _, run := range []string{"a.1", "b"} {
		s, err := NewSource(ctx, nc, NamesFor(run), SourceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if run == "a.1" {
			if n, err := FindRun(ctx, nc, ""); err != nil || n.Run != "a_1" {
				t.Fatalf("one run: %+v %v", n, err)
			}
		}
	}
	if _, err := FindRun(ctx, nc, ""); err == nil || !strings.Contains(err.Error(), "a_1, b") {
		t.Fatalf("two runs: %v", err)
	}
	if n, err := FindRun(ctx, nc, "b"); err != nil || n.Stream != streamPrefix+"b" {
		t.Fatalf("run b: %+v %v", n, err)
	}
}
