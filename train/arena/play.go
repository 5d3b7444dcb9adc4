package arena

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/player"
	"github.com/alicezero/alicezero/internal/seed"
)

// gameSeed derives a player's seed for one game from the match seed.
func gameSeed(matchSeed uint64, game, colour int) uint64 {
	return seed.Derive(matchSeed, "game", uint64(game), uint64(colour))
}

// game is one game being played.
type game struct {
	r     *runner
	s     *slot
	rec   GameRecord
	sides [2]int // the players, by env.Colour
	ps    [2]player.Player
	moves []env.Move
	date  time.Time
	// clk is the clocks; a side plays with one when its own time control
	// has a base time.
	clk *clock.Game
}

// play plays one game; ok is false when the match was stopped during it.
func (r *runner) play(ctx context.Context, s *slot, t task) (rec GameRecord, ok bool) {
	g := &game{r: r, s: s, sides: [2]int{t.white, t.black}, date: time.Now(),
		rec: GameRecord{Number: t.number, Pairing: t.pairing, White: t.white, Black: t.black, Opening: r.openings[t.opening]}}
	g.moves = append([]env.Move(nil), g.rec.Opening.Moves...)
	g.clk = clock.NewGame(r.clocks[t.white], r.clocks[t.black])
	g.clk.Margin = r.cfg.TimeMargin
	for c := env.White; c <= env.Black; c++ {
		err := g.start(ctx, c)
		if ctx.Err() != nil {
			return rec, false
		}
		if err != nil {
			return g.finish(loses(c), TermFailure, err.Error())
		}
	}

	pos := r.starts[t.opening].Clone()
	scratch := pos.Clone()
	adj := adjudicator{draw: r.cfg.Draw, resign: r.cfg.Resign}
	var ml env.MoveList
	for {
		if st := pos.StatusWithCap(r.cfg.PlyCap); st.IsOver() {
			return g.finish(pos.Outcome(st), terminationOf(st), "")
		}
		c := pos.SideToMove()
		scratch.CopyFrom(pos)
		b := g.budget(c)
		m, elapsed, err := g.move(ctx, c, scratch, b)
		if ctx.Err() != nil {
			return rec, false
		}
		if err == nil {
			if pos.LegalMoves(&ml); !ml.Contains(m) {
				err = &player.IllegalMoveError{Player: g.name(c), Move: m.UCI(), Err: fmt.Errorf("not legal in %s", pos.FEN())}
			} else if !g.clk.Move(c, elapsed) {
				err = errOnTime
			}
		}
		if err != nil {
			r.discard(s, g.sides[c])
			var ime *player.IllegalMoveError
			switch {
			case errors.As(err, &ime):
				return g.finish(loses(c), TermIllegal, err.Error())
			case errors.Is(err, errOnTime):
				return g.onTime(c, b, elapsed)
			}
			return g.finish(loses(c), TermFailure, err.Error())
		}
		pos.MakeMove(m)
		g.moves = append(g.moves, m)
		if adj.draw != nil || adj.resign != nil {
			if st := pos.Status(); !st.IsOver() {
				if res, why, ok := adj.observe(pos, c, g.ps[c]); ok {
					return g.finish(res, TermAdjudicated, why)
				}
			}
		}
	}
}

// start readies side c's player for the game.
func (g *game) start(ctx context.Context, c env.Colour) error {
	p, err := g.r.get(ctx, g.s, g.sides[c])
	if err != nil {
		return err
	}
	if sd, ok := p.(player.Seeder); ok {
		sd.Seed(gameSeed(g.r.cfg.Seed, g.rec.Number, int(c)))
	}
	if err := p.NewGame(ctx); err != nil {
		g.r.discard(g.s, g.sides[c])
		return err
	}
	g.ps[c] = p
	return nil
}

func (g *game) name(c env.Colour) string { return g.r.cfg.Players[g.sides[c]] }

func loses(c env.Colour) env.Result {
	if c == env.White {
		return env.BlackWins
	}
	return env.WhiteWins
}

