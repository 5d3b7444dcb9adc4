package env

import (
	"math/bits"
	"slices"
)

// Encode writes the position's input planes (the variant's layout,
// Variant.Planes; planes.go) into dst, which must hold at least the
// variant's InputSize values. It allocates nothing.
func (p *Position) Encode(dst []float32) {
	var w *wideBoards
	if p.wide != nil {
		w = &p.wide.wideBoards
	}
	encode(&p.state, w, p.variant, p.Repetitions(), dst)
}

// encode writes the planes of the state s of variant v, its men in w on
// the general path (nil on the fast path), seen reps times before.
func encode(s *state, w *wideBoards, v Variant, reps int, dst []float32) {
	if w != nil {
		encodeWide(s, w, v, reps, dst)
		return
	}
	encodeState(s, reps, v.region(), dst)
}

// encodeState writes the planes of s, a position of two boards with one
// man per square; region is the variant's squares (Variant.region): every
// plane is 0 outside it (planes.go says why).
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
			setSquares(dst, AttackPlane(b, ours), attacksOf(c, &p.pieces[c], mask, occ&mask)&region, us)
		}
	}
	encodeShared(p, reps, PlaneLayout{boards: 2}, region, dst)
}

// encodeWide writes the planes of a position whose men w holds board by
// board (Variant.SharedSquares): the same planes as encodeState, a block
// per board of v.
func encodeWide(p *state, w *wideBoards, v Variant, reps int, dst []float32) {
	l := v.Planes()
	dst = dst[:l.Num()*PlaneSize]
	clear(dst)
	us := p.side
	region := v.region()
	for b := range Board(l.boards) {
		occ := w.occupied(b)
		for c := White; c <= Black; c++ {
			ours := c == us
			for k := Pawn; k <= King; k++ {
				setSquares(dst, l.Piece(b, ours, k), w.men[b][c][k], us)
			}
			setSquares(dst, l.Attack(b, ours), attacksOf(c, &w.men[b][c], ^uint64(0), occ)&region, us)
		}
	}
	encodeShared(p, reps, l, region, dst)
}

// encodeShared writes the planes after the attack planes, those every
// variant has: repetitions, castling rights, the halfmove clock, the
// en-passant square and the plane of ones.
func encodeShared(p *state, reps int, l PlaneLayout, region uint64, dst []float32) {
	us := p.side
	// Constant planes are copied from a plane of ones on the region (a
	// vectorised memmove, several times faster than storing 64 values one
	// by one). The region is the same seen from either side: it is whole
	// files, and the mirror for Black (sq^56) keeps files.
	ones := regionOnes(region)
	fill := func(plane int) { copy(dst[plane*PlaneSize:(plane+1)*PlaneSize], ones[:]) }
	if reps >= 1 {
		fill(l.Repetitions())
		if reps >= 2 {
			fill(l.Repetitions() + 1)
		}
	}
	ourK, ourQ, theirK, theirQ := CastleWK, CastleWQ, CastleBK, CastleBQ
	if us == Black {
		ourK, ourQ, theirK, theirQ = CastleBK, CastleBQ, CastleWK, CastleWQ
	}
	for i, r := range [4]uint8{ourK, ourQ, theirK, theirQ} {
		if p.castling&r != 0 {
			fill(l.Castling() + i)
		}
	}
	if p.halfmove > 0 {
		hp := l.Halfmove()
		h, v := dst[hp*PlaneSize:(hp+1)*PlaneSize], float32(min(p.halfmove, 100))/100
		for i := range h {
			h[i] = v * ones[i] // v on the region, 0 off it
		}
	}
	if p.ep != NoSquare {
		setSquares(dst, l.EnPassant(), bit(p.ep), us)
	}
	fill(l.Ones())
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

// attacksOf returns the squares attacked by colour c's men pcs (by kind)
// that stand among mask (one board's squares), occ being that board's
// occupancy.
func attacksOf(c Colour, pcs *[6]uint64, mask, occ uint64) uint64 {
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
