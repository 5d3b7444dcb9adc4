package onnx

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
)

// TestDescriptionPolicyRule checks the documented policy contract against
// the engine: for every legal move of every test position, the index
// recorded is the one found by writing the move from White's view (Black's
// squares mirrored top to bottom, a queen promotion as the plain move) and
// looking it up in policy.moves.
func TestDescriptionPolicyRule(t *testing.T) {
	d, err := Describe(testWeights(t, "tiny", 5), Metadata{Variant: env.AliceEP})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Policy.Moves) != env.PolicySize {
		t.Fatalf("%d policy moves", len(d.Policy.Moves))
	}
	if len(d.Policy.Planes) != env.PolicyPlanes || !slices.Equal(d.Policy.Shape, []int{env.PolicyPlanes, 8, 8}) {
		t.Fatalf("%d policy planes documented, shape %v", len(d.Policy.Planes), d.Policy.Shape)
	}
	layout := env.AliceEP.Policy()
	byUCI := map[string]int{}
	for i, m := range d.Policy.Moves {
		if m != layout.UCI(i) {
			t.Fatalf("moves[%d] = %q, want %q", i, m, layout.UCI(i))
		}
		if m == "" {
			continue
		}
		if _, dup := byUCI[m]; dup {
			t.Fatalf("move %q listed twice", m)
		}
		byUCI[m] = i
		// The documented plane of index i describes its move: from-square
		// i%64, displacement and promotion as policy.planes says.
		pl := d.Policy.Planes[i/64]
		from, to := m[0:2], m[2:4]
		if from != squareName(i%64) || int(to[0])-int(from[0]) != pl.Files || int(to[1])-int(from[1]) != pl.Ranks || m[4:] != pl.Promotion {
			t.Fatalf("index %d is %q, but plane %d documents (%+d,%+d) %q from %s", i, m, pl.Index, pl.Files, pl.Ranks, pl.Promotion, squareName(i%64))
		}
	}
	if len(byUCI) != 1858 {
		t.Fatalf("%d indices name moves, want 1858", len(byUCI))
	}
	mirror := func(sq string) string { return string(sq[0]) + string('1'+'8'-sq[1]) }
	blacks := 0
	for _, tp := range d.TestPositions {
		if len(tp.LegalMoves) == 0 {
			t.Fatalf("%s: no legal moves", tp.Name)
		}
		if tp.SideToMove == "black" {
			blacks++
		}
		for _, lm := range tp.LegalMoves {
			u := lm.UCI
			if tp.SideToMove == "black" {
				u = mirror(u[0:2]) + mirror(u[2:4]) + u[4:]
			}
			u = strings.TrimSuffix(u, "q")
			if i, ok := byUCI[u]; !ok || i != lm.Index {
				t.Errorf("%s: move %s → %q → index %d (found %v), recorded %d", tp.Name, lm.UCI, u, i, ok, lm.Index)
			}
		}
	}
	if blacks < 2 {
		t.Errorf("only %d Black-to-move test positions", blacks)
	}
	if d.Rules.Variant != "alice-ep" || !d.Rules.EnPassant {
		t.Errorf("rules %+v", d.Rules)
	}
	if len(d.Input.Planes) != env.NumPlanes {
		t.Errorf("%d planes documented", len(d.Input.Planes))
	}
	names := map[string]bool{}
	for i, p := range d.Input.Planes {
		if p.Index != i || p.Name == "" || names[p.Name] {
			t.Errorf("plane %d documented as %d, %q", i, p.Index, p.Name)
		}
		names[p.Name] = true
	}
	for plane, name := range map[int]string{
		env.PiecePlane(env.BoardB, false, env.Queen): "their_queens_B",
		env.AttackPlane(env.BoardA, true):            "our_attacks_A",
		env.PlaneOnes:                                "ones",
	} {
		if got := d.Input.Planes[plane].Name; got != name {
			t.Errorf("plane %d is documented as %q, want %q", plane, got, name)
		}
	}
}

