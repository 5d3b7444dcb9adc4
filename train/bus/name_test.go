package bus

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// The rules NameChar and ValidWorker implement by hand, as regular
// expressions: the oracle they are checked against.
var (
	charRule   = regexp.MustCompile(`^[A-Za-z0-9_.-]$`)
	workerRule = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)
)

// TestValidWorker checks the name rule on a table of names at its edges,
// the table against the oracle, then the hand-written check against the
// oracle on random names near the edges.
func TestValidWorker(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"w", true},
		{"0", true},
		{"Z", true},
		{"beta.2", true},
		{"host-1234", true},
		{"a_b.c-d", true},
		{"9-", true},
		{strings.Repeat("x", 64), true},
		{"a" + strings.Repeat("-", 63), true},
		{"", false},
		{strings.Repeat("x", 65), false},
		{"-w", false},
		{".w", false},
		{"_w", false},
		{"../../etc", false},
		{"a/b", false},
		{"a b", false},
		{"a\n", false},
		{"\nw", false},
		{"w\x00", false},
		{"w*", false},
		{"w>", false},
		{"wé", false},
		{"é", false},
		{"w\xff", false},
		{strings.Repeat("é", 32), false},
	} {
		err := ValidWorker(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("ValidWorker(%q) = %v, want ok %v", tc.name, err, tc.ok)
		}
		if workerRule.MatchString(tc.name) != tc.ok {
			t.Errorf("the table is wrong about %q", tc.name)
		}
	}

	const alphabet = "aZ09_.-/ \n\x00é\xff"
	for r := range rune(utf8.RuneSelf + 1) {
		if got, want := NameChar(r), charRule.MatchString(string(r)); got != want {
			t.Fatalf("NameChar(%q) = %v, the rule says %v", r, got, want)
		}
	}
	for _, r := range "é\ufffdΩ" {
		if NameChar(r) {
			t.Fatalf("NameChar(%q) = true", r)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for range 20000 {
		b.Reset()
		for n := rng.IntN(70); b.Len() < n; {
			if rng.IntN(4) == 0 {
				b.WriteByte(alphabet[rng.IntN(len(alphabet))])
			} else {
				b.WriteByte("aZ09"[rng.IntN(4)])
			}
		}
		name := b.String()
		if got, want := validWorker(name), workerRule.MatchString(name); got != want {
			t.Fatalf("validWorker(%q) = %v, the rule says %v", name, got, want)
		}
	}
}
