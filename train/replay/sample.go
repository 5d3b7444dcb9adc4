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
}

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

// WDL returns the result as a win/draw/loss target.
func (s *Sample) WDL() [3]float32 {
	switch {
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
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(s.RootValue))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(s.Policy)))
	for _, e := range s.Policy {
		b = binary.LittleEndian.AppendUint16(b, e.Index)
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(e.Prob))
	}
	return b
}

var errShortRecord = errors.New("record cut short")

// decodeSample reads one sample and returns the bytes it used.
func decodeSample(b []byte) (Sample, int, error) {
	var s Sample
	const fixed = env.SnapshotSize + 1 + 4 + 2
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
	s.RootValue = math.Float32frombits(binary.LittleEndian.Uint32(b[1:]))
	n := int(binary.LittleEndian.Uint16(b[5:]))
	b = b[7:]
	if n > env.PolicySize || len(b) < 6*n {
		return s, 0, errShortRecord
	}
	s.Policy = make([]PolicyEntry, n)
	for i := range s.Policy {
		e := PolicyEntry{Index: binary.LittleEndian.Uint16(b), Prob: math.Float32frombits(binary.LittleEndian.Uint32(b[2:]))}
		if int(e.Index) >= env.PolicySize || !(e.Prob >= 0 && e.Prob <= 1) {
			return s, 0, fmt.Errorf("policy entry %d (index %d, p %v) out of range", i, e.Index, e.Prob)
		}
		s.Policy[i] = e
		b = b[6:]
	}
	return s, fixed + 6*n, nil
}
