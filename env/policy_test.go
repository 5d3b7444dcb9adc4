package env

import "testing"

func TestPolicyMapCoversEveryLegalMoveOnce(t *testing.T) {
	seen := 0
	for _, v := range Variants() {
		for _, p := range randomPositions(t, v, 60, 3, 7) {
			var ml MoveList
			p.LegalMoves(&ml)
			used := map[int]Move{}
			for _, m := range ml.Slice() {
				i := p.PolicyIndex(m)
				if i < 0 || i >= PolicySize {
					t.Fatalf("%s: move %s has index %d", p.FEN(), m, i)
				}
				if prev, dup := used[i]; dup {
					t.Fatalf("%s: moves %s and %s share index %d", p.FEN(), prev, m, i)
				}
				used[i] = m
				from, to, promo, ok := PolicyMove(i)
				if p.SideToMove() == Black {
					from, to = from^56, to^56
				}
				wantPromo := m.Promotion()
				if wantPromo == Queen {
					wantPromo = NoKind
				}
				if !ok || from != m.From() || to != m.To() || promo != wantPromo {
					t.Fatalf("%s: index %d of %s decodes to %s%s %c", p.FEN(), i, m, from, to, promo.Letter())
				}
				seen++
			}
			mask := make([]bool, PolicySize)
			if n := p.LegalMask(mask); n != ml.N {
				t.Fatalf("LegalMask counted %d moves, want %d", n, ml.N)
			}
			count := 0
			for _, b := range mask {
				if b {
					count++
				}
			}
			if count != ml.N {
				t.Fatalf("mask has %d entries set, want %d", count, ml.N)
			}
		}
	}
	if seen < 10000 {
		t.Fatalf("only %d moves checked", seen)
	}
}

func TestPolicyTableIsABijection(t *testing.T) {
	names := map[string]int{}
	for i := 0; i < PolicySize; i++ {
		s := PolicyUCI(i)
		if prev, dup := names[s]; dup {
			t.Fatalf("indices %d and %d are both %s", prev, i, s)
		}
		names[s] = i
		from, to, promo, _ := PolicyMove(i)
		m := newMove(from, to)
		if promo != NoKind {
			m = newPromotion(from, to, promo)
		}
		if got := PolicyIndex(m, White); got != i {
			t.Fatalf("index %d (%s) maps back to %d", i, s, got)
		}
		if got := PolicyIndex(ColourFlip.Move(m), Black); got != i {
			t.Fatalf("index %d (%s) for Black maps back to %d", i, s, got)
		}
	}
	if _, _, _, ok := PolicyMove(PolicySize); ok {
		t.Fatal("PolicyMove accepted an index out of range")
	}
}
