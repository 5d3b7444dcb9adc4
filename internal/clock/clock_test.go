package clock

import (
	"fmt"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
)

func TestBudget(t *testing.T) {
	const oh = 30 * time.Millisecond
	tests := []struct {
		l    Limits
		side env.Colour
		want time.Duration
	}{
		{Limits{}, env.White, 0},
		{Limits{Nodes: 5}, env.White, 0},
		{Limits{MoveTime: time.Second, Infinite: true}, env.White, 0},
		{Limits{MoveTime: time.Second}, env.Black, time.Second},
		{Limits{MoveTime: time.Second, Overhead: oh}, env.Black, time.Second - oh},
		{Limits{MoveTime: 50 * time.Millisecond, Overhead: oh}, env.Black, 40 * time.Millisecond},
		{Limits{WTime: 30 * time.Second, BTime: 3 * time.Second, WInc: 100 * time.Millisecond}, env.White, time.Second + 75*time.Millisecond},
		{Limits{WTime: 30 * time.Second, BTime: 3 * time.Second, WInc: 100 * time.Millisecond, Overhead: oh}, env.White, time.Second + 75*time.Millisecond - oh},
		{Limits{WTime: 30 * time.Second, BTime: 3 * time.Second, Overhead: oh}, env.Black, 100*time.Millisecond - oh},
		{Limits{WTime: 10 * time.Second, BTime: 10 * time.Second, MovesToGo: 2, Overhead: oh}, env.White, 5*time.Second - oh},
		{Limits{WTime: 10 * time.Second, MovesToGo: 1, WInc: 10 * time.Second, Overhead: oh}, env.White, 5*time.Second - oh},
		{Limits{WTime: 40 * time.Millisecond, MovesToGo: 1, Overhead: oh}, env.White, 10 * time.Millisecond},
		{Limits{WTime: time.Millisecond, Overhead: oh}, env.White, time.Millisecond},
		{Limits{WTime: time.Minute, MoveTime: 100 * time.Millisecond}, env.White, 100 * time.Millisecond},
		{Limits{WTime: time.Minute}, env.Black, 0}, // no clock for Black
	}
	for _, tt := range tests {
		if got := tt.l.Budget(tt.side); got != tt.want {
			t.Errorf("%+v %v: budget %v, want %v", tt.l, tt.side, got, tt.want)
		}
	}
}

func TestValidate(t *testing.T) {
	if err := (Limits{Nodes: 1, WTime: time.Second}).Validate(); err != nil {
		t.Error(err)
	}
	for _, l := range []Limits{{Nodes: -1}, {MoveTime: -1}, {BTime: -1}, {WInc: -1}, {MovesToGo: -1}, {Overhead: -1}} {
		if l.Validate() == nil {
			t.Errorf("%+v accepted", l)
		}
	}
}

func ExampleLimits_Budget() {
	// One minute each with a one-second increment: a 30th of the clock
	// plus three quarters of the increment, less the overhead.
	lim := Limits{WTime: time.Minute, BTime: time.Minute, WInc: time.Second, BInc: time.Second, Overhead: 50 * time.Millisecond}
	fmt.Println(lim.Budget(env.White))
	// A fixed time per move.
	fmt.Println(Limits{MoveTime: 2 * time.Second}.Budget(env.Black))
	// Output:
	// 2.7s
	// 2s
}

func TestWindow(t *testing.T) {
	tests := []struct {
		l            Limits
		target, most time.Duration
	}{
		{Limits{MoveTime: time.Second}, time.Second, time.Second},
		{Limits{MoveTime: time.Second, Overhead: 30 * time.Millisecond}, 970 * time.Millisecond, 970 * time.Millisecond},
		{Limits{Infinite: true, MoveTime: time.Second}, 0, 0},
		{Limits{Nodes: 100}, 0, 0},
		// 60 s: a target of 2 s, at most four of them.
		{Limits{WTime: time.Minute, BTime: time.Minute}, 2 * time.Second, 8 * time.Second},
		// 4 s left: a target of 133 ms, at most four of them (below a quarter of the clock).
		{Limits{WTime: 4 * time.Second, BTime: time.Minute}, 4 * time.Second / 30, 4 * (4 * time.Second / 30)},
		// The move time caps the window.
		{Limits{WTime: time.Minute, BTime: time.Minute, MoveTime: 3 * time.Second}, 2 * time.Second, 3 * time.Second},
	}
	for _, tt := range tests {
		target, most := tt.l.Window(env.White)
		if target != tt.target || most != tt.most {
			t.Errorf("%+v: window %v, %v; want %v, %v", tt.l, target, most, tt.target, tt.most)
		}
		if most < target {
			t.Errorf("%+v: most %v below target %v", tt.l, most, target)
		}
	}
}
