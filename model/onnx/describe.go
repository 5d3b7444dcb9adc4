package onnx

import (
	"fmt"
	"maps"
	"strings"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
)

// FormatName and FormatVersion identify the model.json format. The version
// changes whenever a key changes meaning or disappears, and only then: a
// key added changes nothing an older reader of the same version reads, so
// readers ignore keys they do not know.
const (
	FormatName    = "alicezero-onnx"
	FormatVersion = 2
)

// Metadata is what the exporter knows about a network beyond its weights.
type Metadata struct {
	// Variant is the rule set the network was trained for (the zero value
	// means env.Alice).
	Variant env.Variant
	// Checkpoint names the source checkpoint (informational, "" if none).
	Checkpoint string
	// Step is the number of training steps the weights have seen.
	Step int64
	// Meta is the checkpoint's free-form metadata (run, iteration, ...),
	// copied into the description as is.
	Meta map[string]string
}

// Description is the content of model.json, the human- and
// machine-readable contract of an exported model. The same JSON is stored
// in the ONNX file's metadata_props under MetadataKey.
type Description struct {
	Format        string         `json:"format"`
	FormatVersion int            `json:"format_version"`
	Producer      string         `json:"producer"`
	Rules         Rules          `json:"rules"`
	ONNX          ONNXInfo       `json:"onnx"`
	Network       Network        `json:"network"`
	Input         Input          `json:"input"`
	Outputs       []Output       `json:"outputs"`
	Policy        Policy         `json:"policy"`
	Source        Source         `json:"source"`
	TestPositions []TestPosition `json:"test_positions"`
}

// Rules names the game the network plays.
type Rules struct {
	Variant   string `json:"variant"`
	EnPassant bool   `json:"en_passant"`
	// StartFEN is the variant's start position; BoardFiles the files of
	// each board (8, or 4 in alice-mini, whose boards lie in files a–d of
	// the 8×8 planes).
	StartFEN   string `json:"start_fen"`
	BoardFiles int    `json:"board_files"`
	// Boards is the number of boards (3 in alice-3, else 2); SharedSquares
	// whether a square may hold men on several boards at once
	// (alice-optional-transfer, alice-stone, alice-3), which the FEN
	// convention and the UCI notation then show.
	Boards        int    `json:"boards"`
	SharedSquares bool   `json:"shared_squares"`
	Summary       string `json:"summary"`
	FENConvention string `json:"fen_convention"`
	// UCINotation says how moves are written: the rule book's notation
	// (test_positions' legal_moves[].uci) and the full form with the
	// boards (legal_moves[].uci_boards).
	UCINotation string `json:"uci_notation"`
}

// ONNXInfo describes the ONNX file.
type ONNXInfo struct {
	File        string   `json:"file"`
	Opset       int      `json:"opset"`
	IRVersion   int      `json:"ir_version"`
	MetadataKey string   `json:"metadata_key"`
	Ops         []string `json:"ops"`
}

// Network describes the architecture.
type Network struct {
	Preset        string       `json:"preset"`
	Config        model.Config `json:"config"`
	Parameters    int          `json:"parameters"`
	BatchNorm     bool         `json:"batch_norm"`
	BatchNormNote string       `json:"batch_norm_note"`
	Layers        []string     `json:"layers"`
	Initializers  []TensorInfo `json:"initializers"`
}

// TensorInfo names one initializer and its shape.
type TensorInfo struct {
	Name  string `json:"name"`
	Shape []int  `json:"shape"`
	Role  string `json:"role"`
}

// Input describes the input tensor.
type Input struct {
	Name        string  `json:"name"`
	Shape       []any   `json:"shape"`
	DType       string  `json:"dtype"`
	Layout      string  `json:"layout"`
	Squares     string  `json:"squares"`
	Perspective string  `json:"perspective"`
	Planes      []Plane `json:"planes"`
}

// Plane is one input plane.
type Plane struct {
	Index   int    `json:"index"`
	Name    string `json:"name"`
	Meaning string `json:"meaning"`
}

// Output describes an output tensor.
type Output struct {
	Name    string `json:"name"`
	Shape   []any  `json:"shape"`
	DType   string `json:"dtype"`
	Meaning string `json:"meaning"`
}

