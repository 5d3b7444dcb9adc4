package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/internal/seed"
	"github.com/alicezero/alicezero/model/training"
	"github.com/alicezero/alicezero/train/replay"
)

// iteration runs one iteration: self-play, training, checkpoint, and
// (every few iterations) the strength matches.
func (r *runner) iteration(ctx context.Context, it int) error {
	m := runs.Metrics{Iteration: it}
	cfg := r.cfg

	// Self-play.
	bar := newBar(r.opts.Progress, cfg.SelfPlay.GamesPerIteration, fmt.Sprintf("iteration %d/%d self-play", it, cfg.Iterations), "games")
	spStart := time.Now()
	r.searcher.ResetStats()
	threshold := r.resignThreshold(it)
	games, err := selfPlay(ctx, cfg, r.variant, r.searcher, it, cfg.SelfPlay.GamesPerIteration, threshold, func(*SelfPlayGame) {
		if bar != nil {
			bar.Add(1)
		}
	})
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	spTime := time.Since(spStart).Seconds()
	var samples []replay.Sample
	plies := 0
	for _, g := range games {
		samples = append(samples, g.Samples...)
		plies += len(g.Moves)
		switch {
		case g.Resigned:
			m.Resigned++
		case g.Status == env.Adjudicated:
			m.Adjudicated++
			if g.Result != env.Draw {
				m.AdjudicatedWins++
			}
		}
		switch g.Result {
		case env.WhiteWins:
			m.WhiteWins++
		case env.BlackWins:
			m.BlackWins++
		default:
			m.Draws++
		}
		if g.NoResign {
			m.NoResignGames++
		}
	}
	m.Games, m.Positions = len(games), len(samples)
	m.MeanGameLength = float64(plies) / float64(max(1, len(games)))
	m.GamesPerHour = float64(len(games)) / spTime * 3600
	m.PositionsPerS = float64(plies) / spTime
	m.SimsPerS = float64(r.searcher.Stats().Playouts) / spTime
	r.calibrateResignation(games, threshold, &m)
	shard := runs.ShardName(it)
	if err := replay.WriteShard(filepath.Join(r.dir, shard), samples); err != nil {
		return err
	}
	if err := r.writeGames(it, games); err != nil {
		return err
	}
	r.state.TotalGames += len(games)
	return r.learn(ctx, it, []shardRef{{Path: shard, Positions: len(samples)}}, samples, &m)
}

// learn finishes an iteration whose new samples come from shards: the
// held-out measurement, optimiser steps, the checkpoint, the strength
// matches every few iterations, the metrics and the plots.
func (r *runner) learn(ctx context.Context, it int, shards []shardRef, samples []replay.Sample, m *runs.Metrics) error {
	// Score the new positions before learning from them: the only honest
	// measure of what the network has learnt.
	h, err := measureHeldout(ctx, r.eval, r.variant, samples)
	if err != nil {
		return fmt.Errorf("held-out measurement: %w", err)
	}
	setHeldout(m, &h)
	r.state.Heldout = append(r.state.Heldout, h)
	if n := len(r.state.Heldout); n > heldoutKept {
		r.state.Heldout = append(r.state.Heldout[:0:0], r.state.Heldout[n-heldoutKept:]...)
	}
	r.buf.Add(samples)
	r.state.Shards = append(r.state.Shards, shards...)
	if err := r.trainSteps(ctx, it, len(samples), m); err != nil {
		return err
	}
	if err := r.eval.SetWeights(r.trainer.Weights()); err != nil {
		return err
	}
	r.searcher.ClearCache()

	// Checkpoint: from here on the iteration is done.
	r.state.Iteration = it
	r.state.TotalPositions += len(samples)
	r.state.ElapsedSec = r.elapsed()
	r.started = time.Now()
	m.SkippedShards, r.skippedShards = r.skippedShards, 0
	m.BufferSize, m.TotalPositions = r.buf.Len(), r.state.TotalPositions
	m.ElapsedSec = r.state.ElapsedSec
	m.Time = time.Now().UTC().Format(time.RFC3339)
	r.state.Metrics = m
	if err := r.saveCheckpoint(); err != nil {
		return err
	}
	r.pruneCheckpoints()
	if r.checkpointed != nil {
		r.checkpointed()
	}
	return r.finishIteration(ctx, *m)
}

