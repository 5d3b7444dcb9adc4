package env

import (
	"slices"
	"testing"
)

func TestSnapshotRoundTripAndEncode(t *testing.T) {
	a := make([]float32, InputSize)
	b := make([]float32, InputSize)
	for _, v := range Variants() {
		for _, p := range randomPositions(t, v, 10, 3, 21) {
			sn := p.Snapshot()
			buf := sn.AppendBinary(nil)
			if len(buf) != SnapshotSize {
				t.Fatalf("binary form is %d bytes", len(buf))
			}
			back, err := DecodeSnapshot(buf)
			if err != nil {
				t.Fatalf("%s: %v", p.FEN(), err)
			}
			p.Encode(a)
			back.Encode(b)
			if !slices.Equal(a, b) {
				t.Fatalf("%s: decoded snapshot encodes differently", p.FEN())
			}
			for _, y := range Symmetries {
				y.Position(p).Encode(a)
				img := back.Transform(y)
				img.Encode(b)
				if !slices.Equal(a, b) {
					t.Fatalf("%s of %s: snapshot image encodes differently", y, p.FEN())
				}
			}
		}
	}
}

func TestDecodeSnapshotRejectsBadInput(t *testing.T) {
	good := NewPosition(Alice).Snapshot()
	buf := good.AppendBinary(nil)
	cases := map[string]func([]byte) []byte{
		"short":         func(b []byte) []byte { return b[:40] },
		"bad piece":     func(b []byte) []byte { b[20] = 14; return b },
		"bad side":      func(b []byte) []byte { b[64] = 3; return b },
		"no white king": func(b []byte) []byte { b[4] = 0; return b },
	}
	for name, corrupt := range cases {
		if _, err := DecodeSnapshot(corrupt(slices.Clone(buf))); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