// Policy is the policy index ↔ move table. Shape is [planes, 8, 8] and
// the planes are FromBoards·Choices blocks of MovementPlanes each
// (env/policy.go); NamedIndices counts the indices that name a move.
type Policy struct {
	Size           int           `json:"size"`
	LayoutName     string        `json:"layout_name"`
	Shape          []int         `json:"shape"`
	MovementPlanes int           `json:"movement_planes"`
	FromBoards     int           `json:"from_boards"`
	Choices        int           `json:"choices"`
	NamedIndices   int           `json:"named_indices"`
	Perspective    string        `json:"perspective"`
	Promotions     string        `json:"promotions"`
	Castling       string        `json:"castling"`
	Layout         string        `json:"layout"`
	Usage          string        `json:"usage"`
	Planes         []PolicyPlane `json:"planes"`
	Moves          []string      `json:"moves"`
}

// PolicyPlane is one plane of the policy: the displacement of its moves
// (files right, ranks up, from the side to move's view), the
// under-promotion piece, if any, and whether it is the null move's plane;
// in the layouts with from-board blocks (alice-optional-transfer,
// alice-stone, alice-3) also the board the moving man stands on, and in
// those with landing choices (alice-stone, alice-3) the choice and the
// board the man ends on. Movement is the plane's move type within its
// block (0 … policy.movement_planes-1).
type PolicyPlane struct {
	Index     int    `json:"index"`
	Meaning   string `json:"meaning"`
	Movement  int    `json:"movement"`
	Files     int    `json:"files"`
	Ranks     int    `json:"ranks"`
	Promotion string `json:"promotion,omitempty"`
	Null      bool   `json:"null,omitempty"`
	// FromBoard is "A", "B" or "C" where the plane fixes the board the man
	// stands on, "" (absent) where the from-square implies it.
	FromBoard string `json:"from_board,omitempty"`
	// Choice is the landing choice (0 or 1, ChoiceMeaning says which) and
	// ToBoard the board the man ends on, where the plane fixes them;
	// absent where the position decides (the other board, or in
	// alice-optional-transfer the from-board when the landing square is
	// taken).
	Choice        *int   `json:"choice,omitempty"`
	ChoiceMeaning string `json:"choice_meaning,omitempty"`
	ToBoard       string `json:"to_board,omitempty"`
}

// Source records where the weights came from.
type Source struct {
	Checkpoint string            `json:"checkpoint,omitempty"`
	Step       int64             `json:"step"`
	Meta       map[string]string `json:"meta,omitempty"`
}

// TestPosition is a position with its encoded input and the Go network's
// outputs, for checking a runtime against this export.
type TestPosition struct {
	Name         string      `json:"name"`
	FEN          string      `json:"fen"`
	Moves        []string    `json:"moves_from_start,omitempty"`
	SideToMove   string      `json:"side_to_move"`
	Planes       []float32   `json:"planes"`
	PolicyLogits []float32   `json:"policy_logits"`
	WDL          []float32   `json:"wdl"`
	LegalMoves   []LegalMove `json:"legal_moves"`
}

// LegalMove pairs a legal move (real UCI, as on the board) with its policy
// index (from the side to move's view). UCI is the rule book's notation
// (env.Position.UCI: a from-board prefix only where the mover has another
// man on the from-square, a landing-board suffix only where the variant
// writes one); UCIBoards the full form with every board the move records
// (env.Move.UCI, "a:e2e4/b"), equal to UCI in the variants of one man per
// square. Both read back with env.Position.ParseUCI.
type LegalMove struct {
	UCI       string `json:"uci"`
	UCIBoards string `json:"uci_boards"`
	Index     int    `json:"index"`
}

// testLine is a test position: the moves that reach it from the start.
type testLine struct {
	name  string
	moves []string
}

// testPositions are the positions every description of alice and alice-ep
// carries: the start, a Black-to-move reply position, a middlegame with
// men on both boards and a Black-to-move position where only Black may
// still castle. Variants with another start carry lines of their own
// (variantTestPositions).
var testPositions = []testLine{
	{"start", nil},
	{"after 1.e4 (Black to move)", []string{"e2e4"}},
	{"middlegame, pieces on both boards (White to move)", []string{
		"e2e4", "d7d5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d4", "e7e6",
		"b1c3", "f8b4", "c1g5", "h7h6", "e1g1", "e8g8"}},
	{"Black to move, only Black may castle", []string{
		"e2e4", "d7d5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"}},
}

