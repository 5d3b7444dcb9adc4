package train

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Metrics is one iteration's line of metrics.jsonl.
type Metrics struct {
	Iteration  int     `json:"iteration"`
	Time       string  `json:"time"`
	ElapsedSec float64 `json:"elapsed_s"`

	Games          int     `json:"games"`
	Positions      int     `json:"positions"`
	GamesPerHour   float64 `json:"games_per_hour"`
	PositionsPerS  float64 `json:"positions_per_s"`
	SimsPerS       float64 `json:"sims_per_s"`
	MeanGameLength float64 `json:"mean_game_length"`
	WhiteWins      int     `json:"white_wins"`
	BlackWins      int     `json:"black_wins"`
	Draws          int     `json:"draws"`
	// Adjudicated counts games stopped at the ply cap; AdjudicatedWins
	// those of them scored a win by material.
	Adjudicated     int `json:"adjudicated"`
	AdjudicatedWins int `json:"adjudicated_wins"`
	Resigned        int `json:"resigned"`
	NoResignGames   int `json:"no_resign_games"`
	// ResignThreshold is the threshold in force (0: no resignation).
	// FalseResignRate is, among this iteration's played-out sides that would
	// have resigned at that threshold (or, while none is in force, at the
	// calibrated one), the fraction that did not lose; ResignChecked counts
	// them, ResignCapped the would-be resignations in capped games, which
	// count as neither.
	ResignThreshold float64  `json:"resign_threshold"`
	FalseResignRate *float64 `json:"false_resign_rate,omitempty"`
	ResignChecked   int      `json:"resign_checked"`
	ResignCapped    int      `json:"resign_capped"`

	// Held-out metrics: the new positions scored by the network that
	// played them, before it trains on them (see heldout).
	HeldoutValueLoss     float64 `json:"heldout_value_loss"`
	HeldoutValueBaseline float64 `json:"heldout_value_baseline"`
	HeldoutPolicyKL      float64 `json:"heldout_policy_kl"`

	BufferSize     int     `json:"buffer_size"`
	TotalPositions int     `json:"total_positions"`
	Steps          int     `json:"steps"`
	TotalSteps     int64   `json:"total_steps"`
	TrainPosPerS   float64 `json:"train_positions_per_s"`
	LearningRate   float64 `json:"learning_rate"`
	// LossPolicy is the policy cross-entropy over the legal moves; it is
	// PolicyEntropy (the targets' own entropy, which no network can go
	// below) plus PolicyKL (what the network can still learn).
	LossPolicy    float64 `json:"loss_policy"`
	PolicyEntropy float64 `json:"policy_entropy"`
	PolicyKL      float64 `json:"policy_kl"`
	LossValue     float64 `json:"loss_value"`
	LossL2        float64 `json:"loss_l2"`
	LossTotal     float64 `json:"loss_total"`
	// SkippedShards counts unreadable replay shards skipped on resume.
	SkippedShards int `json:"skipped_shards,omitempty"`

	// Workers ("learn") are the round's shards per self-play worker;
	// Games and GamesPerHour then add them up. StaleShards counts the
	// shards dropped for their old network, RejectedShards the unusable
	// ones (malformed, damaged, over the size limit) since the last round.
	Workers        []WorkerMetrics `json:"workers,omitempty"`
	StaleShards    int             `json:"stale_shards,omitempty"`
	RejectedShards int             `json:"rejected_shards,omitempty"`

	// Eval is present on iterations that measured strength.
	Eval *EvalMetrics `json:"eval,omitempty"`
}

// EvalMetrics is the strength measured against the references.
type EvalMetrics struct {
	VsRandom    *MatchScore `json:"vs_random,omitempty"`
	VsAlphaBeta *MatchScore `json:"vs_alphabeta,omitempty"`
	VsPrevious  *MatchScore `json:"vs_previous,omitempty"`
	// Elo is an estimate anchored at the alpha-beta reference (0): the
	// Elo difference measured against it.
	Elo float64 `json:"elo"`
}

// MatchScore is a short match's outcome from the checkpoint's side.
type MatchScore struct {
	Opponent string     `json:"opponent"`
	Wins     int        `json:"wins"`
	Draws    int        `json:"draws"`
	Losses   int        `json:"losses"`
	Score    float64    `json:"score"`
	Elo      float64    `json:"elo"`
	CI95     [2]float64 `json:"ci95"`
}

func (m *Metrics) setHeldout(h *heldout) {
	m.HeldoutValueLoss, m.HeldoutValueBaseline, m.HeldoutPolicyKL = h.ValueLoss, h.Baseline, h.PolicyKL
}

