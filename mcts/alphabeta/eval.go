package alphabeta

import (
	"math/bits"

	"github.com/alicezero/alicezero/env"
)

// The evaluation is linear: a position's score is the sum of its terms'
// weights (weights.go, fitted to games by tune_test.go), each weight a
// middle-game and an endgame value blended by the material left. One
// function, terms, lists a position's terms, so that the search and the
// fitting read the position the same way.

// Feature indices: the layout of the weight table.
const (
	featMaterial   = 0                  // + kind (pawn..queen)
	featPST        = featMaterial + 5   // + kind*64 + square from the owner's side (a1 = 0)
	featOnTheirs   = featPST + 6*64     // + kind: a man on the board of the enemy king, where its moves can check
	featOnOurs     = featOnTheirs + 5   // + kind: a man on the board of its own king
	featKingsMeet  = featOnOurs + 5     // the two kings on one board
	featBishopPair = featKingsMeet + 1  // two bishops or more
	featMobility   = featBishopPair + 1 // × (our legal moves − theirs at the parent)
	featTempo      = featMobility + 1   // the side to move
	numFeatures    = featTempo + 1

	// maxTerms bounds a position's terms: four for each of 32 men and a
	// few for the whole position. A set-up position with more men drops
	// the terms past it.
	maxTerms  = 4*32 + 8
	phaseFull = 24 // the game phase of the full set of pieces
)

// phaseOf is each kind's part of the game phase (a full set: 24).
var phaseOf = [6]int32{0, 1, 1, 2, 4, 0}

// pieceValue is the material value of each kind in centipawns, for move
// ordering and pruning margins (a king is never captured: its value only
// orders its captures last among attackers).
var pieceValue = [6]int32{100, 320, 330, 500, 900, 2000}

// A weight is a term's value in centipawns in the middle game and in the
// endgame.
type weight struct{ mg, eg int16 }

// A term is one feature of the position with its count, positive for the
// side to move and negative for the opponent.
type term struct {
	index int16
	n     int16
}

// termList holds a position's terms and its game phase.
type termList struct {
	t     [maxTerms]term
	n     int
	phase int32 // 0 (bare) .. phaseFull (all pieces), capped
}

func (l *termList) add(index int, n int) {
	if l.n < len(l.t) {
		l.t[l.n] = term{int16(index), int16(n)}
		l.n++
	}
}

// terms lists pos's evaluation terms for the side to move into l, with
// ourMoves and theirMoves the legal move counts the search has at hand
// (ours here, theirs at the parent; no mobility term when theirMoves is 0).
func terms(pos *env.Position, ourMoves, theirMoves int, l *termList) {
	l.n = 0
	us := pos.SideToMove()
	var kingBoard [2]env.Board
	for c := env.White; c <= env.Black; c++ {
		kingBoard[c] = pos.KingBoard(c)
	}
	var bishops [2]int
	var phase int32
	for b := env.BoardA; int(b) < pos.Variant().Boards(); b++ {
		for occ := pos.Occupied(b); occ != 0; occ &= occ - 1 {
			sq := bits.TrailingZeros64(occ)
			pc := pos.PieceOn(env.Square(sq), b)
			c, k := pc.Colour(), pc.Kind()
			if k >= env.NoKind {
				continue
			}
			sign := 1
			if c != us {
				sign = -1
			}
			rel := sq
			if c == env.Black {
				rel ^= 56
			}
			l.add(featPST+int(k)*64+rel, sign)
			if k == env.King {
				continue
			}
			phase += phaseOf[k]
			if k == env.Bishop {
				bishops[c]++
			}
			l.add(featMaterial+int(k), sign)
			if b == kingBoard[c.Other()] {
				l.add(featOnTheirs+int(k), sign)
			}
			if b == kingBoard[c] {
				l.add(featOnOurs+int(k), sign)
			}
		}
	}
	for c := env.White; c <= env.Black; c++ {
		if bishops[c] >= 2 {
			sign := 1
			if c != us {
				sign = -1
			}
			l.add(featBishopPair, sign)
		}
	}
	if kingBoard[env.White] == kingBoard[env.Black] {
		// From the side to move's view: meeting favours the one to move.
		l.add(featKingsMeet, 1)
	}
	if theirMoves > 0 {
		l.add(featMobility, ourMoves-theirMoves)
	}
	l.add(featTempo, 1)
	l.phase = min(phase, phaseFull)
}

// evaluate scores the position statically for the side to move from the
// legal move counts at hand (see terms).
func (s *Searcher) evaluate(ourMoves, theirMoves int) int32 {
	l := &s.terms
	terms(s.pos, ourMoves, theirMoves, l)
	var mg, eg int32
	for _, t := range l.t[:l.n] {
		w := evalWeights[t.index]
		mg += int32(w.mg) * int32(t.n)
		eg += int32(w.eg) * int32(t.n)
	}
	return (mg*l.phase + eg*(phaseFull-l.phase)) / phaseFull
}