// variantTestPositions are the test positions of the other variants:
// their start, a Black-to-move reply, and positions in which each kind of
// move the variant adds has been played (null moves, stays, bracket
// groups of shared squares, moves to board C), at least two of them with
// Black to move.
var variantTestPositions = map[string][]testLine{
	env.AliceBlackB.Name: {
		{"start (Black's army on board B)", nil},
		{"after 1.e4 (Black to move)", []string{"e2e4"}},
		{"middlegame, both sides castled, pieces on both boards (White to move)", []string{
			"e2e4", "d7d5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d4", "e7e6",
			"b1c3", "f8d6", "e1g1", "e8g8"}},
		{"Black to move, only Black may castle", []string{
			"e2e4", "d7d5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"}},
	},
	env.AliceMini.Name: {
		{"start (boards of files a-d)", nil},
		{"after 1.b4 (Black to move)", []string{"b3b4"}},
		{"middlegame, pieces on both boards (White to move)", []string{
			"b3b4", "c6c5", "c2a4", "b6b5", "d2b3", "d7b6", "c3c4", "d6d5"}},
		{"Black to move after a capture", []string{
			"b3b4", "c6c5", "c2a4", "b6b5", "d2b3", "d7b6", "c3c4", "d6d5", "c4d5"}},
	},
	env.AliceNull.Name: {
		{"start", nil},
		{"after 1.e4 (Black to move)", []string{"e2e4"}},
		{"middlegame after null moves of knights and a pawn, White castled (White to move)", []string{
			"e2e4", "d7d5", "g1f3", "b8c6", "f1c4", "g8f6", "f3f3", "c6c6", "e1g1", "h7h7"}},
		{"Black to move after White's knight null move", []string{
			"e2e4", "d7d5", "g1f3", "b8c6", "f3f3"}},
	},
	env.AliceOptionalTransfer.Name: {
		{"start", nil},
		{"after 1.e4 (Black to move)", []string{"e2e4"}},
		{"middlegame, a white queen and a black knight stayed (bracket groups on f3 and d8; White to move)", []string{
			"e2e4", "e7e5", "g1f3", "b8c6", "d1f3", "g8f6", "f1c4", "c6d8"}},
		{"Black to move, White's queen stayed on board A above its knight on board B", []string{
			"e2e4", "e7e5", "g1f3", "b8c6", "d1f3"}},
	},
	env.AliceStone.Name: {
		{"start (Black's army on board B)", nil},
		{"after 1.e4 staying on board A (Black to move)", []string{"e2e4/a"}},
		{"middlegame after stays, a null capture (e4e4 takes the pawn), castling that stayed and a null move (Black to move)", []string{
			"e2e4/a", "g8f6/b", "g1f3", "f6e4/b", "f1e2/a", "e4e4", "e1g1/a", "d7d6", "f3f3"}},
		{"White in check through the king's null square, escaping by a null capture or Kh1 (White to move)", []string{
			"e2e4/a", "g8f6/b", "g1f3", "f6e4/b", "f1e2/a", "e4e4", "e1g1/a", "d7d6", "f3f3", "d8d1/b", "b1c3", "d1g1/b"}},
	},
	env.Alice3.Name: {
		{"start (boards A, B, C)", nil},
		{"after 1.e4 to board B (Black to move)", []string{"e2e4/b"}},
		{"middlegame, men on three boards, White castled to board C, a bracket group on e4 (White to move)", []string{
			"e2e4/b", "e7e5/c", "g1f3/c", "b8c6/b", "f1c4/b", "g8f6/c", "e1g1/c", "f6e4/a"}},
		{"Black to move, White's pawns on boards B and C", []string{
			"e2e4/b", "e7e5/c", "g1f3/c", "b8c6/b", "d2d4/c"}},
	},
}

// testLines returns the test positions of variant v.
func testLines(v env.Variant) []testLine {
	if lines, ok := variantTestPositions[v.Name]; ok {
		return lines
	}
	return testPositions
}

// pieceNames are the kinds in plane order.
var pieceNames = [6]string{"pawns", "knights", "bishops", "rooks", "queens", "king"}