// appendMetrics appends one JSON line and syncs it, so a killed run keeps
// every completed iteration's line.
func appendMetrics(path string, m *Metrics) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	b, err := json.Marshal(m)
	if err != nil {
		f.Close()
		return err
	}
	_, werr := f.Write(append(b, '\n'))
	serr := f.Sync()
	cerr := f.Close()
	return errors.Join(werr, serr, cerr)
}

// readMetrics reads metrics.jsonl, skipping a last line cut short by a
// crash; lines for iterations at or beyond upTo (a resumed run redoing
// them) are dropped, so that the history has one line per iteration.
func readMetrics(path string, upTo int) ([]Metrics, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Metrics
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	line := 0
	for sc.Scan() {
		line++
		var m Metrics
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			// Only a torn last line is tolerated.
			if !sc.Scan() {
				break
			}
			return nil, fmt.Errorf("%s line %d: %w", path, line, err)
		}
		if m.Iteration < upTo {
			out = append(out, m)
		}
	}
	if err := sc.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return out, nil
}

// WorkerMetrics is one self-play worker's share of a learner's round.
type WorkerMetrics struct {
	Worker    string `json:"worker"`
	Shards    int    `json:"shards"`
	Games     int    `json:"games"`
	Positions int    `json:"positions"`
	// PlaySeconds is the time the worker spent on the games, GamesPerHour
	// its rate over that time.
	PlaySeconds  float64 `json:"play_s"`
	GamesPerHour float64 `json:"games_per_hour"`
}

// learnerRound is the start of a learner round's summary line: positions,
// games, and each worker's rate.
func learnerRound(sb *strings.Builder, m *Metrics) {
	fmt.Fprintf(sb, "round %d: %d new positions, %d games", m.Iteration, m.Positions, m.Games)
	if len(m.Workers) > 0 {
		sb.WriteString(" (")
		for i, w := range m.Workers {
			if i > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(sb, "%s %.0f/h", w.Worker, w.GamesPerHour)
		}
		sb.WriteString(")")
	}
	if m.StaleShards > 0 {
		fmt.Fprintf(sb, ", %d stale shards dropped", m.StaleShards)
	}
	if m.RejectedShards > 0 {
		fmt.Fprintf(sb, ", %d shards rejected", m.RejectedShards)
	}
}

// summaryLine is the one line printed per iteration.
func summaryLine(m *Metrics) string {
	var sb strings.Builder
	switch {
	case len(m.Workers) > 0 || m.StaleShards > 0 || m.RejectedShards > 0:
		learnerRound(&sb, m)
	case m.Games > 0:
		fmt.Fprintf(&sb, "iter %d: %d games (%.0f/h, %.0f pos/s), len %.1f, W/D/B %d/%d/%d (adj %d, resign %d)",
			m.Iteration, m.Games, m.GamesPerHour, m.PositionsPerS, m.MeanGameLength, m.WhiteWins, m.Draws, m.BlackWins, m.Adjudicated, m.Resigned)
	default:
		fmt.Fprintf(&sb, "round %d: %d new positions", m.Iteration, m.Positions)
	}
	if m.Steps > 0 {
		fmt.Fprintf(&sb, " | %d steps, loss p %.3f (kl %.3f) v %.3f l2 %.4f", m.Steps, m.LossPolicy, m.PolicyKL, m.LossValue, m.LossL2)
	} else {
		sb.WriteString(" | no training yet")
	}
	if m.HeldoutValueBaseline > 0 {
		fmt.Fprintf(&sb, " | held-out v %.3f (const %.3f) kl %.2f", m.HeldoutValueLoss, m.HeldoutValueBaseline, m.HeldoutPolicyKL)
	}
	if m.ResignThreshold > 0 {
		fmt.Fprintf(&sb, " | resign < -%.2f", m.ResignThreshold)
	}
	if m.FalseResignRate != nil {
		fmt.Fprintf(&sb, " (false %.0f%% of %d)", 100**m.FalseResignRate, m.ResignChecked)
	}
	fmt.Fprintf(&sb, " | buffer %d", m.BufferSize)
	if e := m.Eval; e != nil {
		for _, s := range []*MatchScore{e.VsRandom, e.VsAlphaBeta, e.VsPrevious} {
			if s != nil {
				fmt.Fprintf(&sb, " | vs %s %.0f%%", s.Opponent, 100*s.Score)
			}
		}
	}
	fmt.Fprintf(&sb, " | %s", time.Duration(m.ElapsedSec*float64(time.Second)).Round(time.Second))
	return sb.String()
}
