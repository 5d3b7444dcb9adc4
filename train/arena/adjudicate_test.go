package arena

import (
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
)

func TestScoreAdjudication(t *testing.T) {
	tests := []struct {
		name    string
		players []string
		draw    *DrawRule
		resign  *ResignRule
		// want: the result from the first player's side, the plies played
		// and the termination.
		wantPoints float64
		wantPlies  int
		wantTerm   Termination
		wantDetail string
	}{
		{"draw after move 3", []string{"probe:score=5", "probe:score=-8"}, &DrawRule{MoveNumber: 3, MoveCount: 2, Score: 10}, nil,
			0.5, 5, TermAdjudicated, "draw: both scores within ±10 cp for 2 moves"},
		{"no draw outside the margin", []string{"probe:score=5", "probe:score=-80"}, &DrawRule{MoveCount: 2, Score: 10}, nil,
			0.5, 20, TermAdjudicated, ""},
		{"resign", []string{"probe:score=-700", "probe:score=700"}, nil, &ResignRule{MoveCount: 3, Score: 600},
			0, 0, TermAdjudicated, "resigns: its score at −600 cp or below for 3 moves"},
		{"two-sided needs the winner's word", []string{"probe:score=-700", "probe"}, nil, &ResignRule{MoveCount: 3, Score: 600, TwoSided: true},
			0.5, 20, TermAdjudicated, ""},
		{"one-sided", []string{"probe:score=-700", "probe"}, nil, &ResignRule{MoveCount: 3, Score: 600},
			0, 0, TermAdjudicated, "resigns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, _, _ := probeRegistry(t)
			start, err := ReadOpenings(strings.NewReader(env.StartFEN+"\n"), "start", env.Alice)
			if err != nil {
				t.Fatal(err)
			}
			res := run(t, Config{Players: tt.players, Registry: reg, Games: 2, PlyCap: 20, Concurrency: 1, Openings: start, Draw: tt.draw, Resign: tt.resign})
			for _, g := range res.Games {
				if got := pointsOf(g, 0); got != tt.wantPoints {
					t.Errorf("game %d: %v points for %s, want %v (%v, %s)", g.Number, got, tt.players[0], tt.wantPoints, g.Result, g.Detail)
				}
				plies := len(g.Game.Moves)
				if tt.wantPlies > 0 && plies != tt.wantPlies {
					t.Errorf("game %d: %d plies, want %d", g.Number, plies, tt.wantPlies)
				}
				// The loser's third own move ends a resignation.
				if tt.wantPlies == 0 && (plies < 5 || plies > 6) {
					t.Errorf("game %d: resigned after %d plies, want 5 or 6", g.Number, plies)
				}
				if g.Termination != tt.wantTerm || g.Game.Tag("Termination") != string(tt.wantTerm) || !strings.Contains(g.Detail, tt.wantDetail) {
					t.Errorf("game %d: %v %q, want %v %q", g.Number, g.Termination, g.Detail, tt.wantTerm, tt.wantDetail)
				}
				if tt.wantDetail == "" && g.Detail != "" {
					t.Errorf("game %d: adjudicated by scores (%s), want the ply cap", g.Number, g.Detail)
				}
			}
		})
	}
}

func TestParseAdjudicationRules(t *testing.T) {
	d, err := ParseDrawRule("movenumber=40,movecount=8,score=10")
	if err != nil || d != (DrawRule{40, 8, 10}) {
		t.Errorf("draw rule %+v, %v", d, err)
	}
	r, err := ParseResignRule("movecount=3,score=600,twosided=true")
	if err != nil || r != (ResignRule{3, 600, true}) {
		t.Errorf("resign rule %+v, %v", r, err)
	}
	for _, bad := range []string{"movecount=8", "movecount=0,score=10", "movecount=8,score=x", "movecount=8,score=10,depth=3", "movecount=8,movecount=9,score=1"} {
		if _, err := ParseDrawRule(bad); err == nil {
			t.Errorf("draw rule %q accepted", bad)
		}
	}
	for _, bad := range []string{"score=600", "movecount=3,score=0", "movecount=3,score=600,twosided=maybe"} {
		if _, err := ParseResignRule(bad); err == nil {
			t.Errorf("resign rule %q accepted", bad)
		}
	}
}

func TestUCIInfoScore(t *testing.T) {
	tests := []struct {
		line string
		cp   int
		ok   bool
	}{
		{"info depth 12 score cp -35 nodes 1000 pv e2e4", -35, true},
		{"info depth 3 score cp 40 lowerbound", 40, true},
		{"info depth 9 score mate 3 pv a1a8", 100_000, true},
		{"info depth 9 score mate -2", -100_000, true},
		{"info depth 0 score mate 0", -100_000, true},
		{"info string score cp high", 0, false},
		{"info depth 5 nodes 20", 0, false},
	}
	for _, tt := range tests {
		if cp, ok := infoScore(strings.Fields(tt.line)); cp != tt.cp || ok != tt.ok {
			t.Errorf("%q: %d %v, want %d %v", tt.line, cp, ok, tt.cp, tt.ok)
		}
	}
}