// planeTable lists variant v's input planes (its env.PlaneLayout), in
// index order: a block of 12 piece planes per board, then 2 attack planes
// per board, then the shared planes.
func planeTable(v env.Variant) []Plane {
	l := v.Planes()
	ps := make([]Plane, l.Num())
	set := func(i int, name, meaning string) { ps[i] = Plane{Index: i, Name: name, Meaning: meaning} }
	for b := 0; b < l.Boards(); b++ {
		board := env.Board(b)
		for _, ours := range [2]bool{true, false} {
			side := map[bool]string{true: "our", false: "their"}[ours]
			for k, kind := range pieceNames {
				set(l.Piece(board, ours, env.Kind(k)), fmt.Sprintf("%s_%s_%s", side, kind, board),
					fmt.Sprintf("1 on each square holding %s %s on board %s, else 0", side, kind, board))
			}
			set(l.Attack(board, ours), fmt.Sprintf("%s_attacks_%s", side, board),
				fmt.Sprintf("1 on each square of board %s attacked by %s pieces standing on board %s (in the ordinary chess sense on that board: "+
					"pawns diagonally forward, sliders stopped by the first man of that board; whatever stands on the square), else 0", board, side, board))
		}
	}
	// "On the board": every square, or files a–d in alice-mini (input.squares).
	set(l.Repetitions(), "repeated_once", "1 on the board if this position occurred at least once before in the game (0 when encoding a FEN without history)")
	set(l.Repetitions()+1, "repeated_twice", "1 on the board if this position occurred at least twice before")
	set(l.Castling(), "our_castle_kingside", "1 on the board if the side to move may still castle king side")
	set(l.Castling()+1, "our_castle_queenside", "1 on the board if the side to move may still castle queen side")
	set(l.Castling()+2, "their_castle_kingside", "1 on the board if the opponent may still castle king side")
	set(l.Castling()+3, "their_castle_queenside", "1 on the board if the opponent may still castle queen side")
	set(l.Halfmove(), "halfmove_clock", "min(halfmove clock, 100) / 100 on the board")
	set(l.EnPassant(), "en_passant", "1 on the en-passant target square (variant alice-ep only; always 0 in the others), else 0")
	set(l.Ones(), "ones", "1 on the board (lets the convolutions see the board's edge)")
	return ps
}

// policyPlanes lists every plane of the policy layout: its from-board
// block, landing choice and move type (env.PolicyLayout.PlaneMeaning).
func policyPlanes(l *env.PolicyLayout) []PolicyPlane {
	ps := make([]PolicyPlane, l.Planes())
	for i := range ps {
		fb, c, t := l.PlaneMeaning(i)
		p := PolicyPlane{Index: i, Meaning: t.String(), Movement: i % l.MovementPlanes(), Files: t.Files, Ranks: t.Ranks, Null: t.Null}
		if t.Promotion != env.NoKind {
			p.Promotion = string(t.Promotion.Letter())
		}
		var where []string
		if fb >= 0 {
			p.FromBoard = env.Board(fb).String()
			where = append(where, "from board "+p.FromBoard)
		}
		if l.Choices() > 1 {
			p.Choice, p.ChoiceMeaning = &c, l.ChoiceName(c)
			// The landing board is the same for every square of the plane:
			// read it from any index of the plane that names a move.
			for sq := 0; sq < l.Height()*l.Width(); sq++ {
				if m, ok := l.Decode(i*l.Height()*l.Width() + sq); ok {
					p.ToBoard = env.Board(m.ToBoard).String()
					break
				}
			}
			if p.ToBoard == "" {
				where = append(where, p.ChoiceMeaning+" (names no move: a null move always changes board)")
			} else {
				where = append(where, fmt.Sprintf("%s, ending on board %s", p.ChoiceMeaning, p.ToBoard))
			}
		}
		if len(where) > 0 {
			p.Meaning = strings.Join(where, ", ") + ": " + p.Meaning
		}
		ps[i] = p
	}
	return ps
}

