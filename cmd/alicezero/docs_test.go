package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/xboard"
	"github.com/alicezero/alicezero/env"
)

// The docs' lists of variants are the code's: UCI_Variant's choices and
// the arena's --variant (every rule set), XBoard's feature variants (what
// its board shows).
func TestDocsListTheVariantsTheCodeHas(t *testing.T) {
	read := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// between returns the text of doc from the first start on to the
	// next end after it.
	between := func(doc, name, start, end string) string {
		t.Helper()
		i := strings.Index(doc, start)
		if i < 0 {
			t.Fatalf("%s has no %q", name, start)
		}
		rest := doc[i+len(start):]
		j := strings.Index(rest, end)
		if j < 0 {
			t.Fatalf("%s: no %q after %q", name, end, start)
		}
		return rest[:j]
	}
	readme, eval := read("README.md"), read("docs/EVALUATION.md")
	for _, tc := range []struct {
		where, text string
		want        []string
	}{
		{"README's UCI_Variant", between(readme, "README.md", "Options: `UCI_Variant` (", ")"), env.VariantNames()},
		{"README's feature variants", between(readme, "README.md", "The `feature variants` list names", ";"), xboard.Offered()},
		{"EVALUATION.md's --variant", between(eval, "docs/EVALUATION.md", "| `--variant NAME` |", "\n"), env.VariantNames()},
	} {
		named := map[string]bool{}
		for _, f := range strings.FieldsFunc(tc.text, func(r rune) bool { return r != '-' && (r < 'a' || r > 'z') && (r < '0' || r > '9') }) {
			if _, err := env.VariantByName(f); err == nil {
				named[f] = true
			}
		}
		for _, v := range tc.want {
			if !strings.Contains(tc.text, "`"+v+"`") {
				t.Errorf("%s does not name %s: %q", tc.where, v, tc.text)
			}
		}
		if len(named) != len(tc.want) {
			t.Errorf("%s names %d variants, the code has %d (%s): %q", tc.where, len(named), len(tc.want), strings.Join(tc.want, ", "), tc.text)
		}
	}
}
