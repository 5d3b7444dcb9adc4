package arena

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/player"
)

// LimitOptions are the spec options the arena reads itself, for any kind
// of player, as cutechess reads "-engine … st=… nodes=… tc=…": each
// replaces the match's flag of the same meaning for that player alone.
// They are taken out of the spec before its factory sees it, so a UCI
// engine never receives them as setoption.
var limitOptions = []string{"movetime", "nodes", "tc"}

// playerLimits takes the limit options out of spec and returns the spec
// without them, the player's own limits per move and its own clock: the
// match's lim and tc with each given option replacing its part
// (movetime=D, nodes=N, tc=BASE+INC read as clock.Seconds reads it; 0, or
// tc=none, removes the match's limit for this player).
func playerLimits(spec player.Spec, lim clock.Limits, tc clock.Control) (player.Spec, clock.Limits, clock.Control, error) {
	out := spec
	out.Options = nil
	for _, o := range spec.Options {
		name := strings.ToLower(o.Name)
		if !isLimitOption(name) {
			out.Options = append(out.Options, o)
			continue
		}
		bad := func(want string) error {
			return fmt.Errorf("player %q: option %s=%q: want %s", spec.Text, o.Name, o.Value, want)
		}
		v := strings.TrimSpace(o.Value)
		switch name {
		case "nodes":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return spec, lim, tc, bad("a whole number of nodes ≥ 0 (0: none)")
			}
			lim.Nodes = n
		case "movetime":
			d, err := clock.ParseTime("move time", v, time.Second)
			if err != nil {
				return spec, lim, tc, bad("a time per move ≥ 0, e.g. 500ms or 0.5 (seconds; 0: none)")
			}
			lim.MoveTime = d
		case "tc":
			c, err := ParseClock(v)
			if err != nil {
				return spec, lim, tc, fmt.Errorf("player %q: option %s: %w", spec.Text, o.Name, err)
			}
			tc = c
		}
	}
	return out, lim, tc, nil
}

// ParseClock reads a match's clock as the arena's --tc and a player's tc=
// take it: BASE+INC with bare numbers in seconds (clock.Seconds), or
// none. The clock is for the whole game: moves per period are refused,
// and so is an increment without a base time.
func ParseClock(s string) (clock.Control, error) {
	c, err := clock.Seconds.Parse(s)
	if err != nil {
		return clock.Control{}, err
	}
	const want = "want BASE+INC, e.g. 10s+0.1s or 60+0.5 (seconds), or none"
	switch {
	case c.Moves != 0:
		return clock.Control{}, fmt.Errorf("time control %q: a match's clock is for the whole game, not %d moves per period (%s)", s, c.Moves, want)
	case c.Base == 0 && c.Inc > 0:
		return clock.Control{}, fmt.Errorf("time control %q: an increment needs a base time (%s)", s, want)
	}
	return c, nil
}

func isLimitOption(lowerName string) bool {
	for _, n := range limitOptions {
		if n == lowerName {
			return true
		}
	}
	return false
}
