package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/player"
	"github.com/alicezero/alicezero/mcts"
)

// Player plays arena games with an Engine, so that a network in a match
// (the arena's ckpt kind, training's strength matches) is exactly the
// player that "alicezero uci --weights" is: same network loading, same
// search, same defaults.
type Player struct {
	name string
	e    *Engine
	// score is the last move's score (LastScore), valid when scored is set.
	score  int
	scored bool
}

// NewPlayer returns a player named name (by convention its spec) that
// plays with an engine of opts.
func NewPlayer(name string, opts Options) (*Player, error) {
	e, err := New(opts)
	if err != nil {
		return nil, err
	}
	if err := e.Ready(); err != nil {
		e.Close()
		return nil, err
	}
	return &Player{name: name, e: e}, nil
}

// Name implements player.Player.
func (p *Player) Name() string { return p.name }

// Seed implements player.Seeder: it fixes the search's random choices.
func (p *Player) Seed(seed uint64) { p.e.Reseed(seed) }

// NewGame implements player.Player.
func (p *Player) NewGame(context.Context) error {
	p.e.NewGame()
	return nil
}

// Move implements player.Player: a search within limits (with none, the
// engine's Visits). A search that fails is an error, not a makeshift move.
func (p *Player) Move(ctx context.Context, pos *env.Position, limits clock.Limits) (env.Move, error) {
	start := time.Now()
	switch {
	case pos == nil:
		return env.NoMove, errors.New("engine: no position to move in")
	case pos.Variant() != p.e.opts.Variant:
		return env.NoMove, fmt.Errorf("engine: a position of variant %s, the engine plays %s", pos.Variant().Name, p.e.opts.Variant.Name)
	}
	p.scored = false
	// The arena's position is the game, history and all: the engine
	// searches a copy of it as Go searches the position a game reaches.
	res, err := p.e.goFrom(ctx, start, pos.Clone(), limits, mcts.Progress{})
	if err != nil {
		return env.NoMove, err
	}
	switch {
	case res.MateIn > 0:
		p.score = player.MateScore
	case res.MateIn < 0:
		p.score = -player.MateScore
	default:
		p.score = Centipawns(res.RootValue)
	}
	p.scored = true
	return res.BestMove, nil
}

// LastScore implements player.Scorer: the last search's root value on the
// UCI centipawn scale (Centipawns), a proven mate as ±player.MateScore.
func (p *Player) LastScore() (int, bool) { return p.score, p.scored }

// Close implements player.Player.
func (p *Player) Close() error { return p.e.Close() }

// The player kinds Register adds.
const (
	CheckpointKind = "ckpt"
	BuiltinKind    = "net"
)

// Register adds two kinds to reg, both the engine with its defaults for
// what the spec leaves out (a match's node budget overrides visits; each
// player's network uses the cores the match's Setup gives a player):
//
//   - ckpt:PATH[,visits=N][,gumbel=BOOL][,threads=N][,hash=MB][,tactics=on|off][,search=mcts|alphabeta], with the
//     network PATH names (a checkpoint file, a run folder for its newest
//     checkpoint, "builtin" for the built-in network, or "none" for the
//     plain search), through the tree search unless search=alphabeta, so
//     that a checkpoint is judged by its network;
//   - net[:visits=N][,gumbel=BOOL][,threads=N][,hash=MB][,tactics=on|off][,search=mcts|alphabeta], the
//     default engine with no weights named: the alpha-beta, or with
//     search=mcts the built-in network through the tree.
func Register(reg *player.Registry) error {
	err := reg.Register(CheckpointKind, "ckpt:PATH[,visits=N][,gumbel=true|false][,threads=N][,hash=MB][,tactics=on|off][,search=mcts|alphabeta]  network from a checkpoint file or run folder (its newest), or builtin, through the tree search, as 'alicezero uci --weights PATH' plays",
		func(_ context.Context, spec player.Spec, setup player.Setup) (player.Player, error) {
			if spec.Arg == "" {
				return nil, fmt.Errorf("player spec %q: ckpt needs a checkpoint file or run folder", spec.Text)
			}
			return specPlayer(spec, spec.Arg, setup)
		})
	if err != nil {
		return err
	}
	return reg.Register(BuiltinKind, "net[:visits=N][,gumbel=true|false][,threads=N][,hash=MB][,tactics=on|off][,search=mcts|alphabeta]  the default engine, as 'alicezero uci' plays: the classical alpha-beta; search=mcts: the built-in network through the tree search",
		func(_ context.Context, spec player.Spec, setup player.Setup) (player.Player, error) {
			if spec.Arg != "" {
				return nil, fmt.Errorf("player spec %q: net takes options only (net:visits=N), not %q; for a checkpoint use ckpt:PATH", spec.Text, spec.Arg)
			}
			return specPlayer(spec, "", setup)
		})
}

// specPlayer builds the engine player a spec describes, with the network
// weights names.
func specPlayer(spec player.Spec, weights string, setup player.Setup) (player.Player, error) {
	o, err := specOptions(spec)
	if err != nil {
		return nil, err
	}
	o.Weights, o.Variant, o.EvalWorkers = weights, setup.Variant, setup.Cores
	p, err := NewPlayer(spec.Text, o)
	if err != nil {
		return nil, fmt.Errorf("player spec %q: %w", spec.Text, err)
	}
	return p, nil
}

// specOptions reads a ckpt or net spec's options (absent ones keep the
// engine's defaults).
func specOptions(spec player.Spec) (Options, error) {
	var o Options
	if err := spec.CheckOptions("visits", "gumbel", "threads", "hash", "tactics", "search"); err != nil {
		return o, err
	}
	var err error
	if o.Visits, err = spec.IntAtLeast("visits", 0, 1); err != nil {
		return o, err
	}
	if o.Threads, err = spec.IntAtLeast("threads", 0, 1); err != nil {
		return o, err
	}
	if o.HashMB, err = spec.IntAtLeast("hash", 0, 1); err != nil {
		return o, err
	}
	if o.Gumbel, err = spec.Bool("gumbel", false); err != nil {
		return o, err
	}
	if o.Tactics, err = spec.Bool("tactics", false); err != nil {
		return o, err
	}
	if v, ok := spec.Lookup("search"); ok {
		if !slices.Contains(Searches(), v) {
			return o, fmt.Errorf("player %q: search=%s is not one of %s", spec.Text, v, strings.Join(Searches(), ", "))
		}
		o.Search = v
	}
	return o, nil
}
