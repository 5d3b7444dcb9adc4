package train

import (
	"math"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/runs"
)

// Resignation follows AlphaGo Zero: a side resigns when its value after a
// full search is below -threshold, and the threshold is chosen from games
// that were played out with resignation off, as the least cautious one
// whose false resignations (the side would have resigned, yet did not
// lose) stay below the configured rate.
const (
	// resignWindow is how many played-out sides the calibration keeps.
	resignWindow = 2000
	// resignMinCases is the fewest would-be resignations a threshold needs
	// among them before its false rate is trusted.
	resignMinCases = 30
	// resignLowest and resignHighest bound the thresholds considered.
	resignLowest, resignHighest = 0.5, 0.99
	// heldoutResignMargin is how far (in nats) the held-out value loss
	// must be below the constant-guess baseline, on average over the last
	// heldoutKept iterations, before resignation is switched on: until then
	// the values it reads are no better than a guess. One iteration's
	// measurement is too noisy to decide on.
	heldoutResignMargin = 0.05
	heldoutKept         = 3
)

// valueHeadBeatsGuess reports whether the last heldoutKept held-out
// measurements put the value head clearly below the constant guess.
func valueHeadBeatsGuess(hs []heldout) bool {
	if len(hs) < heldoutKept {
		return false
	}
	var gap float64
	for _, h := range hs[len(hs)-heldoutKept:] {
		gap += h.ValueLoss - h.Baseline
	}
	return gap/float64(heldoutKept) <= -heldoutResignMargin
}

// resignRecord is one side of a game played out with resignation off.
type resignRecord struct {
	// MinValue is the lowest resignation value the side saw.
	MinValue float32 `json:"v"`
	// Result is the side's result: +1 won, 0 drew, -1 lost.
	Result int8 `json:"r"`
	// Capped marks a game stopped at the ply cap: whether the side would
	// have lost is unknown, so it counts neither as a false resignation
	// nor as a right one.
	Capped bool `json:"c,omitempty"`
}

// resignCalibration is the run's record of played-out sides, saved in the
// checkpoint so that a resumed run calibrates exactly as before.
type resignCalibration struct {
	Records []resignRecord `json:"records,omitempty"`
}

// add records both sides of every game played out with resignation off.
func (c *resignCalibration) add(games []*SelfPlayGame) {
	for _, g := range games {
		if !g.NoResign {
			continue
		}
		for side := env.White; side <= env.Black; side++ {
			c.Records = append(c.Records, resignRecord{
				MinValue: g.MinValue[side],
				Result:   resultFor(g.Result, side),
				Capped:   g.Status == env.Adjudicated,
			})
		}
	}
	if n := len(c.Records); n > resignWindow {
		c.Records = append(c.Records[:0:0], c.Records[n-resignWindow:]...)
	}
}

// resignCheck counts, for one threshold, the played-out sides that would
// have resigned.
type resignCheck struct {
	Cases  int // would have resigned, game not capped
	False  int // of those, did not lose
	Capped int // would have resigned, game capped
}

// Rate is the false-resignation rate, NaN without cases.
func (r resignCheck) Rate() float64 {
	if r.Cases == 0 {
		return math.NaN()
	}
	return float64(r.False) / float64(r.Cases)
}

func checkThreshold(records []resignRecord, threshold float64) resignCheck {
	var r resignCheck
	for _, rec := range records {
		if float64(rec.MinValue) >= -threshold {
			continue
		}
		switch {
		case rec.Capped:
			r.Capped++
		default:
			r.Cases++
			if rec.Result >= 0 {
				r.False++
			}
		}
	}
	return r
}

// threshold returns the least cautious threshold in [resignLowest,
// resignHighest] (steps of 0.01) whose false rate over the records is at
// most target with at least resignMinCases cases, or 0 if none is.
func (c *resignCalibration) threshold(target float64) float64 {
	if target <= 0 {
		return 0
	}
	for i := int(math.Round(resignLowest * 100)); i <= int(math.Round(resignHighest*100)); i++ {
		t := float64(i) / 100
		r := checkThreshold(c.Records, t)
		if r.Cases >= resignMinCases && r.Rate() <= target {
			return t
		}
	}
	return 0
}

// resignThreshold is the resignation threshold in force for iteration it:
// the calibrated one, once the iteration and the value head allow it.
func (r *runner) resignThreshold(it int) float64 {
	sp := &r.cfg.SelfPlay
	if sp.ResignFalseRate == 0 || it < sp.ResignFrom || !valueHeadBeatsGuess(r.state.Heldout) {
		return 0
	}
	return r.state.ResignThreshold
}

// calibrateResignation adds the iteration's played-out games to the
// calibration, reports how the threshold in force (else the calibrated
// one) did on them, and calibrates the threshold for the next iteration.
func (r *runner) calibrateResignation(games []*SelfPlayGame, inForce float64, m *runs.Metrics) {
	sp := &r.cfg.SelfPlay
	if sp.ResignFalseRate == 0 {
		return
	}
	var fresh resignCalibration
	fresh.add(games)
	check := inForce
	if check == 0 {
		check = r.state.ResignThreshold
	}
	if check > 0 {
		c := checkThreshold(fresh.Records, check)
		m.ResignChecked, m.ResignCapped = c.Cases, c.Capped
		if c.Cases > 0 {
			rate := c.Rate()
			m.FalseResignRate = &rate
		}
	}
	m.ResignThreshold = inForce
	r.state.Resign.add(games)
	r.state.ResignThreshold = r.state.Resign.threshold(sp.ResignFalseRate)
}
