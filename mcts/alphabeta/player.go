package alphabeta

import (
	"context"
	"fmt"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/player"
)

// Player plays with a Searcher: player.Player and player.Scorer.
type Player struct {
	name   string
	s      *Searcher
	score  int
	scored bool
}

// NewPlayer returns a player named name searching with cfg.
func NewPlayer(name string, cfg Config) (*Player, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, fmt.Errorf("player %q: %w", name, err)
	}
	return &Player{name: name, s: s}, nil
}

// Name returns the player's name.
func (p *Player) Name() string { return p.name }

// NewGame clears what the last game's searches learnt.
func (p *Player) NewGame(context.Context) error {
	p.s.NewGame()
	return nil
}

// Close does nothing: the searcher holds only memory.
func (p *Player) Close() error { return nil }

// Move searches pos within limits.
func (p *Player) Move(ctx context.Context, pos *env.Position, limits clock.Limits) (env.Move, error) {
	p.scored = false
	r, err := p.s.Search(ctx, pos, limits)
	if err != nil {
		return env.NoMove, fmt.Errorf("%s: %w", p.name, err)
	}
	p.score, p.scored = r.Score, true
	if r.MateIn > 0 {
		p.score = player.MateScore
	} else if r.MateIn < 0 {
		p.score = -player.MateScore
	}
	return r.Move, nil
}

// LastScore implements player.Scorer.
func (p *Player) LastScore() (int, bool) { return p.score, p.scored }

// Register adds the kind "alphabeta" to r.
func Register(r *player.Registry) error {
	return r.Register("alphabeta", "alphabeta[:hash=MB][,depth=N][,threads=N]  the classical alpha-beta (transposition table, PVS, null move, LMR; default hash 16; threads share the table)", NewFromSpec)
}

// NewFromSpec is the factory of "alphabeta[:hash=MB][,depth=N][,threads=N]".
func NewFromSpec(_ context.Context, spec player.Spec, _ player.Setup) (player.Player, error) {
	if spec.Arg != "" {
		return nil, fmt.Errorf("player %q: alphabeta takes no argument, only NAME=VALUE options (e.g. alphabeta:hash=64)", spec.Text)
	}
	if err := spec.CheckOptions("hash", "depth", "threads"); err != nil {
		return nil, err
	}
	var cfg Config
	var err error
	if cfg.HashMB, err = spec.IntAtLeast("hash", DefaultHashMB, 1); err != nil {
		return nil, err
	}
	if cfg.Depth, err = spec.IntAtLeast("depth", MaxDepth, 1); err != nil {
		return nil, err
	}
	if cfg.Threads, err = spec.IntAtLeast("threads", 1, 1); err != nil {
		return nil, err
	}
	return NewPlayer(spec.Text, cfg)
}
