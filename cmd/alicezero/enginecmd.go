package main

import (
	"flag"
	"fmt"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/mcts/engine"
)

// engineFlags are the flags of the commands that play with the engine
// (uci, xboard, play).
type engineFlags struct {
	weights *string
	threads *int
	visits  *int
	hash    *int
}

// weightsHelp is the help of every engine command's --weights.
const weightsHelp = "a network to play, through the tree search: builtin (the built-in network of the variant played), a checkpoint file or a run folder (its newest checkpoint); none: the plain search (default: no network, the classical alpha-beta)"

// addEngineFlags declares the engine's flags on fs; visitsHelp says when
// the visit budget applies.
func addEngineFlags(fs *flag.FlagSet, visitsHelp string) *engineFlags {
	return &engineFlags{
		weights: fs.String("weights", "", weightsHelp),
		threads: fs.Int("threads", 1, "search threads (the alpha-beta's share its table; the tree search's each evaluate their own batches)"),
		visits:  fs.Int("visits", engine.DefaultVisits, fmt.Sprintf("%s (the alpha-beta searches as long: %d nodes a visit)", visitsHelp, engine.NodesPerVisit)),
		hash:    fs.Int("hash", engine.DefaultHashMB, "search memory in MiB: the alpha-beta's transposition table, or for the tree search a quarter evaluation cache and the rest the tree"),
	}
}

// newEngine makes the engine the flags describe, for variant v: a missing
// or damaged network is an error here, before any conversation starts.
// variant returns the rule set to play: --variant's (name) where it was
// given, else the one --weights were trained for where their checkpoint
// says, else name (the flag's default).
func (f *engineFlags) variant(fs *flag.FlagSet, name string) (env.Variant, error) {
	if err := f.check(); err != nil {
		return env.Variant{}, err
	}
	if !flagSet(fs, "variant") {
		trained, err := engine.TrainedVariant(*f.weights)
		if err != nil {
			return env.Variant{}, fmt.Errorf("--weights %s: %w", *f.weights, err)
		}
		if trained != "" {
			name = trained
		}
	}
	return lookupVariant(name)
}

// check refuses a flag out of the engine's range, naming the flag (0 is
// refused too: it would silently mean the default).
func (f *engineFlags) check() error {
	for _, c := range []struct {
		flag     string
		v, limit int
		unit     string
	}{
		{"--visits", *f.visits, engine.MaxVisits, ""},
		{"--threads", *f.threads, engine.MaxThreads, ""},
		{"--hash", *f.hash, engine.MaxHashMB, " MiB"},
	} {
		if c.v < 1 || c.v > c.limit {
			return fmt.Errorf("%s %d: want 1..%d%s", c.flag, c.v, c.limit, c.unit)
		}
	}
	return nil
}

func (f *engineFlags) newEngine(v env.Variant) (*engine.Engine, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	e, err := engine.New(engine.Options{Weights: *f.weights, Threads: *f.threads, Visits: *f.visits, HashMB: *f.hash, Variant: v})
	if err != nil {
		return nil, fmt.Errorf("--weights %s: %w", *f.weights, err)
	}
	return e, nil
}
