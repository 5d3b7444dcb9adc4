package onnx

import (
	"fmt"
	"maps"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
)

// FormatName and FormatVersion identify the model.json format. The version
// changes whenever a key changes meaning or disappears. Version 2: the
// policy is 73 move-type planes × 64 squares (policy.planes, policy.moves
// with "" for indices naming no move), the input has 37 planes (attack
// planes in, the colour plane out).
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
	StartFEN      string `json:"start_fen"`
	BoardFiles    int    `json:"board_files"`
	Summary       string `json:"summary"`
	FENConvention string `json:"fen_convention"`
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

// Policy is the policy index ↔ move table.
type Policy struct {
	Size        int           `json:"size"`
	LayoutName  string        `json:"layout_name"`
	Shape       []int         `json:"shape"`
	Perspective string        `json:"perspective"`
	Promotions  string        `json:"promotions"`
	Castling    string        `json:"castling"`
	Layout      string        `json:"layout"`
	Usage       string        `json:"usage"`
	Planes      []PolicyPlane `json:"planes"`
	Moves       []string      `json:"moves"`
}

// PolicyPlane is one move-type plane of the policy: the displacement of
// its moves (files right, ranks up, from the side to move's view) and the
// under-promotion piece, if any.
type PolicyPlane struct {
	Index     int    `json:"index"`
	Meaning   string `json:"meaning"`
	Files     int    `json:"files"`
	Ranks     int    `json:"ranks"`
	Promotion string `json:"promotion,omitempty"`
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
// index (from the side to move's view).
type LegalMove struct {
	UCI   string `json:"uci"`
	Index int    `json:"index"`
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

// variantTestPositions are the test positions of the variants that do not
// start as alice does.
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

// planeTable lists the input planes (the layout of env/planes.go), in
// index order.
func planeTable() []Plane {
	ps := make([]Plane, env.NumPlanes)
	set := func(i int, name, meaning string) { ps[i] = Plane{Index: i, Name: name, Meaning: meaning} }
	for _, board := range [2]env.Board{env.BoardA, env.BoardB} {
		for _, ours := range [2]bool{true, false} {
			side := map[bool]string{true: "our", false: "their"}[ours]
			for k, kind := range pieceNames {
				set(env.PiecePlane(board, ours, env.Kind(k)), fmt.Sprintf("%s_%s_%s", side, kind, board),
					fmt.Sprintf("1 on each square holding %s %s on board %s, else 0", side, kind, board))
			}
			set(env.AttackPlane(board, ours), fmt.Sprintf("%s_attacks_%s", side, board),
				fmt.Sprintf("1 on each square of board %s attacked by %s pieces standing on board %s (in the ordinary chess sense on that board: "+
					"pawns diagonally forward, sliders stopped by the first man of that board; whatever stands on the square), else 0", board, side, board))
		}
	}
	// "On the board": every square, or files a–d in alice-mini (input.squares).
	set(env.PlaneRepetitions, "repeated_once", "1 on the board if this position occurred at least once before in the game (0 when encoding a FEN without history)")
	set(env.PlaneRepetitions+1, "repeated_twice", "1 on the board if this position occurred at least twice before")
	set(env.PlaneCastling, "our_castle_kingside", "1 on the board if the side to move may still castle king side")
	set(env.PlaneCastling+1, "our_castle_queenside", "1 on the board if the side to move may still castle queen side")
	set(env.PlaneCastling+2, "their_castle_kingside", "1 on the board if the opponent may still castle king side")
	set(env.PlaneCastling+3, "their_castle_queenside", "1 on the board if the opponent may still castle queen side")
	set(env.PlaneHalfmove, "halfmove_clock", "min(halfmove clock, 100) / 100 on the board")
	set(env.PlaneEnPassant, "en_passant", "1 on the en-passant target square (variant alice-ep only; always 0 in the others), else 0")
	set(env.PlaneOnes, "ones", "1 on the board (lets the convolutions see the board's edge)")
	return ps
}

// policyPlanes lists the policy's move-type planes.
func policyPlanes(l *env.PolicyLayout) []PolicyPlane {
	ps := make([]PolicyPlane, l.Planes())
	for i := range ps {
		t := l.MoveType(i)
		ps[i] = PolicyPlane{Index: i, Meaning: t.String(), Files: t.Files, Ranks: t.Ranks}
		if t.Promotion != env.NoKind {
			ps[i].Promotion = string(t.Promotion.Letter())
		}
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
	}
	return s + "The game starts with the normal army on board A and board B empty. Variant " + v.Name + " has no en-passant captures."
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
	board := "every square of the 8×8 frame is a square of the boards"
	if v.Files() < 8 {
		board = fmt.Sprintf("the boards have files a–%c only, lying in files a–%c of the 8×8 frame (square index = rank*8 + file as everywhere): "+
			"every plane is 0 on the other files, and no policy index from or to them names a legal move", 'a'+v.Files()-1, 'a'+v.Files()-1)
	}
	d := &Description{
		Format:        FormatName,
		FormatVersion: FormatVersion,
		Producer:      "alicezero",
		Rules: Rules{
			Variant:    v.Name,
			EnPassant:  v.EnPassant,
			StartFEN:   v.StartFEN(),
			BoardFiles: v.Files(),
			Summary:    rulesSummary(v),
			FENConvention: "ordinary FEN in which a piece standing on board B is prefixed with '|', e.g. " + env.StartFEN + " (all men on board A)" +
				map[bool]string{true: "; this variant starts from " + v.StartFEN(), false: ""}[v.StartFEN() != env.StartFEN],
		},
		ONNX: ONNXInfo{
			File: "model.onnx", Opset: Opset, IRVersion: IRVersion, MetadataKey: MetadataKey,
			Ops: []string{"Conv", "Relu", "Add", "Flatten", "Gemm", "Softmax"},
		},
		Network: Network{
			Preset:     cfg.PresetName(),
			Config:     cfg,
			Parameters: cfg.NumParams(),
			BatchNorm:  false,
			BatchNormNote: "The network has no batch normalisation (see model/doc.go): every convolution carries its own bias, " +
				"so there is nothing to fold; the ONNX graph holds exactly the Go network's parameters.",
			Layers: []string{
				fmt.Sprintf("stem: Conv 3x3, %d→%d channels, pad 1, bias; Relu", env.NumPlanes, C),
				fmt.Sprintf("%d residual blocks (res0, res1, ...): x → Relu(x + Conv3x3(Relu(Conv3x3(x)))), %d channels, pad 1, biases", cfg.Blocks, C),
				fmt.Sprintf("policy head: Conv 3x3 %d→%d, pad 1, bias; Relu; Conv 1x1 %d→%d (the move-type planes), bias; Flatten (plane-major, index plane*64+square) → policy_logits", C, P, P, env.PolicyPlanes),
				fmt.Sprintf("value head: Conv 1x1 %d→%d, bias; Relu; Flatten (channel-major); Gemm %d→%d; Relu; Gemm %d→%d; Softmax(axis 1) → wdl", C, V, V*env.PlaneSize, H, H, env.WDLSize),
			},
		},
		Input: Input{
			Name:   InputName,
			Shape:  []any{batchDim, env.NumPlanes, 8, 8},
			DType:  "float32",
			Layout: "plane-major: planes[b][p][rank][file], flat index p*64 + rank*8 + file within a position",
			Squares: "square index = rank*8 + file with a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63, " +
				"in the side to move's frame (see perspective); " + board,
			Perspective: "always from the side to move's view: 'our' pieces are the mover's. When Black is to move the board is mirrored " +
				"top to bottom (square s becomes s XOR 56: a1↔a8, e2↔e7; files are kept) and the colours are swapped, so the mover always plays up the board. " +
				"The real colour is not an input: the rules are colour-symmetric, so it carries no information.",
			Planes: planeTable(),
		},
		Outputs: []Output{
			{Name: PolicyName, Shape: []any{batchDim, env.PolicySize}, DType: "float32",
				Meaning: fmt.Sprintf("raw logits over all %d policy indices (see policy.planes and policy.moves), from the side to move's view. ", env.PolicySize) +
					"Not normalised and not masked: set the logits of illegal moves to -inf (or drop them), then softmax over the legal ones " +
					"(the network was trained with exactly that softmax, so the other logits mean nothing)."},
			{Name: WDLName, Shape: []any{batchDim, env.WDLSize}, DType: "float32",
				Meaning: "probabilities (already softmaxed, summing to 1) of win, draw, loss for the side to move, in that order; " +
					"expected score = win + draw/2, value in [-1,1] = win - loss"},
		},
		Policy: Policy{
			Size:       env.PolicySize,
			LayoutName: layout.Name(),
			Shape:      []int{layout.Planes(), layout.Height(), layout.Width()},
			Perspective: "moves[i] is index i written in UCI from White's view. When Black is to move, mirror both squares top to bottom " +
				"(rank r → 9-r, file kept; square s → s XOR 56): index of Black's e7e5 = index of 'e2e4'. The board (A or B) is implied by the from-square.",
			Promotions: "a promotion to a queen is the pawn's plain queen-like move (index of 'e7e8' covers e7e8q); under-promotions to knight, bishop, rook " +
				"have their own planes 64–72 ('e7e8n', 'e7d8b', ...)",
			Castling: "castling is the king's two-square move: e1g1 (king side, plane 'queen-like E 2'), e1c1 (queen side, 'queen-like W 2')",
			Layout: "index = plane*64 + from-square (a1 = 0 ... h8 = 63, from the side to move's view): AlphaZero's move-type planes. " +
				"Planes 0–55: queen-like moves, direction*7 + distance-1, directions N, NE, E, SE, S, SW, W, NW (N = up the board, towards the opponent), distance 1–7; " +
				"56–63: knight jumps (+1,+2), (+2,+1), (+2,-1), (+1,-2), (-1,-2), (-2,-1), (-2,+1), (-1,+2) as (files, ranks); " +
				"64–72: under-promotions, piece*3 + direction, pieces n, b, r, directions capture towards the a-file, straight, capture towards the h-file. " +
				"Indices whose move would leave the board name no move: their moves[] entry is \"\" (1858 of the indices name moves).",
			Usage:  "to pick a move: generate the legal moves, map each to its index (mirroring for Black), take those logits, softmax",
			Planes: policyPlanes(layout),
		},
		Source: Source{Checkpoint: meta.Checkpoint, Step: meta.Step, Meta: maps.Clone(meta.Meta)},
	}
	for i := 0; i < env.PolicySize; i++ {
		d.Policy.Moves = append(d.Policy.Moves, layout.UCI(i))
	}
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

// makeTestPositions encodes the test positions and evaluates them with the
// Go network.
func makeTestPositions(w *model.Weights, v env.Variant) ([]TestPosition, error) {
	lines := testLines(v)
	n := len(lines)
	planes := make([]float32, n*env.InputSize)
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
		pl := planes[i*env.InputSize : (i+1)*env.InputSize]
		pos.Encode(pl)
		t := TestPosition{Name: tp.name, FEN: pos.FEN(), Moves: tp.moves, SideToMove: "white", Planes: pl}
		if pos.SideToMove() == env.Black {
			t.SideToMove = "black"
		}
		var ml env.MoveList
		pos.LegalMoves(&ml)
		for _, m := range ml.Slice() {
			t.LegalMoves = append(t.LegalMoves, LegalMove{UCI: m.UCI(), Index: pos.PolicyIndex(m)})
		}
		out[i] = t
	}
	policy := make([]float32, n*env.PolicySize)
	wdl := make([]float32, n*env.WDLSize)
	if err := Evaluate(w, planes, n, policy, wdl); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].PolicyLogits = policy[i*env.PolicySize : (i+1)*env.PolicySize]
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
