package env

// The network's input is NumPlanes planes of 8×8 float32 values, laid out
// plane-major (planes[p*64+sq]), from the side to move's point of view: when
// Black is to move the board is mirrored top to bottom (square sq becomes
// sq^56) and the colours are swapped, so "us" is always the side to move and
// always plays up the board. Square 0 is a1 (from that perspective), 63 h8.
// The real colour is not shown: the rules are colour-symmetric (the colour
// flip maps legal play to legal play), so it carries no information.
//
//	plane  meaning
//	0–5    our pawns, knights, bishops, rooks, queens, king on board A
//	6–11   their pawns … king on board A
//	12–17  our pawns … king on board B
//	18–23  their pawns … king on board B
//	24     squares of board A attacked by our pieces standing on board A
//	25     squares of board A attacked by their pieces standing on board A
//	26     squares of board B attacked by our pieces standing on board B
//	27     squares of board B attacked by their pieces standing on board B
//	28     1 on the board if this position occurred once before
//	29     1 on the board if it occurred twice before
//	30     1 on the board if we may castle king side
//	31     1 on the board if we may castle queen side
//	32     1 on the board if they may castle king side
//	33     1 on the board if they may castle queen side
//	34     halfmove clock / 100 on the board (capped at 1)
//	35     the en-passant target square (alice-ep only), one-hot
//	36     1 on the board (lets convolutions see the board's edge)
//
// A square is attacked in the ordinary chess sense on its board (pawns
// attack diagonally forward, sliders stop at the first man of that board),
// whoever stands on it: what gives check, and what a capture on that board
// needs. The attack planes spare a small network the work of finding
// hanging pieces and checks from the piece planes alone.
//
// "On the board" is every square of the frame for the variants on 8×8
// boards (alice, alice-ep, alice-black-b: the same planes, bit for bit).
// alice-mini's boards of 4 files × 8 ranks lie in files a–d of the frame
// (a1 is still square 0) and files e–h are no square of its boards: there
// every plane is 0, the constant ones included, and attacks that would
// leave the 4 files are not shown. The plane of ones then marks the
// board's right edge as the frame's zero padding marks the others. The
// other constant planes are limited to the board too: they carry one bit
// each (the same on every square), which the network reads as well from
// the 32 squares of the board, and with every plane 0 off the board the
// frame's outside part is the same in every position, so that nothing the
// network learns can depend on it but its distance from the board's edge.
// The variant decides the geometry, not the planes: a network is trained
// for one variant (checkpoints and exported models record which), so a
// mini network never reads an 8-file position or the other way round.
const (
	// PlanePieces is the first piece plane: board·12 + side·6 + kind, side
	// 0 for ours and 1 for theirs.
	PlanePieces = 0
	// PlaneAttacks is the first attack plane: PlaneAttacks + board·2 + side.
	PlaneAttacks = 24
	// PlaneRepetitions is the first of the two repetition planes.
	PlaneRepetitions = 28
	// PlaneCastling is the first of the four castling planes (ours king
	// side, ours queen side, theirs king side, theirs queen side).
	PlaneCastling = 30
	// PlaneHalfmove is the halfmove-clock plane.
	PlaneHalfmove = 34
	// PlaneEnPassant is the en-passant plane.
	PlaneEnPassant = 35
	// PlaneOnes is the constant plane of ones.
	PlaneOnes = 36

	// NumPlanes is the number of input planes of the variants of two
	// boards (Variant.NumPlanes gives every variant's).
	NumPlanes = 37
	PlaneSize = 64
	// InputSize is the floats of one position of two boards
	// (Variant.InputSize gives every variant's).
	InputSize = NumPlanes * PlaneSize
	// Value heads report win, draw, loss probabilities in this order, from
	// the side to move's point of view.
	WDLSize = 3
)

// PiecePlane returns the plane of kind k on board b, ours (the side to
// move's) or theirs, in the layout of two boards.
func PiecePlane(b Board, ours bool, k Kind) int {
	return PlanePieces + int(b)*12 + sideOffset(ours)*6 + int(k)
}

// AttackPlane returns the plane of the squares of board b attacked by our
// (the side to move's) or their pieces standing on b, in the layout of two
// boards.
func AttackPlane(b Board, ours bool) int {
	return PlaneAttacks + int(b)*2 + sideOffset(ours)
}

// PlaneLayout is the order of a variant's input planes (Variant.Planes).
// Every variant has the planes of the table above, with one block of
// piece planes and one pair of attack planes per board: the variants of
// two boards (all but alice-3) have exactly that table, NumPlanes planes;
// alice-3 puts board C's 12 piece planes after board B's (planes 24–35),
// its 6 attack planes at 36–41 (board·2 + side) and the table's planes 28–36
// at 42–50, 51 planes in all. In the variants where a square may hold men
// on several boards (Variant.SharedSquares) a square may be 1 on the piece
// planes of several boards; null moves, stays and the choice of target
// board are moves, not state, and have no plane.
type PlaneLayout struct{ boards int }

// Planes returns the variant's input-plane layout.
func (v Variant) Planes() PlaneLayout { return PlaneLayout{boards: int(v.boards)} }

// NumPlanes returns the number of the variant's input planes: NumPlanes, or
// 51 for alice-3.
func (v Variant) NumPlanes() int { return v.Planes().Num() }

// InputSize returns the number of floats of one encoded position of the
// variant, NumPlanes()·PlaneSize.
func (v Variant) InputSize() int { return v.NumPlanes() * PlaneSize }

// Boards returns the number of boards the layout has planes for.
func (l PlaneLayout) Boards() int { return l.boards }

// Piece returns the plane of kind k on board b, ours or theirs.
func (l PlaneLayout) Piece(b Board, ours bool, k Kind) int { return PiecePlane(b, ours, k) }

// Attack returns the attack plane of board b, ours or theirs.
func (l PlaneLayout) Attack(b Board, ours bool) int {
	return 12*l.boards + int(b)*2 + sideOffset(ours)
}

// extra is the shift of the planes after the attack planes against the
// layout of two boards.
func (l PlaneLayout) extra() int { return 14 * (l.boards - 2) }

// Repetitions, Castling, Halfmove, EnPassant and Ones return the first
// plane of each block of the table above (PlaneRepetitions …, shifted by
// the third board's planes in alice-3).
func (l PlaneLayout) Repetitions() int { return PlaneRepetitions + l.extra() }
func (l PlaneLayout) Castling() int    { return PlaneCastling + l.extra() }
func (l PlaneLayout) Halfmove() int    { return PlaneHalfmove + l.extra() }
func (l PlaneLayout) EnPassant() int   { return PlaneEnPassant + l.extra() }
func (l PlaneLayout) Ones() int        { return PlaneOnes + l.extra() }

// Num is the number of planes.
func (l PlaneLayout) Num() int { return NumPlanes + l.extra() }

func sideOffset(ours bool) int {
	if ours {
		return 0
	}
	return 1
}
