package nats

import (
	"io"
	"time"

	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/alicezero/alicezero/internal/sleep"
	"github.com/alicezero/alicezero/train/bus"
)

// Names are the JetStream names a run uses on its server.
type Names struct {
	Run     string // the run's name, made safe for NATS names
	Stream  string // the stream of shards
	Subject string // the subject workers publish shards to
	Bucket  string // the object store of networks
}

const (
	streamPrefix = "ALICEZERO_SHARDS_"
	bucketPrefix = "ALICEZERO_NETS_"
	// consumerName is the learner's durable consumer.
	consumerName = "learner"
)

// NamesFor returns the names of run: each character a worker name may
// not hold (bus.NameChar), and '.', which separates a subject's tokens,
// becomes '_' (each byte of invalid UTF-8 too).
func NamesFor(run string) Names {
	safe := strings.Map(func(r rune) rune {
		if r != '.' && bus.NameChar(r) {
			return r
		}
		return '_'
	}, run)
	return Names{Run: safe, Stream: streamPrefix + safe, Subject: "alicezero." + safe + ".shards", Bucket: bucketPrefix + safe}
}

// ErrNoRun means the server holds no run's stream yet (no learner has
// started on it).
var ErrNoRun = errors.New("no learner has set up a run on this server yet")

// FindRun returns the names of run on nc's server, or, for run "", of the
// only run there: several runs need run to choose one.
func FindRun(ctx context.Context, nc *nats.Conn, run string) (Names, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return Names{}, err
	}
	lister := js.StreamNames(ctx)
	var runs []string
	for name := range lister.Name() {
		if r, ok := strings.CutPrefix(name, streamPrefix); ok {
			runs = append(runs, r)
		}
	}
	if err := lister.Err(); err != nil {
		return Names{}, fmt.Errorf("listing the server's streams: %w", err)
	}
	if run != "" {
		n := NamesFor(run)
		if !slices.Contains(runs, n.Run) {
			return Names{}, fmt.Errorf("run %q: %w", run, ErrNoRun)
		}
		return n, nil
	}
	switch len(runs) {
	case 0:
		return Names{}, ErrNoRun
	case 1:
		return NamesFor(runs[0]), nil
	}
	slices.Sort(runs)
	return Names{}, fmt.Errorf("the server holds several runs (%s): choose one with --run", strings.Join(runs, ", "))
}

// WaitForRun is FindRun, waiting (and saying so on out, once) while no
// learner has set up a run on the server.
func WaitForRun(ctx context.Context, nc *nats.Conn, run string, out io.Writer) (Names, error) {
	said := false
	for {
		n, err := FindRun(ctx, nc, run)
		if !errors.Is(err, ErrNoRun) {
			return n, err
		}
		if !said {
			fmt.Fprintf(out, "waiting for a learner: %v\n", err)
			said = true
		}
		if err := sleep.For(ctx, 2*time.Second); err != nil {
			return Names{}, err
		}
	}
}
