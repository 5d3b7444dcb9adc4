package pychess

import (
	"context"
	"errors"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// choice is an engine's move: Move in UCI and, when HasValue is set, the
// search's value of the position, W−L in [−1, 1] from the side to move's
// view.
type choice struct {
	Move     string
	Value    float64
	HasValue bool
}

// search asks a free engine for a move in the game that led to pos,
// within lim and Config.Visits (for the alpha-beta as long a search). An
// engine serves one search at a time: with every engine busy it waits
// for one, or for ctx.
func (b *Bot) search(ctx context.Context, pos *env.Position, lim clock.Limits) (choice, error) {
	var e engine.Interface
	select {
	case e = <-b.free:
	case <-ctx.Done():
		return choice{}, ctx.Err()
	}
	defer func() { b.free <- e }()
	if o := e.Options(); o.Variant != pos.Variant() {
		o.Variant = pos.Variant()
		if err := e.SetOptions(o); err != nil {
			return choice{}, err
		}
	}
	lim.Nodes = engine.VisitNodes(e.SearchKind(), int64(b.cfg.Visits))
	res, err := e.Go(ctx, env.GameOf(pos), lim, mcts.Progress{})
	switch {
	case res.BestMove == env.NoMove:
		return choice{}, errors.Join(errors.New("the engine found no move"), err)
	case err != nil && res.Nodes == 0:
		return choice{}, err
	}
	return choice{Move: res.BestMove.UCI(), Value: float64(res.RootValue), HasValue: res.Nodes > 0}, nil
}
