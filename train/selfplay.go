package train

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/seed"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/train/replay"
)

// SelfPlayGame is one finished self-play game.
type SelfPlayGame struct {
	Moves   []env.Move
	Samples []replay.Sample // the positions used as training targets
	Status  env.Status      // how it ended (Ongoing for a resignation)
	Result  env.Result
	// Resigned is set when the loser resigned; NoResign when resignation
	// was off for this game (to calibrate the threshold, or because it was
	// not in force).
	Resigned, NoResign bool
	// MinValue is, per colour, the lowest resignation value (the larger of
	// the root's value and the most visited move's value, that colour's
	// view) over its full searches; 1 when it made none.
	MinValue [2]float32
}

// Termination describes how the game ended, for PGN and summaries.
func (g *SelfPlayGame) Termination() string {
	switch {
	case g.Resigned:
		return "resignation"
	case g.Status == env.Adjudicated && g.Result != env.Draw:
		return "adjudicated by material"
	}
	return g.Status.String()
}

// MCTSConfig maps the run configuration onto the search's settings.
func (c *Config) MCTSConfig() mcts.Config {
	s, sp := &c.Search, &c.SelfPlay
	m := mcts.DefaultConfig()
	m.Simulations = s.Simulations
	m.Gumbel = s.Gumbel
	m.GumbelK = s.GumbelK
	m.CPuct = float32(s.CPuct)
	m.FPUReduction = float32(s.FPUReduction)
	m.RootFPUReduction = float32(s.FPUReduction)
	m.DirichletAlpha = s.DirichletAlpha
	m.DirichletEpsilon = s.DirichletEpsilon
	m.PolicyTemperature = float32(s.PolicyTemp)
	m.DrawPenalty = float32(s.DrawPenalty)
	m.CacheEntries = s.CacheSize
	m.PlayoutCapProb = s.PlayoutCapProb
	m.PlayoutCapFactor = s.PlayoutCapFactor
	m.Temperature = sp.Temperature
	m.TemperaturePlies = sp.TemperaturePlies
	m.PlyCap = sp.PlyCap
	m.CapMaterialMargin = sp.CapMaterialMargin
	m.BatchSize = sp.BatchSize
	m.Workers = 1 // deterministic; the network uses the cores
	return m
}

