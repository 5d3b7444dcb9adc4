package bus

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/alicezero/alicezero/train/replay"
)

// ShardInfo describes a shard: who played its games, and with which
// network.
type ShardInfo struct {
	// Worker names the worker (see ValidWorker).
	Worker string
	// Network is the iteration of the network that played the games, -1
	// when unknown (a network from outside the run).
	Network int
	// Games is the number of games whose positions the shard holds, and
	// PlaySeconds the time the worker took to play them.
	Games       int
	PlaySeconds float64
}

// Delivery is one shard handed to the learner.
type Delivery struct {
	// ID names the shard uniquely within its source (a file, a message).
	ID   string
	Info ShardInfo
	// Data is the shard in the replay format (replay.DecodeShard checks
	// its checksum).
	Data []byte
	// Err is set when the source already found the shard unusable (an
	// unreadable file, a message with malformed headers or over the size
	// limit): the learner rejects it.
	Err error
}

// Source hands a learner the shards that workers send.
//
// The learner calls Resume once, then Next in a loop. Each delivery ends
// with Reject (unusable, never handed out again) or with Commit and Ack
// (taken into the run; see the package documentation). A delivery is
// handed out once per learner process; one that is neither rejected nor
// acknowledged comes again to the next learner.
type Source interface {
	// Resume restores the state saved by the run's newest checkpoint (nil
	// for a new run), settling shards that checkpoint took but did not
	// acknowledge.
	Resume(ctx context.Context, state json.RawMessage) error
	// Next returns the shards that arrived and were not handed out yet,
	// waiting up to wait for one; it returns none when none came.
	Next(ctx context.Context, wait time.Duration) ([]*Delivery, error)
	// Reject takes an unusable shard out for good.
	Reject(ctx context.Context, d *Delivery, reason error) error
	// Commit returns the source's state with ds taken, for the checkpoint
	// that records them. It changes nothing until Ack.
	Commit(ds []*Delivery) (json.RawMessage, error)
	// Ack tells the source that the checkpoint holding Commit's state is
	// on disk: ds are taken and never handed out again.
	Ack(ctx context.Context, ds []*Delivery) error
	// Close releases the source; shards handed out and not acknowledged
	// stay for the next learner.
	Close() error
}

// Sink takes a worker's shards to the learner.
type Sink interface {
	// Send stores a shard for the learner; when it returns nil the shard
	// will reach the learner exactly once. It retries until ctx ends.
	Send(ctx context.Context, info ShardInfo, samples []replay.Sample) error
	Close() error
}

// NetworkPublisher makes the learner's networks available to workers.
type NetworkPublisher interface {
	// PublishNetwork makes data (a checkpoint file's bytes) the network of
	// iteration it, the newest once it is the highest iteration.
	PublishNetwork(ctx context.Context, it int, data []byte) error
}

// NetworkFetcher gives workers the learner's newest network.
type NetworkFetcher interface {
	// NewestNetwork returns the highest iteration published, or
	// ErrNoNetwork.
	NewestNetwork(ctx context.Context) (int, error)
	// FetchNetwork returns the checkpoint bytes of iteration it, their
	// checksum verified where the transport keeps one.
	FetchNetwork(ctx context.Context, it int) ([]byte, error)
}

// ErrNoNetwork means the learner has published no network yet.
var ErrNoNetwork = errors.New("bus: no network published yet")
