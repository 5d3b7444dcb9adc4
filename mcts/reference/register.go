package reference

import (
	"context"
	"fmt"

	"github.com/alicezero/alicezero/internal/player"
)

// Register adds the kinds "random" and "ab" to r.
func Register(r *player.Registry) error {
	if err := r.Register("random", "random[:seed=N]  uniformly random legal moves", NewRandomFromSpec); err != nil {
		return err
	}
	return r.Register("ab", "ab[:depth=N][,q=on|off][,qdepth=N][,mobility=CP][,noise=CP][,shuffle=on|off][,seed=N]  material alpha-beta (default depth 2)", NewAlphaBetaFromSpec)
}

// NewRandomFromSpec is the factory of "random[:seed=N]".
func NewRandomFromSpec(_ context.Context, spec player.Spec, _ player.Setup) (player.Player, error) {
	if spec.Arg != "" {
		return nil, fmt.Errorf("player %q: random takes no argument, only seed=N", spec.Text)
	}
	if err := spec.CheckOptions("seed"); err != nil {
		return nil, err
	}
	seed, err := spec.Uint64("seed", 0)
	if err != nil {
		return nil, err
	}
	return NewRandom(spec.Text, seed), nil
}

// NewAlphaBetaFromSpec is the factory of "ab:depth=N,...".
func NewAlphaBetaFromSpec(_ context.Context, spec player.Spec, _ player.Setup) (player.Player, error) {
	if spec.Arg != "" {
		return nil, fmt.Errorf("player %q: ab takes no argument, only NAME=VALUE options (e.g. ab:depth=2)", spec.Text)
	}
	if err := spec.CheckOptions("depth", "q", "qdepth", "mobility", "noise", "shuffle", "seed"); err != nil {
		return nil, err
	}
	cfg := DefaultAlphaBetaConfig()
	var err error
	if cfg.Depth, err = spec.Int("depth", cfg.Depth); err != nil {
		return nil, err
	}
	if cfg.Quiescence, err = spec.Bool("q", cfg.Quiescence); err != nil {
		return nil, err
	}
	if cfg.QDepth, err = spec.Int("qdepth", cfg.QDepth); err != nil {
		return nil, err
	}
	if cfg.Mobility, err = spec.Int("mobility", cfg.Mobility); err != nil {
		return nil, err
	}
	if cfg.Noise, err = spec.Int("noise", cfg.Noise); err != nil {
		return nil, err
	}
	if cfg.Shuffle, err = spec.Bool("shuffle", cfg.Shuffle); err != nil {
		return nil, err
	}
	if cfg.Seed, err = spec.Uint64("seed", cfg.Seed); err != nil {
		return nil, err
	}
	return NewAlphaBeta(spec.Text, cfg)
}
