package clock

import (
	"time"

	"github.com/alicezero/alicezero/env"
)

// Game is the two clocks of a timed game, each side under its own Control
// (a side with the zero Control plays without a clock). The caller
// measures the time a move takes — the arena around a player's move, the
// web server between requests — and the Game charges it, adds the
// increment and decides the flag:
//
//	g := clock.NewGame(c, c)
//	if !g.Move(env.White, elapsed) { /* White lost on time */ }
//	lim := g.Limits(env.Black, 0) // the clocks for Black's search
type Game struct {
	ctl   [2]Control // by env.Colour
	left  [2]time.Duration
	moves [2]int
	read  [2]bool // set from outside
	// Margin is the grace past a side's time left before its flag falls:
	// a move that takes its time left (at least zero) plus Margin loses.
	Margin  time.Duration
	flagged bool
	flag    env.Colour
}

// NewGame starts the clocks of a game: each side with its Base.
func NewGame(white, black Control) *Game {
	return &Game{ctl: [2]Control{white, black}, left: [2]time.Duration{white.Base, black.Base}}
}

// Control is side's time control.
func (g *Game) Control(side env.Colour) Control { return g.ctl[side] }

// Timed reports whether side plays with a clock: its Control has a base
// time, or its clock was Set.
func (g *Game) Timed(side env.Colour) bool { return g.ctl[side].Base > 0 || g.read[side] }

// Left is side's time left (below zero within the margin).
func (g *Game) Left(side env.Colour) time.Duration { return g.left[side] }

// Set replaces side's time left with a reading from outside (XBoard's
// time and otim commands); side then plays with a clock.
func (g *Game) Set(side env.Colour, left time.Duration) {
	g.left[side], g.read[side] = left, true
}

// OutOfTime reports whether side, having thought for elapsed since its
// clock last stopped, has run out of time.
func (g *Game) OutOfTime(side env.Colour, elapsed time.Duration) bool {
	return g.Timed(side) && elapsed >= max(g.left[side], 0)+g.Margin
}

// Spend charges elapsed to side's clock without ending its turn, and
// reports whether side still has time; when it has not, its flag falls
// and its clock shows zero. A fallen flag ends the game: the clocks stop.
func (g *Game) Spend(side env.Colour, elapsed time.Duration) bool {
	if g.flagged || !g.Timed(side) {
		return !g.flagged
	}
	if g.OutOfTime(side, elapsed) {
		g.left[side], g.flagged, g.flag = 0, true, side
		return false
	}
	g.left[side] -= elapsed
	return true
}

// Move charges a move of side that took elapsed and, if side still has
// time, adds the increment (and, at the end of a classical period, Base).
// It reports whether side still has time.
func (g *Game) Move(side env.Colour, elapsed time.Duration) bool {
	if !g.Spend(side, elapsed) {
		return false
	}
	if !g.Timed(side) {
		return true
	}
	c := g.ctl[side]
	g.left[side] += c.Inc
	if g.moves[side]++; c.Moves > 0 && g.moves[side]%c.Moves == 0 {
		g.left[side] += c.Base
	}
	return true
}

// Flagged returns the side whose flag fell, if one did.
func (g *Game) Flagged() (env.Colour, bool) { return g.flag, g.flagged }

// Limits is the clocks as the time manager reads them when toMove, to
// move, has thought for elapsed already: each timed side's time left
// (at least a millisecond, since a clock at zero would read as none) and
// increment, and toMove's moves to the end of its period.
func (g *Game) Limits(toMove env.Colour, elapsed time.Duration) Limits {
	var l Limits
	for _, side := range []env.Colour{env.White, env.Black} {
		if !g.Timed(side) {
			continue
		}
		left := g.left[side]
		if side == toMove {
			left -= elapsed
		}
		left = max(left, time.Millisecond)
		if side == env.White {
			l.WTime, l.WInc = left, g.ctl[side].Inc
		} else {
			l.BTime, l.BInc = left, g.ctl[side].Inc
		}
	}
	if g.Timed(toMove) {
		l.MovesToGo = g.ctl[toMove].MovesToGo(g.moves[toMove])
	}
	return l
}