// selfPlay plays games with the searcher, up to SelfPlay.ParallelGames at
// once with their leaves batched together. A side resigns when, after a
// full search, both the root's value and its most visited move's value are
// below -resignThreshold (0: never), except in the NoResignFraction of
// games kept to check the threshold. done is called after each game.
func selfPlay(ctx context.Context, cfg *Config, variant env.Variant, s *mcts.Searcher, iteration, games int, resignThreshold float64, done func(*SelfPlayGame)) ([]*SelfPlayGame, error) {
	sp := &cfg.SelfPlay
	resignRNG := rand.New(rand.NewPCG(seed.Derive(cfg.Seed, "resign", uint64(iteration), uint64(0)), 1))
	type slot struct {
		tree *mcts.Tree
		game *SelfPlayGame
		// sides[i] is the side to move at Samples[i].
		sides []env.Colour
	}
	out := make([]*SelfPlayGame, 0, games)
	next := 0
	newGame := func(sl *slot) error {
		pos := env.NewPosition(variant)
		seed := seed.Derive(cfg.Seed, "game", uint64(iteration), uint64(next))
		if sl.tree == nil {
			t, err := s.NewTree(pos, seed)
			if err != nil {
				return err
			}
			sl.tree = t
		} else {
			if err := sl.tree.Reset(pos); err != nil {
				return err
			}
			sl.tree.Reseed(seed)
		}
		// Draw for every game, so that the games' seeds and choices do not
		// depend on whether resignation is in force.
		kept := resignRNG.Float64() < sp.NoResignFraction
		sl.game = &SelfPlayGame{NoResign: kept || resignThreshold <= 0, MinValue: [2]float32{1, 1}}
		sl.sides = sl.sides[:0]
		next++
		return nil
	}
	var active []*slot
	for i := 0; i < min(sp.ParallelGames, games); i++ {
		sl := &slot{}
		if err := newGame(sl); err != nil {
			return nil, err
		}
		active = append(active, sl)
	}
	trees := make([]*mcts.Tree, 0, len(active))
	for len(active) > 0 {
		trees = trees[:0]
		for _, sl := range active {
			trees = append(trees, sl.tree)
		}
		results, err := s.SearchBatch(ctx, trees)
		if err != nil {
			return nil, fmt.Errorf("self-play search: %w", err)
		}
		kept := active[:0]
		for i, sl := range active {
			res := &results[i]
			g := sl.game
			root := sl.tree.Position() // a copy: take it once per move
			side := root.SideToMove()
			if res.UseForTraining {
				g.Samples = append(g.Samples, replay.Sample{Position: root.Snapshot(), Policy: replay.SparsePolicy(res.Visits),
					RootValue: res.RootValue, Proven: res.Proven})
				sl.sides = append(sl.sides, side)
			}
			over := false
			if v, full := resignValue(res); full {
				g.MinValue[side] = min(g.MinValue[side], v)
				if !g.NoResign && float64(v) < -resignThreshold {
					g.Resigned, g.Status = true, env.Ongoing
					g.Result = env.WhiteWins
					if side == env.White {
						g.Result = env.BlackWins
					}
					over = true
				}
			}
			if !over {
				g.Moves = append(g.Moves, res.BestMove)
				if err := sl.tree.Advance(res.BestMove); err != nil {
					return nil, fmt.Errorf("self-play: playing %s in %s: %w", res.BestMove, root.FEN(), err)
				}
				if st := sl.tree.Status(); st.IsOver() {
					g.Status = st
					pos := sl.tree.Position()
					g.Result = pos.Outcome(st)
					if st == env.Adjudicated {
						g.Result = pos.CapResult(sp.CapMaterialMargin)
					}
					over = true
				}
			}
			if !over {
				kept = append(kept, sl)
				continue
			}
			finishGame(g, sl.sides, sp.CapDrawValue)
			out = append(out, g)
			if done != nil {
				done(g)
			}
			if next < games {
				if err := newGame(sl); err != nil {
					return nil, err
				}
				kept = append(kept, sl)
			}
		}
		active = kept
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// finishGame labels every sample with the result from its side's view. The
// positions of a game stopped at the ply cap and scored a draw get no value
// target unless capDrawValue is set: nobody won, but nobody was shown to
// hold the draw either.
func finishGame(g *SelfPlayGame, sides []env.Colour, capDrawValue bool) {
	noValue := g.Status == env.Adjudicated && g.Result == env.Draw && !capDrawValue
	for i := range g.Samples {
		g.Samples[i].Result = resultFor(g.Result, sides[i])
		g.Samples[i].NoValue = noValue
	}
}

// resignValue is what resignation looks at after a search: the larger of
// the root's value and the value of its most visited move (ties: the
// better value), so that neither an average dragged down by moves the
// search only tried nor one unlucky reading makes a side resign. full is
// false for the small searches of playout-cap randomisation, whose values
// are too rough to resign on.
func resignValue(res *mcts.Result) (v float32, full bool) {
	if !res.UseForTraining {
		return 0, false
	}
	best, bestN := float32(-1), -1
	for _, c := range res.Children {
		if c.Visits > bestN || (c.Visits == bestN && c.Q > best) {
			best, bestN = c.Q, c.Visits
		}
	}
	return max(res.RootValue, best), true
}

// resultFor scores a result for one side: +1 won, 0 drawn, -1 lost.
func resultFor(r env.Result, side env.Colour) int8 {
	switch {
	case r == env.WhiteWins && side == env.White, r == env.BlackWins && side == env.Black:
		return 1
	case r == env.WhiteWins, r == env.BlackWins:
		return -1
	}
	return 0
}
