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
// FastEvaluator is the search's evaluator (mcts.Evaluator, an interface
// the search declares, so that neither package imports the other): its
// 3×3 convolutions use Winograd's F(2×2, 3×3) algorithm on 8 positions at
// a time laid out as vector lanes, with kernels in Go assembly
// (model/internal/kernel): AVX-512 products where the CPU has them, else
// AVX2/FMA, else pure Go (also with the purego build tag); groups of 3 or
// fewer positions take a direct im2col path. Preallocated buffers, no allocation per call, lane
// groups shared out among the cores. The package links no gorgonia:
// training, and the gorgonia graph evaluator it is tested against, are
// package model/training's.
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
// weights with SetWeights. MeasureFast times the evaluator.
//
// # Checkpoints
//
// SaveCheckpoint writes weights, optimiser state, architecture, training
// step, train config and the caller's metadata and opaque state in a
// versioned, checksummed binary format (see checkpoint.go), atomically.
// The optimiser section is an OptimizerState, which model/training's
// Trainer supplies and restores: this package validates its buffers
// against the architecture and the slots of its kind (OptimizerSlots)
// and stores them; the train config is the trainer's JSON, carried as it
// is. LoadCheckpoint refuses truncated, corrupted, foreign and
// other-version files (among them version 1, the retired fully connected
// policy head) with errors wrapping ErrTruncated, ErrChecksum, ErrBadMagic
// and ErrVersion, and a network built for another input encoding or policy
// layout with ErrEncoding; loading into a net of another architecture
// fails with ErrArchMismatch.
//
// # Errors and concurrency
//
// Functions return errors with context and never panic across the package
// boundary (a panic in an evaluator's worker is recovered and converted).
// FastEvaluator is safe for concurrent use: it runs concurrent calls side
// by side, each on a worker of its own (FastOptions.Callers). Evaluators
// hold their own copies of the weights. The package keeps no mutable
// global state.
package model
