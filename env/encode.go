package env

import (
	"math/bits"
	"slices"
)

// Encode writes the position's input planes (the layout in planes.go) into
// dst, which must hold at least InputSize values. It allocates nothing. The
// variant must pass Variant.CheckNetwork.
func (p *Position) Encode(dst []float32) {
	mustHaveNetwork(p.variant)
	encodeState(&p.state, p.Repetitions(), p.variant.region(), dst)
}

// encodeState writes the planes of s; region is the variant's squares
// (Variant.region): every plane is 0 outside it (planes.go says why).
func encodeState(p *state, reps int, region uint64, dst []float32) {
	dst = dst[:InputSize]
	clear(dst)
	us := p.side
	occ := p.colours[White] | p.colours[Black]
	for b := BoardA; b <= BoardB; b++ {
		mask := p.boardMask(b)
		for c := White; c <= Black; c++ {
			ours := c == us
			for k := Pawn; k <= King; k++ {
				setSquares(dst, PiecePlane(b, ours, k), p.pieces[c][k]&mask, us)
			}
			// Attacks off the region (a d-file rook's along its rank)
			// are dropped; no ray re-enters it, so those within it are
			// exact without the frame's squares outside counted as men.
			setSquares(dst, AttackPlane(b, ours), p.attacksBy(c, mask, occ&mask)&region, us)
		}
	}
	// Constant planes are copied from a plane of ones on the region (a
	// vectorised memmove, several times faster than storing 64 values one
	// by one). The region is the same seen from either side: it is whole
	// files, and the mirror for Black (sq^56) keeps files.
	ones := regionOnes(region)
	fill := func(plane int) { copy(dst[plane*PlaneSize:(plane+1)*PlaneSize], ones[:]) }
	if reps >= 1 {
		fill(PlaneRepetitions)
		if reps >= 2 {
			fill(PlaneRepetitions + 1)
		}
	}
	ourK, ourQ, theirK, theirQ := CastleWK, CastleWQ, CastleBK, CastleBQ
	if us == Black {
		ourK, ourQ, theirK, theirQ = CastleBK, CastleBQ, CastleWK, CastleWQ
	}
	for i, r := range [4]uint8{ourK, ourQ, theirK, theirQ} {
		if p.castling&r != 0 {
			fill(PlaneCastling + i)
		}
	}
	if p.halfmove > 0 {
		h, v := dst[PlaneHalfmove*PlaneSize:(PlaneHalfmove+1)*PlaneSize], float32(min(p.halfmove, 100))/100
		for i := range h {
			h[i] = v * ones[i] // v on the region, 0 off it
		}
	}
	if p.ep != NoSquare {
		setSquares(dst, PlaneEnPassant, bit(p.ep), us)
	}
	fill(PlaneOnes)
}

// onesPlane is a plane of ones to copy from; never written.
var onesPlane = planeOf(^uint64(0))

// regionPlanes are the planes of ones on the regions of the variants whose
// boards do not fill the frame (alice-mini's files a–d); never written.
var regionPlanes = func() (ps []regionPlane) {
	for _, v := range Variants() {
		if r := v.region(); r != ^uint64(0) && !slices.ContainsFunc(ps, func(p regionPlane) bool { return p.region == r }) {
			ps = append(ps, regionPlane{r, planeOf(r)})
		}
	}
	return ps
}()

type regionPlane struct {
	region uint64
	ones   [PlaneSize]float32
}

// planeOf returns the plane that is 1 on the squares of bb, 0 elsewhere.
func planeOf(bb uint64) (p [PlaneSize]float32) {
	for sq := range p {
		if bb&(1<<uint(sq)) != 0 {
			p[sq] = 1
		}
	}
	return p
}

// regionOnes returns the plane of ones on region, a variant's region.
func regionOnes(region uint64) *[PlaneSize]float32 {
	if region == ^uint64(0) {
		return &onesPlane
	}
	for i := range regionPlanes {
		if regionPlanes[i].region == region {
			return &regionPlanes[i].ones
		}
	}
	panic("env: no plane of ones for this region")
}

// setSquares sets plane's value to 1 on the squares of bb, seen from side
// us: mirrored top to bottom for Black (reversing a bitboard's bytes maps
// sq to sq^56).
func setSquares(dst []float32, plane int, bb uint64, us Colour) {
	if us == Black {
		bb = bits.ReverseBytes64(bb)
	}
	s := dst[plane*PlaneSize : (plane+1)*PlaneSize : (plane+1)*PlaneSize]
	for bb != 0 {
		s[popLSB(&bb)] = 1
	}
}

// attacksBy returns the squares attacked by colour c's pieces among mask
// (one board's squares), occ being that board's occupancy.
func (s *state) attacksBy(c Colour, mask, occ uint64) uint64 {
	pcs := &s.pieces[c]
	var a uint64
	if pawns := pcs[Pawn] & mask; c == White {
		a = (pawns&^fileA)<<7 | (pawns&^fileH)<<9
	} else {
		a = (pawns&^fileA)>>9 | (pawns&^fileH)>>7
	}
	for bb := pcs[Knight] & mask; bb != 0; {
		a |= knightAttacks[popLSB(&bb)]
	}
	for bb := (pcs[Bishop] | pcs[Queen]) & mask; bb != 0; {
		a |= bishopAttacks(popLSB(&bb), occ)
	}
	for bb := (pcs[Rook] | pcs[Queen]) & mask; bb != 0; {
		a |= rookAttacks(popLSB(&bb), occ)
	}
	if k := pcs[King] & mask; k != 0 {
		a |= kingAttacks[lsb(k)]
	}
	return a
}