// finishIteration runs a checkpointed iteration's strength matches (if
// due), then writes its metrics line and plots. A run stopped before the
// line was written does this on resume, so that metrics.jsonl has no gaps.
func (r *runner) finishIteration(ctx context.Context, m runs.Metrics) error {
	if e := r.cfg.Evaluate.Every; e > 0 && m.Iteration%e == 0 && m.Eval == nil {
		ev, err := r.evaluate(ctx, m.Iteration)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			fmt.Fprintf(r.out, "warning: strength matches of iteration %d failed: %v\n", m.Iteration, err)
		} else {
			m.Eval = ev
		}
	}
	if err := appendMetrics(filepath.Join(r.dir, runs.MetricsFile), &m); err != nil {
		return err
	}
	r.history = append(r.history, m)
	if err := writePlots(r.dir, r.history); err != nil {
		fmt.Fprintf(r.out, "warning: plotting: %v\n", err)
	}
	fmt.Fprintln(r.out, summaryLine(&m))
	return nil
}

// finishInterrupted completes the newest checkpoint's iteration if the run
// stopped before its metrics line (and strength matches) were written.
func (r *runner) finishInterrupted(ctx context.Context) error {
	m := r.state.Metrics
	if m == nil || m.Iteration != r.state.Iteration {
		return nil
	}
	if n := len(r.history); n > 0 && r.history[n-1].Iteration >= m.Iteration {
		return nil
	}
	fmt.Fprintf(r.out, "completing iteration %d: its metrics line was not written before the run stopped\n", m.Iteration)
	return r.finishIteration(ctx, *m)
}

// trainSteps takes the iteration's optimiser steps on batches drawn from
// the replay window: SampleReuse samples drawn per new position.
func (r *runner) trainSteps(ctx context.Context, it, newPositions int, m *runs.Metrics) error {
	t := &r.cfg.Train
	if r.buf.Len() < t.MinBuffer {
		return nil
	}
	steps := int(math.Ceil(float64(newPositions) * t.SampleReuse / float64(t.BatchSize)))
	rng := rand.New(rand.NewPCG(seed.Derive(r.cfg.Seed, "train", uint64(it), uint64(0)), 2))
	batch := replay.NewBatch(t.BatchSize, r.variant)
	bar := newBar(r.opts.Progress, steps, fmt.Sprintf("iteration %d/%d training", it, r.cfg.Iterations), "steps")
	start := time.Now()
	var sum training.Losses
	done := 0
	for ; done < steps; done++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		samples, err := r.buf.Sample(rng, t.BatchSize)
		if errors.Is(err, replay.ErrExhausted) {
			fmt.Fprintf(r.out, "note: every position in the window reached max_uses after %d of %d steps\n", done, steps)
			break
		}
		if err != nil {
			return err
		}
		batch.Fill(samples, rng, float32(t.ValueQWeight))
		l, err := r.trainer.Step(batch.Planes, batch.Policy, batch.Legal, batch.WDL)
		if err != nil {
			return fmt.Errorf("training step %d: %w", done+1, err)
		}
		sum.Policy += l.Policy
		sum.PolicyEntropy += l.PolicyEntropy
		sum.Value += l.Value
		sum.L2 += l.L2
		sum.Total += l.Total
		m.LearningRate = l.LR
		if bar != nil {
			bar.Add(1)
		}
	}
	if bar != nil {
		bar.Finish()
	}
	m.Steps = done
	m.TotalSteps = r.trainer.Steps()
	if done > 0 {
		n := float64(done)
		m.LossPolicy, m.LossValue, m.LossL2, m.LossTotal = sum.Policy/n, sum.Value/n, sum.L2/n, sum.Total/n
		m.PolicyEntropy = sum.PolicyEntropy / n
		m.PolicyKL = m.LossPolicy - m.PolicyEntropy
		m.TrainPosPerS = n * float64(t.BatchSize) / time.Since(start).Seconds()
	}
	return nil
}
