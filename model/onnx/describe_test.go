package onnx

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/training"
)

// variantWeights returns a tiny network with variant v's encoding
// (model.NewWeights of Config.ForVariant, with testWeightsCfg's biases).
func variantWeights(t testing.TB, v env.Variant, seed uint64) *model.Weights {
	t.Helper()
	cfg, err := model.Preset("tiny")
	if err != nil {
		t.Fatal(err)
	}
	return testWeightsCfg(t, cfg.ForVariant(v), seed)
}

// policyKey writes a legal move's full UCI (legal_moves[].uci_boards) the
// way policy.moves names its index, by the documented rule: both squares
// mirrored top to bottom when Black moves, a queen promotion as the plain
// move, the from-board prefix kept only where the layout has from-board
// blocks, the landing-board suffix only where it has landing choices.
func policyKey(full string, black bool, p Policy) string {
	prefix, suffix, u := "", "", full
	if len(u) > 2 && u[1] == ':' {
		prefix, u = u[:2], u[2:]
	}
	if n := len(u); n > 2 && u[n-2] == '/' {
		suffix, u = u[n-2:], u[:n-2]
	}
	mirror := func(sq string) string { return string(sq[0]) + string('1'+'8'-sq[1]) }
	if black {
		u = mirror(u[0:2]) + mirror(u[2:4]) + u[4:]
	}
	u = strings.TrimSuffix(u, "q")
	if p.FromBoards > 1 {
		u = prefix + u
	}
	if p.Choices > 1 {
		u += suffix
	}
	return u
}

// TestDescriptionOfEveryVariant checks the description of a network of
// each variant against env: the rules, the input plane table (each piece
// plane's name against the men of the test positions), the policy plane
// table and policy.moves (every index's text against its documented
// plane), the documented rule that maps a legal move to its index, the
// test positions (reached by legal moves, encoded as env encodes their
// FEN) and their recorded outputs (a fresh model.FastEvaluator).
func TestDescriptionOfEveryVariant(t *testing.T) {
	for _, v := range env.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			w := variantWeights(t, v, 5)
			d, err := Describe(w, Metadata{Variant: v})
			if err != nil {
				t.Fatal(err)
			}
			checkRules(t, v, d.Rules)
			pl := v.Planes()
			if !slices.Equal(d.Input.Shape, []any{batchDim, v.NumPlanes(), 8, 8}) || len(d.Input.Planes) != v.NumPlanes() {
				t.Fatalf("input shape %v, %d planes documented", d.Input.Shape, len(d.Input.Planes))
			}
			names := map[string]bool{}
			for i, p := range d.Input.Planes {
				if p.Index != i || p.Name == "" || p.Meaning == "" || names[p.Name] {
					t.Errorf("plane %d documented as %d, %q", i, p.Index, p.Name)
				}
				names[p.Name] = true
			}
			want := map[int]string{pl.Ones(): "ones", pl.EnPassant(): "en_passant", pl.Halfmove(): "halfmove_clock", pl.Castling(): "our_castle_kingside"}
			for b := 0; b < v.Boards(); b++ {
				want[pl.Piece(env.Board(b), false, env.Queen)] = "their_queens_" + env.Board(b).String()
				want[pl.Attack(env.Board(b), true)] = "our_attacks_" + env.Board(b).String()
			}
			for plane, name := range want {
				if got := d.Input.Planes[plane].Name; got != name {
					t.Errorf("plane %d is documented as %q, want %q", plane, got, name)
				}
			}
			if !slices.Equal(d.Outputs[0].Shape, []any{batchDim, v.PolicySize()}) || !slices.Equal(d.Outputs[1].Shape, []any{batchDim, env.WDLSize}) {
				t.Errorf("output shapes %v, %v", d.Outputs[0].Shape, d.Outputs[1].Shape)
			}
			checkPolicyTable(t, v, d.Policy)
			checkTestPositions(t, v, w, d)
		})
	}
}

