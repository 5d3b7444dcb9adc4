package console

import (
	"strings"
	"testing"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/enginetest"
	"github.com/alicezero/alicezero/env"
)

// fakeIn returns a fake engine playing variant v.
func fakeIn(t *testing.T, v env.Variant) *enginetest.Engine {
	t.Helper()
	e := enginetest.New()
	o := e.Options()
	o.Variant = v
	if err := e.SetOptions(o); err != nil {
		t.Fatal(err)
	}
	return e
}

// positionIn returns the position of variant v from fen ("" for the
// start) after moves (UCI).
func positionIn(t *testing.T, v env.Variant, fen string, moves ...string) *env.Position {
	t.Helper()
	if fen == "" {
		fen = v.StartFEN()
	}
	pos, err := env.ParseFEN(fen, v)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pos.PlayUCI(moves); err != nil {
		t.Fatal(err)
	}
	return pos
}

// drawn returns the lines printBoard draws for the position of variant v
// after moves from fen, from White's side in letters.
func drawn(t *testing.T, v env.Variant, fen string, moves ...string) []string {
	t.Helper()
	var out strings.Builder
	p := &session{e: fakeIn(t, v), pos: positionIn(t, v, fen, moves...), out: &out, user: env.White, ascii: true}
	p.printBoard()
	return strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
}

// row returns the drawn line of rank r.
func row(t *testing.T, lines []string, r int) string {
	t.Helper()
	return lines[2+8-r]
}

func TestDrawVariants(t *testing.T) {
	for _, tt := range []struct {
		name  string
		v     env.Variant
		fen   string
		moves []string
		rows  map[int]string // rank: its line
		names string         // the first line
		last  string         // the last line
	}{
		{"alice-3: three boards, the pawn on the board named", env.Alice3, "", []string{"e2e4/b", "d7d5/c"},
			map[int]string{
				7: "7  p  p  p [.] p  p  p  p       .  .  .  .  .  .  .  .       .  .  .  .  .  .  .  .  7",
				5: "5  .  .  .  .  .  .  .  .       .  .  .  .  .  .  .  .       .  .  . [p] .  .  .  .  5",
				4: "4  .  .  .  .  .  .  .  .       .  .  .  .  P  .  .  .       .  .  .  .  .  .  .  .  4",
			},
			"          Board A                      Board B                      Board C",
			"Last move: d7d5/c (board A to board C).  White to move."},
		{"alice-optional-transfer: a blocked rook stays beside the pawn", env.AliceOptionalTransfer, "4k3/8/8/8/|p7/8/8/R3K3 w - - 0 1", []string{"a1a4"},
			map[int]string{
				4: "4 [R] .  .  .  .  .  .  .       p  .  .  .  .  .  .  .  4",
				1: "1 [.] .  .  .  K  .  .  .       .  .  .  .  .  .  .  .  1",
			},
			"          Board A                      Board B",
			"Last move: a1a4 (stays on board A).  Black to move."},
		{"alice-stone: a queen stays on d4 of A, a knight on d4 of B", env.AliceStone, "4|k3/8/8/8/3|n4/8/8/3QK3 w - - 0 1", []string{"d1d4/a"},
			map[int]string{4: "4  .  .  . [Q] .  .  .  .       .  .  .  n  .  .  .  .  4"},
			"          Board A                      Board B",
			"Last move: d1d4/a (stays on board A).  Black to move."},
		{"alice-null: a null move on one square of both boards", env.AliceNull, "", []string{"e2e2"},
			map[int]string{2: "2  P  P  P  P [.] P  P  P       .  .  .  . [P] .  .  .  2"},
			"          Board A                      Board B",
			"Last move: e2e2 (a null move, board A to board B).  Black to move."},
		{"alice-mini: boards of 4 files", env.AliceMini, "", []string{"b3b4"},
			map[int]string{4: "4  .  .  .  .       . [P] .  .  4", 3: "3  P [.] P  P       .  .  .  .  3"},
			"    Board A          Board B",
			"Last move: b3b4 (board A to board B).  Black to move."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lines := drawn(t, tt.v, tt.fen, tt.moves...)
			if lines[0] != tt.names || lines[len(lines)-1] != tt.last {
				t.Errorf("got:\n%s", strings.Join(lines, "\n"))
			}
			for r, want := range tt.rows {
				if got := row(t, lines, r); got != want {
					t.Errorf("rank %d:\n%s\nwant\n%s", r, got, want)
				}
			}
		})
	}
}

// Moves are typed in each variant's notation, and the game says what the
// variant is.
func TestVariantMovesTyped(t *testing.T) {
	for _, tt := range []struct {
		v            env.Variant
		input, wants string
	}{
		{env.Alice3, "e2e4/c\n", "You play 1. e4/C"},
		{env.Alice3, "Nf3/B\n", "You play 1. Nf3/B"},
		{env.AliceStone, "e2e4/a\n", "You play 1. e4/A"},
		{env.AliceNull, "e2e2\n", "You play 1. e2/B"},
		{env.AliceMini, "b3b4\n", "You play 1. b4/B"},
	} {
		out := play(t, fakeIn(t, tt.v), tt.input+"quit\n", Options{User: env.White, ASCII: true})
		if !strings.Contains(out, tt.wants) || !strings.Contains(out, "AliceZero: Alice Chess, "+variantLine(tt.v)) {
			t.Errorf("%s %q: no %q in:\n%.1500s", tt.v.Name, tt.input, tt.wants, out)
		}
	}
}
