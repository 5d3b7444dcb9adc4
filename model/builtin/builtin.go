// Package builtin holds AliceZero's built-in networks: networks the
// project trained itself (docs/TRAINING.md records how: configuration,
// commit, hours, games, strength), embedded in the binary so that every
// way of playing has a network to play without a --weights file. There is
// one for each rule set, in the file named after it (alice.azck for
// alice); Variants lists them, and a test holds every rule set of env to
// having one.
//
// The engine plays a variant's network when it is named (--weights
// builtin) or when the tree search is asked for with no weights named
// (Search mcts, the arena's net:search=mcts); with no weights named it
// plays the classical alpha-beta.
//
// Each file is a weights-only checkpoint (model.SaveCheckpoint without an
// optimiser state, as "alicezero export --format azck" writes it); its
// Meta says how it was trained.
package builtin

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/alicezero/alicezero/model"
)

// The networks, one file per variant: VARIANT.azck.
//
//go:embed *.azck
var files embed.FS

const ext = ".azck"

// Variants returns the rule sets that have a built-in network, in name
// order.
func Variants() []string {
	entries, _ := fs.ReadDir(files, ".") // an embed.FS root always reads
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ext); ok {
			out = append(out, name)
		}
	}
	return out
}

// Has reports whether variant has a built-in network.
func Has(variant string) bool { return slices.Contains(Variants(), variant) }

// Checkpoint returns variant's built-in network, freshly decoded: callers
// own the weights they get. A name with none is an error that lists the
// variants that have one.
func Checkpoint(variant string) (*model.Checkpoint, error) {
	if !Has(variant) {
		return nil, fmt.Errorf("no built-in network for %q (the built-in networks play %s)", variant, strings.Join(Variants(), ", "))
	}
	f, err := files.Open(variant + ext)
	if err != nil {
		return nil, fmt.Errorf("the built-in network for %s: %w", variant, err)
	}
	defer f.Close()
	c, err := model.ReadCheckpoint(f)
	if err != nil {
		return nil, fmt.Errorf("the built-in network for %s: %w", variant, err)
	}
	return c, nil
}

// Describe says what a built-in network is, e.g. "the built-in network
// (small, 2940 iterations of training)", with the variant it plays before
// the preset where that is not alice: "the built-in network (alice-ep,
// small, 120 iterations of training)".
func Describe(c *model.Checkpoint) string {
	preset := c.Preset
	if preset == "" {
		preset = c.Config().String()
	}
	s := "the built-in network ("
	if v := c.Meta["variant"]; v != "" && v != "alice" {
		s += v + ", "
	}
	s += preset
	if it := c.Meta["iterations"]; it != "" {
		s += ", " + it + " iterations of training"
	}
	return s + ")"
}
