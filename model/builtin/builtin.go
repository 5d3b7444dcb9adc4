// Package builtin holds AliceZero's built-in network: a network the project
// trained itself (docs/TRAINING.md records how: configuration, commit,
// hours, games, strength), embedded in the binary so that every way of
// playing has a network to play without a --weights file. The engine plays
// it when it is named (--weights builtin) or when the tree search is asked
// for with no weights named (Search mcts, the arena's net:search=mcts);
// with no weights named it plays the classical alpha-beta.
//
// The file is a weights-only checkpoint (model.SaveCheckpoint without an
// optimiser state); its Meta says how it was trained.
package builtin

import (
	"bytes"
	_ "embed"
	"fmt"

	"github.com/alicezero/alicezero/model"
)

// Variant is the rule set the built-in network plays.
const Variant = "alice"

//go:embed alice.azck
var alice []byte

// Checkpoint returns the built-in network, freshly decoded: callers own
// the weights they get.
func Checkpoint() (*model.Checkpoint, error) {
	c, err := model.ReadCheckpoint(bytes.NewReader(alice))
	if err != nil {
		return nil, fmt.Errorf("the built-in network: %w", err)
	}
	return c, nil
}

// Describe says what the built-in network is, e.g. "the built-in network
// (small, 16 iterations of alicezero train)".
func Describe(c *model.Checkpoint) string {
	preset := c.Preset
	if preset == "" {
		preset = c.Config().String()
	}
	s := "the built-in network (" + preset
	if it := c.Meta["iterations"]; it != "" {
		s += ", " + it + " iterations of training"
	}
	return s + ")"
}
