package clock

import (
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
)

func TestGameChargesAndIncrements(t *testing.T) {
	const s = time.Second
	g := NewGame(Control{Base: 60 * s, Inc: 2 * s}, Control{Base: 60 * s, Inc: 2 * s})
	steps := []struct {
		side         env.Colour
		elapsed      time.Duration
		white, black time.Duration
	}{
		{env.White, 5 * s, 57 * s, 60 * s},
		{env.Black, 10 * s, 57 * s, 52 * s},
		{env.White, 0, 59 * s, 52 * s},
	}
	for i, st := range steps {
		if !g.Move(st.side, st.elapsed) {
			t.Fatalf("move %d flagged", i)
		}
		if g.Left(env.White) != st.white || g.Left(env.Black) != st.black {
			t.Fatalf("after move %d: %v and %v, want %v and %v", i, g.Left(env.White), g.Left(env.Black), st.white, st.black)
		}
	}
	want := Limits{WTime: 59 * s, BTime: 49 * s, WInc: 2 * s, BInc: 2 * s}
	if got := g.Limits(env.Black, 3*s); got != want {
		t.Errorf("limits %+v, want %+v", got, want)
	}
	if _, flagged := g.Flagged(); flagged {
		t.Error("flagged")
	}
}

func TestGameFlags(t *testing.T) {
	c := Control{Base: time.Second}
	tests := []struct {
		margin, elapsed time.Duration
		ok              bool
	}{
		{0, time.Second - time.Nanosecond, true},
		{0, time.Second, false}, // the whole time spent: the flag falls
		{100 * time.Millisecond, 1050 * time.Millisecond, true},
		{100 * time.Millisecond, 1100 * time.Millisecond, false},
	}
	for _, tt := range tests {
		g := NewGame(c, c)
		g.Margin = tt.margin
		if g.OutOfTime(env.White, tt.elapsed) == tt.ok {
			t.Errorf("margin %v, %v: out of time %v", tt.margin, tt.elapsed, !tt.ok)
		}
		if ok := g.Move(env.White, tt.elapsed); ok != tt.ok {
			t.Errorf("margin %v, %v: move ok %v, want %v", tt.margin, tt.elapsed, ok, tt.ok)
		}
		side, flagged := g.Flagged()
		if flagged == tt.ok || flagged && (side != env.White || g.Left(env.White) != 0) {
			t.Errorf("margin %v, %v: flagged %v %v, %v left", tt.margin, tt.elapsed, flagged, side, g.Left(env.White))
		}
		if tt.ok && g.Left(env.White) != time.Second-tt.elapsed {
			t.Errorf("margin %v, %v: %v left", tt.margin, tt.elapsed, g.Left(env.White))
		}
	}
	// Within the margin the clock goes below zero, and the next move has
	// the margin alone; the time manager sees a millisecond.
	g := NewGame(c, c)
	g.Margin = 100 * time.Millisecond
	g.Move(env.White, 1050*time.Millisecond)
	if l := g.Limits(env.White, 0); l.WTime != time.Millisecond {
		t.Errorf("a clock below zero reads %v", l.WTime)
	}
	if !g.Move(env.White, 99*time.Millisecond) || g.Move(env.White, 100*time.Millisecond) {
		t.Error("the margin is not per move")
	}
	// Once a flag fell the clocks stop.
	if g.Spend(env.Black, 0) || g.Move(env.Black, 0) || g.Left(env.Black) != time.Second {
		t.Error("the clocks run after the flag")
	}
}

func TestGameSpendAndSet(t *testing.T) {
	c := Control{Base: time.Minute, Inc: time.Second}
	g := NewGame(c, Control{})
	if !g.Spend(env.White, 10*time.Second) || g.Left(env.White) != 50*time.Second {
		t.Errorf("spend: %v left", g.Left(env.White))
	}
	// An untimed side never flags and has no clock for the time manager.
	if !g.Move(env.Black, time.Hour) || g.Timed(env.Black) {
		t.Error("the untimed side flagged")
	}
	if l := g.Limits(env.White, 0); l != (Limits{WTime: 50 * time.Second, WInc: time.Second}) {
		t.Errorf("limits %+v", l)
	}
	g.Set(env.White, 3*time.Second)
	if g.Left(env.White) != 3*time.Second || g.Control(env.White) != c {
		t.Errorf("set: %v, %+v", g.Left(env.White), g.Control(env.White))
	}
	// A clock read out from outside is a clock, with or without a
	// Control.
	g.Set(env.Black, 2*time.Second)
	if l := g.Limits(env.Black, 0); !g.Timed(env.Black) || l != (Limits{WTime: 3 * time.Second, WInc: time.Second, BTime: 2 * time.Second}) {
		t.Errorf("limits after a reading %+v", l)
	}
}

func TestGamePeriods(t *testing.T) {
	c := Control{Base: time.Minute, Moves: 2}
	g := NewGame(c, c)
	if l := g.Limits(env.White, 0); l.MovesToGo != 2 {
		t.Errorf("at the start: %d to go", l.MovesToGo)
	}
	g.Move(env.White, 10*time.Second)
	if l := g.Limits(env.White, 0); l.MovesToGo != 1 || l.WTime != 50*time.Second {
		t.Errorf("after one move: %+v", l)
	}
	g.Move(env.White, 10*time.Second)
	if l := g.Limits(env.White, 0); l.MovesToGo != 2 || l.WTime != 100*time.Second {
		t.Errorf("after the period: %+v", l)
	}
}
