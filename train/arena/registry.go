package arena

import (
	"github.com/alicezero/alicezero/internal/player"
	"github.com/alicezero/alicezero/mcts/alphabeta"
	"github.com/alicezero/alicezero/mcts/reference"
)

// NewRegistry returns a registry of the built-in player kinds: random and
// ab (package reference), alphabeta (package alphabeta) and uci (external engines). Commands add their
// own kinds to it, e.g. the network checkpoint kind:
//
//	reg, err := arena.NewRegistry()
//	...
//	err = reg.Register("ckpt", "ckpt:PATH[,visits=N]", newCheckpointPlayer)
func NewRegistry() (*player.Registry, error) {
	r := player.NewRegistry()
	if err := reference.Register(r); err != nil {
		return nil, err
	}
	if err := alphabeta.Register(r); err != nil {
		return nil, err
	}
	if err := r.Register("uci", "uci:COMMAND LINE[,Option=Value]...  external UCI engine (options go to setoption)", NewUCIFromSpec); err != nil {
		return nil, err
	}
	return r, nil
}
