package arena

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alicezero/alicezero/env"
)

// WriteReport writes the results as aligned plain text: a summary line,
// the SPRT state when there is one, the pairings table and the rating
// list.
func (r *Result) WriteReport(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s of %d players: %d of %d games played", r.Format, len(r.Players), len(r.Games), r.Planned)
	if r.Interrupted {
		fmt.Fprint(bw, " (interrupted)")
	}
	fmt.Fprintln(bw)
	if s := r.SPRT; s != nil {
		fmt.Fprintf(bw, "SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f [%.3f, %.3f], %s\n",
			s.Elo0, s.Elo1, s.Alpha, s.Beta, s.LLR, s.Lower, s.Upper, s.Decision)
	}
	fmt.Fprintln(bw)

	rows := [][]string{{"Player A", "Player B", "Games", "Score", "W", "D", "L", "Elo A-B", "95% CI", "LOS", "Adj", "Forf"}}
	for _, p := range r.Pairings {
		rows = append(rows, []string{p.NameA, p.NameB, itoa(p.Games), pct(p.Score), itoa(p.Wins), itoa(p.Draws), itoa(p.Losses),
			elo(p.Elo.Elo), interval(p.Elo.Low, p.Elo.High), pct(p.LOS), itoa(p.Adjudicated), itoa(p.Forfeit)})
	}
	writeTable(bw, rows, "llrrrrrrrrrr")

	fmt.Fprintf(bw, "\nRating list (maximum likelihood, %s = 0):\n", r.Players[r.Anchor])
	order := make([]int, len(r.Ratings))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ea, eb := r.Ratings[order[a]].Elo, r.Ratings[order[b]].Elo
		return ea > eb || !math.IsNaN(ea) && math.IsNaN(eb)
	})
	rows = [][]string{{"Rank", "Player", "Elo", "95% CI", "Games", "Score"}}
	for rank, i := range order {
		pr := r.Ratings[i]
		rows = append(rows, []string{itoa(rank + 1), pr.Name, elo(pr.Elo), interval(pr.Low, pr.High), itoa(pr.Games), pct(pr.Score)})
	}
	writeTable(bw, rows, "rlrrrr")
	return bw.Flush()
}

