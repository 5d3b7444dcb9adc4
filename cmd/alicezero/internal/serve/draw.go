package serve

import (
	"fmt"
	"math"
	"time"

	"github.com/alicezero/alicezero/env"
)

// drawMargin is how near level the engine must rate a position, W-L
// from its side, to accept a draw offered there: ±0.15 is about a quarter
// of a pawn on lc0's scale (docs/API.md).
const drawMargin = 0.15

// drawJSON is the engine's answer to a draw offer: whether it accepts,
// its evaluation (W-L from its own side), the margin, and its answer in
// words.
type drawJSON struct {
	Accepted bool    `json:"accepted"`
	Value    float64 `json:"value"`
	Margin   float64 `json:"margin"`
	Text     string  `json:"text"`
}

// drawAnswer is the engine's answer, playing side, to a draw offered in
// a position it rates value (W-L from its side).
func drawAnswer(side env.Colour, value float64) drawJSON {
	d := drawJSON{Value: round4(value), Margin: drawMargin, Accepted: math.Abs(value) <= drawMargin}
	rating := fmt.Sprintf("%+.2f for %s", value, colourName(side))
	switch {
	case d.Accepted:
		d.Text = fmt.Sprintf("AliceZero accepts the draw: it rates the position level (%s, within ±%.2f)", rating, drawMargin)
	case value > 0:
		d.Text = fmt.Sprintf("AliceZero declines the draw: it rates the position %s, better than level (it agrees within ±%.2f)", rating, drawMargin)
	default:
		d.Text = fmt.Sprintf("AliceZero declines the draw: it rates the position %s, worse than level, and agrees only to a level one (within ±%.2f)", rating, drawMargin)
	}
	return d
}

// answerDraw answers a draw search's offer in its session's game, by the
// search's evaluation: agreed, the game ends drawn, unless it changed
// during the search (d.Stale) or is over.
func (s *Server) answerDraw(sr *search, in searched, d *doneJSON) {
	side := sr.offeredBy.Other()
	value := float64(in.WDL[0] - in.WDL[2]) // the side to move's
	if in.MateIn != 0 {
		// A mate found is a won or lost position, whatever the mean says.
		value = math.Copysign(1, float64(in.MateIn))
	}
	if sr.root.SideToMove() != side {
		value = -value
	}
	ans := drawAnswer(side, value)
	d.Draw = &ans
	s.inGame(sr, d, func(g *game, now time.Time) {
		if ans.Accepted && !g.isOver() {
			_ = g.agreeDraw(now) // the game is not over: no error
		}
		st := g.state(now)
		d.Game = &st
	})
}
