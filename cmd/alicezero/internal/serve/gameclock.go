package serve

import (
	"fmt"
	"strings"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// Bounds on a time control, as the big sites set them.
const (
	minBase = time.Second
	maxBase = 180 * time.Minute
	maxInc  = 180 * time.Second
)

// timeControlPresets are the time controls the page offers by name.
func timeControlPresets() []string { return []string{"1+0", "3+2", "5+3", "15+10"} }

// parseTimeControl reads a time control as players write it, in the
// lobbies' convention (clock.Lobby): "M+S", the minutes each side starts
// with and the seconds added after each move ("3+2", "0.5+0", "15+10"), or
// with units ("3m+2s"). "" and "none" mean no clock (nil).
func parseTimeControl(s string) (*clock.Control, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "none") {
		return nil, nil
	}
	tc, err := clock.Lobby.Parse(s)
	if err != nil {
		return nil, badRequest("time_control: %v", err)
	}
	bad := func(format string, args ...any) error {
		return badRequest("time_control %q: %s (want minutes+seconds, e.g. 3+2, or none)", s, fmt.Sprintf(format, args...))
	}
	switch {
	case tc.Moves != 0:
		return nil, bad("moves per period are not supported")
	case tc.Base < minBase || tc.Base > maxBase:
		return nil, bad("the base must lie in %v..%v", minBase, maxBase)
	case tc.Inc > maxInc:
		return nil, bad("the increment must lie in 0..%v", maxInc)
	}
	return &tc, nil
}

// gameClock is the clocks of a timed game. The server is their only
// authority: a side's clock runs on the server's time from the moment its
// turn began to the moment its move arrived (a person's move request, the
// engine's move in the search worker), so a client has no say in it.
//
// The clocks start with the game's first move, which is free (no time is
// taken and no increment added), as on the big sites; from then on the
// side to move's clock runs until the game ends. Undo gives back no time.
type gameClock struct {
	*clock.Game
	tc clock.Control
	// since is when the side to move's clock last started, once it runs.
	since time.Time
	// started is set by the first move.
	started bool
}

func newGameClock(tc clock.Control) *gameClock {
	return &gameClock{Game: clock.NewGame(tc, tc), tc: tc}
}

// flagged reports whether a side's time ran out: the game is over.
func (c *gameClock) flagged() bool {
	_, f := c.Flagged()
	return f
}

// clockJSON is a game's clocks as the page shows them, at the moment of
// the answer.
type clockJSON struct {
	TimeControl string `json:"time_control"`
	BaseMS      int64  `json:"base_ms"`
	IncrementMS int64  `json:"increment_ms"`
	WhiteMS     int64  `json:"white_ms"`
	BlackMS     int64  `json:"black_ms"`
	// Running is the side whose clock runs now ("" before the first move
	// and once the game is over).
	Running string `json:"running,omitempty"`
	// Flag is the side whose time ran out.
	Flag string `json:"flag,omitempty"`
}

// statusTimeForfeit is a game's status once a side's time ran out.
const statusTimeForfeit = "time-forfeit"

// running reports whether the side to move's clock runs.
func (g *game) running() bool {
	c := g.clock
	return c != nil && c.started && !c.flagged() && g.ended == nil && !g.pos.Status().IsOver()
}

// timeLeft returns side's time left at now.
func (g *game) timeLeft(side env.Colour, now time.Time) time.Duration {
	left := g.clock.Left(side)
	if side == g.pos.SideToMove() && g.running() {
		left -= now.Sub(g.clock.since)
	}
	return max(left, 0)
}

// tick ends the game on time when the side to move's clock has run out
// by now. Every look at a timed game starts with it, so a flag that fell
// while nobody asked is seen at the next request.
func (g *game) tick(now time.Time) {
	if !g.running() {
		return
	}
	c, side := g.clock, g.pos.SideToMove()
	if elapsed := now.Sub(c.since); c.OutOfTime(side, elapsed) {
		c.Spend(side, elapsed) // the flag falls
	}
}

// charge takes the side to move's time since its clock last started off
// its clock and restarts it at now (tick must have come first).
func (g *game) charge(now time.Time) {
	if c := g.clock; c != nil {
		if g.running() {
			c.Spend(g.pos.SideToMove(), now.Sub(c.since))
		}
		c.since = now
	}
}

// moved settles the clocks for a move the side to move is about to play
// at now: its think time off, its increment on, the clocks started by the
// first move.
func (g *game) moved(now time.Time) {
	c := g.clock
	if c == nil {
		return
	}
	if g.running() {
		c.Move(g.pos.SideToMove(), now.Sub(c.since))
	}
	c.started, c.since = true, now
}

// outcome is the game's status and result, a loss on time included. A
// side whose time ran out while the other has only its king left draws,
// since a lone king can never mate (FIDE's rule 6.9, as the big sites
// play it).
func (g *game) outcome() (string, env.Result) {
	if g.ended != nil {
		return g.ended.status, g.ended.result
	}
	if c := g.clock; c != nil && c.flagged() {
		flag, _ := c.Flagged()
		switch {
		case g.pos.Material(flag.Other()) == 0:
			return statusTimeForfeit, env.Draw
		case flag == env.White:
			return statusTimeForfeit, env.BlackWins
		default:
			return statusTimeForfeit, env.WhiteWins
		}
	}
	st := g.pos.Status()
	return st.String(), g.pos.Outcome(st)
}

// isOver reports whether the game has ended, by the rules or on time.
func (g *game) isOver() bool {
	return g.ended != nil || g.pos.Status().IsOver() || g.clock != nil && g.clock.flagged()
}

// overReason says how an ended game ended, for an error message.
func (g *game) overReason() string {
	switch {
	case g.ended != nil && g.ended.status == statusDrawAgreed:
		return "a draw was agreed"
	case g.ended != nil && g.ended.result == env.WhiteWins:
		return "Black resigned"
	case g.ended != nil:
		return "White resigned"
	}
	if c := g.clock; c != nil && c.flagged() {
		flag, _ := c.Flagged()
		return colourName(flag) + "'s time ran out"
	}
	return g.pos.Status().String()
}

// colourName is "White" or "Black".
func colourName(c env.Colour) string {
	if c == env.Black {
		return "Black"
	}
	return "White"
}

// describeClock is the clocks at now.
func (g *game) describeClock(now time.Time) *clockJSON {
	c := g.clock
	if c == nil {
		return nil
	}
	js := &clockJSON{TimeControl: clock.Lobby.Format(c.tc), BaseMS: c.tc.Base.Milliseconds(), IncrementMS: c.tc.Inc.Milliseconds(),
		WhiteMS: g.timeLeft(env.White, now).Milliseconds(), BlackMS: g.timeLeft(env.Black, now).Milliseconds()}
	if g.running() {
		js.Running = g.pos.SideToMove().String()
	}
	if flag, flagged := c.Flagged(); flagged {
		js.Flag = flag.String()
	}
	return js
}

// engineLimits is the clocks at now as the engine's time manager reads
// them.
func (g *game) engineLimits(now time.Time) clock.Limits {
	c := g.clock
	var elapsed time.Duration
	if g.running() {
		elapsed = now.Sub(c.since)
	}
	return c.Limits(g.pos.SideToMove(), elapsed)
}
