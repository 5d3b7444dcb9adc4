package arena

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/player"
)

// DrawRule adjudicates a draw from the players' scores, as cutechess's
// "-draw movenumber=N movecount=N score=CP": from full move MoveNumber on,
// once both players' scores (player.Scorer) have stayed within ±Score
// centipawns for MoveCount consecutive moves each, the game is a draw.
type DrawRule struct {
	MoveNumber, MoveCount, Score int
}

// ResignRule adjudicates a loss from the players' scores, as cutechess's
// "-resign movecount=N score=CP": a player whose score has stayed at
// −Score centipawns or below for MoveCount consecutive moves of its own
// loses; with TwoSided the opponent's scores must agree (at +Score or
// above) over the same moves.
type ResignRule struct {
	MoveCount, Score int
	TwoSided         bool
}

// ParseDrawRule reads "movenumber=N,movecount=N,score=CP" (any order;
// movenumber defaults to 0, the others are needed).
func ParseDrawRule(s string) (DrawRule, error) {
	var r DrawRule
	seen, err := parseRule(s, "draw adjudication", map[string]*int{"movenumber": &r.MoveNumber, "movecount": &r.MoveCount, "score": &r.Score}, nil)
	if err != nil {
		return r, err
	}
	if !seen["movecount"] || !seen["score"] || r.MoveCount < 1 {
		return r, fmt.Errorf("draw adjudication %q: want movenumber=N,movecount=N,score=CP with movecount ≥ 1, e.g. movenumber=40,movecount=8,score=10", s)
	}
	return r, nil
}

// ParseResignRule reads "movecount=N,score=CP[,twosided=true]".
func ParseResignRule(s string) (ResignRule, error) {
	var r ResignRule
	seen, err := parseRule(s, "resign adjudication", map[string]*int{"movecount": &r.MoveCount, "score": &r.Score}, map[string]*bool{"twosided": &r.TwoSided})
	if err != nil {
		return r, err
	}
	if !seen["movecount"] || !seen["score"] || r.MoveCount < 1 || r.Score < 1 {
		return r, fmt.Errorf("resign adjudication %q: want movecount=N,score=CP with both ≥ 1, e.g. movecount=3,score=600", s)
	}
	return r, nil
}

func parseRule(s, what string, ints map[string]*int, bools map[string]*bool) (map[string]bool, error) {
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || seen[k] {
			return nil, fmt.Errorf("%s %q: %q is not a NAME=VALUE of its own", what, s, part)
		}
		seen[k] = true
		switch {
		case ints[k] != nil:
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%s %q: %s=%q: want a whole number ≥ 0", what, s, k, v)
			}
			*ints[k] = n
		case bools[k] != nil:
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return nil, fmt.Errorf("%s %q: %s=%q: want true or false", what, s, k, v)
			}
			*bools[k] = b
		default:
			var known []string
			for n := range ints {
				known = append(known, n)
			}
			for n := range bools {
				known = append(known, n)
			}
			return nil, fmt.Errorf("%s %q: unknown %q (known: %s)", what, s, k, strings.Join(known, ", "))
		}
	}
	return seen, nil
}

// adjudicator follows one game's scores for the draw and resign rules.
type adjudicator struct {
	draw   *DrawRule
	resign *ResignRule
	// drawPlies counts consecutive plies scored within the draw margin;
	// low[c] the consecutive moves of c scored at −Score or below, high[c]
	// those at +Score or above.
	drawPlies int
	low, high [2]int
}

// observe takes the score of the move just played by mover (ok false: no
// score) in pos, the position after it, and returns the adjudicated
// result, if any, with what decided it.
func (a *adjudicator) observe(pos *env.Position, mover env.Colour, p player.Player) (env.Result, string, bool) {
	if a.draw == nil && a.resign == nil {
		return env.NoResult, "", false
	}
	cp, ok := 0, false
	if sc, isScorer := p.(player.Scorer); isScorer {
		cp, ok = sc.LastScore()
	}
	if !ok {
		// A move without a score breaks the mover's runs (and the draw
		// run, which needs both sides).
		a.drawPlies, a.low[mover], a.high[mover] = 0, 0, 0
		return env.NoResult, "", false
	}
	if d := a.draw; d != nil {
		// A draw needs both sides' scores on consecutive plies.
		if cp >= -d.Score && cp <= d.Score {
			a.drawPlies++
		} else {
			a.drawPlies = 0
		}
		// The full move number of the move just played.
		moveNo := pos.FullmoveNumber()
		if mover == env.Black {
			moveNo--
		}
		if a.drawPlies >= 2*d.MoveCount && moveNo >= d.MoveNumber {
			return env.Draw, fmt.Sprintf("draw: both scores within ±%d cp for %d moves", d.Score, d.MoveCount), true
		}
	}
	if r := a.resign; r != nil {
		c := int(mover)
		a.low[c], a.high[c] = bump(a.low[c], cp <= -r.Score), bump(a.high[c], cp >= r.Score)
		o := 1 - c
		for _, loser := range []int{c, o} {
			winner := 1 - loser
			if a.low[loser] >= r.MoveCount && (!r.TwoSided || a.high[winner] >= r.MoveCount) {
				res := env.WhiteWins
				if env.Colour(loser) == env.White {
					res = env.BlackWins
				}
				return res, fmt.Sprintf("%s resigns: its score at −%d cp or below for %d moves", env.Colour(loser), r.Score, r.MoveCount), true
			}
		}
	}
	return env.NoResult, "", false
}

func bump(n int, cond bool) int {
	if cond {
		return n + 1
	}
	return 0
}
