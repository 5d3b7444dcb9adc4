// Package configs holds the named run configurations as YAML files, each
// documented field by field, and embeds them in the binary: "small" is the
// default that a bare "alicezero train" runs.
package configs

import (
	"embed"
	"fmt"
	"sort"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// Default is the name of the configuration a bare "alicezero train" uses.
const Default = "small"

// Named returns the YAML text of the configuration called name.
func Named(name string) ([]byte, error) {
	b, err := files.ReadFile(name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no built-in configuration %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return b, nil
}

// Names lists the built-in configurations.
func Names() []string {
	entries, _ := files.ReadDir(".")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}
