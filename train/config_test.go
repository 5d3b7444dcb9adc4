package train

import (
	"errors"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/configs"
)

func TestBuiltinConfigsParse(t *testing.T) {
	for _, name := range configs.Names() {
		c, err := BuiltinConfig(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.Name != name {
			t.Errorf("%s.yaml calls itself %q", name, c.Name)
		}
	}
	if _, err := BuiltinConfig(configs.Default); err != nil {
		t.Fatal(err)
	}
}

func TestMalformedConfigNamesTheKey(t *testing.T) {
	base, err := configs.Named("tiny")
	if err != nil {
		t.Fatal(err)
	}
	replace := func(old, new string) []byte {
		if !strings.Contains(string(base), old) {
			t.Fatalf("tiny.yaml lacks %q", old)
		}
		return []byte(strings.Replace(string(base), old, new, 1))
	}
	cases := []struct {
		name    string
		data    []byte
		wantKey string
	}{
		{"unknown top-level key", append(append([]byte{}, base...), "colour: blue\n"...), "colour"},
		{"unknown nested key", replace("  simulations: 8\n", "  simulations: 8\n  simulatoins: 9\n"), "search.simulatoins"},
		{"out of range", replace("  simulations: 8\n", "  simulations: 0\n"), "search.simulations"},
		{"negative fraction", replace("  window_fraction: 0.5", "  window_fraction: -1"), "train.window_fraction"},
		{"unknown preset", replace("  preset: tiny", "  preset: huge"), "model.preset"},
		{"unknown variant", replace("variant: alice", "variant: atomic"), "variant"},
		{"odd evaluation games", replace("  games: 2\n", "  games: 3\n"), "evaluate.games"},
		{"missing key", replace("  momentum: 0.9\n", ""), "train.momentum"},
		{"bad optimiser", replace("  optimizer: sgd", "  optimizer: lbfgs"), "train.optimizer"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig(tc.data, "test.yaml")
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Key != tc.wantKey || ce.Source != "test.yaml" {
				t.Fatalf("error %v, want one naming key %q", err, tc.wantKey)
			}
			if !strings.Contains(err.Error(), tc.wantKey) {
				t.Fatalf("message %q does not name the key", err)
			}
		})
	}
	if _, err := ParseConfig([]byte("search: [1, 2"), "broken.yaml"); err == nil || !strings.Contains(err.Error(), "broken.yaml") {
		t.Fatalf("broken YAML: %v", err)
	}
}
