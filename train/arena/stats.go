package arena

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Z95 is the two-sided 95% quantile of the normal distribution.
const Z95 = 1.959963984540054

// Score returns the points per game of W wins, D draws and L losses.
func Score(w, d, l int) float64 {
	n := w + d + l
	if n == 0 {
		return math.NaN()
	}
	return (float64(w) + 0.5*float64(d)) / float64(n)
}

// EloFromScore converts an expected score to a logistic Elo difference:
// -400·log10(1/s − 1). Scores of 0 and 1 give −Inf and +Inf.
func EloFromScore(s float64) float64 {
	switch {
	case math.IsNaN(s):
		return math.NaN()
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo is the inverse of EloFromScore.
func ScoreFromElo(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// EloEstimate is an Elo difference with its 95% confidence interval.
type EloEstimate struct {
	Elo, Low, High float64
}

// EloDiff estimates the Elo difference of a W/D/L record. The interval is
// s ± 1.96·σ/√n, with σ² the trinomial variance of the per-game scores
// (W·(1−s)² + D·(½−s)² + L·s²)/n, mapped through EloFromScore; a bound
// past 0 or 1 becomes ∓Inf.
func EloDiff(w, d, l int) EloEstimate {
	n := w + d + l
	if n == 0 {
		return EloEstimate{math.NaN(), math.NaN(), math.NaN()}
	}
	s := Score(w, d, l)
	fw, fd, fl := float64(w), float64(d), float64(l)
	variance := (fw*(1-s)*(1-s) + fd*(0.5-s)*(0.5-s) + fl*s*s) / float64(n)
	margin := Z95 * math.Sqrt(variance/float64(n))
	return EloEstimate{
		Elo:  EloFromScore(s),
		Low:  EloFromScore(s - margin),
		High: EloFromScore(s + margin),
	}
}

// LOS is the likelihood of superiority: the probability that the player
// with W wins and L losses is the stronger, 0.5·(1 + erf((W−L)/√(2(W+L)))).
// Draws do not count. With no decisive game it is 0.5.
func LOS(w, l int) float64 {
	if w+l == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(w-l)/math.Sqrt(2*float64(w+l))))
}

// SPRT is a sequential probability ratio test of H0: Elo = Elo0 against
// H1: Elo = Elo1 (logistic Elo of the first player over the second), with
// false-positive rate Alpha and false-negative rate Beta.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// ParseSPRT reads "elo0,elo1,alpha,beta", e.g. "0,10,0.05,0.05". Its
// errors say what is wrong with the text, which the caller names (the
// flag it came from).
func ParseSPRT(s string) (SPRT, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return SPRT{}, errors.New("want elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05)")
	}
	var v [4]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		switch {
		case err != nil:
			return SPRT{}, fmt.Errorf("%q is not a number", p)
		case math.IsInf(f, 0) || math.IsNaN(f):
			return SPRT{}, fmt.Errorf("%q is not a finite number", p)
		}
		v[i] = f
	}
	t := SPRT{Elo0: v[0], Elo1: v[1], Alpha: v[2], Beta: v[3]}
	return t, t.Validate()
}

// Validate checks the test's parameters.
func (t SPRT) Validate() error {
	switch {
	case math.IsInf(t.Elo0, 0) || math.IsNaN(t.Elo0) || math.IsInf(t.Elo1, 0) || math.IsNaN(t.Elo1):
		return fmt.Errorf("elo0 and elo1 must be finite, got %g and %g", t.Elo0, t.Elo1)
	case !(t.Elo1 > t.Elo0):
		return fmt.Errorf("elo1 (%g) must be greater than elo0 (%g)", t.Elo1, t.Elo0)
	case !(t.Alpha > 0 && t.Alpha < 0.5 && t.Beta > 0 && t.Beta < 0.5):
		return errors.New("alpha and beta must lie between 0 and 0.5")
	}
	return nil
}

// Bounds returns the LLR bounds: H0 is accepted at or below lower =
// ln(β/(1−α)), H1 at or above upper = ln((1−β)/α).
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR is the log-likelihood ratio of H1 over H0 for a W/D/L record, by the
// normal approximation of the generalised SPRT used by fishtest and
// cutechess: with s̄ the mean score, σ² the per-game variance of the
// scores and sᵢ = ScoreFromElo(Eloᵢ),
//
//	LLR = n·(s₁ − s₀)·(2s̄ − s₀ − s₁) / (2σ²).
//
// It is 0 while the scores have no variance (only wins, only draws or
// only losses so far): the approximation says nothing then, so a match
// that one side wins game after game never ends by the SPRT.
func (t SPRT) LLR(w, d, l int) float64 {
	n := w + d + l
	if n == 0 {
		return 0
	}
	s := Score(w, d, l)
	fw, fd, fl := float64(w), float64(d), float64(l)
	variance := (fw*(1-s)*(1-s) + fd*(0.5-s)*(0.5-s) + fl*s*s) / float64(n)
	if variance <= 0 {
		return 0
	}
	s0, s1 := ScoreFromElo(t.Elo0), ScoreFromElo(t.Elo1)
	return float64(n) * (s1 - s0) * (2*s - s0 - s1) / (2 * variance)
}

// SPRTDecision is the state of an SPRT.
type SPRTDecision int

const (
	SPRTContinue SPRTDecision = iota
	SPRTAcceptH0
	SPRTAcceptH1
)

