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

// variantPerft is docs/RULES.md's perft table of the variants: counts from
// this generator, each held against the naive reference generator to
// depth 3 (TestPerftMatchesReference); this test keeps the published
// table and the generator in step. Counts beyond maxQuick nodes run only
// without -short, beyond maxLong not at all (the table's command
// reproduces them).
func TestVariantPerftTable(t *testing.T) {
	const maxQuick, maxLong = 300_000, 20_000_000
	start := map[Variant][]uint64{
		AliceEP:               {20, 400, 9384, 219236, 5910723},
		AliceBlackB:           {20, 400, 9256, 212457, 5618525},
		AliceNull:             {36, 1296, 51202, 2017919, 86035420},
		AliceOptionalTransfer: {20, 400, 9854, 243188, 7256243},
		AliceStone:            {48, 2304, 127501, 7026852, 440999609},
		AliceMini:             {6, 36, 284, 2261, 22402, 222470, 2565973},
		Alice3:                {40, 1600, 76900, 3693116, 211586712},
	}
	special := map[Variant][]uint64{
		AliceEP:               {9, 64, 519, 3687, 30770},
		AliceBlackB:           {23, 523, 13452, 337814, 8979952},
		AliceNull:             {51, 1140, 59733, 1591223, 83524248},
		AliceOptionalTransfer: {23, 570, 14991, 428670, 12127408},
		AliceStone:            {63, 5664, 344010, 30329830, 1888164598},
		AliceMini:             {12, 137, 1460, 17747, 196932},
		Alice3:                {48, 3012, 164282, 10852277, 637824137},
	}
	var positions []*Position
	var counts [][]uint64
	for v, c := range start {
		positions, counts = append(positions, NewPosition(v)), append(counts, c)
	}
	for _, c := range variantPositions {
		positions, counts = append(positions, mustFEN(t, c.fen, c.variant)), append(counts, special[c.variant])
	}
	for i, p := range positions {
		for d, want := range counts[i] {
			if want > maxLong || want > maxQuick && testing.Short() {
				continue
			}
			if got := p.Perft(d + 1); got != want {
				t.Errorf("%s %s: perft(%d) = %d, docs/RULES.md says %d", p.Variant().Name, p.FEN(), d+1, got, want)
			}
		}
	}
}
