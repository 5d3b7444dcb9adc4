package arena

import (
	"math"
	"math/rand/v2"
	"testing"
)

func near(a, b, tol float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= tol
}

func TestEloDiffKnownValues(t *testing.T) {
	tests := []struct {
		name         string
		w, d, l      int
		score        float64
		elo, low, hi float64
		hand         string
	}{
		{
			name: "60/20/20", w: 60, d: 20, l: 20, score: 0.7,
			// s = (60 + 10)/100 = 0.7; Elo = -400·log10(1/0.7 - 1) = +147.19.
			// σ² = (60·0.3² + 20·0.2² + 20·0.7²)/100 = (5.4 + 0.8 + 9.8)/100 = 0.16,
			// σ/√n = 0.4/10 = 0.04, margin = 1.95996·0.04 = 0.078399:
			// s ∈ [0.621601, 0.778399] → Elo [+86.23, +218.25].
			elo: 147.19, low: 86.23, hi: 218.25,
		},
		{
			name: "30/40/30", w: 30, d: 40, l: 30, score: 0.5,
			// σ² = (30·0.25 + 0 + 30·0.25)/100 = 0.15, margin = 1.95996·√0.0015 = 0.075909:
			// s ∈ [0.424091, 0.575909] → Elo [-53.16, +53.16].
			elo: 0, low: -53.16, hi: 53.16,
		},
		{
			name: "12/6/2", w: 12, d: 6, l: 2, score: 0.75,
			// σ² = (12·0.0625 + 6·0.0625 + 2·0.5625)/20 = 0.1125, margin = 1.95996·√(0.1125/20) = 0.146997:
			// s ∈ [0.603003, 0.896997] → Elo [+72.61, +375.98]; Elo(0.75) = +190.85.
			elo: 190.85, low: 72.61, hi: 375.98,
		},
		{
			name: "all draws", w: 0, d: 10, l: 0, score: 0.5,
			elo: 0, low: 0, hi: 0, // no variance: a point interval
		},
		{
			name: "all wins", w: 10, d: 0, l: 0, score: 1,
			elo: math.Inf(1), low: math.Inf(1), hi: math.Inf(1),
		},
		{
			name: "9/1/0", w: 9, d: 1, l: 0, score: 0.95,
			// σ² = (9·0.0025 + 0.2025)/10 = 0.0225, margin = 1.95996·0.047434 = 0.092968:
			// s ∈ [0.857031, 1.042969] → [+311.10, +inf]; Elo(0.95) = +511.50.
			elo: 511.50, low: 311.10, hi: math.Inf(1),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if s := Score(tt.w, tt.d, tt.l); !near(s, tt.score, 1e-12) {
				t.Errorf("score %v, want %v", s, tt.score)
			}
			e := EloDiff(tt.w, tt.d, tt.l)
			if !near(e.Elo, tt.elo, 0.01) || !near(e.Low, tt.low, 0.01) || !near(e.High, tt.hi, 0.01) {
				t.Errorf("Elo %.2f [%.2f, %.2f], want %.2f [%.2f, %.2f]", e.Elo, e.Low, e.High, tt.elo, tt.low, tt.hi)
			}
		})
	}
}

func TestLOSKnownValues(t *testing.T) {
	tests := []struct {
		w, l int
		want float64
	}{
		{5, 5, 0.5},
		{0, 0, 0.5},
		// 0.5·(1 + erf(4/√40)) = 0.5·(1 + erf(0.63246)) = 0.81445
		{12, 8, 0.814453},
		{8, 12, 0.185547},
		// 0.5·(1 + erf(40/√160)) = 0.5·(1 + erf(3.16228)) = 0.9999961
		{60, 20, 0.9999961},
	}
	for _, tt := range tests {
		if got := LOS(tt.w, tt.l); !near(got, tt.want, 1e-6) {
			t.Errorf("LOS(%d, %d) = %.7f, want %.7f", tt.w, tt.l, got, tt.want)
		}
	}
}

func TestSPRTKnownValues(t *testing.T) {
	s, err := ParseSPRT("0,10,0.05,0.05")
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := s.Bounds()
	// ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = +2.944439
	if !near(lo, -2.944439, 1e-6) || !near(hi, 2.944439, 1e-6) {
		t.Errorf("bounds [%f, %f]", lo, hi)
	}
	// 60/20/20: s̄ = 0.7, σ² = 0.16, s₀ = 0.5, s₁ = 1/(1+10^(-10/400)) = 0.514387;
	// LLR = 100·0.014387·(1.4 - 1.014387)/(2·0.16) = 1.733713.
	if llr := s.LLR(60, 20, 20); !near(llr, 1.733713, 1e-5) {
		t.Errorf("LLR(60,20,20) = %f", llr)
	}
	// 520/1000/480: s̄ = 0.51, σ² = 0.1249; LLR = 2000·0.014387·(1.02 - 1.014387)/(2·0.1249) = 0.646538.
	if llr := s.LLR(520, 1000, 480); !near(llr, 0.646538, 1e-5) {
		t.Errorf("LLR(520,1000,480) = %f", llr)
	}
	// Records without variance say nothing.
	for _, r := range [][3]int{{0, 0, 0}, {20, 0, 0}, {0, 20, 0}, {0, 0, 20}} {
		if llr := s.LLR(r[0], r[1], r[2]); llr != 0 {
			t.Errorf("LLR%v = %f, want 0", r, llr)
		}
	}
	for _, bad := range []string{"10,0,0.05,0.05", "0,10,0.05", "0,10,0,0.05", "a,b,c,d", "-inf,10,0.05,0.05", "0,+Inf,0.05,0.05", "NaN,10,0.05,0.05"} {
		if _, err := ParseSPRT(bad); err == nil {
			t.Errorf("ParseSPRT(%q): no error", bad)
		}
	}
}

