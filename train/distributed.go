package train

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/fileutil"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/internal/seed"
	"github.com/alicezero/alicezero/internal/sleep"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/train/bus"
	"github.com/alicezero/alicezero/train/replay"
)

// WorkerOptions configures SelfPlayWorker.
type WorkerOptions struct {
	Config *Config
	// Sink takes the shards to the learner.
	Sink bus.Sink
	// Networks, if set, supplies the network: the worker waits for the
	// learner's first one and, before each shard, switches to the newest.
	Networks bus.NetworkFetcher
	// Weights is the checkpoint file to play with when Networks is nil;
	// "" plays with the untrained network of Config's seed.
	Weights string
	// Worker names this worker in its shards (bus.ValidWorker).
	Worker string
	// ShardGames is the number of games per shard (default: the config's
	// games_per_iteration); Games the total to play (0: until ctx ends).
	ShardGames int
	Games      int
	// Threads is how many goroutines the network uses per batch (0: all
	// cores); 1 suits several workers on one machine.
	Threads int
	// Out receives a line per shard and notices; Progress, if set (a
	// terminal), a progress bar per shard. Without Progress, Out gets a
	// progress line every ProgressEvery (default a minute) during a shard.
	Out           io.Writer
	Progress      io.Writer
	ProgressEvery time.Duration
}

