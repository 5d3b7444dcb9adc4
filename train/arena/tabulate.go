package arena

import "github.com/alicezero/alicezero/env"

// pointsOf returns player i's points in a game it played.
func pointsOf(rec GameRecord, i int) float64 {
	switch {
	case rec.Result == env.Draw:
		return 0.5
	case rec.Result == env.WhiteWins && rec.White == i, rec.Result == env.BlackWins && rec.Black == i:
		return 1
	}
	return 0
}

func (r *runner) result(planned int) *Result {
	res := &Result{Players: r.cfg.Players, Format: r.cfg.Format, Planned: planned, SPRT: r.sprt}
	for _, rec := range r.records {
		if rec != nil {
			res.Games = append(res.Games, *rec)
		}
	}
	for i, name := range r.cfg.Players {
		if name == r.cfg.Anchor {
			res.Anchor = i
		}
	}
	res.Pairings, res.Ratings = Tabulate(r.cfg.Players, r.pairs, res.Games, res.Anchor)
	return res
}

// Tabulate computes the per-pairing statistics and the rating list of a
// set of games between players (pairs lists the pairings, A first).
func Tabulate(players []string, pairs [][2]int, games []GameRecord, anchor int) ([]PairingResult, []PlayerRating) {
	prs := make([]PairingResult, len(pairs))
	index := map[[2]int]int{}
	for p, pair := range pairs {
		prs[p] = PairingResult{A: pair[0], B: pair[1], NameA: players[pair[0]], NameB: players[pair[1]]}
		index[pair] = p
	}
	ratings := make([]PlayerRating, len(players))
	for i, name := range players {
		ratings[i].Name = name
	}
	for _, g := range games {
		p, ok := index[[2]int{g.White, g.Black}]
		if !ok {
			if p, ok = index[[2]int{g.Black, g.White}]; !ok {
				continue
			}
		}
		pr := &prs[p]
		switch pointsOf(g, pr.A) {
		case 1:
			pr.Wins++
		case 0.5:
			pr.Draws++
		default:
			pr.Losses++
		}
		switch g.Termination {
		case TermAdjudicated:
			pr.Adjudicated++
		case TermTime, TermIllegal, TermFailure:
			pr.Forfeit++
		}
		for _, i := range []int{g.White, g.Black} {
			ratings[i].Games++
			ratings[i].Points += pointsOf(g, i)
		}
	}
	scores := make([]PairScore, 0, len(prs))
	for p := range prs {
		pr := &prs[p]
		pr.Games = pr.Wins + pr.Draws + pr.Losses
		pr.Score = Score(pr.Wins, pr.Draws, pr.Losses)
		pr.Elo = EloDiff(pr.Wins, pr.Draws, pr.Losses)
		pr.LOS = LOS(pr.Wins, pr.Losses)
		scores = append(scores, PairScore{A: pr.A, B: pr.B, Games: pr.Games, PointsA: float64(pr.Wins) + 0.5*float64(pr.Draws)})
	}
	fit, err := FitRatings(len(players), scores, anchor)
	for i := range ratings {
		rt := &ratings[i]
		if rt.Games > 0 {
			rt.Score = rt.Points / float64(rt.Games)
		}
		if err == nil {
			rt.Elo = fit.Elo[i]
			rt.Low, rt.High = fit.CI95(i)
		}
	}
	return prs, ratings
}