// finish records the game's end.
func (g *game) finish(res env.Result, term Termination, detail string) (GameRecord, bool) {
	g.rec.Result, g.rec.Termination, g.rec.Detail = res, term, detail
	g.rec.Game = g.r.pgnGame(g.rec, g.moves, g.date)
	if detail != "" && term != TermAdjudicated {
		g.r.logf("game %d (%s vs %s): %s: %s", g.rec.Number, g.name(env.White), g.name(env.Black), term, detail)
	}
	return g.rec, true
}

// budget is the time a move is allowed: allowed, its move time or the
// clock left, whichever is less (what says which), and hard, the longest
// it may take before it loses on time (allowed plus the margin; 0: no
// bound).
type budget struct {
	allowed, hard time.Duration
	what          string
}

func (g *game) budget(c env.Colour) budget {
	cfg, tc := &g.r.cfg, g.r.limits[g.sides[c]]
	switch {
	case g.clk.Timed(c):
		b := budget{allowed: max(g.clk.Left(c), 0), what: "clock"}
		if tc.MoveTime > 0 && tc.MoveTime < b.allowed {
			b.allowed, b.what = tc.MoveTime, "move time"
		}
		b.hard = b.allowed + cfg.TimeMargin
		return b
	case tc.MoveTime > 0:
		return budget{allowed: tc.MoveTime, hard: tc.MoveTime + cfg.TimeMargin, what: "move time"}
	}
	return budget{allowed: cfg.MoveTimeout, hard: cfg.MoveTimeout, what: "move timeout"}
}

// Precise rounds d to three significant digits (to the microsecond at
// the finest), for reports of time: 400µs over a 20 ms move time must not
// read "0s", nor 1.2345678s print all its digits.
func Precise(d time.Duration) time.Duration {
	unit := time.Microsecond
	for a := max(d, -d); a/unit >= 1000; unit *= 10 {
	}
	return d.Round(unit)
}

// errOnTime is a move past its budget or its clock.
var errOnTime = errors.New("time forfeit")

// move asks side c's player for its move in pos under its own limits and
// the clocks, within b, and returns it with the time it took. A move past
// b fails with errOnTime.
func (g *game) move(ctx context.Context, c env.Colour, pos *env.Position, b budget) (env.Move, time.Duration, error) {
	tc := g.r.limits[g.sides[c]]
	// A side with a clock sees the clocks (the opponent's when it has
	// one); a side without sees none.
	var limits clock.Limits
	if g.clk.Timed(c) {
		limits = g.clk.Limits(c, 0)
	}
	limits.Nodes, limits.MoveTime, limits.Overhead = tc.Nodes, tc.MoveTime, tc.Overhead
	moveCtx, cancel := ctx, context.CancelFunc(func() {})
	if b.hard > 0 {
		moveCtx, cancel = context.WithTimeout(ctx, b.hard)
	}
	start := time.Now()
	m, err := g.ps[c].Move(moveCtx, pos, limits)
	elapsed := time.Since(start)
	timedOut := moveCtx.Err() != nil
	cancel()
	var ime *player.IllegalMoveError
	switch {
	case err != nil && !errors.As(err, &ime) && timedOut:
		return m, elapsed, errOnTime
	case err != nil:
		return m, elapsed, err
	case b.hard > 0 && elapsed > b.hard:
		return m, elapsed, errOnTime
	}
	return m, elapsed, nil
}

// onTime ends the game lost on time by side c, whose move took elapsed
// against its budget b, recording the overrun.
func (g *game) onTime(c env.Colour, b budget, elapsed time.Duration) (GameRecord, bool) {
	g.rec.Overrun = max(elapsed-b.allowed, 0)
	detail := fmt.Sprintf("%s took %v, %v over its %v %s", g.name(c), Precise(elapsed), Precise(g.rec.Overrun), Precise(b.allowed), b.what)
	if b.hard > b.allowed {
		detail += fmt.Sprintf(" (the margin is %v: --timemargin)", g.r.cfg.TimeMargin)
	}
	return g.finish(loses(c), TermTime, detail)
}
