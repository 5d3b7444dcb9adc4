// Package alphabeta is AliceZero's classical search: a negamax
// principal-variation search over env's move generator with a
// hand-written evaluation (material, piece-square bonuses, mobility), in
// the manner of the alpha-beta chess engines. It plays on its own (the
// "alphabeta" player kind of the arena) and is the exact tactician beside
// the tree search.
//
//	s, err := alphabeta.New(alphabeta.Config{HashMB: 64})
//	r, err := s.Search(ctx, pos, clock.Limits{MoveTime: time.Second})
//	// r.Move, r.Score (centipawns, side to move), r.MateIn, r.PV
//
// # Search
//
// Iterative deepening, each iteration in an aspiration window around the
// last score that widens on a fail; principal-variation search (the first
// move with the full window, the others with a null window, searched
// again when they beat it); a transposition table of 16-byte entries in
// buckets of four (one cache line; the same position's entry or else the
// shallowest, an earlier search's first, is replaced; mate scores stored
// relative to the node), allocated with huge pages where the kernel
// allows and touched whole when made, so that no search pays for its
// pages; check extensions and singular extensions (the table's move a ply
// deeper when every other move, searched shallower, falls well below its
// score; a multi-cut when another also beats beta); mate-distance
// pruning; internal iterative reduction where the table knows no move; at
// nodes off the principal variation reverse futility, null-move pruning
// (env.Position.MakePass, reduced more the further the evaluation stands
// above beta; not in alice-null, whose repetitions see through a pass,
// nor without pieces, where zugzwang is common), late-move pruning (fewer
// moves when the evaluation is not improving) and futility for quiet
// moves, and logarithmic late-move reductions, less for moves with a good
// history. Moves are ordered by the table's move, captures by most
// valuable victim and least valuable attacker, two killers per ply, the
// counter-move to the opponent's last move and a history score. The
// quiescence search plays captures and promotions (every move when in
// check) with delta pruning, reading and writing the table too. A
// repetition of any earlier position, the fifty-move rule and bare kings
// score 0.
//
// # Time
//
// The time comes from clock.Limits.Window, the project's one time
// manager: with a fixed move time the search runs to its end; on a
// game's clock it aims at the clock's target and stretches toward the
// window's end while the best move keeps changing or the score falls,
// starting no iteration it could not finish (timeManager). A node budget
// counts every node, the quiescence search's included. A search stopped
// mid-iteration keeps the last completed iteration's move unless the new
// iteration's best, searched fully, beat it.
//
// # Threads
//
// With Config.Threads above one, a search runs on that many threads that
// share the transposition table and nothing else (each has its own
// position, move-ordering statistics and stack): the one Search was
// called on searches and reports as alone, the helpers search the same
// root beside it, skipping some iterations so that they run ahead of it
// at different depths, and stop when it stops. What they store guides
// the main search's ordering and cuts. The table's slots are read and
// written without a lock, each as two atomic words, its key xor its
// entry beside the entry: a slot torn by two writers checks against no
// key and reads as empty. A node budget counts every thread's nodes;
// "go depth" (clock.Limits.Depth) bounds the main search's iterations.
//
// A Searcher allocates nothing per node (a search on several threads
// starts their goroutines, a few allocations a search) and is not safe
// for concurrent use; one player, one searcher.
package alphabeta
