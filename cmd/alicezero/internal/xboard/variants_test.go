package xboard

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/board16"
	"github.com/alicezero/alicezero/cmd/alicezero/internal/enginetest"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
)

// Every variant XBoard can show is set up on "variant NAME"; alice-3 and
// unknown names are refused, and the engine stays in its variant.
func TestVariantSetups(t *testing.T) {
	want := map[string]string{
		"alice":                   "16x8+0_fairy rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1",
		"alice-ep":                "16x8+0_fairy rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1",
		"alice-black-b":           "16x8+0_fairy 8rnbqkbnr/8pppppppp/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1",
		"alice-null":              "16x8+0_fairy rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1",
		"alice-optional-transfer": "16x8+0_fairy rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1",
		"alice-stone":             "16x8+0_fairy 8rnbqkbnr/8pppppppp/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1",
		"alice-mini":              "8x8+0_fairy rqkr4/nbbn4/pppp4/8/8/PPPP4/NBBN4/RQKR4 w - - 0 1",
	}
	if len(Shown()) != len(want) {
		t.Fatalf("Shown() = %v", Shown())
	}
	for _, v := range Shown() {
		e := enginetest.New()
		out := script(t, e, "xboard\nprotover 2\nnew\nvariant "+v.Name+"\n", Options{})
		if !contains(out, "setup "+Pieces+" "+want[v.Name]) {
			t.Errorf("%s: no setup line %q in:\n%s", v.Name, want[v.Name], strings.Join(out, "\n"))
		}
		if e.Options().Variant != v {
			t.Errorf("%s: the engine plays %s", v.Name, e.Options().Variant.Name)
		}
	}
	for _, bad := range []struct{ name, why string }{
		{"alice-3", "# variant alice-3: 3 boards of 8 files side by side are 24 files wide"},
		{"crazyhouse", "# unknown variant; the known ones are alice, alice-ep"},
	} {
		e := enginetest.New()
		out := script(t, e, setup+"variant "+bad.name+"\nforce\nusermove e2m4\nhint\n", Options{})
		if !contains(out, "Error (unsupported variant): "+bad.name) || !contains(out, bad.why) || contains(out, "Illegal") {
			t.Errorf("variant %s:\n%s", bad.name, strings.Join(out, "\n"))
		}
		if g := lastGame(t, e); g.Variant != env.Alice || len(g.Moves) != 1 || e.Options().Variant != env.Alice {
			t.Errorf("variant %s left the game at %s %v", bad.name, g.Variant.Name, g.Moves)
		}
	}
}

// The feature command names the variants XBoard can show whose network is
// built, never alice-3.
func TestFeatureVariants(t *testing.T) {
	out := script(t, enginetest.New(), "xboard\nprotover 2\n", Options{})
	want := `variants="` + strings.Join(Offered(), ",") + `"`
	if !strings.Contains(strings.Join(out, "\n"), want) {
		t.Errorf("no %s in:\n%s", want, strings.Join(out, "\n"))
	}
	offered := "," + strings.Join(Offered(), ",") + ","
	for _, name := range []string{"alice", "alice-ep", "alice-black-b", "alice-mini"} {
		if !strings.Contains(offered, ","+name+",") {
			t.Errorf("%s is not offered: %s", name, offered)
		}
	}
	if strings.Contains(offered, "alice-3") {
		t.Errorf("alice-3 is offered: %s", offered)
	}
}

// lastGame returns the game of e's last search.
func lastGame(t *testing.T, e *enginetest.Engine) *env.Game {
	t.Helper()
	games := e.Games()
	if len(games) == 0 {
		t.Fatal("the engine searched nothing")
	}
	return games[len(games)-1]
}

// replies makes e's searches play moves (UCI) in turn, then the first
// legal move.
func replies(e *enginetest.Engine, moves ...string) {
	var mu sync.Mutex
	e.Search = func(_ context.Context, p *env.Position, _ clock.Limits, _ mcts.Progress) (mcts.Result, error) {
		mu.Lock()
		defer mu.Unlock()
		var m env.Move
		if len(moves) > 0 {
			var err error
			if m, err = p.ParseUCI(moves[0]); err != nil {
				return mcts.Result{}, err
			}
			moves = moves[1:]
		} else {
			var ml env.MoveList
			p.LegalMoves(&ml)
			m = ml.Moves[0]
		}
		return mcts.Result{BestMove: m, PV: []env.Move{m}, Nodes: 1}, nil
	}
}

