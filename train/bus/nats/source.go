package nats

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/sourcegraph/conc"

	"github.com/alicezero/alicezero/internal/sleep"
	"github.com/alicezero/alicezero/train/bus"
)

// SourceOptions configures NewSource.
type SourceOptions struct {
	// AckWait is how long the server waits for word from the learner on a
	// message before it hands the message out again (default 30s). The
	// source sends progress notices on held messages three times per
	// AckWait; a restarted learner gets the messages its predecessor held
	// after at most AckWait.
	AckWait time.Duration
	// MaxShardBytes caps a message (default DefaultMaxShardBytes); the
	// stream refuses bigger ones.
	MaxShardBytes int
	// Out receives warnings (default: none).
	Out io.Writer
}

// DefaultMaxShardBytes is the default cap on a shard message, headers
// included: NATS advises against larger messages, and a worker splits a
// larger shard into several.
const DefaultMaxShardBytes = 8 << 20

// fetchBatch is the most messages one Next takes.
const fetchBatch = 64

// Source is the learner's side of the stream of shards.
type Source struct {
	js       jetstream.JetStream
	consumer jetstream.Consumer
	names    Names
	maxBytes int
	out      io.Writer

	mu     sync.Mutex
	taken  ledger
	held   map[string]*held // handed out, not settled; by delivery id
	warned time.Time

	stop    context.CancelFunc
	workers conc.WaitGroup
}

// held is a message handed out and not yet settled.
type held struct {
	msg     jetstream.Msg
	session string
	seq     uint64 // 0 for a malformed message, which the ledger never records
}

// NewSource sets up the run's stream and the learner's durable consumer
// on nc's server (both kept if they exist) and returns the source.
func NewSource(ctx context.Context, nc *nats.Conn, names Names, o SourceOptions) (*Source, error) {
	if o.AckWait <= 0 {
		o.AckWait = 30 * time.Second
	}
	if o.MaxShardBytes <= 0 {
		o.MaxShardBytes = DefaultMaxShardBytes
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	_, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        names.Stream,
		Description: "AliceZero self-play shards of run " + names.Run,
		Subjects:    []string{names.Subject},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		// Duplicate detection covers a worker's retries of one message;
		// the ledger covers the rest.
		Duplicates: time.Hour,
		MaxMsgSize: int32(o.MaxShardBytes),
	})
	if err != nil {
		return nil, fmt.Errorf("setting up the stream %s: %w", names.Stream, err)
	}
	consumer, err := js.CreateOrUpdateConsumer(ctx, names.Stream, jetstream.ConsumerConfig{
		Durable:       consumerName,
		Description:   "the AliceZero learner",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       o.AckWait,
		MaxDeliver:    -1,
		MaxAckPending: 100000,
		FilterSubject: names.Subject,
	})
	if err != nil {
		return nil, fmt.Errorf("setting up the learner's consumer on %s: %w", names.Stream, err)
	}
	s := &Source{js: js, consumer: consumer, names: names, maxBytes: o.MaxShardBytes, out: o.Out,
		taken: ledger{}, held: map[string]*held{}}
	keepCtx, stop := context.WithCancel(context.Background())
	s.stop = stop
	s.workers.Go(func() { s.keepAlive(keepCtx, o.AckWait/3) })
	return s, nil
}

// keepAlive tells the server, every period, that the held messages are
// still being worked on, so that it does not hand them out again.
func (s *Source) keepAlive(ctx context.Context, period time.Duration) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.mu.Lock()
		for _, h := range s.held {
			// A lost notice costs at worst a redelivery, which the source
			// recognises.
			_ = h.msg.InProgress()
		}
		s.mu.Unlock()
	}
}

// Resume implements bus.Source: the state is the ledger of taken messages.
func (s *Source) Resume(_ context.Context, state json.RawMessage) error {
	l, err := parseLedger(state)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.taken = l
	s.mu.Unlock()
	return nil
}

// Next implements bus.Source.
func (s *Source) Next(ctx context.Context, wait time.Duration) ([]*bus.Delivery, error) {
	out, err := s.drain(ctx)
	if err == nil && len(out) == 0 && wait > 0 {
		if out, err = s.fetch(ctx, wait); err == nil && len(out) > 0 {
			more, _ := s.drain(ctx)
			out = append(out, more...)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, nats.ErrConnectionClosed) {
			return nil, fmt.Errorf("the stream of shards: %w", err)
		}
		// The connection is down or the server busy: try again later.
		s.warn("warning: fetching shards: %v (retrying)\n", err)
		if len(out) == 0 {
			return nil, sleep.For(ctx, min(wait, time.Second))
		}
	}
	return out, nil
}

