package arena

import (
	"fmt"
	"strconv"
	"strings"

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
// without them and the player's own time control: the match's tc with
// each given option replacing its part (movetime=D, nodes=N, tc=BASE+INC;
// 0, or tc=none, removes the match's limit for this player).
func playerLimits(spec player.Spec, tc clock.Limits) (player.Spec, clock.Limits, error) {
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
				return spec, tc, bad("a whole number of nodes ≥ 0 (0: none)")
			}
			tc.Nodes = n
		case "movetime":
			d, err := parseSeconds(v)
			if err != nil || d < 0 {
				return spec, tc, bad("a time per move ≥ 0, e.g. 500ms or 0.5 (seconds; 0: none)")
			}
			tc.MoveTime = d
		case "tc":
			if v == "none" || v == "0" {
				tc.WTime, tc.BTime, tc.WInc, tc.BInc = 0, 0, 0, 0
				break
			}
			base, inc, err := ParseClock(v)
			if err != nil {
				return spec, tc, bad("a clock BASE+INC, e.g. 10s+0.1s or 60+0.5, or none")
			}
			tc.WTime, tc.BTime, tc.WInc, tc.BInc = base, base, inc, inc
		}
	}
	return out, tc, nil
}

func isLimitOption(lowerName string) bool {
	for _, n := range limitOptions {
		if n == lowerName {
			return true
		}
	}
	return false
}

// pgnTimeControl writes a clock as the PGN TimeControl tag ("10+0.1"), or
// "-" for none.
func pgnTimeControl(tc clock.Limits) string {
	if tc.WTime <= 0 {
		return "-"
	}
	return fmt.Sprintf("%g+%g", tc.WTime.Seconds(), tc.WInc.Seconds())
}
