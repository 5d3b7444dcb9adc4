package nats

import "testing"

func TestNamesFor(t *testing.T) {
	for _, tc := range []struct{ run, safe string }{
		{"r", "r"},
		{"small-20260101-1200", "small-20260101-1200"},
		{"a_B-9", "a_B-9"},
		{"a.1", "a_1"},
		{"suite run", "suite_run"},
		{"a*b>c", "a_b_c"},
		{"a/b\\c:d", "a_b_c_d"},
		{"été", "_t_"},
		{"w\xff\xfex", "w__x"},
		{"\ufffd", "_"},
		{"", ""},
	} {
		n := NamesFor(tc.run)
		if n.Run != tc.safe || n.Stream != streamPrefix+tc.safe || n.Subject != "alicezero."+tc.safe+".shards" || n.Bucket != bucketPrefix+tc.safe {
			t.Errorf("NamesFor(%q) = %+v, want run %q", tc.run, n, tc.safe)
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
		{"0000000000000000", true},
		{"0123456789abcde", false},
		{"0123456789abcdef0", false},
		{"0123456789abcdef01", false},
		{"0123456789abcd", false},
		{"0123456789ABCDEF", false},
		{"0123456789abcdeF", false},
		{"0123456789abcdeg", false},
		{"0123456789abcde\n", false},
		{"0123456789abcdé", false},
		{"", false},
	} {
		if validSession(tc.s) != tc.ok {
			t.Errorf("validSession(%q) = %v", tc.s, !tc.ok)
		}
	}
}