// A game fragment of each variant through the protocol, with each special
// kind of move from the user and from the engine.
func TestVariantGames(t *testing.T) {
	for _, tt := range []struct {
		name    string
		variant string
		replies []string // the engine's moves, in turn
		input   string   // after the variant command
		want    []string // lines of the output, in order
		fen     string   // the position at the end (a hint searches it)
	}{
		{"alice-black-b: Black starts on B", "alice-black-b", []string{"d7d5"},
			"force\nusermove e2m4\ngo\nping 1\n", []string{"move l7d5", "pong 1"},
			"|r|n|b|q|k|b|n|r/|p|p|p1|p|p|p|p/8/3p4/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"},
		{"alice-mini: boards of 4 files", "alice-mini", []string{"b6b5"},
			"force\nusermove b3f4\ngo\nping 1\n", []string{"move b6f5", "pong 1"},
			"rqkr/nbbn/p1pp/1|p2/1|P2/P1PP/NBBN/RQKR w - - 0 2"},
		{"alice-mini: a capture in two legs", "alice-mini", []string{"b5a4"},
			"setboard rqkr4/nbbn4/p1pp4/1p6/P7/1PPP4/NBBN4/RQKR4 b - - 0 1\ngo\nping 1\n", []string{"move b5a4,", "move a4e4", "pong 1"},
			"rqkr/nbbn/p1pp/4/|p3/1PPP/NBBN/RQKR w - - 0 2"},
		{"alice-null: null moves both ways", "alice-null", []string{"e7e7"},
			"force\nusermove e2m4\ngo\nping 1\nforce\nusermove m4e4\n", []string{"move e7m7", "pong 1"},
			"rnbqkbnr/pppp|pppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"},
		{"alice-ep: en passant", "alice-ep", []string{"d7d5"},
			"setboard 4k11/3p12/16/4P11/16/16/16/4K11 b - - 0 1\ngo\nping 1\nforce\nusermove e5l6\n", []string{"move d7l5", "pong 1"},
			"4k3/8/3|P4/8/8/8/8/4K3 b - - 0 2"},
		{"alice-optional-transfer: a blocked rook stays", "alice-optional-transfer", []string{"e8e7"},
			"setboard 4k11/16/16/16/8p7/16/16/R3K11 w - - 0 1\nforce\nusermove a1i4\nusermove a1a4\ngo\nping 1\n", []string{"Illegal move: a1i4", "move e8m7", "pong 1"},
			"8/4|k3/8/8/[R|p]7/8/8/4K3 w - - 2 2"},
		{"alice-stone: stay, transfer, capture and null capture", "alice-stone", []string{"d7d5"},
			"force\nusermove e2e4\ngo\nping 1\nforce\nusermove e4d5,d5l5\nsetboard 12k3/16/16/16/16/16/16/3QK6n4 w - - 0 1\nusermove d1l1\n",
			[]string{"move l7d5", "pong 1"},
			"4|k3/8/8/8/8/8/8/3|QK3 b - - 0 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := enginetest.New()
			replies(e, tt.replies...)
			out := script(t, e, "xboard\nprotover 2\nnew\nvariant "+tt.variant+"\n"+tt.input+"hint\n", Options{})
			i := 0
			for _, l := range out {
				if i < len(tt.want) && l == tt.want[i] {
					i++
				} else if strings.HasPrefix(l, "Illegal") || strings.HasPrefix(l, "Error") || strings.HasPrefix(l, "tellusererror") {
					t.Errorf("unexpected %q", l)
				}
			}
			if i < len(tt.want) {
				t.Errorf("no %q in:\n%s", tt.want[i], strings.Join(out, "\n"))
			}
			pos, err := lastGame(t, e).FinalPosition()
			if err != nil {
				t.Fatal(err)
			}
			if got := pos.FEN(); got != tt.fen {
				t.Errorf("the game's position %s, want %s", got, tt.fen)
			}
		})
	}
}

// mark returns the colour a highlight board gives square s ('.' for none).
func mark(t *testing.T, marks, s string) byte {
	t.Helper()
	q, ok := board16.ParseSquare(s)
	if !ok {
		t.Fatal(s)
	}
	rank := strings.Split(marks, "/")[7-q.Rank]
	f := 0
	for i := 0; i < len(rank); i++ {
		c := rank[i]
		if c >= '0' && c <= '9' {
			n := int(c - '0')
			if i+1 < len(rank) && rank[i+1] >= '0' && rank[i+1] <= '9' {
				i++
				n = 10*n + int(rank[i]-'0')
			}
			f += n
			continue
		}
		if f == q.File {
			return c
		}
		f++
	}
	return '.'
}

func TestVariantHighlights(t *testing.T) {
	sq := func(s string) board16.Square {
		q, _ := board16.ParseSquare(s)
		return q
	}
	// alice-null: the pawn on e2 may also pass to e2 of B.
	m, _ := Highlights(env.NewPosition(env.AliceNull), sq("e2"), board16.Square{}, false)
	if m != "16/16/16/16/12Y3/12Y3/12Y3/16" {
		t.Errorf("alice-null, lift e2: %s", m)
	}
	// alice-stone: the pawn on e2 may stay on A or pass to B.
	m, _ = Highlights(env.NewPosition(env.AliceStone), sq("e2"), board16.Square{}, false)
	if m != "16/16/16/16/4Y7Y3/4Y7Y3/16/16" {
		t.Errorf("alice-stone, lift e2: %s", m)
	}
	// alice-stone: the rook may take on a7 and stay (one leg) or pass to B
	// (two legs): the victim is cyan; lifted again there, the rook may go
	// on to a7 of B.
	p, err := env.ParseFEN("4|k3/p7/8/8/8/8/8/R3K3 w - - 0 1", env.AliceStone)
	if err != nil {
		t.Fatal(err)
	}
	m, _ = Highlights(p, sq("a1"), board16.Square{}, false)
	if mark(t, m, "a7") != 'C' || mark(t, m, "a6") != 'Y' || mark(t, m, "i6") != 'Y' || mark(t, m, "i7") != '.' {
		t.Errorf("alice-stone, lift a1: %s", m)
	}
	if m, second := Highlights(p, sq("a7"), sq("a1"), true); m != "16/8Y7/16/16/16/16/16/16" || !second {
		t.Errorf("alice-stone, lift a7 after a1: %s %v", m, second)
	}
	// alice-mini: the pawn on b3 of A goes to b4 of B, on an 8x8 board.
	m, _ = Highlights(env.NewPosition(env.AliceMini), sq("b3"), board16.Square{}, false)
	if m != "8/8/8/8/5Y2/8/8/8" {
		t.Errorf("alice-mini, lift b3: %s", m)
	}
}
