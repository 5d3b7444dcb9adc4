// Package model is AliceZero's neural network: a residual convolutional
// net that maps an encoded Alice Chess position (its variant's input
// planes of 8×8, see env/planes.go) to policy logits over the variant's
// policy layout (env/policy.go) and win/draw/loss probabilities for the
// side to move. A network is built for one encoding, which its Config
// records (Config.ForVariant; InputPlanes and PolicyLayout, zero for the
// encoding of alice, alice-ep, alice-black-b and alice-mini), and plays
// only variants of that encoding (Config.Fits).
//
// # Architecture
//
// A 3×3 convolution stem, Config.Blocks residual blocks of Config.Channels
// channels (conv-ReLU-conv, skip, ReLU), a convolutional policy head (3×3
// conv to Config.PolicyChannels, ReLU, 1×1 conv with bias to the policy
// layout's move-type planes, whose flattening, plane·64 + square, is env's
// policy index) and a value head (1×1 conv to
// Config.ValueChannels, ReLU, the average of each filter over the board,
// fully connected, ReLU, fully connected to 3 logits, softmax). There is no batch
// normalisation, so a net is entirely described by its parameters (see
// Weights). Preset gives named sizes: "tiny" for tests, "small" (the
// default) for 2-core training, "medium".
//
// # Inference
//
// Two implementations of the Evaluator interface compute the same function
// from the same Weights:
//
//   - FastEvaluator, the one to use: its 3×3 convolutions use Winograd's
//     F(2×2, 3×3) algorithm on 8 positions at a time laid out as vector
//     lanes (wino.go), with kernels in Go assembly: AVX-512 products where
//     the CPU has them, else AVX2/FMA, else pure Go (also with the purego
//     build tag); groups of 3 or fewer positions take a direct im2col
//     path. Preallocated buffers, no allocation per call, lane groups
//     shared out among the cores.
//   - GraphEvaluator: gorgonia graphs, one per batch-size bucket. Slower;
//     the reference the fast path is tested against.
//
// An evaluator serves one batch at a time; the search (package mcts) builds
// the batches itself, from the leaves its workers and games gather:
//
//	w, _ := model.NewWeights(cfg, seed)      // or LoadWeights(path, w)
//	fast, _ := model.NewFastEvaluator(w, model.FastOptions{})
//	defer fast.Close()
//	err := fast.Evaluate(planes, n, policy, wdl)
//
// Evaluators copy the weights they are given; after training, push new
// weights with SetWeights.
//
// # Training
//
// Trainer runs gorgonia graphs (forward, loss, symbolic gradients) for a
// fixed batch size, one per shard of the batch (one shard per core, of at
// least 64 positions, side by side; their gradients are summed in shard
// order), and its own optimiser (SGD with momentum or AdamW, L2 as
// a gradient term, optional decoupled weight decay and gradient-norm
// clipping, an LRSchedule). The loss is the policy cross-entropy against
// the search's visit distribution plus the value cross-entropy against the
// game result plus c·Σw². The policy is a softmax over each position's legal
// moves only (a legal mask comes with every batch), as the search uses it,
// so the loss has no illegal mass to shed and illegal logits get no
// gradient; Losses.PolicyEntropy, the targets' entropy, splits the policy
// loss into what no network can remove and the KL divergence that shows
// learning. Training is deterministic: the same seed, data
// and configuration give bit-identical weights, and a run resumed from a
// checkpoint continues bit-identically (on one machine: results depend on
// which kernels the CPU has, see below, and on the number of shards, fixed
// by GOMAXPROCS when the Trainer is made, but not on the cores that run
// them). The graphs run on the caller's goroutine (tape.go), not through
// gorgonia's RunAll, whose thread handoffs cost 15–20% with every core
// busy.
//
// The training graph's 3×3 convolutions and the heads' 1×1 convolutions
// are ops of ours (winoop.go, headop.go) on the fast path's kernels, with
// bias, ReLU and residual fused and gradients computed as the exact
// adjoints of what the forward ops compute; the rest of the graph (losses,
// fully connected layers, gradient sums) is gorgonia's. Its remaining
// matrix products, and all of GraphEvaluator's, run on the AVX2/FMA kernel
// as gorgonia's BLAS: the first NewTrainer or NewGraphEvaluator installs
// it (blas.go) with gorgonia.Use; it computes what gonum's did to float32
// rounding. GraphEvaluator keeps gorgonia's own convolution (Conv2d with
// faster im2col, col2im and transpose ops of ours that give bit-identical
// values, conv.go): it is the plain reference. The purego build tag, or a
// CPU without AVX2 and FMA, leaves gorgonia on gonum's pure-Go BLAS.
//
// # Checkpoints
//
// SaveCheckpoint writes weights, optimiser state, architecture, training
// step, train config and the caller's metadata and opaque state in a
// versioned, checksummed binary format (see checkpoint.go), atomically.
// LoadCheckpoint refuses truncated, corrupted, foreign and other-version
// files (among them version 1, the retired fully connected policy head) with
// errors wrapping ErrTruncated, ErrChecksum, ErrBadMagic and ErrVersion, and
// a network built for another input encoding or policy layout with
// ErrEncoding; loading into a net of another architecture fails with
// ErrArchMismatch.
//
// # Errors and concurrency
//
// Functions return errors with context and never panic across the package
// boundary (gorgonia's panics are recovered and converted). Evaluators are
// safe for concurrent use: FastEvaluator runs concurrent calls side by
// side, each on a worker of its own (FastOptions.Callers), the graph
// evaluator serialises them. A Trainer is used by one goroutine at a
// time; evaluators hold their own copies of the weights. The package keeps no mutable global state of its own
// beyond a sync.Once that sets gorgonia's process-wide BLAS, once, and one
// package-level mutex that serialises gorgonia graph construction, which
// touches gorgonia's globals.
package model