func checkRules(t *testing.T, v env.Variant, r Rules) {
	t.Helper()
	if r.Variant != v.Name || r.EnPassant != v.EnPassant || r.StartFEN != v.StartFEN() || r.BoardFiles != v.Files() ||
		r.Boards != v.Boards() || r.SharedSquares != v.SharedSquares() || !strings.Contains(r.Summary, v.Name) ||
		!strings.Contains(r.FENConvention, v.StartFEN()) || r.UCINotation == "" {
		t.Errorf("rules %+v", r)
	}
	if v.SharedSquares() != strings.Contains(r.FENConvention, "bracket group") || (v.Boards() == 3) != strings.Contains(r.FENConvention, "'||'") {
		t.Errorf("FEN convention %q", r.FENConvention)
	}
	for _, c := range []struct {
		v    env.Variant
		says string
	}{
		{env.AliceNull, "from = to"}, {env.AliceStone, "from = to"}, {env.AliceStone, "e2e4/a"},
		{env.AliceOptionalTransfer, "a:d1d5"}, {env.Alice3, "e2e4/c"}, {env.Alice3, "a:d1d5/b"},
	} {
		if c.v == v && !strings.Contains(r.UCINotation, c.says) {
			t.Errorf("UCI notation %q does not say %q", r.UCINotation, c.says)
		}
	}
}

// checkPolicyTable checks the policy plane table and policy.moves against
// the variant's layout, and every named index's text against its plane.
func checkPolicyTable(t *testing.T, v env.Variant, p Policy) {
	t.Helper()
	l := v.Policy()
	if p.Size != l.Size() || p.LayoutName != l.Name() || !slices.Equal(p.Shape, []int{l.Planes(), 8, 8}) || len(p.Planes) != l.Planes() ||
		len(p.Moves) != l.Size() || p.MovementPlanes != l.MovementPlanes() || p.FromBoards != l.FromBoards() || p.Choices != l.Choices() ||
		p.FromBoards*p.Choices*p.MovementPlanes != l.Planes() {
		t.Fatalf("policy %s of %d, shape %v, %d planes, %d moves, blocks %d×%d×%d", p.LayoutName, p.Size, p.Shape, len(p.Planes), len(p.Moves),
			p.FromBoards, p.Choices, p.MovementPlanes)
	}
	for i, pp := range p.Planes {
		if pp.Index != i || pp.Movement != i%p.MovementPlanes || pp.Meaning == "" ||
			(pp.FromBoard != "") != (p.FromBoards > 1) || (pp.Choice != nil) != (p.Choices > 1) || pp.Choice != nil && pp.ChoiceMeaning == "" {
			t.Fatalf("plane %d documented as %+v", i, pp)
		}
	}
	seen := map[string]bool{}
	named := 0
	for i, m := range p.Moves {
		if m != l.UCI(i) {
			t.Fatalf("moves[%d] = %q, want %q", i, m, l.UCI(i))
		}
		if m == "" {
			continue
		}
		named++
		if seen[m] {
			t.Fatalf("move %q listed twice", m)
		}
		seen[m] = true
		// The documented plane of index i describes its text: from-square
		// i%64, displacement, promotion, null move, boards.
		pp := p.Planes[i/64]
		prefix, u, suffix := "", m, ""
		if pp.FromBoard != "" {
			prefix, u = u[:2], u[2:]
		}
		if pp.ToBoard != "" {
			u, suffix = u[:len(u)-2], u[len(u)-2:]
		}
		from, to := u[0:2], u[2:4]
		if prefix != strings.ToLower(pp.FromBoard)+map[bool]string{true: ":"}[pp.FromBoard != ""] ||
			suffix != map[bool]string{true: "/"}[pp.ToBoard != ""]+strings.ToLower(pp.ToBoard) ||
			from != squareName(i%64) || int(to[0])-int(from[0]) != pp.Files || int(to[1])-int(from[1]) != pp.Ranks ||
			u[4:] != pp.Promotion || pp.Null != (from == to) {
			t.Fatalf("index %d is %q, but plane %d documents %+v from %s", i, m, pp.Index, pp, squareName(i%64))
		}
	}
	if named != p.NamedIndices || !strings.Contains(p.Layout, fmt.Sprintf("(%d of the %d indices name moves)", named, l.Size())) {
		t.Errorf("%d indices name moves, documented %d: %s", named, p.NamedIndices, p.Layout)
	}
	if v == env.Alice && named != 1858 {
		t.Errorf("%d indices of alice name moves, want 1858", named)
	}
}

