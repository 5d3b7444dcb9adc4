// Package bus carries the data of a distributed run between its
// processes: self-play workers ("alicezero selfplay") send shards of
// positions to one learner ("alicezero learn"), and the learner publishes
// each new network for the workers to play with.
//
// The learner and the workers (package train) see only the interfaces of
// this package: Source and Sink for shards, NetworkPublisher and
// NetworkFetcher for networks. Two transports implement them alike:
//
//   - package folder: a shared folder, for one machine or a network file
//     system (shard files, renamed when used; the run's checkpoints);
//   - package nats: NATS JetStream, a stream of shards and an object store
//     of networks, on a server embedded in the learner or an external one.
//
// Package bustest holds the test suite both transports pass.
//
// # Exactly once into the replay buffer
//
// A Source hands out each shard until the learner has taken it for good.
// The learner writes a round's shards into the run's buffer, asks the
// source for its state with those shards taken (Commit), saves that state
// inside the round's checkpoint, and only then acknowledges them (Ack). A
// learner that stops before the checkpoint gets the shards again when it
// restarts from the previous one; a learner that stops after it resumes
// with the state that lists them, so the source recognises them and never
// hands them out again, even if the acknowledgement was lost. The
// checkpoint, not the transport, is the record of what is in the buffer.
//
// Workers name every shard (worker, session, sequence number): a Sink
// that retries a send never stores a shard twice.
package bus