// rulesSummary describes variant v's rules in a few sentences.
func rulesSummary(v env.Variant) string {
	s := "Alice Chess: two boards, A and B; every piece moves by the ordinary chess rules on the board it stands on and then " +
		"passes through to the same square of the other board, which must be empty there. A square is never occupied on both boards. "
	switch v {
	case env.AliceBlackB:
		return s + "Variant alice-black-b: White's army starts on board A, Black's on board B; no en-passant captures."
	case env.AliceMini:
		return s + "Variant alice-mini: each board has 4 files (a-d) and 8 ranks; the army (rooks, queen, king, knights, bishops, " +
			"four pawns) starts on board A, board B empty; pawns never double-step, there is no castling and no en passant."
	case env.AliceEP:
		return s + "The game starts with the normal army on board A and board B empty. Variant alice-ep allows en-passant captures."
	case env.AliceNull:
		return s + "The game starts with the normal army on board A and board B empty. Variant alice-null (Ishkan) adds null moves: " +
			"any man, pawns included, may pass to the same square of the other board without moving, if that square is empty there; " +
			"a king may not escape check so, a null move may not uncover a check on its board, a king or rook that made one loses its castling rights, " +
			"a pawn's null move never promotes. No en-passant captures."
	case env.AliceOptionalTransfer:
		return "Alice Chess on two boards, A and B, the normal army on board A: every piece moves by the ordinary chess rules on the board it stands on " +
			"and then passes to the same square of the other board when that square is empty there. Variant alice-optional-transfer (O'Donohue): " +
			"a move whose landing square on the other board is occupied (by either colour) is legal too, and the piece then stays on the board it moved on, " +
			"so a square may hold men on both boards; a castling transfers king and rook only when both landing squares are empty. No en-passant captures."
	case env.AliceStone:
		return "Alice Chess on two boards, A and B. Variant alice-stone (Stone): White's army starts on board A, Black's on board B; every transfer is optional " +
			"(after moving on its board the piece may stay there, or pass to the same square of the other board if it is empty there), so a square may hold men on both boards; " +
			"pieces other than pawns may make null moves (pass to the same square of the other board without moving), and a null move may capture an enemy man " +
			"(never a king) standing there. Hence a king is in check when an enemy piece other than a pawn stands on the king's square of the other board " +
			"(also for the squares a castling king passes or lands on), and a king may escape check by its own null move. Castling is then optionally transferred " +
			"(both pieces or neither). No en-passant captures."
	case env.Alice3:
		return "Alice Chess on three boards, A, B and C, the normal army on board A. Variant alice-3 (Parton): every piece moves by the ordinary chess rules on the board " +
			"it stands on, then the mover chooses which of the two other boards receives it; its landing square there must be empty. A square may hold men on several boards. " +
			"Check comes only from pieces on the king's own board. Castling is legal on the king's board as usual; king and rook then transfer together to one chosen board, " +
			"where both landing squares must be empty. No en-passant captures."
	}
	return s + "The game starts with the normal army on board A and board B empty. Variant " + v.Name + " has no en-passant captures."
}

// fenConvention describes the FEN that env reads and writes for variant v
// (env.ParseFEN, env.Position.FEN).
func fenConvention(v env.Variant) string {
	s := "ordinary FEN in which a piece standing on board B is prefixed with '|'"
	if v.Boards() > 2 {
		s += " and one standing on board C with '||'"
	}
	if v.Files() < 8 {
		s += fmt.Sprintf("; each rank has %d files (a-%c)", v.Files(), 'a'+v.Files()-1)
	}
	if v.SharedSquares() {
		s += "; a square holding men on several boards is written as one bracket group filling one file, each man with its board prefix, in board order A, B"
		if v.Boards() > 2 {
			s += ", C: [Q|p] is a white queen on A and a black pawn on B, [|N||b] a white knight on B and a black bishop on C"
		} else {
			s += ": [Q|N] is a white queen on A and a white knight on B"
		}
	}
	s += "; the en-passant field is '-' unless the variant is alice-ep. Start: " + v.StartFEN()
	if v.StartFEN() == env.StartFEN {
		s += " (all men on board A)"
	}
	return s
}

// uciNotation describes how variant v's moves are written (env.Position.UCI
// and env.Move.UCI; env.Position.ParseUCI reads both).
func uciNotation(v env.Variant) string {
	s := "UCI from the real board (not mirrored): e2e4, castling as the king's move e1g1, promotion e7e8q"
	if v == env.AliceMini {
		s = "UCI from the real board (not mirrored), squares of files a-d: b3b4, promotion b7b8q (no castling)"
	}
	switch v {
	case env.AliceNull:
		return s + "; a null move is from = to (e4e4). The board is implied by the from-square: uci and uci_boards are the same."
	case env.AliceOptionalTransfer:
		return s + ". A square may hold men on both boards: the move is prefixed with the moving man's board and a colon (a:d1d5, b:f3g5) " +
			"when another man of the mover stands on the from-square of the other board; whether the man transfers is decided by the position " +
			"(the landing square free on the other board) and not written. uci_boards always carries the prefix and the board the man ends on (a:d1f3/a)."
	case env.AliceStone:
		return s + "; a null move is from = to (d1d1). A move that ends on the other board is written as usual (e2e4); one whose piece stays " +
			"on its board gets the suffix '/' and that board's letter (e2e4/a, e7e8q/b); the moving man's board and a colon prefix the move (a:d1d5) " +
			"when another man of the mover stands on the from-square of the other board. uci_boards always carries both (a:e2e4/a, b:f3f3/a)."
	case env.Alice3:
		return s + "; the target board is always appended after a slash (e2e4/b, e2e4/c, e7e8q/c, e1g1/b), and the moving man's board and a colon " +
			"prefix the move (a:d1d5/b) when another man of the mover stands on the from-square of another board. uci_boards always carries both (a:e2e4/b)."
	}
	return s + ". The board is implied by the from-square: uci and uci_boards are the same."
}

