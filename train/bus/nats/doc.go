// Package nats is the NATS JetStream transport of package bus, for
// self-play workers on any number of machines.
//
// A run uses, on one NATS server (embedded in the learner, StartServer, or
// an external one), three things named after the run (Names):
//
//   - a stream of shards (work-queue retention, file storage): each worker
//     publishes a message per shard, with a message id for the server's
//     duplicate detection and headers that describe it;
//   - a durable pull consumer "learner" on it: the learner holds each
//     message, unacknowledged and kept alive with progress notices, until
//     the round's checkpoint records it;
//   - an object store of networks, iter-NNNNNN.azck (weights-only
//     checkpoints, SHA-256 digest checked on every fetch), and the run's
//     config.yaml, so that a worker needs no configuration of its own.
//
// The learner's Source keeps in each checkpoint a ledger of the messages
// taken, per worker session the ranges of sequence numbers: a message
// redelivered after a crash, or published twice by a worker's retry after
// the server lost its duplicate window, is recognised and never enters
// the buffer again.
//
// Messages are checked before they reach the learner: the server refuses
// one over the size limit, and Source hands out a message whose headers
// are malformed, or whose size is over the limit, with its Err set so the
// learner rejects (terminates) it; the shard format's checksum catches
// the rest.
package nats
