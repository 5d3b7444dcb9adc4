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

	"github.com/alicezero/alicezero/internal/runs"
)

// setHeldout records the held-out metrics h in m.
func setHeldout(m *runs.Metrics, h *heldout) {
	m.HeldoutValueLoss, m.HeldoutValueBaseline, m.HeldoutPolicyKL = h.ValueLoss, h.Baseline, h.PolicyKL
}

// appendMetrics appends one JSON line and syncs it, so a killed run keeps
// every completed iteration's line.
func appendMetrics(path string, m *runs.Metrics) error {
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
func readMetrics(path string, upTo int) ([]runs.Metrics, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []runs.Metrics
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	line := 0
	for sc.Scan() {
		line++
		var m runs.Metrics
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

// learnerRound is the start of a learner round's summary line: positions,
// games, and each worker's rate.
func learnerRound(sb *strings.Builder, m *runs.Metrics) {
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
func summaryLine(m *runs.Metrics) string {
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
		for _, s := range []*runs.MatchScore{e.VsRandom, e.VsAlphaBeta, e.VsPrevious} {
			if s != nil {
				fmt.Fprintf(&sb, " | vs %s %.0f%%", s.Opponent, 100*s.Score)
			}
		}
	}
	fmt.Fprintf(&sb, " | %s", time.Duration(m.ElapsedSec*float64(time.Second)).Round(time.Second))
	return sb.String()
}