// Describe builds the description of w. It runs the network on the test
// positions (with model.FastEvaluator) to record the expected outputs.
func Describe(w *model.Weights, meta Metadata) (*Description, error) {
	if w == nil {
		return nil, fmt.Errorf("onnx: nil weights")
	}
	cfg := w.Config()
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("onnx: %w", err)
	}
	v := meta.Variant
	if v.Name == "" {
		v = env.Alice
	}
	if _, err := env.VariantByName(v.Name); err != nil {
		return nil, fmt.Errorf("onnx: %w", err)
	}
	C, P, V, H := cfg.Channels, cfg.PolicyChannels, cfg.ValueChannels, cfg.ValueHidden
	if err := cfg.Fits(v); err != nil {
		return nil, fmt.Errorf("onnx: %w", err)
	}
	layout := v.Policy()
	nIn, nPolicy := cfg.NumInputPlanes(), cfg.PolicySize()
	board := "every square of the 8×8 frame is a square of the boards"
	if v.Files() < 8 {
		board = fmt.Sprintf("the boards have files a–%c only, lying in files a–%c of the 8×8 frame (square index = rank*8 + file as everywhere): "+
			"every plane is 0 on the other files, and no policy index from or to them names a legal move", 'a'+v.Files()-1, 'a'+v.Files()-1)
	}
	if v.SharedSquares() {
		board += "; a square may hold men on several boards, and is then 1 on the piece planes of each"
	}
	pt := policyTexts(v, layout)
	d := &Description{
		Format:        FormatName,
		FormatVersion: FormatVersion,
		Producer:      "alicezero",
		Rules: Rules{
			Variant:       v.Name,
			EnPassant:     v.EnPassant,
			StartFEN:      v.StartFEN(),
			BoardFiles:    v.Files(),
			Boards:        v.Boards(),
			SharedSquares: v.SharedSquares(),
			Summary:       rulesSummary(v),
			FENConvention: fenConvention(v),
			UCINotation:   uciNotation(v),
		},
		ONNX: ONNXInfo{
			File: "model.onnx", Opset: Opset, IRVersion: IRVersion, MetadataKey: MetadataKey,
			Ops: []string{"Conv", "Relu", "Add", "GlobalAveragePool", "Flatten", "Gemm", "Softmax"},
		},
		Network: Network{
			Preset:     cfg.PresetName(),
			Config:     cfg,
			Parameters: cfg.NumParams(),
			BatchNorm:  false,
			BatchNormNote: "The network has no batch normalisation (see model/doc.go): every convolution carries its own bias, " +
				"so there is nothing to fold; the ONNX graph holds exactly the Go network's parameters.",
			Layers: []string{
				fmt.Sprintf("stem: Conv 3x3, %d→%d channels, pad 1, bias; Relu", nIn, C),
				fmt.Sprintf("%d residual blocks (res0, res1, ...): x → Relu(x + Conv3x3(Relu(Conv3x3(x)))), %d channels, pad 1, biases", cfg.Blocks, C),
				fmt.Sprintf("policy head: Conv 3x3 %d→%d, pad 1, bias; Relu; Conv 1x1 %d→%d (the policy planes), bias; Flatten (plane-major, index plane*64+square) → policy_logits", C, P, P, cfg.NumPolicyPlanes()),
				fmt.Sprintf("value head: Conv 1x1 %d→%d, bias; Relu; GlobalAveragePool; Flatten; Gemm %d→%d; Relu; Gemm %d→%d; Softmax(axis 1) → wdl", C, V, V, H, H, env.WDLSize),
			},
		},
		Input: Input{
			Name:   InputName,
			Shape:  []any{batchDim, nIn, 8, 8},
			DType:  "float32",
			Layout: "plane-major: planes[b][p][rank][file], flat index p*64 + rank*8 + file within a position",
			Squares: "square index = rank*8 + file with a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63, " +
				"in the side to move's frame (see perspective); " + board,
			Perspective: "always from the side to move's view: 'our' pieces are the mover's. When Black is to move the board is mirrored " +
				"top to bottom (square s becomes s XOR 56: a1↔a8, e2↔e7; files are kept) and the colours are swapped, so the mover always plays up the board; " +
				"the boards are not swapped (board A's planes are board A's). " +
				"The real colour is not an input: the rules are colour-symmetric, so it carries no information.",
			Planes: planeTable(v),
		},
		Outputs: []Output{
			{Name: PolicyName, Shape: []any{batchDim, nPolicy}, DType: "float32",
				Meaning: fmt.Sprintf("raw logits over all %d policy indices (see policy.planes and policy.moves), from the side to move's view. ", nPolicy) +
					"Not normalised and not masked: set the logits of illegal moves to -inf (or drop them), then softmax over the legal ones " +
					"(the network was trained with exactly that softmax, so the other logits mean nothing)."},
			{Name: WDLName, Shape: []any{batchDim, env.WDLSize}, DType: "float32",
				Meaning: "probabilities (already softmaxed, summing to 1) of win, draw, loss for the side to move, in that order; " +
					"expected score = win + draw/2, value in [-1,1] = win - loss"},
		},
		Policy: Policy{
			Size:           layout.Size(),
			LayoutName:     layout.Name(),
			Shape:          []int{layout.Planes(), layout.Height(), layout.Width()},
			MovementPlanes: layout.MovementPlanes(),
			FromBoards:     layout.FromBoards(),
			Choices:        layout.Choices(),
			Perspective:    pt.perspective,
			Promotions:     pt.promotions,
			Castling:       pt.castling,
			Layout:         pt.layout,
			Usage:          pt.usage,
			Planes:         policyPlanes(layout),
		},
		Source: Source{Checkpoint: meta.Checkpoint, Step: meta.Step, Meta: maps.Clone(meta.Meta)},
	}
	for i := 0; i < layout.Size(); i++ {
		u := layout.UCI(i)
		if u != "" {
			d.Policy.NamedIndices++
		}
		d.Policy.Moves = append(d.Policy.Moves, u)
	}
	d.Policy.Layout += fmt.Sprintf(" Indices whose move would leave the board name no move: their moves[] entry is \"\" (%d of the %d indices name moves).",
		d.Policy.NamedIndices, layout.Size())
	for _, p := range w.Params() {
		role := "weight"
		if !p.Decay {
			role = "bias"
		}
		d.Network.Initializers = append(d.Network.Initializers, TensorInfo{Name: p.Name, Shape: p.Shape, Role: role})
	}
	var err error
	if d.TestPositions, err = makeTestPositions(w, v); err != nil {
		return nil, err
	}
	return d, nil
}

