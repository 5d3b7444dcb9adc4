package mcts

import (
	"slices"
	"testing"

	"github.com/alicezero/alicezero/env"
)

// lostFEN is lost whatever White does: every move allows a mate in one
// or two. The built-in network gives a2a3, b2b3 and g2g3, which allow a
// mate in one, priors that round to zero.
const lostFEN = "rn2k2r/ppp2ppp/8/2|bp|p2R/2N1n1|b1/2|P|P4/PP1|qPPPP/2BQKB1R w Kkq - 1 11"

// zeroPriors is an evaluator whose policy at one position gives some moves
// logits so low that their priors are zero, as a network's can be.
type zeroPriors struct {
	Evaluator
	planes []float32 // the position's input planes
	idx    []int     // the policy indices of its zero-prior moves
}

func (z zeroPriors) Evaluate(planes []float32, n int, policy, wdl []float32) error {
	if err := z.Evaluator.Evaluate(planes, n, policy, wdl); err != nil {
		return err
	}
	in, size := len(planes)/n, len(policy)/n
	for i := range n {
		if slices.Equal(planes[i*in:(i+1)*in], z.planes) {
			for _, k := range z.idx {
				policy[i*size+k] = -1000
			}
		}
	}
	return nil
}

// When every move is lost the search plays the one mated last, even where
// the moves mated soonest have zero priors: selection leaves the moves
// proven lost for the unexplored ones (instead of visiting the proven ones
// again and again, which left the root unproven and the untried moves
// looking better than the known losses), the root is proven lost, and the
// longest defence is played.
func TestLongestDefence(t *testing.T) {
	p := mustFEN(t, lostFEN)
	var ml env.MoveList
	p.LegalMoves(&ml)
	longest := 0 // in moves
	for _, m := range ml.Slice() {
		p.MakeMove(m)
		switch {
		case bfMateIn1(p):
		case bfMateIn2(p):
			longest = 2
		default:
			t.Fatalf("%v: no mate in one or two after it; the test's position must be lost", m)
		}
		p.UnmakeMove()
	}
	if longest != 2 {
		t.Fatal("every move allows a mate in one: the test needs a longer defence")
	}
	zero := zeroPriors{Evaluator: hashEvaluator{}, planes: make([]float32, env.Alice.InputSize())}
	p.Encode(zero.planes)
	for _, uci := range []string{"a2a3", "b2b3", "g2g3"} {
		m := mustParse(t, p, uci)
		if !bfAllowsMateIn1(p, m) {
			t.Fatalf("%s does not allow a mate in one", uci)
		}
		zero.idx = append(zero.idx, p.PolicyIndex(m))
	}
	for _, probe := range []int{1, 2} {
		cfg := testConfig(false, 100_000)
		cfg.MateProbe = probe
		_, res := searchOnce(t, newSearcher(t, zero, cfg), p, 100_000)
		if res.MateIn != -longest || bfAllowsMateIn1(p, res.BestMove) {
			t.Errorf("probe %d: plays %v with MateIn %d after %d playouts; want a move mated in %d", probe, res.BestMove, res.MateIn, res.Nodes, longest)
		}
		for _, c := range res.Children {
			if c.Move == res.BestMove && c.MateIn != res.MateIn {
				t.Errorf("probe %d: the move played, %v, is reported mated in %d, the root in %d", probe, c.Move, -c.MateIn, -res.MateIn)
			}
		}
		t.Logf("probe %d: %v, proven in %d playouts", probe, res.BestMove, res.Nodes)
	}
}

// Selection never visits a move proven lost while another remains: a
// search that proves some root moves lost early gives them no more visits
// than it took to prove them.
func TestProvenLossesGetNoMoreVisits(t *testing.T) {
	for _, fen := range blunderFENs {
		p := mustFEN(t, fen)
		cfg := testConfig(false, 2000)
		_, res := searchOnce(t, newSearcher(t, hashEvaluator{}, cfg), p, 2000)
		if res.Proven {
			continue
		}
		for _, c := range res.Children {
			// The mate probe proves a move that allows a mate in one at
			// its first visit; a longer proof needs a few more.
			if c.MateIn == -1 && c.Visits > 1 {
				t.Errorf("%s: %v, proven mated in one, has %d visits", fen, c.Move, c.Visits)
			}
		}
	}
}
