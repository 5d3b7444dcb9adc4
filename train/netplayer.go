package train

import (
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/train/engine"
)

// NetPlayerOptions sets a network player's search.
//
// Deprecated: use engine.Options; kept until the strength matches switch
// to engine.NewPlayer.
type NetPlayerOptions struct {
	// Visits is the search budget per move when the match sets none.
	Visits int
	// Gumbel selects Gumbel root search (better at low visit counts).
	Gumbel bool
	// Workers is the number of cores the network may use (0: all).
	Workers int
}

// NewNetPlayer returns the engine's player (package engine, the one
// network player of the project) with weights w held in memory.
//
// Deprecated: use engine.NewPlayer with engine.InMemory.
func NewNetPlayer(name string, w *model.Weights, o NetPlayerOptions) (*engine.Player, error) {
	net, err := engine.InMemory(w, "network "+name)
	if err != nil {
		return nil, err
	}
	return engine.NewPlayer(name, engine.Options{Network: net, Visits: o.Visits, Gumbel: o.Gumbel, EvalWorkers: o.Workers})
}
