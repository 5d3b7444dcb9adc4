// Package mcts is AliceZero's tree search: AlphaZero/lc0-style PUCT and
// Gumbel root search (Danihelka et al. 2022) over a neural network behind
// the Evaluator interface, with batched evaluation for self-play and a
// multi-worker engine mode for play.
//
// # Pieces
//
//   - Evaluator: the network (model implements it). UniformEvaluator and
//     MaterialEvaluator are stand-ins for tests and benchmarks.
//   - Searcher: one evaluator, one Config, one evaluation Cache shared by
//     its trees. Search runs one tree in engine mode (clock.Limits from
//     internal/clock: nodes, move time or a game's clocks; stop via
//     context; Progress reports with every root move's visits, WDL and
//     line, for UCI, XBoard and analysis boards); SearchBatch runs one full
//     search for each of many trees with their leaves gathered into full
//     batches (self-play).
//   - Tree: one game's tree and root position. Advance plays a move and
//     keeps its subtree; Reset starts a new game reusing the memory.
//   - Result: per search, the training target (Visits over the variant's policy
//     indices), root value/WDL, the move to play, PV, proven mates.
//
// # Search
//
// Nodes live in a flat node pool addressed by int32 indices, and a node's
// legal moves in an edge pool, as lc0 stores them: an expanded node's moves
// are contiguous edges of 8 bytes (move and prior), and a move gets a node
// (56 bytes) only when a playout first tries it, linked into its parent's
// children in edge order. The pools and every per-playout buffer are
// reused, so a search allocates nothing per playout once the buffers have
// grown. Config.TreeBytes bounds a tree's pools (the engine derives it from
// its Hash option): they are then reserved at their bound once, never
// grown or moved, and a search that fills them rebuilds the tree instead of
// stopping, keeping every node with enough visits to fit half the pools
// with its children; the nodes below that keep their own visits, values
// and proofs as leaves, and are expanded again when a playout reaches them.
// Advance keeps the played move's subtree the same way. A node
// stores the sum of W-L (and D) over its visits from the view of its own
// side to move; backup flips the sign every ply. A playout descends from
// the root with make/unmake on one working position, and at the leaf
// generates the legal moves and decides the rules' status itself:
// checkmate scores -1 for the side to move, stalemate, repetition,
// fifty-move, dead position and the configured ply cap (adjudication) score
// 0 — the network is never asked about a finished game.
//
// Priors are the softmax over the legal moves' logits at
// Config.PolicyTemperature. PUCT uses c(N) = CPuct +
// CPuctFactor·ln((N+CPuctBase)/CPuctBase), virtual loss for leaves in
// flight, and first-play urgency: an unvisited child is valued at the
// parent's mean value minus FPUReduction·√(visited prior mass) (at the
// root optionally an absolute value, useful with noise). Dirichlet noise
// is mixed into the root priors for self-play and removed again before the
// next search of the same root.
//
// Gumbel mode samples Gumbel noise g, keeps the top GumbelK actions by
// g + logits and spreads the budget over them by sequential halving
// (mctx's schedule), ranking by g + logits + σ(q̂) with σ(q) =
// (GumbelCVisit + max N)·GumbelCScale·(q+1)/2 and q̂ the completed Q
// (visited: mean value; unvisited: the mixed value v_mix). Below the root
// it selects argmax π'(a) − N(a)/(1+ΣN) with π' = softmax(logits + σ(q̂)).
// The training target is π' at the root; the move played is the
// sequential-halving winner.
//
// # Mates and proofs
//
// Terminal results are propagated up the tree (MCTS-solver): a node is a
// proven win if one move leads to a proven loss (distance: the shortest
// such + 1), a proven loss if every move leads to a proven win (the
// longest + 1), a proven draw if every move is proven and the best is a
// draw.
// Playouts stop at proven nodes and back up their exact value; selection
// uses exact values for proven children and never chooses a move proven
// lost while another remains (so the last unproven moves of a lost position
// are tried, whatever their priors, and the position is proven). When the
// root starts a search its moves are played once to mark those that end the
// game at once, so a mate in one is always found, whatever the budget or
// algorithm; with Config.MateProbe (1 by default, 2 in DefaultPlayConfig)
// every new leaf also looks for a mate in one among its checking moves, or
// a mate in two that starts with a check, and, finding one, is a proven win
// without asking the network, so short mates are proven, and walking into
// them avoided, with few playouts. A proven root stops the search; the move
// played is then the shortest proven mate (or, when lost, the longest
// defence), a proven loss is never played while another move exists, and
// Result.MateIn reports the distance in moves (positive: the side to move
// mates). Mate distances are those of the proofs found: a shorter mate the
// tree has not proven can exist.
//
// # Evaluation cache
//
// The cache key is the Zobrist hash mixed with the repetition count
// (capped at 2) and the halfmove clock (capped at 100): exactly the inputs
// of the planes that the hash leaves out, so a hit returns what the network
// would have returned. Entries hold the logits of the legal moves (in the
// move generator's order) and the WDL; they are stored with their full key,
// so index collisions and overwritten records read as misses. The table is
// bounded (a ring log per shard) and safe for concurrent use; clear it
// when the network changes.
//
// # Batching and concurrency
//
// SearchBatch loops over its trees gathering one leaf per tree per pass
// (more per tree, with virtual loss, only when too few trees remain to fill
// the batch), evaluates the batch with one call, then expands and backs up.
// Playouts ending on terminal, proven or cached positions complete without
// the network. Given at least two batches' worth of trees, the next batch
// is gathered while the last is evaluated (on a helper goroutine), every
// tree still seeing the network's answers before it descends again. With
// Config.Workers > 1 the trees are split among goroutines (conc pools)
// with separate batches. Search (engine mode) runs Config.Workers goroutines
// on one tree under a mutex; they share Config.BatchSize leaves in flight,
// each gathering its share and evaluating it outside the lock.
//
// # Determinism
//
// Every random choice (Dirichlet and Gumbel noise, playout caps, move
// sampling) comes from the tree's own PCG generator seeded in NewTree.
// With Workers 1 a search is a deterministic function of the seed, the
// tree's history and the evaluator's outputs.
package mcts