// checkTestPositions checks the test positions of a description of
// variant v made with weights w.
func checkTestPositions(t *testing.T, v env.Variant, w *model.Weights, d *Description) {
	t.Helper()
	if len(d.TestPositions) < 4 || d.TestPositions[0].FEN != v.StartFEN() {
		t.Fatalf("%d test positions, the first %q", len(d.TestPositions), d.TestPositions[0].FEN)
	}
	ev, err := model.NewFastEvaluator(w, model.FastOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	pl := v.Planes()
	blacks := 0
	for _, tp := range d.TestPositions {
		pos, err := env.ParseFEN(tp.FEN, v)
		if err != nil {
			t.Fatalf("%s: %v", tp.Name, err)
		}
		black := pos.SideToMove() == env.Black
		if black {
			blacks++
		}
		if tp.SideToMove != map[bool]string{true: "black", false: "white"}[black] {
			t.Errorf("%s: side to move %q", tp.Name, tp.SideToMove)
		}
		planes := make([]float32, v.InputSize())
		pos.Encode(planes)
		if !slices.Equal(planes, tp.Planes) {
			t.Errorf("%s: planes differ from the position's", tp.Name)
		}
		for i, x := range tp.Planes {
			if i%8 >= v.Files() && x != 0 {
				t.Fatalf("%s: plane %d is %v on file %c", tp.Name, i/64, x, 'a'+i%8)
			}
		}
		// Each piece plane, by its documented name, holds the men of the
		// position (in the side to move's frame).
		for _, p := range d.Input.Planes[:12*pl.Boards()] {
			f := strings.Split(p.Name, "_")
			side, kind, board := f[0], slices.Index(pieceNames[:], f[1]), env.Board(f[2][0]-'A')
			for sq := 0; sq < 64; sq++ {
				real := sq
				if black {
					real ^= 56
				}
				pc := pos.PieceOn(env.Square(real), board)
				has := pc != env.NoPiece && int(pc.Kind()) == kind && (pc.Colour() == pos.SideToMove()) == (side == "our")
				if has != (tp.Planes[p.Index*64+sq] == 1) {
					t.Fatalf("%s: plane %s on square %s is %v", tp.Name, p.Name, squareName(sq), tp.Planes[p.Index*64+sq])
				}
			}
		}
		// The legal moves, their indices and the documented rule.
		var ml env.MoveList
		pos.LegalMoves(&ml)
		if len(tp.LegalMoves) != ml.N || ml.N == 0 {
			t.Fatalf("%s: %d legal moves recorded, %d legal", tp.Name, len(tp.LegalMoves), ml.N)
		}
		indices := map[int]bool{}
		for _, lm := range tp.LegalMoves {
			for _, u := range []string{lm.UCI, lm.UCIBoards} {
				m, err := pos.ParseUCI(u)
				if err != nil || pos.PolicyIndex(m) != lm.Index || pos.UCI(m) != lm.UCI || m.UCI() != lm.UCIBoards {
					t.Fatalf("%s: %s (%s) recorded at index %d: %v", tp.Name, lm.UCI, lm.UCIBoards, lm.Index, err)
				}
			}
			if indices[lm.Index] {
				t.Fatalf("%s: two legal moves at index %d", tp.Name, lm.Index)
			}
			indices[lm.Index] = true
			if k := policyKey(lm.UCIBoards, black, d.Policy); d.Policy.Moves[lm.Index] != k {
				t.Errorf("%s: move %s → %q by the documented rule, but index %d is %q", tp.Name, lm.UCIBoards, k, lm.Index, d.Policy.Moves[lm.Index])
			}
		}
		// The recorded outputs are the Go network's.
		p := make([]float32, v.PolicySize())
		wdl := make([]float32, env.WDLSize)
		if err := ev.Evaluate(planes, 1, p, wdl); err != nil {
			t.Fatal(err)
		}
		if len(tp.PolicyLogits) != len(p) || len(tp.WDL) != len(wdl) {
			t.Fatalf("%s: %d logits, %d wdl recorded", tp.Name, len(tp.PolicyLogits), len(tp.WDL))
		}
		if dp, dv := maxAbsDiff(p, tp.PolicyLogits), maxAbsDiff(wdl, tp.WDL); dp > 1e-5 || dv > 1e-5 {
			t.Errorf("%s: recorded outputs differ from the fast evaluator's by %g (policy), %g (wdl)", tp.Name, dp, dv)
		}
	}
	if blacks < 2 {
		t.Errorf("only %d Black-to-move test positions", blacks)
	}
}

// TestEveryPolicyIndexIsPlayable: for each policy layout, every index that
// policy.moves names is a legal move of a real position — the man it moves
// on its board, the two kings, for a capturing under-promotion a man to
// take — for White as written and for Black mirrored, and env maps the
// move back to the index.
func TestEveryPolicyIndexIsPlayable(t *testing.T) {
	done := map[string]bool{}
	for _, v := range env.Variants() {
		l := v.Policy()
		if done[l.Name()] || v.Files() < 8 {
			continue // alice-mini shares alice's layout
		}
		done[l.Name()] = true
		t.Run(l.Name(), func(t *testing.T) {
			d, err := Describe(variantWeights(t, v, 2), Metadata{Variant: v})
			if err != nil {
				t.Fatal(err)
			}
			for i, u := range d.Policy.Moves {
				if u == "" {
					continue
				}
				pp := d.Policy.Planes[i/64]
				for _, black := range []bool{false, true} {
					if !playable(v, i, u, pp, black) {
						t.Fatalf("index %d (%s, %s) is no legal move of any position tried, black %v", i, u, pp.Meaning, black)
					}
				}
			}
		})
	}
}

// playable reports whether index i, named u, is a legal move with index i
// of some position of v with just the moving man, the kings and a victim.
func playable(v env.Variant, i int, u string, pp PolicyPlane, black bool) bool {
	text := u
	if len(text) > 2 && text[1] == ':' {
		text = text[2:]
	}
	if n := len(text); n > 2 && text[n-2] == '/' {
		text = text[:n-2]
	}
	from, to := text[0:2], text[2:4]
	fromBoard := 0
	if pp.FromBoard != "" {
		fromBoard = int(pp.FromBoard[0] - 'A')
	}
	mover := byte('Q')
	switch {
	case pp.Promotion != "":
		mover = 'P'
	case pp.Files != 0 && pp.Ranks != 0 && pp.Files != pp.Ranks && pp.Files != -pp.Ranks:
		mover = 'N'
	}
	sq := func(s string) int { return int(s[1]-'1')*8 + int(s[0]-'a') }
	move := u
	if black {
		mirror := func(s string) string { return string(s[0]) + string('1'+'8'-s[1]) }
		move = strings.Replace(u, from+to, mirror(from)+mirror(to), 1)
	}
	for wk := 0; wk < 64; wk++ {
		for bk := 0; bk < 64; bk++ {
			if wk == bk || wk == sq(from) || wk == sq(to) || bk == sq(from) || bk == sq(to) {
				continue
			}
			men := map[int]string{wk: "K", bk: "k"}
			men[sq(from)] = strings.Repeat("|", fromBoard) + string(mover)
			if pp.Promotion != "" && pp.Files != 0 {
				men[sq(to)] = strings.Repeat("|", fromBoard) + "n"
			}
			fen := boardFEN(men, black)
			pos, err := env.ParseFEN(fen, v)
			if err != nil {
				continue
			}
			m, err := pos.ParseUCI(move)
			if err != nil {
				continue
			}
			return pos.PolicyIndex(m) == i
		}
	}
	return false
}

// boardFEN writes a FEN of the men (square → board prefix and White's
// letter), colours swapped and mirrored top to bottom with Black to move
// if black.
func boardFEN(men map[int]string, black bool) string {
	var sb strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			sq := rank*8 + file
			if black {
				sq ^= 56
			}
			m, ok := men[sq]
			if !ok {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			if black {
				c := m[len(m)-1]
				if c >= 'a' {
					c -= 'a' - 'A'
				} else {
					c += 'a' - 'A'
				}
				m = m[:len(m)-1] + string(c)
			}
			sb.WriteString(m)
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			sb.WriteByte('/')
		}
	}
	if black {
		return sb.String() + " b - - 0 1"
	}
	return sb.String() + " w - - 0 1"
}

