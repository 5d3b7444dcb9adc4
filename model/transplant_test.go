package model_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/builtin"
	"github.com/alicezero/alicezero/model/internal/modeltest"
)

// builtinAlice returns the built-in network, a trained alice network: its
// outputs mean something, so that equal outputs are not equal noise.
func builtinAlice(t *testing.T) *model.Weights {
	t.Helper()
	c, err := builtin.Checkpoint(env.Alice.Name)
	if err != nil {
		t.Fatal(err)
	}
	return c.Weights
}

// transplant copies alice's network src into a fresh network of v.
func transplant(t *testing.T, src *model.Weights, v env.Variant) (*model.Weights, model.CopyReport) {
	t.Helper()
	w, err := model.NewWeights(src.Config().ForVariant(v), 7)
	if err != nil {
		t.Fatal(err)
	}
	r, err := w.CopyFromVariant(src, env.Alice, v)
	if err != nil {
		t.Fatalf("%s: %v", v.Name, err)
	}
	return w, r
}

// What each variant takes from alice's network: the counts follow from
// the encodings (env/planes.go, env/policy.go), the groups name what is
// new.
func TestCopyFromVariantReports(t *testing.T) {
	src := builtinAlice(t)
	cases := []struct {
		v                  env.Variant
		inCopied, inPlanes int
		polCopied, planes  int
		say                []string
	}{
		{env.Alice, 37, 37, 73, 73, []string{"copied every parameter"}},
		{env.AliceEP, 36, 37, 73, 73, []string{"36 of 37 input planes", "zero-initialised 1 input plane (the en-passant square)"}},
		{env.AliceBlackB, 37, 37, 73, 73, []string{"copied every parameter (alice-black-b has the encoding of alice)"}},
		{env.AliceMini, 37, 37, 73, 73, []string{"copied every parameter (alice-mini has the encoding of alice)"}},
		{env.AliceNull, 37, 37, 73, 74, []string{"73 of 74 policy planes", "fresh 1 policy plane (null moves)"}},
		{env.AliceOptionalTransfer, 37, 37, 146, 146, []string{"146 of 146 policy planes"}},
		{env.AliceStone, 37, 37, 146, 296, []string{"fresh 150 policy planes (null moves, moves that stay on their board)"}},
		{env.Alice3, 37, 51, 146, 438, []string{"zero-initialised 14 input planes (board C's men, board C's attacks)",
			"fresh 292 policy planes (moves from board A to board C, moves from board B to board C, moves from board C to board A, moves from board C to board B)"}},
	}
	for _, tc := range cases {
		t.Run(tc.v.Name, func(t *testing.T) {
			w, r := transplant(t, src, tc.v)
			if r.InputCopied != tc.inCopied || r.InputPlanes != tc.inPlanes || r.PolicyCopied != tc.polCopied || r.PolicyPlanes != tc.planes {
				t.Errorf("copied %d of %d input planes and %d of %d policy planes, want %d of %d and %d of %d",
					r.InputCopied, r.InputPlanes, r.PolicyCopied, r.PolicyPlanes, tc.inCopied, tc.inPlanes, tc.polCopied, tc.planes)
			}
			for _, s := range tc.say {
				if !strings.Contains(r.String(), s) {
					t.Errorf("the report %q does not say %q", r, s)
				}
			}
			t.Logf("%s: %s", tc.v.Name, r)
			if tc.v == env.Alice && !w.Equal(src) {
				t.Error("alice into alice is not a plain copy")
			}
			// The planes said new are: the stem's filters of the input
			// planes zero, the policy head's rows of the others the
			// fresh network's.
			fresh, err := model.NewWeights(src.Config().ForVariant(tc.v), 7)
			if err != nil {
				t.Fatal(err)
			}
			if n := countRows(w.Param("stem.w"), 1, func(row []float32, _ int) bool { return allZero(row) }); n != r.InputPlanes-r.InputCopied {
				t.Errorf("%d input planes have zero filters, the report says %d", n, r.InputPlanes-r.InputCopied)
			}
			freshRows := countRows(w.Param("policy.logits.w"), 0, func(row []float32, i int) bool {
				return equalFloats(row, fresh.Param("policy.logits.w").Data[i*len(row):(i+1)*len(row)])
			})
			if freshRows != r.PolicyPlanes-r.PolicyCopied {
				t.Errorf("%d policy planes keep their fresh rows, the report says %d", freshRows, r.PolicyPlanes-r.PolicyCopied)
			}
			// What is not the encoding's is copied whole.
			for _, name := range []string{"res0.conv1.w", "res3.conv2.b", "policy.conv.w", "value.conv.w", "value.fc2.b", "stem.b"} {
				if got, want := w.Param(name).Data, src.Param(name).Data; !equalFloats(got, want) {
					t.Errorf("%s differs from alice's", name)
				}
			}
		})
	}
}