// TestDescriptionOfMiniAndBlackB: the description of a network for
// alice-mini or alice-black-b names its variant, start and board width,
// carries test positions of its own (reached by legal moves of that
// variant, with the variant's planes: 0 off alice-mini's files a–d) and
// keeps the one policy table.
func TestDescriptionOfMiniAndBlackB(t *testing.T) {
	w := testWeights(t, "tiny", 5)
	for _, c := range []struct {
		v     env.Variant
		files int
	}{{env.AliceMini, 4}, {env.AliceBlackB, 8}} {
		d, err := Describe(w, Metadata{Variant: c.v})
		if err != nil {
			t.Fatalf("%s: %v", c.v.Name, err)
		}
		r := d.Rules
		if r.Variant != c.v.Name || r.EnPassant || r.StartFEN != c.v.StartFEN() || r.BoardFiles != c.files || !strings.Contains(r.Summary, c.v.Name) {
			t.Errorf("%s: rules %+v", c.v.Name, r)
		}
		if d.Policy.Size != env.PolicySize || len(d.Policy.Moves) != env.PolicySize || d.Policy.LayoutName != env.Alice.Policy().Name() {
			t.Errorf("%s: policy %s of %d", c.v.Name, d.Policy.LayoutName, d.Policy.Size)
		}
		if len(d.TestPositions) < 4 || d.TestPositions[0].FEN != c.v.StartFEN() {
			t.Fatalf("%s: test positions start from %q", c.v.Name, d.TestPositions[0].FEN)
		}
		for _, tp := range d.TestPositions {
			pos, err := env.ParseFEN(tp.FEN, c.v)
			if err != nil {
				t.Fatalf("%s: %s: %v", c.v.Name, tp.Name, err)
			}
			want := make([]float32, env.InputSize)
			pos.Encode(want)
			if !slices.Equal(want, tp.Planes) {
				t.Errorf("%s: %s: planes differ from the position's", c.v.Name, tp.Name)
			}
			for i, x := range tp.Planes {
				if i%8 >= c.files && x != 0 {
					t.Fatalf("%s: %s: plane %d is %v on file %c", c.v.Name, tp.Name, i/64, x, 'a'+i%8)
				}
			}
			var ml env.MoveList
			pos.LegalMoves(&ml)
			if len(tp.LegalMoves) != ml.N || ml.N == 0 {
				t.Fatalf("%s: %s: %d legal moves recorded, %d legal", c.v.Name, tp.Name, len(tp.LegalMoves), ml.N)
			}
			for _, lm := range tp.LegalMoves {
				m, err := pos.ParseUCI(lm.UCI)
				if err != nil || pos.PolicyIndex(m) != lm.Index {
					t.Fatalf("%s: %s: %s recorded at index %d: %v", c.v.Name, tp.Name, lm.UCI, lm.Index, err)
				}
			}
		}
	}
	if _, err := Describe(w, Metadata{Variant: env.Alice3}); err == nil || !strings.Contains(err.Error(), "variant alice-3 has 51 planes") {
		t.Errorf("an alice network described as alice-3's: %v", err)
	}
}

// TestDescriptionMatchesGraphEvaluator checks the recorded outputs against
// the gorgonia reference evaluator too.
func TestDescriptionMatchesGraphEvaluator(t *testing.T) {
	w := testWeights(t, "tiny", 9)
	d, err := Describe(w, Metadata{})
	if err != nil {
		t.Fatal(err)
	}
	ge, err := model.NewGraphEvaluator(w, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer ge.Close()
	for _, tp := range d.TestPositions {
		p := make([]float32, env.PolicySize)
		v := make([]float32, env.WDLSize)
		if err := ge.Evaluate(tp.Planes, 1, p, v); err != nil {
			t.Fatal(err)
		}
		if dp, dv := maxAbsDiff(p, tp.PolicyLogits), maxAbsDiff(v, tp.WDL); dp > 1e-5 || dv > 1e-5 {
			t.Errorf("%s: graph evaluator differs by %g (policy), %g (wdl)", tp.Name, dp, dv)
		}
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