// SelfPlayWorker plays games with the learner's newest network (or a fixed
// one) and sends their positions, a shard per ShardGames games, to the
// learner through a bus.
func SelfPlayWorker(ctx context.Context, o WorkerOptions) error {
	cfg := o.Config
	switch {
	case cfg == nil:
		return errors.New("selfplay: no configuration")
	case o.Sink == nil:
		return errors.New("selfplay: nowhere to send shards")
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if err := bus.ValidWorker(o.Worker); err != nil {
		return err
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.ShardGames <= 0 {
		o.ShardGames = cfg.SelfPlay.GamesPerIteration
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = time.Minute
	}
	variant, err := env.VariantByName(cfg.Variant)
	if err != nil {
		return err
	}
	var w *model.Weights
	network, source := -1, ""
	if o.Networks != nil {
		fmt.Fprintf(o.Out, "worker %s: waiting for the learner's network\n", o.Worker)
		if network, w, err = fetchNetwork(ctx, o.Networks, -1); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		source = fmt.Sprintf("network %d", network)
	} else if w, source, err = loadOrInitWeights(cfg, variant, o.Weights); err != nil {
		return err
	}
	eval, err := model.NewFastEvaluator(w, model.FastOptions{Workers: o.Threads})
	if err != nil {
		return err
	}
	defer eval.Close()
	searcher, err := mcts.NewSearcher(eval, cfg.MCTSConfig())
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "worker %s: self-play with %s, seed %d\n", o.Worker, source, cfg.Seed)
	played, start := 0, time.Now()
	for shard := 1; o.Games == 0 || played < o.Games; shard++ {
		if o.Networks != nil {
			if it, nw, err := fetchNetwork(ctx, o.Networks, network); err != nil {
				fmt.Fprintf(o.Out, "warning: keeping network %d: %v\n", network, err)
			} else if nw != nil {
				if err := eval.SetWeights(nw); err != nil {
					fmt.Fprintf(o.Out, "warning: keeping network %d: network %d: %v\n", network, it, err)
				} else {
					searcher.ClearCache()
					network = it
					fmt.Fprintf(o.Out, "now playing with network %d\n", network)
				}
			}
		}
		n := o.ShardGames
		if o.Games > 0 {
			n = min(n, o.Games-played)
		}
		games, secs, err := playShard(ctx, cfg, variant, searcher, shard, n, o)
		if err != nil {
			if ctx.Err() != nil {
				fmt.Fprintf(o.Out, "interrupted: %d games sent\n", played)
				return ctx.Err()
			}
			return err
		}
		var samples []replay.Sample
		for _, g := range games {
			samples = append(samples, g.Samples...)
		}
		info := bus.ShardInfo{Worker: o.Worker, Network: network, Games: len(games), PlaySeconds: secs}
		if err := o.Sink.Send(ctx, info, samples); err != nil {
			if ctx.Err() != nil {
				fmt.Fprintf(o.Out, "interrupted: %d games sent\n", played)
				return ctx.Err()
			}
			return fmt.Errorf("sending shard %d: %w", shard, err)
		}
		played += len(games)
		fmt.Fprintf(o.Out, "shard %d: %d games, %d positions in %s with network %d (%d games in all, %.0f/h)\n", shard, len(games), len(samples),
			time.Duration(secs*float64(time.Second)).Round(time.Second), network, played, float64(played)/time.Since(start).Hours())
	}
	return nil
}

// playShard plays n games for one shard, showing progress, and returns
// them with the time they took.
func playShard(ctx context.Context, cfg *Config, variant env.Variant, s *mcts.Searcher, shard, n int, o WorkerOptions) ([]*SelfPlayGame, float64, error) {
	bar := newBar(o.Progress, n, fmt.Sprintf("shard %d self-play", shard), "games")
	start, last, done := time.Now(), time.Now(), 0
	// Workers play every game out: the resignation threshold is
	// calibrated by a training run from its own games.
	games, err := selfPlay(ctx, cfg, variant, s, shard, n, 0, func(*SelfPlayGame) {
		done++
		if bar != nil {
			bar.Add(1)
		} else if time.Since(last) >= o.ProgressEvery {
			last = time.Now()
			fmt.Fprintf(o.Out, "shard %d: %d/%d games (%.0f/h)\n", shard, done, n, float64(done)/time.Since(start).Hours())
		}
	})
	if bar != nil {
		bar.Finish()
	}
	return games, time.Since(start).Seconds(), err
}

// fetchNetwork returns the newest network if it differs from iteration
// have (nil weights when not), waiting for a first one when have is -1.
func fetchNetwork(ctx context.Context, nets bus.NetworkFetcher, have int) (int, *model.Weights, error) {
	for {
		it, err := nets.NewestNetwork(ctx)
		if errors.Is(err, bus.ErrNoNetwork) && have < 0 {
			if err := sleep.For(ctx, 2*time.Second); err != nil {
				return 0, nil, err
			}
			continue
		}
		if err != nil || it == have {
			return it, nil, err
		}
		data, err := nets.FetchNetwork(ctx, it)
		if err != nil {
			return it, nil, err
		}
		c, err := model.ReadCheckpoint(bytes.NewReader(data))
		if err != nil {
			return it, nil, fmt.Errorf("network %d: %w", it, err)
		}
		return it, c.Weights, nil
	}
}

// loadOrInitWeights loads the network path names (as engine.LoadNetwork
// reads it: a checkpoint file or a run folder) or, for "", makes the
// configuration's untrained network, the one a new run starts from. It
// returns where the weights came from.
func loadOrInitWeights(cfg *Config, variant env.Variant, path string) (*model.Weights, string, error) {
	if path == "" {
		arch, err := model.Preset(cfg.Model.Preset)
		if err != nil {
			return nil, "", err
		}
		w, err := model.NewWeights(arch.ForVariant(variant), seed.Derive(cfg.Seed, "weights", uint64(0), uint64(0)))
		return w, "an untrained " + cfg.Model.Preset + " network", err
	}
	net, err := engine.LoadNetwork(path, variant)
	if err != nil {
		return nil, "", err
	}
	if net.Weights == nil {
		return nil, "", fmt.Errorf("self-play needs a network, not %s", net.Description)
	}
	return net.Weights, net.Description, nil
}

// LearnOptions configures Learn.
type LearnOptions struct {
	// The run, as for Run: Name in RunsDir, new (with Config) or resumed.
	RunsDir, Name string
	Resume        bool
	Config        *Config
	// Open connects the learner's side of the bus once the run folder is
	// open (an embedded server keeps its data there).
	Open func(ctx context.Context, runDir string) (*LearnBus, error)
	// MaxStale drops shards played by a network more than MaxStale
	// iterations older than the newest (counted in the metrics as
	// stale_shards): 0 means DefaultMaxStale, negative keeps all.
	MaxStale int
	// Once trains on the shards there are and returns; otherwise Learn
	// waits for more (up to Poll at a time) until ctx is cancelled.
	Once     bool
	Poll     time.Duration
	Out      io.Writer
	Progress io.Writer
}

// LearnBus is the learner's side of a bus.
type LearnBus struct {
	Source bus.Source
	// Networks, if set, receives the network of every checkpoint.
	Networks bus.NetworkPublisher
	// Close, if set, is called when Learn returns.
	Close func()
}

// DefaultMaxStale is how many iterations old a shard's network may be
// before Learn drops the shard: the workers follow the learner within a
// shard or two, so older data comes from a worker that fell far behind.
const DefaultMaxStale = 4

// sourcesPattern names the list, beside a learner's run shard, of the
// worker shards it holds: one line each, "ID<tab>WORKER<tab>GAMES".
const sourcesPattern = "iter-%06d.sources"

// maxRejectWarnings is how many rejected shards a round reports one by one.
const maxRejectWarnings = 5

// Learn trains a run from the shards that self-play workers send: each
// round takes the shards that arrived (at least min_buffer positions
// before the first), writes them as one shard of the run, takes optimiser
// steps and writes a checkpoint that records which shards it took; then it
// acknowledges them to the bus and publishes the new network.
func Learn(ctx context.Context, o LearnOptions) error {
	if o.Open == nil {
		return errors.New("learn: no bus to take shards from")
	}
	if o.Poll <= 0 {
		o.Poll = 5 * time.Second
	}
	if o.MaxStale == 0 {
		o.MaxStale = DefaultMaxStale
	}
	r, err := openRun(Options{RunsDir: o.RunsDir, Name: o.Name, Resume: o.Resume, Config: o.Config, Out: o.Out, Progress: o.Progress}, true)
	if err != nil {
		return err
	}
	defer r.close()
	lb, err := o.Open(ctx, r.dir)
	if err != nil {
		return err
	}
	if lb.Close != nil {
		defer lb.Close()
	}
	defer lb.Source.Close()
	// A round that was checkpointed may have stopped before it
	// acknowledged its shards.
	if err := lb.Source.Resume(ctx, r.state.Consumed); err != nil {
		return err
	}
	stopped := func() error {
		fmt.Fprintf(r.out, "stopped at round %d; continue with --resume %s\n", r.state.Iteration, filepath.Base(r.dir))
		return ctx.Err()
	}
	if err := r.finishInterrupted(ctx); err != nil {
		if ctx.Err() != nil {
			return stopped()
		}
		return err
	}
	r.publishNetwork(ctx, lb.Networks)
	rd := newRound()
	wait := o.Poll
	if o.Once {
		wait = 0
	}
	for {
		ds, err := lb.Source.Next(ctx, wait)
		if err != nil {
			if ctx.Err() != nil {
				return stopped()
			}
			return err
		}
		for _, d := range ds {
			rd.take(ctx, r, lb.Source, d, o.MaxStale)
		}
		ready := len(rd.samples) > 0 && r.buf.Len()+len(rd.samples) >= r.cfg.Train.MinBuffer
		if o.Once && len(ds) == 0 {
			if len(rd.samples) == 0 {
				if r.state.Iteration == 0 {
					return errors.New("learn: no shards to learn from")
				}
				return nil
			}
			ready = true
		}
		if !ready {
			continue
		}
		if err := r.learnRound(ctx, rd, lb); err != nil {
			if ctx.Err() != nil {
				fmt.Fprintf(r.out, "interrupted: the run stays at round %d; continue with --resume %s\n", r.state.Iteration, filepath.Base(r.dir))
				return ctx.Err()
			}
			return err
		}
		rd = newRound()
	}
}

// round gathers the shards of one learner round.
type round struct {
	taken    []*bus.Delivery // into the buffer
	dropped  []*bus.Delivery // stale: taken out, not into the buffer
	samples  []replay.Sample
	workers  map[string]*runs.WorkerMetrics
	stale    int
	rejected int
}

func newRound() *round { return &round{workers: map[string]*runs.WorkerMetrics{}} }

// take checks one delivery and adds it to the round, drops it as stale or
// rejects it.
func (rd *round) take(ctx context.Context, r *runner, src bus.Source, d *bus.Delivery, maxStale int) {
	var samples []replay.Sample
	err := d.Err
	if err == nil {
		samples, err = replay.DecodeShard(d.Data, d.ID)
	}
	if err != nil {
		rd.rejected++
		if rd.rejected <= maxRejectWarnings {
			fmt.Fprintf(r.out, "warning: rejected shard %s from %q: %v\n", d.ID, d.Info.Worker, err)
		}
		if err := src.Reject(ctx, d, err); err != nil {
			fmt.Fprintf(r.out, "warning: %v\n", err)
		}
		return
	}
	if net := d.Info.Network; maxStale >= 0 && net >= 0 && r.state.Iteration-net > maxStale {
		rd.stale++
		rd.dropped = append(rd.dropped, d)
		return
	}
	rd.taken = append(rd.taken, d)
	rd.samples = append(rd.samples, samples...)
	wm := rd.workers[d.Info.Worker]
	if wm == nil {
		wm = &runs.WorkerMetrics{Worker: d.Info.Worker}
		rd.workers[d.Info.Worker] = wm
	}
	wm.Shards++
	wm.Games += d.Info.Games
	wm.Positions += len(samples)
	wm.PlaySeconds += d.Info.PlaySeconds
}

// learnRound writes the round's positions as one shard of the run, trains
// on them and checkpoints; after the checkpoint the round's shards are
// acknowledged and the new network published.
func (r *runner) learnRound(ctx context.Context, rd *round, lb *LearnBus) error {
	it := r.state.Iteration + 1
	shard := runs.ShardName(it)
	if err := replay.WriteShard(filepath.Join(r.dir, shard), rd.samples); err != nil {
		return err
	}
	// The shards it came from, for the record: which worker shards made
	// this run shard.
	var sources strings.Builder
	for _, d := range rd.taken {
		fmt.Fprintf(&sources, "%s\t%s\t%d\n", d.ID, d.Info.Worker, d.Info.Games)
	}
	if err := fileutil.WriteAtomic(filepath.Join(r.dir, runs.BufferDir, fmt.Sprintf(sourcesPattern, it)), []byte(sources.String())); err != nil {
		return err
	}
	settled := append(slices.Clone(rd.taken), rd.dropped...)
	state, err := lb.Source.Commit(settled)
	if err != nil {
		return err
	}
	r.state.Consumed = json.RawMessage(state)
	m := runs.Metrics{Iteration: it, Positions: len(rd.samples), StaleShards: rd.stale, RejectedShards: rd.rejected}
	for _, wm := range rd.workers {
		if wm.PlaySeconds > 0 {
			wm.GamesPerHour = float64(wm.Games) / wm.PlaySeconds * 3600
		}
		m.Games += wm.Games
		m.GamesPerHour += wm.GamesPerHour
		m.Workers = append(m.Workers, *wm)
	}
	slices.SortFunc(m.Workers, func(a, b runs.WorkerMetrics) int { return strings.Compare(a.Worker, b.Worker) })
	r.checkpointed = func() {
		if err := lb.Source.Ack(ctx, settled); err != nil {
			// The checkpoint records them: a redelivery is recognised.
			fmt.Fprintf(r.out, "warning: acknowledging round %d's shards: %v\n", it, err)
		}
		r.publishNetwork(ctx, lb.Networks)
	}
	defer func() { r.checkpointed = nil }()
	return r.learn(ctx, it, []shardRef{{Path: shard, Positions: len(rd.samples)}}, rd.samples, &m)
}

// publishNetwork publishes the current network (weights only) as the
// network of the run's iteration; a failure is a warning, and the next
// checkpoint publishes again.
func (r *runner) publishNetwork(ctx context.Context, nets bus.NetworkPublisher) {
	if nets == nil {
		return
	}
	var buf bytes.Buffer
	c := &model.Checkpoint{Weights: r.trainer.Weights(), Step: r.trainer.Steps(),
		Meta: map[string]string{"run": filepath.Base(r.dir), "iteration": fmt.Sprint(r.state.Iteration)}}
	err := model.WriteCheckpoint(&buf, c)
	if err == nil {
		err = nets.PublishNetwork(ctx, r.state.Iteration, buf.Bytes())
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(r.out, "warning: publishing the network of round %d: %v\n", r.state.Iteration, err)
	}
}
