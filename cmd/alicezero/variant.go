package main

import (
	"fmt"
	"strings"

	"github.com/alicezero/alicezero/env"
)

// variantNames is the --variant flags' list of rule sets.
var variantNames = strings.Join(env.VariantNames(), ", ")

// networkVariantNames lists the rule sets the network plays (those
// playableVariant accepts), for the flags of the commands that play.
var networkVariantNames = func() string {
	var names []string
	for _, v := range env.Variants() {
		if v.CheckNetwork() == nil {
			names = append(names, v.Name)
		}
	}
	return strings.Join(names, ", ")
}()

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