// policyText is the prose of a policy description.
type policyText struct{ perspective, promotions, castling, layout, usage string }

// policyTexts describes the policy layout l of variant v.
func policyTexts(v env.Variant, l *env.PolicyLayout) policyText {
	m := l.MovementPlanes()
	var t policyText
	t.perspective = "moves[i] is index i written in UCI from White's view. When Black is to move, mirror both squares top to bottom " +
		"(rank r → 9-r, file kept; square s → s XOR 56): index of Black's e7e5 = index of 'e2e4'."
	if l.FromBoards() == 1 {
		t.perspective += " The board (A or B) is implied by the from-square."
	} else if l.Choices() == 1 {
		t.perspective += " The boards are not mirrored: the from-board prefix ('a:') names the real board, " +
			"whoever is to move (Black's b:e7e5 has the index of 'b:e2e4')."
	} else {
		t.perspective += " The boards are not mirrored: the from-board prefix ('a:') and the landing-board suffix ('/b') name the real boards, " +
			"whoever is to move (Black's b:e7e5/a has the index of 'b:e2e4/a')."
	}
	t.promotions = "a promotion to a queen is the pawn's plain queen-like move (index of 'e7e8' covers e7e8q); under-promotions to knight, bishop, rook " +
		"have their own movement planes 64–72 ('e7e8n', 'e7d8b', ...)"
	t.castling = "castling is the king's two-square move: e1g1 (king side, plane 'queen-like E 2'), e1c1 (queen side, 'queen-like W 2')"
	switch v {
	case env.AliceStone:
		t.castling += "; the king's board and landing board are those of the index's block, as for any move (a:e1g1/a stays on A)"
	case env.Alice3:
		t.castling += "; the landing board of king and rook is the one of the index's block (a:e1g1/c)"
	}
	t.layout = "AlphaZero's move-type planes. Movement planes 0–55: queen-like moves, direction*7 + distance-1, directions N, NE, E, SE, S, SW, W, NW " +
		"(N = up the board, towards the opponent), distance 1–7; 56–63: knight jumps (+1,+2), (+2,+1), (+2,-1), (+1,-2), (-1,-2), (-2,-1), (-2,+1), (-1,+2) as (files, ranks); " +
		"64–72: under-promotions, piece*3 + direction, pieces n, b, r, directions capture towards the a-file, straight, capture towards the h-file"
	if m > 73 {
		t.layout += "; 73: the null move (from = to)"
	}
	t.layout += "."
	switch {
	case l.FromBoards() == 1:
		t.layout = "index = plane*64 + from-square (a1 = 0 ... h8 = 63, from the side to move's view): " + t.layout
	case l.Choices() == 1:
		t.layout = fmt.Sprintf("index = (from_board*%d + movement)*64 + from-square (a1 = 0 ... h8 = 63, from the side to move's view), from_board 0, 1, ... for A, B, ...: "+
			"one block of %d movement planes per board the moving man stands on (policy.planes[].from_board); the landing board is left to the position. ", m, m) + t.layout
	default:
		t.layout = fmt.Sprintf("index = ((from_board*%d + choice)*%d + movement)*64 + from-square (a1 = 0 ... h8 = 63, from the side to move's view), from_board 0, 1, ... for A, B, ...: "+
			"per board the moving man stands on, one block of %d movement planes per landing choice (%s; %s), so the index fixes the landing board (policy.planes[].to_board). ",
			l.Choices(), m, m, "choice 0: "+l.ChoiceName(0), "choice 1: "+l.ChoiceName(1)) + t.layout
		if m > 73 {
			t.layout += " A null move that stays names no move."
		}
	}
	t.usage = "to pick a move: generate the legal moves, map each to its index (mirroring for Black), take those logits, softmax."
	switch {
	case l.FromBoards() > 1 && l.Choices() == 1:
		t.usage += " Write each move with its from-board prefix and no landing-board suffix (a:e2e4) before looking it up in moves[]."
	case l.FromBoards() > 1:
		t.usage += " Write each move with its from-board prefix and landing-board suffix (a:e2e4/b, test_positions' legal_moves[].uci_boards) before looking it up in moves[]."
	}
	return t
}

