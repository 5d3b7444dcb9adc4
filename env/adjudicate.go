package env

// pieceValues are the conventional material values in pawns, by Kind (the
// king counts nothing: both sides always have one).
var pieceValues = [NoKind]int{Pawn: 1, Knight: 3, Bishop: 3, Rook: 5, Queen: 9}

// Material returns colour c's material in pawns (pawn 1, knight and bishop
// 3, rook 5, queen 9), counted over all boards.
func (p *Position) Material(c Colour) int {
	n := 0
	for k := Pawn; k < King; k++ {
		n += pieceValues[k] * p.count(c, k)
	}
	return n
}

// MaterialBalance is the side to move's material minus the opponent's.
func (p *Position) MaterialBalance() int {
	return p.Material(p.side) - p.Material(p.side.Other())
}

// CapResult scores a game stopped at a ply cap (status Adjudicated, rule
// book §5): a win for the side at least margin pawns of material ahead,
// else a draw. margin ≤ 0 scores every capped game a draw. Self-play and
// the search use the same rule, so that what the search expects at the cap
// is what the game's record then says.
func (p *Position) CapResult(margin int) Result {
	if margin <= 0 {
		return Draw
	}
	switch d := p.Material(White) - p.Material(Black); {
	case d >= margin:
		return WhiteWins
	case -d >= margin:
		return BlackWins
	}
	return Draw
}
