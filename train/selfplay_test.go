package train

import (
	"context"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/mcts"
)

// labelsFor is the value label of each side's positions in a game whose
// result is r, written out here rather than taken from resultFor, the
// code under test.
func labelsFor(r env.Result) [2]int8 {
	switch r {
	case env.WhiteWins:
		return [2]int8{env.White: 1, env.Black: -1}
	case env.BlackWins:
		return [2]int8{env.White: -1, env.Black: 1}
	}
	return [2]int8{}
}

// A sample's value label is its game's result from its side to move's
// view. The test finds who won from the rules alone: it replays each
// game and asks the final position whether the side to move is mated
// (then the other side won) or, at the ply cap, whether material decides.
// Games of both winners and a draw must turn up, so that a label given to
// the wrong side, or a draw scored as a win, fails.
func TestSampleLabelsFollowTheGame(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.SelfPlay.PlyCap = 200
	cfg.SelfPlay.GamesPerIteration = 16
	cfg.SelfPlay.ParallelGames = 16
	// A material evaluator plays for captures: most games end in mate.
	games := materialSelfPlay(t, cfg)
	var mates [2]int
	draws := 0
	for i, g := range games {
		p := env.NewPosition(env.Alice)
		for _, m := range g.Moves {
			p.MakeMove(m)
		}
		var labels [2]int8
		var ending string
		switch {
		case p.Status() == env.Checkmate:
			loser := p.SideToMove()
			labels[loser], labels[loser.Other()] = -1, 1
			mates[loser.Other()]++
			ending = loser.String() + " mated"
		case p.Ply() >= cfg.SelfPlay.PlyCap && p.CapResult(cfg.SelfPlay.CapMaterialMargin) == env.Draw:
			draws++ // labels 0
			ending = "drawn at the ply cap"
		default:
			continue // capped and won on material: TestCappedGamesAreScoredByMaterial
		}
		if len(g.Samples) == 0 {
			t.Fatalf("game %d has no samples", i)
		}
		for j, smp := range g.Samples {
			side := smp.Position.SideToMove()
			if smp.Result != labels[side] {
				t.Fatalf("game %d (%s after %d plies) sample %d, %v to move: label %d, want %d", i, ending, p.Ply(), j, side, smp.Result, labels[side])
			}
		}
	}
	if mates[env.White] == 0 || mates[env.Black] == 0 || draws == 0 {
		t.Fatalf("%d games: White mated in %d, Black in %d, %d drawn; the test needs each kind", len(games), mates[env.White], mates[env.Black], draws)
	}
}

// Games stopped at the ply cap are scored by material, as the search
// scores the cap, and their positions labelled accordingly: a capped game
// with a clear lead is a win for the side ahead, not a draw.
func TestCappedGamesAreScoredByMaterial(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.SelfPlay.PlyCap = 12
	cfg.SelfPlay.CapMaterialMargin = 1
	cfg.SelfPlay.GamesPerIteration = 24
	cfg.SelfPlay.ParallelGames = 24
	// A material evaluator makes captures, so that capped games end with
	// unequal material often enough to test both labels.
	games := materialSelfPlay(t, cfg)
	var decisive, drawn int
	for i, g := range games {
		if g.Status != env.Adjudicated {
			continue
		}
		p := env.NewPosition(env.Alice)
		for _, m := range g.Moves {
			p.MakeMove(m)
		}
		want := p.CapResult(1)
		if g.Result != want {
			t.Fatalf("game %d: capped with material %d-%d scored %v, want %v", i, p.Material(env.White), p.Material(env.Black), g.Result, want)
		}
		if g.Result == env.Draw {
			drawn++
		} else {
			decisive++
		}
		labels := labelsFor(want)
		for j, smp := range g.Samples {
			if want := labels[smp.Position.SideToMove()]; smp.Result != want {
				t.Fatalf("game %d sample %d: label %d, want %d", i, j, smp.Result, want)
			}
			if smp.NoValue != (g.Result == env.Draw) {
				t.Fatalf("game %d sample %d: NoValue %v for a capped %v", i, j, smp.NoValue, g.Result)
			}
			if wdl := smp.WDL(); g.Result != env.Draw && !smp.Proven && wdl[1] != 0 {
				t.Fatalf("game %d sample %d: a capped game won by material gives the value target %v", i, j, wdl)
			}
		}
	}
	if decisive == 0 || drawn == 0 {
		t.Fatalf("want capped games of both kinds, got %d decisive and %d drawn of %d", decisive, drawn, len(games))
	}
}

// materialSelfPlay plays an iteration of cfg's self-play games of alice
// with the material evaluator.
func materialSelfPlay(t *testing.T, cfg *Config) []*SelfPlayGame {
	t.Helper()
	s, err := mcts.NewSearcher(mcts.MaterialEvaluator{}, cfg.MCTSConfig())
	if err != nil {
		t.Fatal(err)
	}
	games, err := selfPlay(context.Background(), cfg, env.Alice, s, 1, cfg.SelfPlay.GamesPerIteration, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return games
}
