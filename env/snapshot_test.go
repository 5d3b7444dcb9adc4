package env

import (
	"slices"
	"strings"
	"testing"
)

func TestSnapshotRoundTripAndEncode(t *testing.T) {
	for _, v := range Variants() {
		a, b := make([]float32, v.InputSize()), make([]float32, v.InputSize())
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
			if got, ok := back.Variant(); !ok || got != v {
				t.Fatalf("%s: snapshot of %s reads back as variant %v, %v", p.FEN(), v.Name, got.Name, ok)
			}
			if want := snapshotFEN(p); back.FEN() != want || back.s.hash != sn.s.hash || back.reps != sn.reps {
				t.Fatalf("%s: snapshot reads back as %s", want, back.FEN())
			}
			for _, y := range v.Symmetries() {
				if got, want := back.Transform(y), y.Position(p).Snapshot(); got.FEN() != want.FEN() || got.s.hash != want.s.hash {
					t.Fatalf("%s of %s: snapshot image %s, position image %s", y, p.FEN(), got.FEN(), want.FEN())
				}
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

// snapshotFEN is p's FEN as a snapshot keeps it: move number 1.
func snapshotFEN(p *Position) string {
	f := strings.Fields(p.FEN())
	f[5] = "1"
	return strings.Join(f, " ")
}

// TestSnapshotReadsOldForm checks that a binary form written before
// snapshots recorded their variant (both trailing bytes zero) still reads,
// as a position of the two-board layout, and says it has no variant.
func TestSnapshotReadsOldForm(t *testing.T) {
	p := randomPositions(t, AliceEP, 1, 11, 5)[2]
	old := p.Snapshot()
	buf := old.AppendBinary(nil)
	buf[70] = 0
	sn, err := DecodeSnapshot(buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := sn.Variant(); ok || sn.FEN() != snapshotFEN(p) {
		t.Fatalf("old form reads as %s (variant recorded: %v), want %s", sn.FEN(), ok, snapshotFEN(p))
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
		"variant code":  func(b []byte) []byte { b[70] = 99; return b },
		"reserved byte": func(b []byte) []byte { b[71] = 1; return b },
		"mini off board": func(b []byte) []byte {
			b[70] = AliceMini.code
			return b // the start of alice has men on files e–h
		},
	}
	for name, corrupt := range cases {
		if _, err := DecodeSnapshot(corrupt(slices.Clone(buf))); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// The men's list of the variants with shared squares.
	stone := NewPosition(AliceStone).Snapshot()
	sbuf := stone.AppendBinary(nil)
	for name, corrupt := range map[string]func([]byte) []byte{
		"board C in two boards": func(b []byte) []byte { b[0] |= 2 << 6; return b },
		"two men on one square": func(b []byte) []byte { b[2] = b[0]; return b },
		"square without a man":  func(b []byte) []byte { b[62], b[63] = 5, 0; return b },
	} {
		if _, err := DecodeSnapshot(corrupt(slices.Clone(sbuf))); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
