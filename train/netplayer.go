package train

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/train/player"
)

// NetPlayer plays with a network and the tree search: the player behind
// the arena's ckpt kind and the training run's strength matches.
type NetPlayer struct {
	name     string
	eval     *model.FastEvaluator
	searcher *mcts.Searcher
	tree     *mcts.Tree
	visits   int
	seed     uint64
}

// NetPlayerOptions sets a NetPlayer's search.
type NetPlayerOptions struct {
	// Visits is the search budget per move when the match sets none.
	Visits int
	// Gumbel selects Gumbel root search (better at low visit counts);
	// GumbelK is how many root moves it considers (0: the search's default).
	Gumbel  bool
	GumbelK int
	// Workers is the number of cores the network may use (0: all).
	Workers int
}

// NewNetPlayer returns a player using a copy of w.
func NewNetPlayer(name string, w *model.Weights, o NetPlayerOptions) (*NetPlayer, error) {
	eval, err := model.NewFastEvaluator(w, model.FastOptions{Workers: o.Workers})
	if err != nil {
		return nil, err
	}
	cfg := mcts.DefaultPlayConfig()
	cfg.Simulations = max(1, o.Visits)
	cfg.Gumbel = o.Gumbel
	if o.GumbelK > 0 {
		cfg.GumbelK = o.GumbelK
	}
	cfg.BatchSize = 8
	cfg.CacheEntries = 1 << 16
	s, err := mcts.NewSearcher(eval, cfg)
	if err != nil {
		eval.Close()
		return nil, err
	}
	return &NetPlayer{name: name, eval: eval, searcher: s, visits: cfg.Simulations}, nil
}

// Name implements player.Player.
func (p *NetPlayer) Name() string { return p.name }

// Seed implements player.Seeder: it fixes the search's random choices.
func (p *NetPlayer) Seed(seed uint64) {
	p.seed = seed
	if p.tree != nil {
		p.tree.Reseed(seed)
	}
}

// NewGame implements player.Player.
func (p *NetPlayer) NewGame(context.Context) error {
	if p.tree != nil {
		p.tree.Reseed(p.seed)
	}
	return nil
}

// Move implements player.Player: a search of limits.Nodes visits (else the
// player's own budget), within the time the limits allow.
func (p *NetPlayer) Move(ctx context.Context, pos *env.Position, limits player.Limits) (env.Move, error) {
	var err error
	if p.tree == nil {
		p.tree, err = p.searcher.NewTree(pos, p.seed)
	} else {
		err = p.tree.SetPosition(pos)
	}
	if err != nil {
		return env.NoMove, err
	}
	lim := mcts.Limits{Nodes: p.visits, Time: limits.Budget(pos.SideToMove())}
	if limits.Nodes > 0 {
		lim.Nodes = int(limits.Nodes)
	}
	res, err := p.searcher.Search(ctx, p.tree, lim)
	if err != nil {
		return env.NoMove, err
	}
	return res.BestMove, nil
}

// Close implements player.Player.
func (p *NetPlayer) Close() error { return p.eval.Close() }

// ResolveCheckpoint turns a checkpoint file or a run folder into the path
// of a checkpoint: a folder stands for its newest checkpoint.
func ResolveCheckpoint(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return path, nil
	}
	r := &runner{dir: path}
	its, err := r.checkpointFiles()
	if err != nil || len(its) == 0 {
		return "", fmt.Errorf("%s holds no checkpoints (want a checkpoint file or a run folder)", path)
	}
	return r.ckptPath(its[0]), nil
}

// RegisterCheckpointPlayer adds the kind ckpt:PATH[,visits=N][,gumbel=BOOL]
// to reg: a network loaded from a checkpoint file or a run folder's
// newest checkpoint, searching N visits a move (default 64) unless the
// match sets a node budget.
func RegisterCheckpointPlayer(reg *player.Registry) error {
	return reg.Register("ckpt", "ckpt:PATH[,visits=N][,gumbel=true|false]  network from a checkpoint file or run folder (its newest)",
		func(ctx context.Context, spec player.Spec, setup player.Setup) (player.Player, error) {
			if spec.Arg == "" {
				return nil, fmt.Errorf("player spec %q: ckpt needs a checkpoint file or run folder", spec.Text)
			}
			o := NetPlayerOptions{Visits: 64, Gumbel: true, Workers: 1}
			for _, opt := range spec.Options {
				var err error
				switch opt.Name {
				case "visits":
					o.Visits, err = strconv.Atoi(opt.Value)
					if err == nil && o.Visits < 1 {
						err = fmt.Errorf("must be at least 1")
					}
				case "gumbel":
					o.Gumbel, err = strconv.ParseBool(opt.Value)
				default:
					err = fmt.Errorf("unknown option (want visits or gumbel)")
				}
				if err != nil {
					return nil, fmt.Errorf("player spec %q: option %s=%s: %v", spec.Text, opt.Name, opt.Value, err)
				}
			}
			path, err := ResolveCheckpoint(spec.Arg)
			if err != nil {
				return nil, fmt.Errorf("player spec %q: %w", spec.Text, err)
			}
			c, err := model.LoadCheckpoint(path)
			if err != nil {
				return nil, fmt.Errorf("player spec %q: %w", spec.Text, err)
			}
			if v := c.Meta["variant"]; v != "" && v != setup.Variant.Name {
				return nil, fmt.Errorf("player spec %q: %s was trained for %s, the match plays %s", spec.Text, filepath.Base(path), v, setup.Variant.Name)
			}
			return NewNetPlayer(spec.Text, c.Weights, o)
		})
}
