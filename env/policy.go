package env

import "fmt"

// The policy is a stack of move-type planes over the from-squares, as in
// AlphaZero: index = plane·64 + from-square, where the from-square and the
// move's direction are taken from the side to move's point of view (Black's
// squares mirrored top to bottom, sq^56, as in the input planes). The
// network's policy head emits exactly this layout: PolicyPlanes channels of
// 8×8, flattened plane-major.
//
//	planes  move type
//	0–55    queen-like moves: direction·7 + distance−1, directions in the
//	        order N, NE, E, SE, S, SW, W, NW (clockwise from straight up the
//	        board, "N" being towards the opponent), distances 1–7
//	56–63   knight moves, clockwise from the one two ranks up and one file
//	        right: (+1,+2), (+2,+1), (+2,−1), (+1,−2), (−1,−2), (−2,−1),
//	        (−2,+1), (−1,+2) as (files, ranks)
//	64–72   under-promotions: piece·3 + direction, pieces knight, bishop,
//	        rook, directions capture towards the a-file, straight, capture
//	        towards the h-file
//
// A queen promotion is the pawn's plain queen-like move; castling is the
// king's two-square move. Indices whose move would leave the board (a
// knight jump from a corner, an under-promotion from below the seventh
// rank) never name a move: 1858 of the 4672 are used.
//
// Because a move's board is implied by its from-square, the A↔B board swap
// leaves every index unchanged; because indices are taken from the side to
// move's view, so does the colour flip. The network therefore sees one
// policy for a position and both its mirror images.
//
// A PolicyLayout holds this map. Every variant the network covers so far
// uses the one layout (Variant.Policy): alice, alice-ep and alice-black-b
// play on two 8×8 boards, and alice-mini's boards of 4 files lie in files
// a–d of the same frame (as in the input planes), so each of its moves
// has the index it would have on 8 files; the indices of moves from or to
// files e–h are simply never legal there, and an under-promotion is still
// a move from the seventh rank. A variant with other kinds of move (null
// moves, a choice of target board) will bring a layout of its own (more
// planes, another board size), and the code that reads Planes, Height,
// Width and Size follows it.
const (
	// PolicyPlanes is the number of move-type planes of the policy.
	PolicyPlanes = 73
	// PolicySize is the number of policy indices (logits).
	PolicySize = PolicyPlanes * PlaneSize
)

// MoveType is what one policy plane stands for: the displacement of the
// move from the side to move's view (files to the right, ranks up the
// board) and, on the under-promotion planes, the piece promoted to.
type MoveType struct {
	Files, Ranks int
	Promotion    Kind // NoKind, or Knight, Bishop, Rook
}

// String describes the move type for documentation, e.g. "queen-like NE 3",
// "knight +2+1", "under-promotion to rook, capture towards the h-file".
func (t MoveType) String() string {
	switch {
	case t.Promotion != NoKind:
		dir := [3]string{"capture towards the a-file", "straight", "capture towards the h-file"}[t.Files+1]
		return fmt.Sprintf("under-promotion to %s, %s", kindNames[t.Promotion], dir)
	case t.Files != 0 && t.Ranks != 0 && abs(t.Files) != abs(t.Ranks):
		return fmt.Sprintf("knight %+d%+d", t.Files, t.Ranks)
	}
	dir := [3][3]string{{"SW", "W", "NW"}, {"S", "", "N"}, {"SE", "E", "NE"}}[sign(t.Files)+1][sign(t.Ranks)+1]
	return fmt.Sprintf("queen-like %s %d", dir, max(abs(t.Files), abs(t.Ranks)))
}

// queenDirs are the (files, ranks) steps of the queen-like planes, in plane
// order: N, NE, E, SE, S, SW, W, NW. knightJumps are the (files, ranks)
// jumps of the knight planes.
var (
	queenDirs   = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}
	knightJumps = [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
)

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// PolicyLayout maps moves to policy indices and back for one board
// geometry. It is immutable; get one from Variant.Policy.
type PolicyLayout struct {
	name          string
	width, height int
	types         []MoveType
	// plain[ranks+7][files+7] is the plane of a move that is not an
	// under-promotion, or -1.
	plain [15][15]int8
	// under[piece−Knight][files+1] is the plane of an under-promotion.
	under [3][3]int8
}

// newPolicyLayout builds the layout of queen-like, knight and
// under-promotion planes for a board of the given size.
func newPolicyLayout(name string, width, height int) *PolicyLayout {
	l := &PolicyLayout{name: name, width: width, height: height}
	for i := range l.plain {
		for j := range l.plain[i] {
			l.plain[i][j] = -1
		}
	}
	add := func(t MoveType) int8 {
		l.types = append(l.types, t)
		return int8(len(l.types) - 1)
	}
	for _, d := range queenDirs {
		for n := 1; n <= 7; n++ {
			l.plain[d[1]*n+7][d[0]*n+7] = add(MoveType{Files: d[0] * n, Ranks: d[1] * n, Promotion: NoKind})
		}
	}
	for _, j := range knightJumps {
		l.plain[j[1]+7][j[0]+7] = add(MoveType{Files: j[0], Ranks: j[1], Promotion: NoKind})
	}
	for k := Knight; k <= Rook; k++ {
		for df := -1; df <= 1; df++ {
			l.under[k-Knight][df+1] = add(MoveType{Files: df, Ranks: 1, Promotion: k})
		}
	}
	return l
}

