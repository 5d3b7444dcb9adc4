package arena

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts/reference"
)

func TestBuiltinOpenings(t *testing.T) {
	ops, err := BuiltinOpenings(40, env.Alice)
	if err != nil {
		t.Fatal(err)
	}
	prefix, err := BuiltinOpenings(10, env.Alice)
	if err != nil {
		t.Fatal(err)
	}
	cfg := reference.DefaultAlphaBetaConfig()
	cfg.Shuffle = false
	ab, err := reference.NewAlphaBeta("check", cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]bool{}
	for i, o := range ops {
		if i < len(prefix) && (prefix[i].Name != o.Name || len(prefix[i].Moves) != len(o.Moves)) {
			t.Errorf("opening %d differs between calls", i+1)
		}
		if n := len(o.Moves); n < 2 || n > 6 || o.FEN != env.StartFEN {
			t.Errorf("%s: %d plies from %s", o.Name, n, o.FEN)
		}
		pos, err := o.Position(env.Alice)
		if err != nil {
			t.Fatal(err)
		}
		if seen[pos.Hash()] {
			t.Errorf("%s repeats a position", o.Name)
		}
		seen[pos.Hash()] = true
		r, err := ab.Search(context.Background(), pos, clock.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Score < -100 || r.Score > 100 {
			t.Errorf("%s: eval %d, want within one pawn", o.Name, r.Score)
		}
	}
}

func TestReadOpenings(t *testing.T) {
	dir := t.TempDir()
	pgn := `[Event "a"]
[Variant "Alice"]

1. e4 d5 2. Be2 *

[Event "b"]
[Variant "Alice"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]

1. e4 *
`
	path := filepath.Join(dir, "book.pgn")
	if err := os.WriteFile(path, []byte(pgn), 0o644); err != nil {
		t.Fatal(err)
	}
	ops, err := LoadOpenings(path, env.Alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || len(ops[0].Moves) != 3 || ops[0].FEN != env.StartFEN || ops[1].FEN != "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1" || len(ops[1].Moves) != 1 {
		t.Fatalf("PGN openings: %+v", ops)
	}
	if !strings.HasSuffix(ops[1].Name, "book.pgn#2") {
		t.Errorf("name %q", ops[1].Name)
	}

	epd := "# comment\n\n4k3/8/8/8/8/8/4P3/4K3 w - - id \"pawn\";\nrnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 # after e4\n"
	ops, err = ReadOpenings(strings.NewReader(epd), "book.epd", env.Alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops[0].FEN != "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1" || ops[1].Name != "book.epd:4" {
		t.Fatalf("EPD openings: %+v", ops)
	}

	bad := []struct{ name, text, want string }{
		{"empty", "# nothing\n", "no positions"},
		{"bad fen", "rnbqkbnr/ppp w KQkq -\n", "book:1"},
		{"short", "hello\n", "not a FEN"},
		{"over", "k7/8/8/8/8/8/8/K7 w - - 0 1\n", "already over"},
		{"bad pgn", "1. e5 *\n", "illegal"},
	}
	for _, b := range bad {
		_, err := ReadOpenings(strings.NewReader(b.text), "book", env.Alice)
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: error %v, want %q", b.name, err, b.want)
		}
	}
	if _, err := LoadOpenings(filepath.Join(dir, "missing.epd"), env.Alice); err == nil {
		t.Error("missing file accepted")
	}
}
