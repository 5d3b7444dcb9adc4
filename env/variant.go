package env

import (
	"fmt"
	"strings"
)

// Variant is a rule set. The generator reads its switches; a new variant of
// the rule book adds a switch here and the code that honours it, not a new
// generator.
type Variant struct {
	// Name is the variant's name as used on the command line and in PGN.
	Name string
	// EnPassant allows en-passant captures (the rule book's alice-ep).
	EnPassant bool
}

// The variants implemented so far.
var (
	Alice   = Variant{Name: "alice"}
	AliceEP = Variant{Name: "alice-ep", EnPassant: true}
)

// Variants lists every implemented variant, the default first.
func Variants() []Variant { return []Variant{Alice, AliceEP} }

// VariantByName looks a variant up by its name (case-insensitive).
func VariantByName(name string) (Variant, error) {
	var names []string
	for _, v := range Variants() {
		if strings.EqualFold(v.Name, name) {
			return v, nil
		}
		names = append(names, v.Name)
	}
	return Variant{}, fmt.Errorf("unknown variant %q (known: %s)", name, strings.Join(names, ", "))
}
