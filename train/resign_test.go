package train

import (
	"testing"

	"github.com/alicezero/alicezero/mcts"
)

// Resignation reads only full searches: a small playout-cap search never
// makes a side resign, however bad its value.
func TestResignationNeedsAFullSearch(t *testing.T) {
	bad := mcts.Result{RootValue: -0.99, UseForTraining: false, Children: []mcts.ChildStat{{Visits: 3, Q: -0.99}}}
	if _, full := resignValue(&bad); full {
		t.Fatal("a small search counted for resignation")
	}
	bad.UseForTraining = true
	if v, full := resignValue(&bad); !full || v != -0.99 {
		t.Fatalf("full search: value %v, %v", v, full)
	}
	// The most visited move's value counts next to the root's: one good
	// move keeps a side from resigning even if the average is poor.
	mixed := mcts.Result{RootValue: -0.95, UseForTraining: true, Children: []mcts.ChildStat{
		{Visits: 1, Q: -1}, {Visits: 20, Q: -0.2}, {Visits: 5, Q: -1}}}
	if v, _ := resignValue(&mixed); v != -0.2 {
		t.Fatalf("resignation value %v, want the best move's -0.2", v)
	}
}

func TestResignCalibration(t *testing.T) {
	var c resignCalibration
	// 100 sides fell to -0.95 and lost; 10 fell to -0.95 and drew; 100
	// fell to -0.7 and 30 of those did not lose.
	add := func(n int, v float32, r int8, capped bool) {
		for range n {
			c.Records = append(c.Records, resignRecord{MinValue: v, Result: r, Capped: capped})
		}
	}
	add(100, -0.95, -1, false)
	add(3, -0.95, 0, false)
	add(70, -0.7, -1, false)
	add(30, -0.7, 1, false)
	add(50, -0.99, 0, true) // capped: neither right nor wrong
	if got := checkThreshold(c.Records, 0.9); got.Cases != 103 || got.False != 3 || got.Capped != 50 {
		t.Fatalf("check at 0.9: %+v", got)
	}
	if got := c.threshold(0.05); got != 0.7 {
		t.Fatalf("threshold %v, want 0.7 (the least cautious one with ≤ 5%% false)", got)
	}
	if got := c.threshold(0.01); got != 0 {
		t.Fatalf("threshold at 1%%: %v, want none", got)
	}
	c.Records = c.Records[:10]
	if got := c.threshold(0.05); got != 0 {
		t.Fatalf("threshold from 10 cases: %v, want none (too few)", got)
	}
}

func TestResignationWaitsForTheValueHead(t *testing.T) {
	h := func(loss, base float64) heldout { return heldout{ValueLoss: loss, Baseline: base} }
	for _, tc := range []struct {
		hs   []heldout
		want bool
	}{
		{nil, false},
		{[]heldout{h(0.5, 1), h(0.5, 1)}, false}, // too few measurements
		{[]heldout{h(0.9, 1), h(0.9, 1), h(0.9, 1)}, true},
		{[]heldout{h(0.7, 1), h(0.7, 1), h(1.2, 1)}, true}, // the mean decides
		{[]heldout{h(1.5, 1), h(0.9, 1), h(0.9, 1)}, false},
		{[]heldout{h(0.5, 1), h(0.99, 1), h(0.98, 1), h(0.97, 1)}, false}, // only the newest count
	} {
		if got := valueHeadBeatsGuess(tc.hs); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.hs, got, tc.want)
		}
	}
}
