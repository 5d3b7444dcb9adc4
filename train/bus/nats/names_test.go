package nats

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The rules NamesFor and validSession implement by hand, kept here to
// check that they agree.
var (
	unsafeRule  = regexp.MustCompile(`[^A-Za-z0-9_-]`)
	sessionRule = regexp.MustCompile(`^[0-9a-f]{16}$`)
)

func TestNamesFor(t *testing.T) {
	for _, tc := range []struct{ run, safe string }{
		{"r", "r"},
		{"small-20260101-1200", "small-20260101-1200"},
		{"a_B-9", "a_B-9"},
		{"a.1", "a_1"},
		{"suite run", "suite_run"},
		{"a*b>c", "a_b_c"},
		{"été", "_t_"},
		{"w\xff\xfex", "w__x"},
		{"\ufffd", "_"},
		{"", ""},
	} {
		n := NamesFor(tc.run)
		if n.Run != tc.safe || n.Stream != streamPrefix+tc.safe || n.Subject != "alicezero."+tc.safe+".shards" || n.Bucket != bucketPrefix+tc.safe {
			t.Errorf("NamesFor(%q) = %+v, want run %q", tc.run, n, tc.safe)
		}
		if rule := unsafeRule.ReplaceAllString(tc.run, "_"); rule != tc.safe {
			t.Errorf("the table is wrong about %q: the rule makes %q", tc.run, rule)
		}
	}
}

func TestValidSession(t *testing.T) {
	for _, tc := range []struct {
		s  string
		ok bool
	}{
		{"0123456789abcdef", true},
		{"ffffffffffffffff", true},
		{"0123456789abcde", false},
		{"0123456789abcdef0", false},
		{"0123456789ABCDEF", false},
		{"0123456789abcdeg", false},
		{"0123456789abcde\n", false},
		{"", false},
	} {
		if validSession(tc.s) != tc.ok {
			t.Errorf("validSession(%q) = %v", tc.s, !tc.ok)
		}
		if sessionRule.MatchString(tc.s) != tc.ok {
			t.Errorf("the table is wrong about %q", tc.s)
		}
	}
}

// TestHandWrittenRules compares NamesFor and validSession with the regular
// expressions they replace, on random strings near the rules' edges.
func TestHandWrittenRules(t *testing.T) {
	const odd = "gF_-. /\n\x00é\xff\ufffd"
	rng := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	for range 20000 {
		b.Reset()
		for n := rng.IntN(20); b.Len() < n; {
			if rng.IntN(5) == 0 {
				b.WriteByte(odd[rng.IntN(len(odd))])
			} else {
				b.WriteByte("09af"[rng.IntN(4)])
			}
		}
		s := b.String()
		if got, want := NamesFor(s).Run, unsafeRule.ReplaceAllString(s, "_"); got != want {
			t.Fatalf("NamesFor(%q).Run = %q, the rule makes %q", s, got, want)
		}
		if got, want := validSession(s), sessionRule.MatchString(s); got != want {
			t.Fatalf("validSession(%q) = %v, the rule says %v", s, got, want)
		}
	}
}
