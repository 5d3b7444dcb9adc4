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
// A PolicyLayout holds this map for a variant (Variant.Policy). alice,
// alice-ep and alice-black-b play on two 8×8 boards, and alice-mini's
// boards of 4 files lie in files a–d of the same frame (as in the input
// planes), so each of its moves has the index it would have on 8 files;
// the indices of moves from or to files e–h are simply never legal there,
// and an under-promotion is still a move from the seventh rank. These four
// share the one layout of 73 planes above.
//
// The other variants have moves the from-square and displacement do not
// name, and their layouts grow in up to three ways, always nesting the
// same 8×8 planes:
//
//   - a null move (alice-null, alice-stone) has a move type of its own,
//     plane 73 of the movement planes, at its from-square;
//   - where a square may hold men on several boards
//     (alice-optional-transfer, alice-stone, alice-3) the board the man
//     stands on is part of the index: one block of movement planes per
//     from-board;
//   - where the mover chooses where the man ends (alice-stone: transfer or
//     stay; alice-3: the next board, x+1 mod 3, or the one after, x+2 mod
//     3, for a man on board x) each from-board block has one block of
//     movement planes per choice, the transfer (the next board) first.
//
// So index = ((fromBoard·Choices + choice)·MovementPlanes + movement)·64 +
// from-square. alice-optional-transfer has no choice (the man transfers
// unless its landing square is taken), alice-null no from-board block
// (one man per square). The layouts: alice-null 74 planes, alice-optional-
// transfer 2·73 = 146, alice-stone 2·2·74 = 296, alice-3 3·2·73 = 438. The
// board swap then permutes from-board blocks, and no longer leaves
// indices unchanged where there are several.
const (
	// PolicyPlanes is the number of move-type planes of the policy of two
	// boards with one man per square and no null moves (alice, alice-ep,
	// alice-black-b, alice-mini); Variant.Policy gives every variant's.
	PolicyPlanes = 73
	// PolicySize is the number of policy indices (logits) of that layout.
	PolicySize = PolicyPlanes * PlaneSize
)

// MoveType is what one policy plane stands for: the displacement of the
// move from the side to move's view (files to the right, ranks up the
// board) and, on the under-promotion planes, the piece promoted to.
type MoveType struct {
	Files, Ranks int
	Promotion    Kind // NoKind, or Knight, Bishop, Rook
	// Null marks the null move's plane (Files and Ranks 0).
	Null bool
}

