package main

import (
	"fmt"
	"strings"

	"github.com/alicezero/alicezero/env"
)

// variantNames is the --variant flags' list of rule sets.
var variantNames = strings.Join(env.VariantNames(), ", ")

// playableVariant looks up a --variant for a command that plays through
// the network: every rule set's name is known, but one whose input planes
// and policy layout are not built yet is refused with the reason.
func playableVariant(name string) (env.Variant, error) {
	v, err := env.VariantByName(name)
	if err != nil {
		return v, fmt.Errorf("--variant: %w", err)
	}
	if err := v.CheckNetwork(); err != nil {
		return v, fmt.Errorf("--variant: %w; perft and replay play it", err)
	}
	return v, nil
}
