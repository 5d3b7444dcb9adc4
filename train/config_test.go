package train

import (
	"errors"
	"fmt"
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
		{"wrong type", replace("  simulations: 8\n", "  simulations: eight\n"), "search.simulations"},
		{"section given a value", replace("model:\n", "model: 3\nx:\n"), "model"},
		{"retired key", replace("  no_resign_fraction:", "  resign_threshold: 0.9\n  no_resign_fraction:"), "selfplay.resign_threshold"},
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

// A key the text lacks takes the default configuration's value, so that
// configurations written before a key existed still load (and resume).
func TestMissingKeysTakeTheDefault(t *testing.T) {
	base, err := configs.Named("tiny")
	if err != nil {
		t.Fatal(err)
	}
	def, err := BuiltinConfig(configs.Default)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(base), "  momentum: 0.9\n", "", 1)
	text = strings.Replace(text, "  cap_material_margin: 3\n", "", 1)
	c, missing, err := ParseConfigDefaulted([]byte(text), "old.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Train.Momentum != def.Train.Momentum || c.SelfPlay.CapMaterialMargin != def.SelfPlay.CapMaterialMargin {
		t.Fatalf("missing keys got %v and %v, want the default's %v and %v", c.Train.Momentum, c.SelfPlay.CapMaterialMargin,
			def.Train.Momentum, def.SelfPlay.CapMaterialMargin)
	}
	if strings.Join(missing, ",") != "selfplay.cap_material_margin,train.momentum" {
		t.Fatalf("defaulted keys %v", missing)
	}
	if c.Name != "tiny" || c.Search.Simulations != 8 {
		t.Fatalf("keys present were not kept: %+v", c)
	}
	// A whole section missing takes the default's section.
	noCkpt := text[:strings.Index(text, "checkpoints:")]
	c, missing, err = ParseConfigDefaulted([]byte(noCkpt), "old.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Checkpoint != def.Checkpoint || len(missing) != 4 {
		t.Fatalf("missing section: %+v, defaulted %v", c.Checkpoint, missing)
	}
}

func TestEmptyConfigSaysSo(t *testing.T) {
	for _, text := range []string{"", "\n\n", "# only a comment\n"} {
		_, err := ParseConfig([]byte(text), "empty.yaml")
		if err == nil || !strings.Contains(err.Error(), "empty") || !strings.Contains(err.Error(), "empty.yaml") {
			t.Fatalf("%q: error %v, want one saying the file is empty", text, err)
		}
	}
	if _, err := ParseConfig([]byte("- 1\n- 2\n"), "list.yaml"); err == nil || !strings.Contains(err.Error(), "mapping") {
		t.Fatalf("a list: error %v", err)
	}
}

// TestPartialConfigs: a file of a few keys inherits the rest from the
// default; what it inherits is fitted or blamed as inherited, and a
// fraction is no whole number.
func TestPartialConfigs(t *testing.T) {
	tests := []struct {
		name, yaml, wantErr string
		check               func(*Config) string
	}{
		{"fraction", "selfplay:\n  games_per_iteration: 2.5\n", `key "selfplay.games_per_iteration": line 2: 2.5 is not a whole number`, nil},
		{"pgn games fitted", "selfplay:\n  games_per_iteration: 3\n", "", func(c *Config) string {
			if c.SelfPlay.GamesPerIteration != 3 || c.SelfPlay.PGNGames != 3 {
				return fmt.Sprintf("games %d, pgn games %d; want 3 and 3", c.SelfPlay.GamesPerIteration, c.SelfPlay.PGNGames)
			}
			return ""
		}},
		{"pgn games set", "selfplay:\n  games_per_iteration: 3\n  pgn_games: 5\n", `key "selfplay.pgn_games": 5 is out of range [0, 3]`, nil},
		{"inherited key blamed", "train:\n  batch_size: 4096\n", "train.min_buffer\": 1024 is out of range [4096, 1073741824] (the text does not set this key: its value is inherited from the default configuration small; set it)", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig([]byte(tt.yaml), "part.yaml")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				if strings.Contains(tt.yaml, "pgn_games") && strings.Contains(err.Error(), "inherited") {
					t.Errorf("a key the text sets is called inherited: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if msg := tt.check(c); msg != "" {
				t.Error(msg)
			}
		})
	}
}
