// Package env is the Alice Chess environment: the rules of the game on two
// boards, legal move generation, game status, the interchange formats (FEN,
// UCI moves, SAN, PGN), the tensor encoding the network reads (planes.go)
// and the policy layout it writes (policy.go: move-type planes over the
// from-squares, Variant.Policy).
//
// A Position holds both boards as one set of bitboards plus a board bit per
// square: a square is never occupied on both boards at once, so a position
// is an 8×8 board where every piece also records whether it stands on board
// A or board B. Moves are named by their from- and to-squares; the board is
// implied by the from-square.
//
// Typical use:
//
//	pos, err := env.ParseFEN(env.StartFEN, env.Alice)
//	var ml env.MoveList
//	pos.LegalMoves(&ml)
//	pos.MakeMove(ml.Moves[0])
//	defer pos.UnmakeMove()
//
// Move generation, make/unmake and encoding allocate nothing per call.
package env