// String describes the move type for documentation, e.g. "queen-like NE 3",
// "knight +2+1", "under-promotion to rook, capture towards the h-file".
func (t MoveType) String() string {
	switch {
	case t.Null:
		return "null move"
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

// PolicyLayout maps moves to policy indices and back for one variant's
// geometry and kinds of move. It is immutable; get one from
// Variant.Policy.
type PolicyLayout struct {
	name          string
	width, height int
	types         []MoveType // the movement planes
	// plain[ranks+7][files+7] is the plane of a move that is not an
	// under-promotion, or -1.
	plain [15][15]int8
	// under[piece−Knight][files+1] is the plane of an under-promotion.
	under [3][3]int8
	null  int8 // the null move's plane, or -1
	// fromBoards is the number of from-board blocks (1 where the board is
	// implied by the from-square); choices the number of landing choices
	// per block and choice how a move's landing board picks one.
	fromBoards, choices int
	choice              choiceRule
	boards              int // the variant's boards
}

// choiceRule says what a layout's landing choices stand for.
type choiceRule uint8

const (
	choiceNone        choiceRule = iota // one landing, given by the rules
	choiceStay                          // 0: transfer, 1: stay on the from-board
	choiceNextOrAfter                   // 0: board x+1 mod 3, 1: board x+2 mod 3
)

// newPolicyLayout builds the layout of queen-like, knight and
// under-promotion planes (and the null move's, if null) for a board of the
// given size, with fromBoards from-board blocks of choices blocks each.
func newPolicyLayout(name string, width, height int, null bool, fromBoards int, choice choiceRule, boards int) *PolicyLayout {
	l := &PolicyLayout{name: name, width: width, height: height, null: -1, fromBoards: fromBoards, choices: 1, choice: choice, boards: boards}
	if choice != choiceNone {
		l.choices = 2
	}
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
	if null {
		l.null = add(MoveType{Promotion: NoKind, Null: true})
	}
	return l
}

// The layouts of the variants (Variant.Policy). twoBoards8x8 is the one
// of alice, alice-ep, alice-black-b and alice-mini.
var (
	twoBoards8x8     = newPolicyLayout("move-planes-73x8x8", 8, 8, false, 1, choiceNone, 2)
	nullLayout       = newPolicyLayout("move-planes-74x8x8", 8, 8, true, 1, choiceNone, 2)
	fromBoardLayout  = newPolicyLayout("move-planes-2x73x8x8", 8, 8, false, 2, choiceNone, 2)
	stoneLayout      = newPolicyLayout("move-planes-2x2x74x8x8", 8, 8, true, 2, choiceStay, 2)
	threeBoardLayout = newPolicyLayout("move-planes-3x2x73x8x8", 8, 8, false, 3, choiceNextOrAfter, 3)
)

// Policy returns the variant's policy layout: the one 73×8×8 layout for
// alice, alice-ep, alice-black-b and alice-mini, and the larger ones of
// the variants with null moves, shared squares or a choice of landing
// board (the comment at the top of policy.go). It is nil only for the
// zero Variant.
func (v Variant) Policy() *PolicyLayout {
	switch {
	case v.boards == 0:
		return nil
	case v.boards == 3:
		return threeBoardLayout
	case v.transfer == transferOptional:
		return stoneLayout
	case v.SharedSquares():
		return fromBoardLayout
	case v.null != nullNone:
		return nullLayout
	}
	return twoBoards8x8
}

// policyLayouts lists every layout, for PolicyLayoutByName.
var policyLayouts = [...]*PolicyLayout{twoBoards8x8, nullLayout, fromBoardLayout, stoneLayout, threeBoardLayout}

// PolicyLayoutByName returns the layout of that name (PolicyLayout.Name),
// or nil if there is none.
func PolicyLayoutByName(name string) *PolicyLayout {
	for _, l := range policyLayouts {
		if l.name == name {
			return l
		}
	}
	return nil
}

// PolicyLayoutNames lists the layouts' names.
func PolicyLayoutNames() []string {
	var names []string
	for _, l := range policyLayouts {
		names = append(names, l.name)
	}
	return names
}

// PolicySize returns the number of the variant's policy indices,
// Policy().Size().
func (v Variant) PolicySize() int { return v.Policy().Size() }

// Name identifies the layout, for checkpoints and exported models.
func (l *PolicyLayout) Name() string { return l.name }

// Planes is the number of policy planes: MovementPlanes for each landing
// choice of each from-board.
func (l *PolicyLayout) Planes() int { return l.fromBoards * l.choices * len(l.types) }

// MovementPlanes is the number of move types (73, or 74 with the null
// move) in each block of planes.
func (l *PolicyLayout) MovementPlanes() int { return len(l.types) }

// FromBoards is the number of from-board blocks: 1 where the from-square
// implies the board, else the variant's boards.
func (l *PolicyLayout) FromBoards() int { return l.fromBoards }

// Choices is the number of landing choices per from-board block: 1, or 2
// in alice-stone (transfer, stay) and alice-3 (next board, board after).
func (l *PolicyLayout) Choices() int { return l.choices }

// Height and Width are the size of one plane: the board's ranks and files.
func (l *PolicyLayout) Height() int { return l.height }
func (l *PolicyLayout) Width() int  { return l.width }

// Size is the number of policy indices, Planes·Height·Width.
func (l *PolicyLayout) Size() int { return l.Planes() * l.height * l.width }

// MoveType returns what movement plane (0 ≤ plane < MovementPlanes)
// stands for.
func (l *PolicyLayout) MoveType(plane int) MoveType { return l.types[plane] }

// PlaneMeaning splits a policy plane (0 ≤ plane < Planes) into its
// from-board block (-1 where the board is implied), landing choice and
// movement plane.
func (l *PolicyLayout) PlaneMeaning(plane int) (fromBoard, choice int, t MoveType) {
	m := len(l.types)
	fromBoard, choice = plane/m/l.choices, plane/m%l.choices
	if l.fromBoards == 1 {
		fromBoard = -1
	}
	return fromBoard, choice, l.types[plane%m]
}

// ChoiceName describes landing choice c of the layout, "" where it has
// none.
func (l *PolicyLayout) ChoiceName(c int) string {
	switch l.choice {
	case choiceStay:
		return [2]string{"transfer to the other board", "stay on the from-board"}[c]
	case choiceNextOrAfter:
		return [2]string{"to the next board (x+1 mod 3)", "to the board after it (x+2 mod 3)"}[c]
	}
	return ""
}

// Index returns the policy index of move m played by colour side, or -1 if
// the layout has no index for it (no position can have such a move).
func (l *PolicyLayout) Index(m Move, side Colour) int {
	from, to := m.From(), m.To()
	if side == Black {
		from ^= 56
		to ^= 56
	}
	var plane int8
	if m.IsNull() {
		plane = l.null
	} else {
		df, dr := to.File()-from.File(), to.Rank()-from.Rank()
		switch k := m.Promotion(); k {
		case Knight, Bishop, Rook:
			if dr != 1 || df < -1 || df > 1 || from.Rank() != l.height-2 {
				return -1
			}
			plane = l.under[k-Knight][df+1]
		default:
			plane = l.plain[dr+7][df+7]
		}
	}
	if plane < 0 {
		return -1
	}
	p := int(plane)
	if l.fromBoards > 1 || l.choices > 1 {
		x, t, ok := m.boards()
		if !ok || int(x) >= l.boards || int(t) >= l.boards {
			return -1
		}
		c, ok := l.choiceOf(int(x), int(t))
		if !ok {
			return -1
		}
		p += (int(x)*l.choices + c) * len(l.types)
	}
	return (p*l.height+from.Rank())*l.width + from.File()
}

// IndexedMove is what a policy index names, as played by White: the
// from- and to-squares (equal for a null move), the promotion (NoKind for
// none or a queen promotion), the from-board and landing board where the
// index fixes them (-1 where the position does: a man's board where a
// square holds one man; the landing board of alice-optional-transfer,
// which depends on whether the landing square is free).
type IndexedMove struct {
	From, To           Square
	Promotion          Kind
	Null               bool
	FromBoard, ToBoard int
}

// Decode returns what policy index i names, as played by White; for
// Black, mirror both squares (sq^56). ok is false if i is out of range or
// names no move (the move would leave the board).
func (l *PolicyLayout) Decode(i int) (m IndexedMove, ok bool) {
	if i < 0 || i >= l.Size() {
		return IndexedMove{}, false
	}
	area := l.width * l.height
	fb, c, t := l.PlaneMeaning(i / area)
	f, r := i%area%l.width, i%area/l.width
	tf, tr := f+t.Files, r+t.Ranks
	if tf < 0 || tf >= l.width || tr < 0 || tr >= l.height ||
		t.Promotion != NoKind && r != l.height-2 {
		return IndexedMove{}, false
	}
	if t.Null && l.choice == choiceStay && c == 1 {
		return IndexedMove{}, false // a null move that stays is no move
	}
	m = IndexedMove{From: SquareAt(f, r), To: SquareAt(tf, tr), Promotion: t.Promotion, Null: t.Null, FromBoard: fb, ToBoard: -1}
	if fb >= 0 {
		m.ToBoard = l.landing(fb, c)
	}
	return m, true
}

// landing returns the board a move from board x with landing choice c
// ends on, or -1 where the layout has no choice (the rules decide).
func (l *PolicyLayout) landing(x, c int) int {
	switch l.choice {
	case choiceStay:
		if c == 1 {
			return x
		}
		return 1 - x
	case choiceNextOrAfter:
		return (x + 1 + c) % 3
	}
	return -1
}

// choiceOf is landing's inverse: the landing choice of a move from board
// x to board t (0 where the layout has none); ok is false if no choice
// of the layout lands there.
func (l *PolicyLayout) choiceOf(x, t int) (c int, ok bool) {
	switch l.choice {
	case choiceStay:
		if t == x {
			return 1, true
		}
	case choiceNextOrAfter:
		switch t {
		case (x + 1) % 3:
			return 0, true
		case (x + 2) % 3:
			return 1, true
		}
		return 0, false
	}
	return 0, true
}

// Move returns the from- and to-squares and the promotion of policy index
// i, as Decode does, without the boards.
func (l *PolicyLayout) Move(i int) (from, to Square, promo Kind, ok bool) {
	m, ok := l.Decode(i)
	return m.From, m.To, m.Promotion, ok
}

// UCI names policy index i in UCI notation from White's view, with the
// implied queen promotion left out ("e7e8" covers "e7e8q"), or "" if i
// names no move: the table an exported model documents. The boards the
// index fixes are written as Move.UCI writes them, "a:e2e4/b" (the landing
// board left out where the position decides it, "a:e2e4"); a null move is
// "e2e2".
func (l *PolicyLayout) UCI(i int) string {
	m, ok := l.Decode(i)
	if !ok {
		return ""
	}
	s := m.From.String() + m.To.String()
	if m.Promotion != NoKind {
		s += string(m.Promotion.Letter())
	}
	if m.FromBoard >= 0 {
		s = string(Board(m.FromBoard).letter()) + ":" + s
	}
	if m.ToBoard >= 0 {
		s += "/" + string(Board(m.ToBoard).letter())
	}
	return s
}

// PolicyIndex returns the policy index of a move of the side to move.
func (p *Position) PolicyIndex(m Move) int {
	return p.variant.Policy().Index(m, p.side)
}

// LegalMask sets mask[i] to 1 for the policy index of every legal move and
// to 0 elsewhere; mask must hold the variant's PolicySize entries. It
// returns the number of legal moves. It allocates nothing.
func (p *Position) LegalMask(mask []float32) int {
	l := p.variant.Policy()
	mask = mask[:l.Size()]
	clear(mask)
	var ml MoveList
	p.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		mask[l.Index(m, p.side)] = 1
	}
	return ml.N
}
