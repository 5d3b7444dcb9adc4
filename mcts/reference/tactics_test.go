package reference

import (
	"context"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
)

// Black to move mates in two (from mcts's solver tests).
const blackMatesInTwo = "rn2k2r/ppp|Q|qppp/7|n/1|B2p|b|B|R/1|b6/3|P|P2|P/PPP2PP1/RN2K1N1 b Qkq - 1 7"

func TestMateFinder(t *testing.T) {
	ctx := context.Background()
	pos, err := env.ParseFEN(blackMatesInTwo, env.Alice)
	if err != nil {
		t.Fatal(err)
	}
	f := NewMateFinder()
	if n, _, err := f.MateIn(ctx, pos, 1); err != nil || n != 0 {
		t.Fatalf("MateIn 1 = %d, %v; want no mate in one", n, err)
	}
	n, best, err := f.MateIn(ctx, pos, 3)
	if err != nil || n != 2 {
		t.Fatalf("MateIn 3 = %d, %v; want 2", n, err)
	}
	tac := Tactic{ID: "x", Pos: pos, Mate: 2, Best: best}
	if ok, err := f.Solves(ctx, tac, best); !ok || err != nil {
		t.Errorf("Solves(best %s) = %v, %v", pos.SAN(best), ok, err)
	}
	// Every move either keeps a mate in two or not; at least one does not.
	var ml env.MoveList
	pos.LegalMoves(&ml)
	var miss env.Move = env.NoMove
	for _, m := range ml.Moves[:ml.N] {
		ok, err := f.Solves(ctx, tac, m)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			miss = m
			break
		}
	}
	if miss == env.NoMove {
		t.Fatal("every move solves the tactic: the test needs a move that misses")
	}

	// EPD round trip.
	back, err := ParseTactic(tac.EPD(), env.Alice)
	if err != nil {
		t.Fatalf("ParseTactic(%q): %v", tac.EPD(), err)
	}
	if back.ID != "x" || back.Mate != 2 || back.Best != best || back.Pos.FEN() != pos.FEN() {
		t.Errorf("ParseTactic(%q) = %+v", tac.EPD(), back)
	}

	// A game that misses the mate yields the tactic, named by its move.
	g := &env.Game{Variant: env.Alice, StartFEN: blackMatesInTwo, Moves: []env.Move{miss}}
	found, err := f.FindTactics(ctx, g, env.Black, 3, "game 1")
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].Mate != 2 || found[0].ID != "game 1 move 7" {
		t.Fatalf("FindTactics = %+v, want the missed mate in two at move 7", found)
	}
	if got, _ := f.FindTactics(ctx, g, env.White, 3, "game 1"); len(got) != 0 {
		t.Errorf("FindTactics for White = %+v, want none (White did not move)", got)
	}
	// The position after the miss, from White's side: a move that lets the
	// mate stand is an avoid tactic, solved by any move after which Black
	// has no mate in two.
	after := pos.Clone()
	after.MakeMove(miss)
	if after.Status().IsOver() {
		t.Skip("the missing move ends the game")
	}
	after.LegalMoves(&ml)
	for _, w := range ml.Moves[:ml.N] {
		q := after.Clone()
		q.MakeMove(w)
		allows, _, err := f.MateIn(ctx, q, 2)
		if err != nil {
			t.Fatal(err)
		}
		if allows == 0 {
			continue
		}
		am := Tactic{ID: "am", Pos: after, Allows: allows, Avoid: w}
		if ok, _ := f.Solves(ctx, am, w); ok {
			t.Errorf("the avoided move %s solves its own tactic", after.SAN(w))
		}
		back, err := ParseTactic(am.EPD(), env.Alice)
		if err != nil || back.Avoid != w || back.Allows != allows {
			t.Errorf("ParseTactic(%q) = %+v, %v", am.EPD(), back, err)
		}
		break
	}
}

func TestParseTacticErrors(t *testing.T) {
	start := strings.Join(strings.Fields(env.Alice.StartFEN())[:4], " ")
	for _, tc := range []struct{ line, want string }{
		{start + " dm 2;", "no bm"},
		{start + " dm x; bm e4;", "not a mate length"},
		{start + " dm 40; bm e4;", "not a mate length"},
		{start + " am Ke2; adm 1;", "am Ke2"},
		{start + " am e4;", "not a mate length"},
	} {
		if _, err := ParseTactic(tc.line, env.Alice); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseTactic(%q) = %v, want an error with %q", tc.line, err, tc.want)
		}
	}
}

// Every tactic of the suite is what it says: the mate is forced and as
// short as it says, the best move mates that fast, and the move to avoid
// allows exactly the mate it says while another move escapes it.
func TestSuiteIsSound(t *testing.T) {
	suite, err := Suite()
	if err != nil {
		t.Fatal(err)
	}
	if len(suite) < 30 {
		t.Fatalf("the suite has %d tactics, want at least 30", len(suite))
	}
	ctx := context.Background()
	f := NewMateFinder()
	ids := map[string]bool{}
	for _, tc := range suite {
		if ids[tc.ID] {
			t.Errorf("%q: two tactics of that id", tc.ID)
		}
		ids[tc.ID] = true
		if tc.Mate > 0 {
			if n, _, err := f.MateIn(ctx, tc.Pos, tc.Mate); err != nil || n != tc.Mate {
				t.Errorf("%q: shortest mate in %d (%v), the suite says %d", tc.ID, n, err, tc.Mate)
			}
			if ok, err := f.Solves(ctx, tc, tc.Best); !ok || err != nil {
				t.Errorf("%q: the best move %s does not solve it (%v)", tc.ID, tc.Pos.SAN(tc.Best), err)
			}
			continue
		}
		q := tc.Pos.Clone()
		q.MakeMove(tc.Avoid)
		if n, _, err := f.MateIn(ctx, q, tc.Allows); err != nil || n != tc.Allows {
			t.Errorf("%q: %s allows a mate in %d (%v), the suite says %d", tc.ID, tc.Pos.SAN(tc.Avoid), n, err, tc.Allows)
		}
		escapes := false
		var ml env.MoveList
		tc.Pos.LegalMoves(&ml)
		for _, m := range ml.Moves[:ml.N] {
			if ok, err := f.Solves(ctx, tc, m); err != nil {
				t.Fatal(err)
			} else if ok {
				escapes = true
				break
			}
		}
		if !escapes {
			t.Errorf("%q: no move escapes the mate: the position is lost already", tc.ID)
		}
	}
}