// twoBoards8x8 is the layout of every variant the network covers so far.
var twoBoards8x8 = newPolicyLayout("move-planes-73x8x8", 8, 8)

func init() {
	if twoBoards8x8.Size() != PolicySize || twoBoards8x8.Planes() != PolicyPlanes {
		panic("env: the policy layout disagrees with PolicySize")
	}
}

// Policy returns the variant's policy layout, or nil for a variant the
// network's encoding does not cover yet (Variant.CheckNetwork says why):
// the one 73×8×8 layout for alice, alice-ep, alice-black-b and alice-mini.
func (v Variant) Policy() *PolicyLayout {
	if !v.hasNetwork() {
		return nil
	}
	return twoBoards8x8
}

// Name identifies the layout, for checkpoints and exported models.
func (l *PolicyLayout) Name() string { return l.name }

// Planes is the number of move-type planes.
func (l *PolicyLayout) Planes() int { return len(l.types) }

// Height and Width are the size of one plane: the board's ranks and files.
func (l *PolicyLayout) Height() int { return l.height }
func (l *PolicyLayout) Width() int  { return l.width }

// Size is the number of policy indices, Planes·Height·Width.
func (l *PolicyLayout) Size() int { return len(l.types) * l.height * l.width }

// MoveType returns what plane stands for.
func (l *PolicyLayout) MoveType(plane int) MoveType { return l.types[plane] }

// Index returns the policy index of move m played by colour side, or -1 if
// the layout has no index for it (no position can have such a move).
func (l *PolicyLayout) Index(m Move, side Colour) int {
	from, to := m.From(), m.To()
	if side == Black {
		from ^= 56
		to ^= 56
	}
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	var plane int8
	switch k := m.Promotion(); k {
	case Knight, Bishop, Rook:
		if dr != 1 || df < -1 || df > 1 || from.Rank() != l.height-2 {
			return -1
		}
		plane = l.under[k-Knight][df+1]
	default:
		plane = l.plain[dr+7][df+7]
	}
	if plane < 0 {
		return -1
	}
	return (int(plane)*l.height+from.Rank())*l.width + from.File()
}

// Move returns the from- and to-squares and the promotion (NoKind for none
// or a queen promotion) of policy index i, as played by White; for Black,
// mirror both squares (sq^56). ok is false if i is out of range or names
// no move (the move would leave the board).
func (l *PolicyLayout) Move(i int) (from, to Square, promo Kind, ok bool) {
	if i < 0 || i >= l.Size() {
		return NoSquare, NoSquare, NoKind, false
	}
	area := l.width * l.height
	t := l.types[i/area]
	f, r := i%area%l.width, i%area/l.width
	tf, tr := f+t.Files, r+t.Ranks
	if tf < 0 || tf >= l.width || tr < 0 || tr >= l.height ||
		t.Promotion != NoKind && r != l.height-2 {
		return NoSquare, NoSquare, NoKind, false
	}
	return SquareAt(f, r), SquareAt(tf, tr), t.Promotion, true
}

// UCI names policy index i in UCI notation from White's view, with the
// implied queen promotion left out ("e7e8" covers "e7e8q"), or "" if i
// names no move: the table an exported model documents.
func (l *PolicyLayout) UCI(i int) string {
	from, to, promo, ok := l.Move(i)
	if !ok {
		return ""
	}
	s := from.String() + to.String()
	if promo != NoKind {
		s += string(promo.Letter())
	}
	return s
}

// PolicyIndex returns the policy index of a move of the side to move, or -1
// where the variant has no policy layout yet (Variant.CheckNetwork).
func (p *Position) PolicyIndex(m Move) int {
	l := p.variant.Policy()
	if l == nil {
		return -1
	}
	return l.Index(m, p.side)
}

// LegalMask sets mask[i] to 1 for the policy index of every legal move and
// to 0 elsewhere; mask must hold PolicySize entries. It returns the number
// of legal moves. It allocates nothing. The variant must pass
// Variant.CheckNetwork.
func (p *Position) LegalMask(mask []float32) int {
	mustHaveNetwork(p.variant)
	mask = mask[:PolicySize]
	clear(mask)
	var ml MoveList
	p.LegalMoves(&ml)
	l := p.variant.Policy()
	for _, m := range ml.Slice() {
		mask[l.Index(m, p.side)] = 1
	}
	return ml.N
}
