// Package replay is the training data of a run: the positions self-play
// produced, each with the search's visit distribution and the game's
// result, kept on disk in checksummed shard files and sampled from a window
// of the most recent positions.
//
// A self-play iteration writes one shard (WriteShard); the Buffer loads
// shards, keeps the newest Window positions, and hands out training batches
// (Buffer.Sample, then Batch.Fill), each position as it is or under the
// rule book's board swap, at random, with its legal-move mask for the
// masked policy loss. A cap on how often one position may be drawn stops a
// small, slow-growing buffer from being overfitted.
package replay