// writeTable writes rows as columns two spaces apart, each aligned by
// align ('l' left, 'r' right; missing letters mean right).
func writeTable(w io.Writer, rows [][]string, align string) {
	var width []int
	for _, row := range rows {
		for c, cell := range row {
			if c == len(width) {
				width = append(width, 0)
			}
			width[c] = max(width[c], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		b.Reset()
		for c, cell := range row {
			pad := strings.Repeat(" ", width[c]-utf8.RuneCountInString(cell))
			if c > 0 {
				b.WriteString("  ")
			}
			if c < len(align) && align[c] == 'l' {
				b.WriteString(cell)
				if c < len(row)-1 {
					b.WriteString(pad)
				}
			} else {
				b.WriteString(pad + cell)
			}
		}
		fmt.Fprintln(w, b.String())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func elo(x float64) string {
	switch {
	case math.IsNaN(x):
		return "-"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	// Round first so that a value just below zero (or -0 itself) is
	// written +0.0, not -0.0.
	r := math.Round(x*10) / 10
	if r == 0 {
		r = 0
	}
	return fmt.Sprintf("%+.1f", r)
}

func interval(lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return "-"
	}
	return "[" + elo(lo) + ", " + elo(hi) + "]"
}

func pct(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

// jsonNumber writes a finite float, rounded, and null for NaN and ±Inf
// (an Elo difference from a 100% score is unbounded).
type jsonNumber struct {
	v      float64
	digits int
}

func (n jsonNumber) MarshalJSON() ([]byte, error) {
	if math.IsNaN(n.v) || math.IsInf(n.v, 0) {
		return []byte("null"), nil
	}
	p := math.Pow(10, float64(n.digits))
	return json.Marshal(math.Round(n.v*p) / p)
}

type jsonPlayer struct {
	Name  string        `json:"name"`
	Elo   jsonNumber    `json:"elo"`
	CI95  [2]jsonNumber `json:"ci95"`
	Games int           `json:"games"`
	Score jsonNumber    `json:"score"`
}

type jsonPairing struct {
	A       string        `json:"a"`
	B       string        `json:"b"`
	WinsA   int           `json:"wins_a"`
	Draws   int           `json:"draws"`
	LossesA int           `json:"losses_a"`
	EloDiff jsonNumber    `json:"elo_diff"`
	CI95    [2]jsonNumber `json:"ci95"`
	LOS     jsonNumber    `json:"los"`
}

// jsonSPRT is the SPRT's verdict in WriteJSON.
type jsonSPRT struct {
	Elo0     float64    `json:"elo0"`
	Elo1     float64    `json:"elo1"`
	Alpha    float64    `json:"alpha"`
	Beta     float64    `json:"beta"`
	LLR      jsonNumber `json:"llr"`
	Lower    jsonNumber `json:"lower"`
	Upper    jsonNumber `json:"upper"`
	Decision string     `json:"decision"`
}

// WriteJSON writes the rating list, the pairings and, for a match with
// an SPRT, its verdict as JSON:
//
//	{"players": [{"name", "elo", "ci95": [lo, hi], "games", "score"}],
//	 "pairings": [{"a", "b", "wins_a", "draws", "losses_a", "elo_diff", "ci95", "los"}],
//	 "sprt": {"elo0", "elo1", "alpha", "beta", "llr", "lower", "upper", "decision"}}
//
// Elo values are rounded to 0.1, score (points per game) and los to 1e-4,
// the LLR and its bounds to 1e-3; an unbounded or undefined value is
// null. The SPRT's decision is "H0" or "H1" (accepted) or "inconclusive"
// (the match ended before the LLR reached a bound); "sprt" is absent
// without an SPRT.
func (r *Result) WriteJSON(w io.Writer) error {
	out := struct {
		Players  []jsonPlayer  `json:"players"`
		Pairings []jsonPairing `json:"pairings"`
		SPRT     *jsonSPRT     `json:"sprt,omitempty"`
	}{Players: []jsonPlayer{}, Pairings: []jsonPairing{}}
	if s := r.SPRT; s != nil {
		decision := map[SPRTDecision]string{SPRTAcceptH0: "H0", SPRTAcceptH1: "H1"}[s.Decision]
		if decision == "" {
			decision = "inconclusive"
		}
		out.SPRT = &jsonSPRT{Elo0: s.Elo0, Elo1: s.Elo1, Alpha: s.Alpha, Beta: s.Beta,
			LLR: jsonNumber{s.LLR, 3}, Lower: jsonNumber{s.Lower, 3}, Upper: jsonNumber{s.Upper, 3}, Decision: decision}
	}
	for _, p := range r.Ratings {
		out.Players = append(out.Players, jsonPlayer{
			Name: p.Name, Elo: jsonNumber{p.Elo, 1},
			CI95:  [2]jsonNumber{{p.Low, 1}, {p.High, 1}},
			Games: p.Games, Score: jsonNumber{p.Score, 4},
		})
	}
	for _, p := range r.Pairings {
		out.Pairings = append(out.Pairings, jsonPairing{
			A: p.NameA, B: p.NameB, WinsA: p.Wins, Draws: p.Draws, LossesA: p.Losses,
			EloDiff: jsonNumber{p.Elo.Elo, 1},
			CI95:    [2]jsonNumber{{p.Elo.Low, 1}, {p.Elo.High, 1}},
			LOS:     jsonNumber{p.LOS, 4},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WritePGN writes every finished game, in schedule order.
func (r *Result) WritePGN(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, g := range r.Games {
		if err := env.WritePGN(bw, g.Game); err != nil {
			return fmt.Errorf("game %d: %w", g.Number, err)
		}
	}
	return bw.Flush()
}

// Summary is a one-line account of the result, for logs.
func (r *Result) Summary() string {
	var parts []string
	for _, p := range r.Pairings {
		parts = append(parts, fmt.Sprintf("%s vs %s: +%d =%d -%d (%s)", p.NameA, p.NameB, p.Wins, p.Draws, p.Losses, elo(p.Elo.Elo)))
	}
	return strings.Join(parts, "; ")
}
