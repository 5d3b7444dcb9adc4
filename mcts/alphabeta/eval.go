package alphabeta

import (
	"math/bits"

	"github.com/alicezero/alicezero/env"
)

// pieceValue is the material value of each kind in centipawns (the king's
// is only for move ordering: a king is never captured).
var pieceValue = [6]int32{100, 320, 330, 500, 900, 2000}

// pst holds the piece-square bonuses by kind and square from White's side
// (a1 = 0); Black reads the square mirrored. kingEnd is the king's table
// once the queens and most pieces are gone. They are made once from a few
// simple rules and never written again.
var pst, kingEnd = makeTables()

func makeTables() (t [6][64]int32, kingEnd [64]int32) {
	for sq := range 64 {
		f, r := sq%8, sq/8
		// Centrality: 0 on the rim to 3 on the four centre squares.
		cf, cr := min(f, 7-f), min(r, 7-r)
		centre := int32(min(cf, cr))
		t[env.Pawn][sq] = []int32{0, 0, 5, 10, 20, 35, 60, 0}[r]
		if (f == 3 || f == 4) && r >= 2 && r <= 4 {
			t[env.Pawn][sq] += 10
		}
		t[env.Knight][sq] = 10*centre - 20
		t[env.Bishop][sq] = 5*centre - 5
		if r == 6 {
			t[env.Rook][sq] = 15
		}
		t[env.Queen][sq] = 3 * centre
		if r == 0 {
			t[env.King][sq] = 10
			if f == 6 || f == 1 || f == 2 {
				t[env.King][sq] = 20
			}
		} else {
			t[env.King][sq] = -15 * int32(min(r, 3))
		}
		kingEnd[sq] = 10*centre - 15
	}
	return t, kingEnd
}

// evaluate scores the position statically for the side to move:
// material, piece-square bonuses, and a mobility term from the legal move
// counts the search has at hand (ours here, theirs at the parent).
func (s *Searcher) evaluate(ourMoves, theirMoves int) int32 {
	pos := s.pos
	us := pos.SideToMove()
	var score [2]int32
	var phase int32 // non-pawn material of both sides
	var kings [2]int
	for c := env.White; c <= env.Black; c++ {
		mirror := 0
		if c == env.Black {
			mirror = 56
		}
		for k := env.Pawn; k < env.King; k++ {
			bb := pos.Pieces(c, k)
			n := int32(bits.OnesCount64(bb))
			score[c] += n * pieceValue[k]
			if k != env.Pawn {
				phase += n * pieceValue[k]
			}
			for ; bb != 0; bb &= bb - 1 {
				score[c] += pst[k][bits.TrailingZeros64(bb)^mirror]
			}
		}
		kings[c] = -1
		if kb := pos.Pieces(c, env.King); kb != 0 {
			kings[c] = bits.TrailingZeros64(kb) ^ mirror
		}
	}
	for c, sq := range kings {
		if sq >= 0 {
			score[c] += kingSquareScore(sq, phase)
		}
	}
	v := score[us] - score[us.Other()]
	if theirMoves > 0 {
		v += mobilityWeight * int32(ourMoves-theirMoves)
	}
	return v + tempo
}

const (
	mobilityWeight = 2
	tempo          = 10
	// endPhase: at most this much non-pawn material left (a rook and a
	// minor piece a side) the king belongs in the centre.
	endPhase = 2 * (500 + 330)
)

func kingSquareScore(sq int, phase int32) int32 {
	if phase <= endPhase {
		return kingEnd[sq]
	}
	return pst[env.King][sq]
}