// simulate plays one game of a player trueElo stronger, with draws at
// drawRate, and returns its points.
func simulate(rng *rand.Rand, trueElo, drawRate float64) float64 {
	s := ScoreFromElo(trueElo)
	win := s - drawRate/2
	switch u := rng.Float64(); {
	case u < win:
		return 1
	case u < win+drawRate:
		return 0.5
	}
	return 0
}

func TestSPRTDecidesOnSimulatedMatches(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	rng := rand.New(rand.NewPCG(42, 1))
	run := func(trueElo float64) (SPRTDecision, int) {
		var w, d, l int
		for n := 1; n <= 200000; n++ {
			switch simulate(rng, trueElo, 0.4) {
			case 1:
				w++
			case 0.5:
				d++
			default:
				l++
			}
			if dec := test.Decide(w, d, l); dec != SPRTContinue {
				return dec, n
			}
		}
		return SPRTContinue, 200000
	}
	tests := []struct {
		trueElo float64
		want    SPRTDecision
		minOK   int // of 20 runs
	}{
		{60, SPRTAcceptH1, 20},
		{-40, SPRTAcceptH0, 20},
		{20, SPRTAcceptH1, 17}, // at elo1: H1 with probability 1-β
		{0, SPRTAcceptH0, 17},  // at elo0: H0 with probability 1-α
	}
	for _, tt := range tests {
		ok, games := 0, 0
		for range 20 {
			dec, n := run(tt.trueElo)
			games += n
			if dec == tt.want {
				ok++
			}
		}
		t.Logf("true Elo %+g: %s in %d/20 runs, %d games on average", tt.trueElo, tt.want, ok, games/20)
		if ok < tt.minOK {
			t.Errorf("true Elo %+g: %s in only %d/20 runs", tt.trueElo, tt.want, ok)
		}
	}
}

func TestFitRatingsTwoPlayers(t *testing.T) {
	// 75 points of 100, plus the prior's virtual draw: 75.5 of 101, so
	// Elo = 400·log10(75.5/25.5) = +188.56.
	fit, err := FitRatings(2, []PairScore{{A: 0, B: 1, Games: 100, PointsA: 75}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !near(fit.Elo[0], 188.56, 0.01) || fit.Elo[1] != 0 || fit.StdErr[1] != 0 {
		t.Errorf("fit %+v", fit)
	}
	// Standard error: 1/√(n·p·(1-p)) in natural units with n = 101,
	// p = 75.5/101: 0.22887 → ·400/ln 10 = 39.76 Elo.
	if !near(fit.StdErr[0], 39.76, 0.05) {
		t.Errorf("stderr %.3f, want 39.76", fit.StdErr[0])
	}
	// All wins: finite thanks to the prior (20.5/0.5 → +645.1).
	fit, _ = FitRatings(2, []PairScore{{A: 0, B: 1, Games: 20, PointsA: 20}}, 1)
	if !near(fit.Elo[0], 400*math.Log10(20.5/0.5), 0.01) {
		t.Errorf("all wins: %.2f", fit.Elo[0])
	}
	// A player without games is unrated.
	fit, _ = FitRatings(3, []PairScore{{A: 0, B: 1, Games: 20, PointsA: 10}}, 0)
	if !math.IsNaN(fit.Elo[2]) {
		t.Errorf("player without games rated %v", fit.Elo[2])
	}
}

func TestFitRatingsRecoversSimulatedStrengths(t *testing.T) {
	truth := []float64{0, 150, -100, 300, 60}
	rng := rand.New(rand.NewPCG(7, 7))
	var pairs []PairScore
	const games = 400
	for i := range truth {
		for j := i + 1; j < len(truth); j++ {
			ps := PairScore{A: i, B: j, Games: games}
			for range games {
				ps.PointsA += simulate(rng, truth[i]-truth[j], 0.3)
			}
			pairs = append(pairs, ps)
		}
	}
	fit, err := FitRatings(len(truth), pairs, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range truth {
		lo, hi := fit.CI95(i)
		t.Logf("player %d: true %+.0f, fitted %+.1f [%+.1f, %+.1f]", i, want, fit.Elo[i], lo, hi)
		if math.Abs(fit.Elo[i]-want) > 40 || (i != 0 && (want < lo-10 || want > hi+10)) {
			t.Errorf("player %d: fitted %+.1f [%+.1f, %+.1f], true %+.0f", i, fit.Elo[i], lo, hi, want)
		}
	}
}

func TestEloText(t *testing.T) {
	for _, tt := range []struct {
		x    float64
		want string
	}{
		{0, "+0.0"}, {math.Copysign(0, -1), "+0.0"}, {-0.04, "+0.0"}, {0.04, "+0.0"},
		{-0.05, "-0.1"}, {12.34, "+12.3"}, {-7.25, "-7.3"},
		{math.Inf(1), "+inf"}, {math.Inf(-1), "-inf"}, {math.NaN(), "-"},
	} {
		if got := elo(tt.x); got != tt.want {
			t.Errorf("elo(%v) = %q, want %q", tt.x, got, tt.want)
		}
	}
}