// drainBytes bounds what one Next takes from a backlog.
const drainBytes = 256 << 20

// drain takes what is there, batch after batch, up to drainBytes.
func (s *Source) drain(ctx context.Context) ([]*bus.Delivery, error) {
	var out []*bus.Delivery
	size := 0
	for size < drainBytes {
		ds, err := s.fetch(ctx, 0)
		out = append(out, ds...)
		if err != nil || len(ds) == 0 {
			return out, err
		}
		for _, d := range ds {
			size += len(d.Data)
		}
	}
	return out, nil
}

// fetch takes what is there (wait 0) or waits up to wait for one message.
func (s *Source) fetch(ctx context.Context, wait time.Duration) ([]*bus.Delivery, error) {
	var batch jetstream.MessageBatch
	var err error
	if wait == 0 {
		batch, err = s.consumer.FetchNoWait(fetchBatch)
	} else {
		fctx, cancel := context.WithTimeout(ctx, wait)
		defer cancel()
		batch, err = s.consumer.Fetch(1, jetstream.FetchContext(fctx))
	}
	if err != nil {
		return nil, err
	}
	var out []*bus.Delivery
	for msg := range batch.Messages() {
		if d := s.take(msg); d != nil {
			out = append(out, d)
		}
	}
	if err := batch.Error(); err != nil && !errors.Is(err, nats.ErrTimeout) {
		return out, err
	}
	return out, nil
}

// take turns a message into a delivery, or settles it: one the ledger
// lists is acknowledged at once, one already held is kept once.
func (s *Source) take(msg jetstream.Msg) *bus.Delivery {
	meta, err := msg.Metadata()
	if err != nil {
		// Not a JetStream message: nothing to acknowledge.
		return nil
	}
	sh, herr := parseHeader(msg.Headers())
	d := &bus.Delivery{ID: msg.Headers().Get(nats.MsgIdHdr), Info: sh.info, Data: msg.Data()}
	switch {
	case herr != nil:
		d.ID = fmt.Sprintf("stream message %d", meta.Sequence.Stream)
		d.Err = fmt.Errorf("%s: %w", d.ID, herr)
	case len(d.Data) > s.maxBytes:
		d.Err = fmt.Errorf("%s: %d bytes, over the limit of %d", d.ID, len(d.Data), s.maxBytes)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if d.Err == nil && s.taken.has(sh.session, sh.seq) {
		_ = msg.Ack()
		return nil
	}
	if h, ok := s.held[d.ID]; ok {
		// Handed out again while held (a progress notice came late):
		// answer through the newest delivery.
		h.msg = msg
		return nil
	}
	s.held[d.ID] = &held{msg: msg, session: sh.session, seq: sh.seq}
	return d
}

// Reject implements bus.Source: the message is terminated.
func (s *Source) Reject(_ context.Context, d *bus.Delivery, reason error) error {
	s.mu.Lock()
	h, ok := s.held[d.ID]
	delete(s.held, d.ID)
	s.mu.Unlock()
	if !ok {
		return fmt.Errorf("reject %s: not handed out", d.ID)
	}
	return h.msg.TermWithReason(reason.Error())
}

// Commit implements bus.Source: the ledger with ds taken.
func (s *Source) Commit(ds []*bus.Delivery) (json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.taken.clone()
	for _, d := range ds {
		h, ok := s.held[d.ID]
		if !ok || h.seq == 0 {
			return nil, fmt.Errorf("commit %s: not a shard handed out", d.ID)
		}
		l.add(h.session, h.seq)
	}
	return l.marshal()
}

// Ack implements bus.Source: the ledger takes ds and the server is told.
// An acknowledgement lost on the way costs a redelivery, which the ledger
// recognises.
func (s *Source) Ack(_ context.Context, ds []*bus.Delivery) error {
	s.mu.Lock()
	var msgs []jetstream.Msg
	for _, d := range ds {
		if h, ok := s.held[d.ID]; ok && h.seq > 0 {
			s.taken.add(h.session, h.seq)
			msgs = append(msgs, h.msg)
			delete(s.held, d.ID)
		}
	}
	s.mu.Unlock()
	var errs []error
	for _, m := range msgs {
		errs = append(errs, m.Ack())
	}
	return errors.Join(errs...)
}

// Close implements bus.Source: held messages are handed back to the server
// at once, for the next learner.
func (s *Source) Close() error {
	s.stop()
	s.workers.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, h := range s.held {
		_ = h.msg.Nak()
		delete(s.held, id)
	}
	return nil
}

// warn prints a warning at most every 30 seconds.
func (s *Source) warn(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.warned) < 30*time.Second {
		return
	}
	s.warned = time.Now()
	fmt.Fprintf(s.out, format, args...)
}