// countRows counts the slices of p along axis (0 or 1 of a convolution's
// [out, in, k, k]) for which f holds, given the slice's index.
func countRows(p *model.Param, axis int, f func([]float32, int) bool) int {
	n, rows := 0, p.Shape[axis]
	for i := range rows {
		var row []float32
		if axis == 0 {
			size := len(p.Data) / rows
			row = p.Data[i*size : (i+1)*size]
		} else {
			k := p.Shape[2] * p.Shape[3]
			for o := range p.Shape[0] {
				at := (o*rows + i) * k
				row = append(row, p.Data[at:at+k]...)
			}
		}
		if f(row, i) {
			n++
		}
	}
	return n
}

func allZero(x []float32) bool {
	for _, v := range x {
		if v != 0 {
			return false
		}
	}
	return true
}

func equalFloats(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// Another trunk or heads is refused with the differing fields, and a
// source that is not of the variant it is said to be with ErrEncoding.
func TestCopyFromVariantRefuses(t *testing.T) {
	src := builtinAlice(t) // small
	tiny, err := model.NewWeights(modeltest.MustPreset(t, "tiny").ForVariant(env.Alice3), 1)
	if err != nil {
		t.Fatal(err)
	}
	before := tiny.Clone()
	_, err = tiny.CopyFromVariant(src, env.Alice, env.Alice3)
	if !errors.Is(err, model.ErrArchMismatch) || !strings.Contains(err.Error(), "blocks 4 (file) vs 1 (net)") {
		t.Errorf("another architecture: %v", err)
	}
	if !tiny.Equal(before) {
		t.Error("a refused copy changed the destination")
	}
	dst, err := model.NewWeights(src.Config().ForVariant(env.Alice3), 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dst.CopyFromVariant(src, env.AliceNull, env.Alice3); !errors.Is(err, model.ErrEncoding) || !strings.Contains(err.Error(), "alice-null") {
		t.Errorf("a source said to be alice-null's: %v", err)
	}
	if _, err := dst.CopyFromVariant(src, env.Alice, env.AliceNull); !errors.Is(err, model.ErrEncoding) {
		t.Errorf("a destination said to be alice-null's: %v", err)
	}
}

// pairedGame plays a random game of alice and the same moves in v, a
// variant whose positions along it have nothing alice lacks (no move of
// the game is one alice does not have), and calls check on each pair of
// positions. allowed filters the moves drawn.
func pairedGame(t *testing.T, v env.Variant, plies int, seed uint64, allowed func(*env.Position, env.Move) bool, check func(a, b *env.Position)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	a, b := env.NewPosition(env.Alice), env.NewPosition(v)
	for range plies {
		check(a, b)
		var ml env.MoveList
		a.LegalMoves(&ml)
		var moves []env.Move
		for _, m := range ml.Slice() {
			if allowed(a, m) {
				moves = append(moves, m)
			}
		}
		if len(moves) == 0 {
			return
		}
		m := moves[rng.IntN(len(moves))]
		x, y := a.MoveBoards(m)
		n := findMove(b, m, x, y)
		if n == env.NoMove {
			t.Fatalf("%s after %d plies: alice's move %v (board %v to %v) is not one of %s's", a.FEN(), a.Ply(), m, x, y, v.Name)
		}
		b.MakeMove(n)
		a.MakeMove(m)
	}
}

// On positions of alice-ep without an en-passant square and of alice-3
// with board C empty, the network copied from alice's gives alice's
// value and alice's logits on every move both variants have.
func TestCopiedNetworkAgreesWhereTheVariantsDo(t *testing.T) {
	src := builtinAlice(t)
	ref, err := model.NewFastEvaluator(src, model.FastOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	noDoubleStep := func(p *env.Position, m env.Move) bool {
		pc, _ := p.PieceAt(m.From())
		d := m.To().Rank() - m.From().Rank()
		return pc.Kind() != env.Pawn || (d != 2 && d != -2)
	}
	anyMove := func(*env.Position, env.Move) bool { return true }
	for _, tc := range []struct {
		v       env.Variant
		allowed func(*env.Position, env.Move) bool
		extras  func(*env.Position) bool
	}{
		{env.AliceEP, noDoubleStep, func(p *env.Position) bool { return p.EnPassant() != env.NoSquare }},
		{env.Alice3, anyMove, func(p *env.Position) bool { return p.Occupied(env.BoardC) != 0 }},
	} {
		t.Run(tc.v.Name, func(t *testing.T) {
			w, _ := transplant(t, src, tc.v)
			ev, err := model.NewFastEvaluator(w, model.FastOptions{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer ev.Close()
			compared := 0
			for g := range uint64(3) {
				pairedGame(t, tc.v, 40, g, tc.allowed, func(a, b *env.Position) {
					if tc.extras(b) {
						t.Fatalf("%s: the game reached a position with %s's extras", b.FEN(), tc.v.Name)
					}
					pa, wa := evaluate(t, ref, env.Alice, a)
					pb, wb := evaluate(t, ev, tc.v, b)
					for i := range wa {
						if d := math.Abs(float64(wa[i] - wb[i])); d > 1e-4 {
							t.Fatalf("%s: WDL %v, alice's %v", b.FEN(), wb, wa)
						}
					}
					var ml env.MoveList
					a.LegalMoves(&ml)
					for _, m := range ml.Slice() {
						x, y := a.MoveBoards(m)
						n := findMove(b, m, x, y)
						ia, ib := a.PolicyIndex(m), b.PolicyIndex(n)
						if d := math.Abs(float64(pa[ia] - pb[ib])); d > 1e-3 {
							t.Fatalf("%s: the logit of %v is %g, alice's %g", b.FEN(), n, pb[ib], pa[ia])
						}
					}
					compared++
				})
			}
			if compared < 60 {
				t.Errorf("only %d positions compared", compared)
			}
		})
	}
}

// findMove returns b's legal move that is alice's m from board x to y.
func findMove(b *env.Position, m env.Move, x, y env.Board) env.Move {
	var ml env.MoveList
	b.LegalMoves(&ml)
	for _, n := range ml.Slice() {
		if bx, by := b.MoveBoards(n); n.From() == m.From() && n.To() == m.To() && n.Promotion() == m.Promotion() && bx == x && by == y {
			return n
		}
	}
	return env.NoMove
}

// evaluate runs ev, a network of variant v, on p: its policy logits and
// WDL.
func evaluate(t *testing.T, ev *model.FastEvaluator, v env.Variant, p *env.Position) (policy, wdl []float32) {
	t.Helper()
	planes := make([]float32, v.InputSize())
	p.Encode(planes)
	policy, wdl = make([]float32, v.PolicySize()), make([]float32, env.WDLSize)
	if err := ev.Evaluate(planes, 1, policy, wdl); err != nil {
		t.Fatal(err)
	}
	return policy, wdl
}

// The network copied into each variant plays it: a game of its most
// likely legal moves runs on the variant's encoding and policy layout,
// each move a legal one, the outputs finite.
func TestCopiedNetworkPlaysEachVariant(t *testing.T) {
	src := builtinAlice(t)
	for _, v := range env.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			w, _ := transplant(t, src, v)
			ev, err := model.NewFastEvaluator(w, model.FastOptions{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer ev.Close()
			p := env.NewPosition(v)
			mask := make([]float32, v.PolicySize())
			for ply := 0; ply < 12; ply++ {
				if p.LegalMask(mask) == 0 {
					break
				}
				pol, wdl := evaluate(t, ev, v, p)
				for _, x := range append(pol, wdl...) {
					if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
						t.Fatalf("%s: output %v", p.FEN(), x)
					}
				}
				best := -1
				for i, ok := range mask {
					if ok != 0 && (best < 0 || pol[i] > pol[best]) {
						best = i
					}
				}
				var ml env.MoveList
				p.LegalMoves(&ml)
				played := false
				for _, m := range ml.Slice() {
					if p.PolicyIndex(m) == best {
						p.MakeMove(m)
						played = true
						break
					}
				}
				if !played {
					t.Fatalf("%s: policy index %d is no legal move", p.FEN(), best)
				}
			}
		})
	}
}
