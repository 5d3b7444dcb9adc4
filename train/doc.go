// Package train wires the environment, the search and the network into
// AlphaZero-style training: the loop behind "alicezero train", and the
// self-play and learner halves behind "alicezero selfplay" and
// "alicezero learn".
//
// A run is a folder (see Options and the README): its configuration, its
// checkpoints, its replay buffer as shard files, sampled games, metrics
// and plots. Each iteration
//
//  1. plays SelfPlay.GamesPerIteration games with the current network,
//     many at once, their leaves batched together (mcts.SearchBatch), and
//     stores every searched position with its search target;
//  2. adds them to the replay window (package replay) and takes optimiser
//     steps on batches drawn from it, each position under a random board
//     symmetry;
//  3. writes a checkpoint that holds the weights, the optimiser state and
//     the run's own state, so that a resumed run continues exactly where
//     the checkpoint left it;
//  4. every Evaluate.Every iterations, plays the random mover, the
//     alpha-beta reference and an earlier checkpoint (package arena) and
//     records the scores.
//
// Everything random is drawn from generators seeded by the run's seed,
// the iteration and a purpose, so a run stopped and resumed produces the
// same weights as one that never stopped.
//
// Typical use:
//
//	cfg, err := train.BuiltinConfig("small")
//	err = train.Run(ctx, train.Options{Config: cfg, Out: os.Stdout, Progress: os.Stderr})
//
// SelfPlayWorker and Learn are the two halves of a distributed run:
// workers send shards and the learner publishes networks through package
// bus (a shared folder, or NATS JetStream across machines). A learner
// round writes the shards it took as one run shard, with a list of their
// sources beside it (buffer/iter-N.sources), and its checkpoint records
// the bus's state, so that a shard enters the buffer exactly once across
// crashes.
//
// The network player of matches is package engine's Player (the arena's
// "ckpt:PATH" kind is engine.Register); the layout of a run folder is
// package runs'.
package train
