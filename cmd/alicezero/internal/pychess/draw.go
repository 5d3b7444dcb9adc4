package pychess

// DrawRule decides when the bot offers or agrees to a draw: once at least
// MinPly plies have been played, it agrees to an offer when its search
// values the position within ±MaxValue, and offers one itself when its
// last Streak searches all did. Values are W−L in [−1, 1] from the side
// to move's view; engines that report none never draw by agreement.
//
// On pychess the rule is dormant: the server forwards no draw offers to
// bots and ignores a bot's (testdata/README.md). It acts where the server
// reports offers (wdraw/bdraw) and reads lichess's offeringDraw.
type DrawRule struct {
	// MinPly is the earliest ply of an agreed draw; 0 means DefaultDrawMinPly.
	MinPly int
	// MaxValue bounds |value|; 0 means DefaultDrawMaxValue. Negative
	// disables draws by agreement.
	MaxValue float64
	// Streak is the number of own searches in a row within MaxValue
	// before the bot offers; 0 means DefaultDrawStreak.
	Streak int
}

// Defaults of DrawRule: from move 40 on, a value within ±0.05 (about
// 5 centipawns on lc0's scale), over the bot's last 5 moves for an offer.
const (
	DefaultDrawMinPly   = 80
	DefaultDrawMaxValue = 0.05
	DefaultDrawStreak   = 5
)

func (r DrawRule) withDefaults() DrawRule {
	if r.MinPly <= 0 {
		r.MinPly = DefaultDrawMinPly
	}
	if r.MaxValue == 0 {
		r.MaxValue = DefaultDrawMaxValue
	}
	if r.Streak <= 0 {
		r.Streak = DefaultDrawStreak
	}
	return r
}

// Want reports whether to offer or agree to a draw with the move about to
// be played at ply ply: values are the bot's search values so far, the
// newest last (for this move), and offered tells whether the opponent has
// an offer standing.
func (r DrawRule) Want(ply int, values []float64, offered bool) bool {
	r = r.withDefaults()
	if r.MaxValue < 0 || ply < r.MinPly || len(values) == 0 {
		return false
	}
	need := r.Streak
	if offered {
		need = 1
	}
	if len(values) < need {
		return false
	}
	for _, v := range values[len(values)-need:] {
		if v > r.MaxValue || v < -r.MaxValue {
			return false
		}
	}
	return true
}
