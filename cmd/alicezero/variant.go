package main

import (
	"fmt"
	"strings"

	"github.com/alicezero/alicezero/env"
)

// variantNames is the --variant flags' list of rule sets.
var variantNames = strings.Join(env.VariantNames(), ", ")

// lookupVariant looks up a --variant by name.
func lookupVariant(name string) (env.Variant, error) {
	v, err := env.VariantByName(name)
	if err != nil {
		return v, fmt.Errorf("--variant: %w", err)
	}
	return v, nil
}
