package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/runs"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/model"
	"github.com/alicezero/alicezero/model/builtin"
)

// NoWeights names the plain search, with no network, wherever weights are
// named (--weights none, the UCI option Weights).
const NoWeights = "none"

// BuiltinWeights names the built-in network of the variant played
// wherever weights are named (--weights builtin; package builtin holds one
// network per variant): named, it plays, through the tree
// search, where no weights named leave the game to the alpha-beta
// (Options.Weights).
const BuiltinWeights = "builtin"

// ErrOtherVariant is what the error of weights built for another variant
// than the one to play wraps (errors.Is): a front end that plays several
// variants may then choose the plain search for that variant instead.
var ErrOtherVariant = errors.New("weights of another variant")

// otherVariantError is a fits error: its text as given, ErrOtherVariant
// for errors.Is.
type otherVariantError struct{ error }

func (e otherVariantError) Is(target error) bool { return target == ErrOtherVariant }
func (e otherVariantError) Unwrap() error        { return e.error }

// Network is what evaluates positions for an engine: a network's weights,
// or none (the plain search with a material evaluation).
type Network struct {
	// Weights are the network's parameters; nil for the plain search.
	Weights *model.Weights
	// Variant is the rule set the network was trained for ("" if it does
	// not say).
	Variant string
	// Description says what it is, for people: "network PATH (small, step
	// 1200)", "no network: plain search, the classical alpha-beta".
	Description string
}

// The plain search's descriptions: what plays without a network, by the
// search that runs (Options.Search).
const (
	plainAlphaBeta = "no network: plain search, the classical alpha-beta"
	plainTree      = "no network: plain tree search with a material evaluation"
	// alphaBetaSearch is what plays when no network is named, and what
	// Search alphabeta plays whatever is named: the alpha-beta.
	alphaBetaSearch = "the classical alpha-beta, with its own evaluation"
)

// plainSearch is the evaluator-less network: the alpha-beta with its own
// evaluation plays (or, with Search mcts, the tree counting material).
func plainSearch() *Network {
	return &Network{Description: plainAlphaBeta}
}

// LoadNetwork reads weights as a user names them: "" for the default
// network (v's built-in one: what the tree search plays when no weights
// are named, whereas an Engine that is not asked for the tree loads none
// and plays the alpha-beta), BuiltinWeights ("builtin") for v's built-in
// network too, NoWeights ("none") for the plain search, a checkpoint file,
// or a training run's folder (or its checkpoints folder) for its newest
// checkpoint. A network trained for another variant than v is refused.
// The error names the path and what is wrong with it.
func LoadNetwork(weights string, v env.Variant) (*Network, error) {
	switch w := strings.TrimSpace(weights); {
	case unnamed(w), w == BuiltinWeights:
		return builtinNetwork(v)
	case w == NoWeights:
		return plainSearch(), nil
	}
	c, file, err := LoadCheckpoint(weights)
	if err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	n := &Network{Weights: c.Weights, Variant: c.Meta["variant"]}
	preset := c.Preset
	if preset == "" {
		preset = c.Config().String()
	}
	n.Description = fmt.Sprintf("network %s (%s, step %d)", file, preset, c.Step)
	if err := n.fits(v); err != nil {
		return nil, err // it names the file already, in the network's description
	}
	return n, nil
}

// fits reports whether the network plays variant v: trained for it where
// it says (a checkpoint's metadata), and of its encoding in any case (so
// that a file without metadata is still refused when its planes or policy
// layout are another variant's). Its errors wrap ErrOtherVariant.
func (n *Network) fits(v env.Variant) error {
	if n.Variant != "" && n.Variant != v.Name {
		return otherVariantError{fmt.Errorf("%s was trained for %s, not %s", n.Description, n.Variant, v.Name)}
	}
	if n.Weights != nil {
		if err := n.Weights.Config().Fits(v); err != nil {
			return otherVariantError{fmt.Errorf("%s: %w", n.Description, err)}
		}
	}
	return nil
}

// TrainedVariant returns the variant the weights named as LoadNetwork
// reads them were trained for, as their checkpoint records it: "" for no
// weights named, the plain search, a file that does not say, and
// BuiltinWeights, which names a network for each variant.
func TrainedVariant(weights string) (string, error) {
	if w := strings.TrimSpace(weights); unnamed(w) || w == NoWeights || w == BuiltinWeights {
		return "", nil
	}
	c, _, err := LoadCheckpoint(weights)
	if err != nil {
		return "", fmt.Errorf("weights: %w", err)
	}
	return c.Meta["variant"], nil
}

// unnamed reports whether weights name nothing: "", or "<empty>", which
// is how UCI GUIs send an empty string.
func unnamed(weights string) bool {
	w := strings.TrimSpace(weights)
	return w == "" || w == "<empty>"
}

// LoadCheckpoint reads the checkpoint a name gives as LoadNetwork reads
// it — a checkpoint file, or a training run's folder (or its checkpoints
// folder) for its newest checkpoint — and returns it with the file it
// came from. It is LoadNetwork's half for files, for callers that need
// the whole checkpoint (its step and metadata: export): the default
// network and the plain search are no file, and are LoadNetwork's to
// decide.
func LoadCheckpoint(name string) (*model.Checkpoint, string, error) {
	file, err := runs.Resolve(name)
	if err != nil {
		return nil, "", err
	}
	c, err := model.LoadCheckpoint(file)
	if err != nil {
		return nil, "", err
	}
	return c, file, nil
}

// builtinNetwork is v's built-in network (package builtin has one for
// every variant): the network of no weights named, for every command and
// protocol that asks for one (the tree search, LoadNetwork), and of
// BuiltinWeights.
func builtinNetwork(v env.Variant) (*Network, error) {
	c, err := builtin.Checkpoint(v.Name)
	if err != nil {
		return nil, err
	}
	return &Network{Weights: c.Weights, Variant: v.Name, Description: builtin.Describe(c)}, nil
}

// InMemory wraps weights held by the caller (training's strength matches)
// as a Network; description names them.
func InMemory(w *model.Weights, description string) (*Network, error) {
	if w == nil {
		return nil, errors.New("engine: no weights")
	}
	return &Network{Weights: w, Description: description}, nil
}

// evaluator builds the network's evaluator for positions of variant v:
// the fast path on workers cores for threads search threads, each of
// which evaluates its own batches, or the material count. fast is nil for
// the plain search.
func (n *Network) evaluator(v env.Variant, workers, threads int) (eval mcts.Evaluator, fast *model.FastEvaluator, err error) {
	if n.Weights == nil {
		return mcts.MaterialEvaluator{Variant: v}, nil, nil
	}
	fast, err = model.NewFastEvaluator(n.Weights, model.FastOptions{Workers: max(workers, threads), Callers: threads})
	if err != nil {
		return nil, nil, fmt.Errorf("engine: %s: %w", n.Description, err)
	}
	return fast, fast, nil
}
