package replay

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/alicezero/alicezero/env"
)

// Sample is one training position.
type Sample struct {
	Position env.Snapshot
	// Policy is the search's target distribution over policy indices,
	// sparse, summing to 1.
	Policy []PolicyEntry
	// Result is the game's outcome for the side to move: +1 won, 0 drawn
	// (including adjudicated), -1 lost.
	Result int8
	// RootValue is the search's value (win minus loss) for the side to move.
	RootValue float32
	// Proven is set when RootValue is exact (the search proved the root):
	// it is then the value target, whatever the game's result.
	Proven bool
	// NoValue is set when the position has no value target: its game was
	// stopped at the ply cap without a clear material lead, so its result
	// says nothing reliable about the position.
	NoValue bool
}

// Flags of a sample's binary form.
const (
	flagProven  = 1 << 0
	flagNoValue = 1 << 1
)

// PolicyEntry is one move's share of the policy target.
type PolicyEntry struct {
	Index uint16
	Prob  float32
}

// SparsePolicy turns a dense distribution into entries, dropping zeros.
func SparsePolicy(dense []float32) []PolicyEntry {
	var out []PolicyEntry
	for i, p := range dense {
		if p > 0 {
			out = append(out, PolicyEntry{Index: uint16(i), Prob: p})
		}
	}
	return out
}

// WDL returns the value target as win/draw/loss: the game's result, or
// the exact value of a proven root. A sample without a value target gives
// all zeros, which a cross-entropy loss ignores.
func (s *Sample) WDL() [3]float32 {
	switch {
	case s.Proven:
		switch {
		case s.RootValue > 0.5:
			return [3]float32{1, 0, 0}
		case s.RootValue < -0.5:
			return [3]float32{0, 0, 1}
		}
		return [3]float32{0, 1, 0}
	case s.NoValue:
		return [3]float32{}
	case s.Result > 0:
		return [3]float32{1, 0, 0}
	case s.Result < 0:
		return [3]float32{0, 0, 1}
	}
	return [3]float32{0, 1, 0}
}

func (s *Sample) appendBinary(b []byte) []byte {
	b = s.Position.AppendBinary(b)
	b = append(b, byte(s.Result))
	var flags byte
	if s.Proven {
		flags |= flagProven
	}
	if s.NoValue {
		flags |= flagNoValue
	}
	b = append(b, flags)
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(s.RootValue))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(s.Policy)))
	for _, e := range s.Policy {
		b = binary.LittleEndian.AppendUint16(b, e.Index)
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(e.Prob))
	}
	return b
}

var errShortRecord = errors.New("record cut short")

// minSampleSize is the size of a sample with an empty policy.
const minSampleSize = env.SnapshotSize + 1 + 1 + 4 + 2

// decodeSample reads one sample and returns the bytes it used.
func decodeSample(b []byte) (Sample, int, error) {
	var s Sample
	const fixed = minSampleSize
	if len(b) < fixed {
		return s, 0, errShortRecord
	}
	pos, err := env.DecodeSnapshot(b)
	if err != nil {
		return s, 0, err
	}
	s.Position = pos
	b = b[env.SnapshotSize:]
	s.Result = int8(b[0])
	if s.Result < -1 || s.Result > 1 {
		return s, 0, fmt.Errorf("result %d out of range", s.Result)
	}
	flags := b[1]
	if flags&^(flagProven|flagNoValue) != 0 {
		return s, 0, fmt.Errorf("unknown flags %#x", flags)
	}
	s.Proven, s.NoValue = flags&flagProven != 0, flags&flagNoValue != 0
	s.RootValue = math.Float32frombits(binary.LittleEndian.Uint32(b[2:]))
	if !(s.RootValue >= -1 && s.RootValue <= 1) {
		return s, 0, fmt.Errorf("root value %v out of range", s.RootValue)
	}
	// A snapshot written before variants were recorded is alice's.
	v, ok := pos.Variant()
	if !ok {
		v = env.Alice
	}
	size := v.PolicySize()
	n := int(binary.LittleEndian.Uint16(b[6:]))
	b = b[8:]
	if n > size || len(b) < 6*n {
		return s, 0, errShortRecord
	}
	s.Policy = make([]PolicyEntry, n)
	for i := range s.Policy {
		e := PolicyEntry{Index: binary.LittleEndian.Uint16(b), Prob: math.Float32frombits(binary.LittleEndian.Uint32(b[2:]))}
		if int(e.Index) >= size || !(e.Prob >= 0 && e.Prob <= 1) {
			return s, 0, fmt.Errorf("policy entry %d (index %d, p %v) out of range", i, e.Index, e.Prob)
		}
		s.Policy[i] = e
		b = b[6:]
	}
	return s, fixed + 6*n, nil
}
