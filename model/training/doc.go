// Package training trains package model's network: a gorgonia graph of the
// network with its losses, differentiated symbolically, and an optimiser
// that updates a model.Weights in place. It also holds GraphEvaluator, the
// same graph without the losses, the plain reference that model's
// FastEvaluator is tested against. Programs that only play link model
// alone, never this package or gorgonia.
//
//	tr, _ := training.NewTrainer(w, training.DefaultTrainConfig())
//	defer tr.Close()
//	losses, err := tr.Step(planes, policyTarget, legalMask, wdlTarget)
//	err = model.SaveCheckpoint(path, tr.Checkpoint(meta, extra))
//
// # The graph
//
// Trainer runs one graph per shard of a fixed-size batch (one shard per
// core, of at least 64 positions, side by side; their gradients are summed
// in shard order). What gorgonia computes: the graph's bookkeeping and
// symbolic differentiation (G.Grad), the value head's fully connected
// layers, their ReLU and bias broadcasts, the loss means, the value
// weighting and the total, and the gradient sums where a node feeds two
// others (the residual trunk). What the package's own ops compute, each
// with its gradients as the exact adjoint of its forward op: the 3×3
// convolutions with bias, ReLU and residual fused, on model's Winograd
// kernels (winoconv.go, winoconvgrad.go); the heads' 1×1 convolutions and the
// value head's average over the board (headop.go); and both losses, a
// softmax cross-entropy fused with its gradient (xent.go). The policy
// loss is the cross-entropy against the search's visit distribution of a
// softmax over each position's legal moves only (a legal mask comes with
// every batch), so illegal logits get no gradient; the value loss is the
// cross-entropy against the game result; L2 adds c·Σw². The targets'
// entropy (Losses.PolicyEntropy) splits the policy loss into what no
// network can remove and the KL divergence that shows learning.
//
// The optimiser is the package's own (optim.go, lr.go): SGD with momentum
// or AdamW, L2 as a gradient term, optional decoupled weight decay and
// gradient-norm clipping, an LRSchedule. Trainer.Checkpoint and
// Trainer.Restore write and read its state through model's checkpoints.
//
// Training is deterministic: the same seed, data and configuration give
// bit-identical weights, and a run resumed from a checkpoint continues
// bit-identically (on one machine: results depend on which kernels the CPU
// has and on the number of shards, fixed by GOMAXPROCS when the Trainer is
// made, but not on the cores that run them). The graphs run on the
// caller's goroutine (tape.go), not through gorgonia's RunAll, whose
// thread handoffs are costly with every core busy. Gorgonia's remaining
// matrix products run on the AVX2/FMA kernel as its BLAS: the first
// NewTrainer or NewGraphEvaluator installs it (blas.go) with gorgonia.Use;
// the purego build tag, or a CPU without AVX2 and FMA, leaves gorgonia on
// gonum's pure-Go BLAS. GraphEvaluator keeps gorgonia's own convolution
// (Conv2d with faster im2col, col2im and transpose ops of ours that give
// bit-identical values, conv.go).
//
// # Errors and concurrency
//
// Functions return errors with context and never panic across the package
// boundary (gorgonia's panics are recovered and converted). A Trainer is
// used by one goroutine at a time; a GraphEvaluator serialises its
// callers. The package keeps no mutable global state of its own beyond a
// sync.Once that sets gorgonia's process-wide BLAS, once, and one mutex
// that serialises gorgonia graph construction, which touches gorgonia's
// globals.
package training
