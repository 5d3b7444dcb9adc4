package env

// The network's input is NumPlanes planes of 8×8 float32 values, laid out
// plane-major (planes[p*64+sq]), from the side to move's point of view: when
// Black is to move the board is mirrored top to bottom (square sq becomes
// sq^56) and the colours are swapped, so "us" is always the side to move and
// always plays up the board. Square 0 is a1 (from that perspective), 63 h8.
//
//	plane  meaning
//	0–5    our pawns, knights, bishops, rooks, queens, king on board A
//	6–11   their pawns … king on board A
//	12–17  our pawns … king on board B
//	18–23  their pawns … king on board B
//	24     1 everywhere if this position occurred once before
//	25     1 everywhere if it occurred twice before
//	26     1 everywhere if Black is to move (the real colour)
//	27     1 everywhere if we may castle king side
//	28     1 everywhere if we may castle queen side
//	29     1 everywhere if they may castle king side
//	30     1 everywhere if they may castle queen side
//	31     halfmove clock / 100 everywhere
//	32     the en-passant target square (alice-ep only), one-hot
//	33     1 everywhere (lets convolutions see the board's edge)
const (
	NumPlanes  = 34
	PlaneSize  = 64
	InputSize  = NumPlanes * PlaneSize
	PolicySize = 1858 // see policy.go for the index ↔ move table
	// Value heads report win, draw, loss probabilities in this order, from
	// the side to move's point of view.
	WDLSize = 3
)