// TestDescriptionRefusesOtherEncodings: a network is described only for
// the variants whose encoding it has; an alice network for alice-3 fails
// with model.ErrEncoding and says why.
func TestDescriptionRefusesOtherEncodings(t *testing.T) {
	for _, u := range env.Variants() {
		w := variantWeights(t, u, 1)
		for _, v := range env.Variants() {
			_, err := Export(w, Metadata{Variant: v})
			fits := u.NumPlanes() == v.NumPlanes() && u.Policy() == v.Policy()
			if fits != (err == nil) || err != nil && (!errors.Is(err, model.ErrEncoding) || !strings.Contains(err.Error(), "variant "+v.Name)) {
				t.Errorf("a network of %s exported for %s: %v", u.Name, v.Name, err)
			}
		}
	}
	_, err := Describe(variantWeights(t, env.Alice, 1), Metadata{Variant: env.Alice3})
	if err == nil || !strings.Contains(err.Error(), "the network reads 37 input planes and emits policy layout move-planes-73x8x8; variant alice-3 has 51 planes and layout move-planes-3x2x73x8x8") {
		t.Errorf("an alice network described as alice-3's: %v", err)
	}
}

// TestDescriptionMatchesGraphEvaluator checks the recorded outputs against
// the gorgonia reference evaluator too, for the alice layout and the two
// largest.
func TestDescriptionMatchesGraphEvaluator(t *testing.T) {
	for _, v := range []env.Variant{env.Alice, env.AliceStone, env.Alice3} {
		w := variantWeights(t, v, 9)
		d, err := Describe(w, Metadata{Variant: v})
		if err != nil {
			t.Fatal(err)
		}
		ge, err := training.NewGraphEvaluator(w, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, tp := range d.TestPositions {
			p := make([]float32, v.PolicySize())
			wdl := make([]float32, env.WDLSize)
			if err := ge.Evaluate(tp.Planes, 1, p, wdl); err != nil {
				t.Fatal(err)
			}
			if dp, dv := maxAbsDiff(p, tp.PolicyLogits), maxAbsDiff(wdl, tp.WDL); dp > 1e-5 || dv > 1e-5 {
				t.Errorf("%s: %s: graph evaluator differs by %g (policy), %g (wdl)", v.Name, tp.Name, dp, dv)
			}
		}
		ge.Close()
	}
}

func TestExportErrors(t *testing.T) {
	if _, err := Export(nil, Metadata{}); err == nil {
		t.Error("nil weights exported")
	}
	if _, err := EncodeModel(nil, nil); err == nil {
		t.Error("nil weights encoded")
	}
	if _, err := Export(testWeights(t, "tiny", 1), Metadata{Variant: env.Variant{Name: "crazy"}}); err == nil {
		t.Error("unknown variant accepted")
	}
}

func TestWriteDir(t *testing.T) {
	m, err := Export(testWeights(t, "tiny", 1), Metadata{Variant: env.Alice})
	if err != nil {
		t.Fatal(err)
	}
	var d Description
	if err := json.Unmarshal(m.JSON, &d); err != nil {
		t.Fatal(err)
	}
	if d.Format != FormatName || d.FormatVersion != FormatVersion || d.Network.BatchNorm {
		t.Fatalf("description header %q %d batch_norm %v", d.Format, d.FormatVersion, d.Network.BatchNorm)
	}
	dir := t.TempDir() + "/a/b"
	if err := m.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	// Writing again replaces the files.
	if err := m.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
}

func squareName(sq int) string { return string([]byte{byte('a' + sq%8), byte('1' + sq/8)}) }
