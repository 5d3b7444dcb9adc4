package serve

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// timeControl is a game's Fischer time control: the time each side starts
// with and the increment added to a side's clock after each of its moves.
type timeControl struct {
	base, inc time.Duration
}

// Bounds on a time control, as the big sites set them.
const (
	minBase = time.Second
	maxBase = 180 * time.Minute
	maxInc  = 180 * time.Second
)

// timeControlPresets are the time controls the page offers by name.
func timeControlPresets() []string { return []string{"1+0", "3+2", "5+3", "15+10"} }

// parseTimeControl reads a time control as players write it, "M+S": the
// minutes each side starts with and the seconds added after each move
// ("3+2", "0.5+0", "15+10"). "" and "none" mean no clock (nil).
func parseTimeControl(s string) (*timeControl, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "none") {
		return nil, nil
	}
	bad := func(format string, args ...any) error {
		return badRequest("time_control %q: %s (want minutes+seconds, e.g. 3+2, or none)", s, fmt.Sprintf(format, args...))
	}
	minutes, seconds, ok := strings.Cut(s, "+")
	if !ok {
		return nil, bad("no increment")
	}
	m, ok := decimal(strings.TrimSpace(minutes))
	if !ok {
		return nil, bad("the minutes %q are not a number", minutes)
	}
	sec, ok := decimal(strings.TrimSpace(seconds))
	if !ok {
		return nil, bad("the seconds %q are not a number", seconds)
	}
	// Bounds first: a huge number would overflow a Duration.
	if m*60 < minBase.Seconds() || m*60 > maxBase.Seconds() {
		return nil, bad("the base must lie in %v..%v", minBase, maxBase)
	}
	if sec > maxInc.Seconds() {
		return nil, bad("the increment must lie in 0..%v", maxInc)
	}
	ms := func(v float64) time.Duration { return time.Duration(math.Round(v*1000)) * time.Millisecond }
	return &timeControl{base: ms(m * 60), inc: ms(sec)}, nil
}

// decimal reads a plain decimal number (digits with at most one point):
// not the signs, exponents, hexadecimal and infinities ParseFloat takes.
func decimal(s string) (float64, bool) {
	if s == "" || s == "." || strings.Count(s, ".") > 1 || strings.Trim(s, "0123456789.") != "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// String writes the time control as parseTimeControl reads it.
func (tc timeControl) String() string {
	return strconv.FormatFloat(tc.base.Minutes(), 'f', -1, 64) + "+" + strconv.FormatFloat(tc.inc.Seconds(), 'f', -1, 64)
}

// pgnTag writes the time control as PGN's TimeControl tag: seconds, then
// the increment in seconds ("180+2").
func (tc timeControl) pgnTag() string {
	return strconv.FormatFloat(tc.base.Seconds(), 'f', -1, 64) + "+" + strconv.FormatFloat(tc.inc.Seconds(), 'f', -1, 64)
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
	tc timeControl
	// left is each side's time (by env.Colour); the side to move's as of
	// since, when its clock runs.
	left  [2]time.Duration
	since time.Time
	// started is set by the first move.
	started bool
	// flagged is set when the side flag's time ran out: the game is over.
	flagged bool
	flag    env.Colour
}

func newGameClock(tc timeControl) *gameClock {
	return &gameClock{tc: tc, left: [2]time.Duration{tc.base, tc.base}}
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
	return c != nil && c.started && !c.flagged && !g.pos.Status().IsOver()
}

// timeLeft returns side's time left at now.
func (g *game) timeLeft(side env.Colour, now time.Time) time.Duration {
	left := g.clock.left[side]
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
	side := g.pos.SideToMove()
	if g.timeLeft(side, now) > 0 {
		return
	}
	c := g.clock
	c.left[side], c.flagged, c.flag = 0, true, side
}

// charge takes the side to move's time since its clock last started off
// its clock and restarts it at now (tick must have come first).
func (g *game) charge(now time.Time) {
	if c := g.clock; c != nil {
		if g.running() {
			c.left[g.pos.SideToMove()] = g.timeLeft(g.pos.SideToMove(), now)
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
	if c.started {
		g.charge(now)
		c.left[g.pos.SideToMove()] += c.tc.inc
	}
	c.started, c.since = true, now
}

// outcome is the game's status and result, a loss on time included. A
// side whose time ran out while the other has only its king left draws,
// since a lone king can never mate (FIDE's rule 6.9, as the big sites
// play it).
func (g *game) outcome() (string, env.Result) {
	if c := g.clock; c != nil && c.flagged {
		switch {
		case g.pos.Material(c.flag.Other()) == 0:
			return statusTimeForfeit, env.Draw
		case c.flag == env.White:
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
	return g.pos.Status().IsOver() || g.clock != nil && g.clock.flagged
}

// overReason says how an ended game ended, for an error message.
func (g *game) overReason() string {
	if c := g.clock; c != nil && c.flagged {
		return colourName(c.flag) + "'s time ran out"
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
	js := &clockJSON{TimeControl: c.tc.String(), BaseMS: c.tc.base.Milliseconds(), IncrementMS: c.tc.inc.Milliseconds(),
		WhiteMS: g.timeLeft(env.White, now).Milliseconds(), BlackMS: g.timeLeft(env.Black, now).Milliseconds()}
	if g.running() {
		js.Running = g.pos.SideToMove().String()
	}
	if c.flagged {
		js.Flag = c.flag.String()
	}
	return js
}

// engineLimits is the clocks at now as the engine's time manager reads
// them.
func (g *game) engineLimits(now time.Time) clock.Limits {
	c := g.clock
	lim := clock.Limits{WTime: g.timeLeft(env.White, now), BTime: g.timeLeft(env.Black, now), WInc: c.tc.inc, BInc: c.tc.inc}
	// A clock at zero reads as "no clock" to the time manager; the side
	// that has not flagged yet has at least a millisecond.
	lim.WTime, lim.BTime = max(lim.WTime, time.Millisecond), max(lim.BTime, time.Millisecond)
	return lim
}
