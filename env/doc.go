// Package env is the Alice Chess environment: the rules of the game and of
// every variant in the rule book (Variant: alice, alice-ep, alice-black-b,
// alice-null, alice-optional-transfer, alice-stone, alice-mini, alice-3),
// legal move generation, game status, the interchange formats (FEN, EPD,
// UCI moves, SAN, PGN), the tensor encoding the network reads (planes.go) and
// the policy layout it writes (policy.go: move-type planes over the
// from-squares, Variant.Policy).
//
// All variants share one frame — a movement of one man on its board, then
// a transfer to a target board — and one generator that reads the
// variant's switches. It has two paths. Where a square holds at most one
// man (alice, alice-ep, alice-black-b, alice-null, alice-mini), a Position
// holds both boards as one set of bitboards plus a board bit per square,
// and moves are named by their from- and to-squares (the board is implied
// by the from-square): the fast path, movegen.go. Where a square may hold
// men on several boards (alice-optional-transfer, alice-stone, alice-3;
// Variant.SharedSquares), each board has bitboards of its own and a move
// also records its from-board and landing board: the general path,
// widegen.go. Everything else — make and unmake, FEN, SAN, UCI, hashing,
// status, symmetries, snapshots — serves both.
//
// Typical use:
//
//	pos, err := env.ParseFEN(env.StartFEN, env.Alice)
//	var ml env.MoveList
//	pos.LegalMoves(&ml)
//	pos.MakeMove(ml.Moves[0])
//	defer pos.UnmakeMove()
//
// Write moves with Position.UCI or Position.SAN (they need the position to
// know which board marks a variant wants) and read them with ParseUCI,
// ParseSAN or ParseMove. The network's encoding (Encode, LegalMask, the
// policy layout) covers every variant, each with the input planes
// (Variant.Planes) and policy layout (Variant.Policy) its kinds of move
// need.
//
// Move generation, make/unmake and encoding allocate nothing per call.
package env