func (d SPRTDecision) String() string {
	switch d {
	case SPRTAcceptH0:
		return "H0 accepted"
	case SPRTAcceptH1:
		return "H1 accepted"
	}
	return "inconclusive"
}

// Decide applies the bounds to the record's LLR.
func (t SPRT) Decide(w, d, l int) SPRTDecision {
	llr := t.LLR(w, d, l)
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return SPRTAcceptH1
	case llr <= lo:
		return SPRTAcceptH0
	}
	return SPRTContinue
}

// PairScore is the record of one pairing for FitRatings: A scored PointsA
// points in Games games against B.
type PairScore struct {
	A, B    int
	Games   int
	PointsA float64
}

// RatingFit is a maximum-likelihood rating list.
type RatingFit struct {
	// Elo holds each player's rating, the anchor's 0; NaN for a player
	// without games linking it to the anchor.
	Elo []float64
	// StdErr is each rating's standard error relative to the anchor (0 for
	// the anchor itself).
	StdErr []float64
}

// CI95 returns the 95% interval of player i's rating.
func (f RatingFit) CI95(i int) (lo, hi float64) {
	return f.Elo[i] - Z95*f.StdErr[i], f.Elo[i] + Z95*f.StdErr[i]
}

// FitRatings fits the Bradley–Terry model (logistic Elo) to the pairings
// by maximum likelihood, counting a draw as half a win and half a loss,
// with the MM iteration of Hunter (2004). Each pairing that was played
// gets one virtual draw as a prior, so that a player who won or lost every
// game still gets a finite rating (BayesElo's default prior is similar).
// Standard errors come from the inverse of the Fisher information (the
// negative Hessian of the log-likelihood) with the anchor's rating fixed
// at 0; draws counted as half-wins make them a little wide when draws are
// common.
func FitRatings(players int, pairs []PairScore, anchor int) (RatingFit, error) {
	if anchor < 0 || anchor >= players {
		return RatingFit{}, fmt.Errorf("rating anchor %d out of range", anchor)
	}
	games := make([][]float64, players) // games[i][j], prior included
	points := make([]float64, players)  // points of i, prior included
	for i := range games {
		games[i] = make([]float64, players)
	}
	for _, p := range pairs {
		if p.A == p.B || p.A < 0 || p.B < 0 || p.A >= players || p.B >= players {
			return RatingFit{}, fmt.Errorf("pairing %d-%d out of range", p.A, p.B)
		}
		if p.Games == 0 {
			continue
		}
		n := float64(p.Games) + 1
		games[p.A][p.B] += n
		games[p.B][p.A] += n
		points[p.A] += p.PointsA + 0.5
		points[p.B] += float64(p.Games) - p.PointsA + 0.5
	}

	// Players linked to the anchor by games; the rest stay NaN.
	linked := make([]bool, players)
	linked[anchor] = true
	for stack := []int{anchor}; len(stack) > 0; {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for j := range players {
			if games[i][j] > 0 && !linked[j] {
				linked[j] = true
				stack = append(stack, j)
			}
		}
	}

	gamma := make([]float64, players)
	for i := range gamma {
		gamma[i] = 1
	}
	next := make([]float64, players)
	for iter := 0; iter < 100000; iter++ {
		change := 0.0
		for i := range players {
			if !linked[i] {
				continue
			}
			den := 0.0
			for j := range players {
				if linked[j] && games[i][j] > 0 {
					den += games[i][j] / (gamma[i] + gamma[j])
				}
			}
			next[i] = gamma[i]
			if den > 0 {
				next[i] = points[i] / den
			}
		}
		// Rescale so the anchor stays at 1: the model fixes only ratios.
		scale := next[anchor]
		for i := range players {
			if linked[i] {
				next[i] /= scale
				change = max(change, math.Abs(math.Log(next[i]/gamma[i])))
				gamma[i] = next[i]
			}
		}
		if change < 1e-12 {
			break
		}
	}

	fit := RatingFit{Elo: make([]float64, players), StdErr: make([]float64, players)}
	for i := range players {
		fit.Elo[i], fit.StdErr[i] = math.NaN(), math.NaN()
		if linked[i] {
			fit.Elo[i] = 400 * math.Log10(gamma[i])
		}
	}
	fit.StdErr[anchor] = 0

	// Fisher information over the natural-log strengths θ = ln γ of the
	// linked players other than the anchor.
	var idx []int
	for i := range players {
		if linked[i] && i != anchor {
			idx = append(idx, i)
		}
	}
	m := len(idx)
	if m == 0 {
		return fit, nil
	}
	info := mat.NewSymDense(m, nil)
	for a, i := range idx {
		for j := range players {
			if !linked[j] || games[i][j] == 0 {
				continue
			}
			p := gamma[i] / (gamma[i] + gamma[j])
			w := games[i][j] * p * (1 - p)
			info.SetSym(a, a, info.At(a, a)+w)
			for b, k := range idx {
				if k == j && b > a {
					info.SetSym(a, b, info.At(a, b)-w)
				}
			}
		}
	}
	// The information matrix is positive definite when every player is
	// linked to the anchor; Cholesky fails (and the errors stay unknown)
	// otherwise.
	var chol mat.Cholesky
	var cov mat.SymDense
	if chol.Factorize(info) && chol.InverseTo(&cov) == nil {
		for a, i := range idx {
			fit.StdErr[i] = math.Sqrt(cov.At(a, a)) * 400 / math.Ln10
		}
	}
	return fit, nil
}
