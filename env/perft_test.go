package env

import (
	"strings"
	"testing"
)

// The rule book's reference counts (section 9), from an independent
// implementation. Counts beyond maxQuick nodes run only without -short.
var perftReference = []struct {
	name   string
	fen    string
	moves  string
	counts []uint64
}{
	{"start", StartFEN, "", []uint64{20, 400, 9384, 219236, 5910465, 157727925}},
	{"after 1.e4 d5 2.Be2 dxe4", StartFEN, "e2e4 d7d5 f1e2 d5e4", []uint64{30, 915, 28877, 976330, 32489134}},
	{"endgame", "8/2p2p2/4|p3/3pP|k2/8/2|P1|P2p/4K1|p1/r3N3 b - - 1 59", "", []uint64{24, 211, 5408, 50173, 1319487}},
}

func TestPerftReference(t *testing.T) {
	const maxQuick = 2_000_000
	for _, c := range perftReference {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseFEN(c.fen, Alice)
			if err != nil {
				t.Fatal(err)
			}
			if c.moves != "" {
				if _, err := p.PlayUCI(strings.Fields(c.moves)); err != nil {
					t.Fatal(err)
				}
			}
			for d, want := range c.counts {
				if want > maxQuick && testing.Short() {
					t.Logf("depth %d skipped in -short", d+1)
					continue
				}
				if got := p.Perft(d + 1); got != want {
					t.Errorf("depth %d: got %d want %d", d+1, got, want)
				}
			}
		})
	}
}