// makeTestPositions encodes the test positions and evaluates them with the
// Go network.
func makeTestPositions(w *model.Weights, v env.Variant) ([]TestPosition, error) {
	lines := testLines(v)
	n := len(lines)
	in, np := v.InputSize(), v.PolicySize()
	planes := make([]float32, n*in)
	out := make([]TestPosition, n)
	for i, tp := range lines {
		pos := env.NewPosition(v)
		for j, m := range tp.moves {
			mv, err := pos.ParseUCI(m)
			if err != nil {
				return nil, fmt.Errorf("onnx: test position %q: move %d %s: %w", tp.name, j+1, m, err)
			}
			pos.MakeMove(mv)
		}
		pl := planes[i*in : (i+1)*in]
		pos.Encode(pl)
		t := TestPosition{Name: tp.name, FEN: pos.FEN(), Moves: tp.moves, SideToMove: "white", Planes: pl}
		if pos.SideToMove() == env.Black {
			t.SideToMove = "black"
		}
		var ml env.MoveList
		pos.LegalMoves(&ml)
		for _, m := range ml.Slice() {
			t.LegalMoves = append(t.LegalMoves, LegalMove{UCI: pos.UCI(m), UCIBoards: m.UCI(), Index: pos.PolicyIndex(m)})
		}
		out[i] = t
	}
	policy := make([]float32, n*np)
	wdl := make([]float32, n*env.WDLSize)
	if err := Evaluate(w, planes, n, policy, wdl); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].PolicyLogits = policy[i*np : (i+1)*np]
		out[i].WDL = wdl[i*env.WDLSize : (i+1)*env.WDLSize]
	}
	return out, nil
}

// Evaluate runs the Go network (model.FastEvaluator, one worker) on n
// positions: the reference an exported model is compared with.
func Evaluate(w *model.Weights, planes []float32, n int, policy, wdl []float32) error {
	ev, err := model.NewFastEvaluator(w, model.FastOptions{Workers: 1})
	if err != nil {
		return fmt.Errorf("onnx: %w", err)
	}
	defer ev.Close()
	if err := ev.Evaluate(planes, n, policy, wdl); err != nil {
		return fmt.Errorf("onnx: evaluating test positions: %w", err)
	}
	return nil
}
