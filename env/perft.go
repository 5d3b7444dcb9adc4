package env

// Perft counts the leaf nodes of the legal move tree to the given depth,
// counting the last ply in bulk (the number of legal moves, without playing
// them).
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	lists := make([]MoveList, depth)
	return p.perft(depth, lists)
}

func (p *Position) perft(depth int, lists []MoveList) uint64 {
	ml := &lists[depth-1]
	p.LegalMoves(ml)
	if depth == 1 {
		return uint64(ml.N)
	}
	var n uint64
	for _, m := range ml.Moves[:ml.N] {
		p.MakeMove(m)
		n += p.perft(depth-1, lists)
		p.UnmakeMove()
	}
	return n
}
