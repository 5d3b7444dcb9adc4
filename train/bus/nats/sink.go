package nats

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/alicezero/alicezero/internal/sleep"
	"github.com/alicezero/alicezero/train/bus"
	"github.com/alicezero/alicezero/train/replay"
)

// Sink publishes a worker's shards to the run's stream.
type Sink struct {
	nc      *nats.Conn
	js      jetstream.JetStream
	names   Names
	worker  string
	session string
	seq     uint64
	limit   int
	out     io.Writer
}

// headerRoom is what a message's headers may take of the payload limit.
const headerRoom = 4 << 10

// NewSink returns worker's sink into the run's stream, which must exist
// (FindRun). Warnings about retries go to out.
func NewSink(ctx context.Context, nc *nats.Conn, names Names, worker string, out io.Writer) (*Sink, error) {
	if err := bus.ValidWorker(worker); err != nil {
		return nil, err
	}
	if out == nil {
		out = io.Discard
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	stream, err := js.Stream(ctx, names.Stream)
	if err != nil {
		return nil, fmt.Errorf("the run's stream %s: %w", names.Stream, err)
	}
	limit := int(nc.MaxPayload())
	if m := int(stream.CachedInfo().Config.MaxMsgSize); m > 0 {
		limit = min(limit, m)
	}
	var sid [sessionBytes]byte
	if _, err := rand.Read(sid[:]); err != nil {
		return nil, err
	}
	return &Sink{nc: nc, js: js, names: names, worker: worker, session: hex.EncodeToString(sid[:]),
		limit: limit - headerRoom, out: out}, nil
}

// Session is the sink's session id: a new one each time a worker starts.
func (s *Sink) Session() string { return s.session }

// Send implements bus.Sink. A shard over the message size limit goes as
// several messages, its games and time shared out by positions.
func (s *Sink) Send(ctx context.Context, info bus.ShardInfo, samples []replay.Sample) error {
	if err := bus.ValidWorker(info.Worker); err != nil || info.Worker != s.worker {
		return fmt.Errorf("send: shard of worker %q through the sink of %q", info.Worker, s.worker)
	}
	parts := s.split(samples)
	games, secs := 0, 0.0
	for i, p := range parts {
		pi := info
		// Cumulative shares, so that the parts add up exactly.
		pi.Games = info.Games*p.end/len(samples) - games
		pi.PlaySeconds = info.PlaySeconds*float64(p.end)/float64(len(samples)) - secs
		if i == len(parts)-1 {
			pi.Games, pi.PlaySeconds = info.Games-games, info.PlaySeconds-secs
		}
		games += pi.Games
		secs += pi.PlaySeconds
		s.seq++
		if err := s.publish(ctx, pi, p.data); err != nil {
			return err
		}
	}
	return nil
}

// part is one message's worth of a shard: samples up to end.
type part struct {
	end  int
	data []byte
}

// split encodes samples as one message, or halves them until each part
// fits the limit.
func (s *Sink) split(samples []replay.Sample) []part {
	var out []part
	var rec func(lo, hi int)
	rec = func(lo, hi int) {
		data := replay.EncodeShard(samples[lo:hi])
		if len(data) <= s.limit || hi-lo <= 1 {
			out = append(out, part{hi, data})
			return
		}
		mid := (lo + hi) / 2
		rec(lo, mid)
		rec(mid, hi)
	}
	rec(0, len(samples))
	return out
}

// publish sends one message until the stream has stored it, retrying with
// the same message id (the server drops a copy it already holds).
func (s *Sink) publish(ctx context.Context, info bus.ShardInfo, data []byte) error {
	msg := &nats.Msg{Subject: s.names.Subject, Header: header(info, s.session, s.seq), Data: data}
	id := msg.Header.Get(nats.MsgIdHdr)
	backoff := 500 * time.Millisecond
	for attempt := 1; ; attempt++ {
		pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		_, err := s.js.PublishMsg(pctx, msg, jetstream.WithMsgID(id), jetstream.WithExpectStream(s.names.Stream))
		cancel()
		switch {
		case err == nil:
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, nats.ErrMaxPayload) || errors.Is(err, nats.ErrConnectionClosed):
			return fmt.Errorf("publishing shard %s: %w", id, err)
		}
		fmt.Fprintf(s.out, "warning: publishing shard %s (attempt %d): %v; retrying in %s\n", id, attempt, err, backoff)
		if err := sleep.For(ctx, backoff); err != nil {
			return err
		}
		backoff = min(2*backoff, 15*time.Second)
	}
}

// Close implements bus.Sink; the connection stays open (its owner closes
// it).
func (s *Sink) Close() error { return nil }
