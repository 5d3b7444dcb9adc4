package env

// Encode writes the position's input planes (the layout in planes.go) into
// dst, which must hold at least InputSize values. It allocates nothing.
func (p *Position) Encode(dst []float32) { encodeState(&p.state, p.Repetitions(), dst) }

func encodeState(p *state, reps int, dst []float32) {
	dst = dst[:InputSize]
	clear(dst)
	us := p.side
	flip := Square(0)
	if us == Black {
		flip = 56
	}
	for c := White; c <= Black; c++ {
		side := 0
		if c != us {
			side = 6
		}
		for k := Pawn; k <= King; k++ {
			for b := BoardA; b <= BoardB; b++ {
				base := (int(b)*12 + side + int(k)) * PlaneSize
				for bb := p.pieces[c][k] & p.boardMask(b); bb != 0; {
					dst[base+int(popLSB(&bb)^flip)] = 1
				}
			}
		}
	}
	fill := func(plane int, v float32) {
		s := dst[plane*PlaneSize : (plane+1)*PlaneSize]
		for i := range s {
			s[i] = v
		}
	}
	if reps >= 1 {
		fill(24, 1)
		if reps >= 2 {
			fill(25, 1)
		}
	}
	if us == Black {
		fill(26, 1)
	}
	ourK, ourQ, theirK, theirQ := CastleWK, CastleWQ, CastleBK, CastleBQ
	if us == Black {
		ourK, ourQ, theirK, theirQ = CastleBK, CastleBQ, CastleWK, CastleWQ
	}
	for i, r := range [4]uint8{ourK, ourQ, theirK, theirQ} {
		if p.castling&r != 0 {
			fill(27+i, 1)
		}
	}
	if p.halfmove > 0 {
		fill(31, float32(min(p.halfmove, 100))/100)
	}
	if p.ep != NoSquare {
		dst[32*PlaneSize+int(p.ep^flip)] = 1
	}
	fill(33, 1)
}
