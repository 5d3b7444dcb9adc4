package env

// An independent, deliberately naive move generator written straight from
// the rule book, on a mailbox of two 8×8 boards. It shares no code with the
// bitboard generator except the Position it reads, and serves to cross-check
// it move by move.

type refBoards [2][64]Piece // [board][square]

func refFromPosition(p *Position) refBoards {
	var b refBoards
	for i := range b {
		for s := range b[i] {
			b[i][s] = NoPiece
		}
	}
	for s := Square(0); s < 64; s++ {
		if pc, brd := p.PieceAt(s); pc != NoPiece {
			b[brd][s] = pc
		}
	}
	return b
}

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

// refAttacks reports whether colour by attacks square sq on board brd.
func refAttacks(b *refBoards, brd Board, sq Square, by Colour) bool {
	f, r := sq.File(), sq.Rank()
	for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
		if onBoard(f+d[0], r+d[1]) && b[brd][SquareAt(f+d[0], r+d[1])] == MakePiece(by, Knight) {
			return true
		}
	}
	for df := -1; df <= 1; df++ {
		for dr := -1; dr <= 1; dr++ {
			if (df != 0 || dr != 0) && onBoard(f+df, r+dr) && b[brd][SquareAt(f+df, r+dr)] == MakePiece(by, King) {
				return true
			}
		}
	}
	pr := r - 1 // a white pawn attacking sq stands one rank below
	if by == Black {
		pr = r + 1
	}
	for _, df := range []int{-1, 1} {
		if onBoard(f+df, pr) && b[brd][SquareAt(f+df, pr)] == MakePiece(by, Pawn) {
			return true
		}
	}
	for _, d := range [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		diag := d[0] != 0 && d[1] != 0
		for nf, nr := f+d[0], r+d[1]; onBoard(nf, nr); nf, nr = nf+d[0], nr+d[1] {
			pc := b[brd][SquareAt(nf, nr)]
			if pc == NoPiece {
				continue
			}
			if pc.Colour() == by && (pc.Kind() == Queen || (diag && pc.Kind() == Bishop) || (!diag && pc.Kind() == Rook)) {
				return true
			}
			break
		}
	}
	return false
}

func refKing(b *refBoards, c Colour) (Board, Square) {
	for brd := BoardA; brd <= BoardB; brd++ {
		for s := Square(0); s < 64; s++ {
			if b[brd][s] == MakePiece(c, King) {
				return brd, s
			}
		}
	}
	return BoardA, NoSquare
}

func refInCheck(b *refBoards, c Colour) bool {
	brd, k := refKing(b, c)
	return refAttacks(b, brd, k, c.Other())
}

// refLegal returns the legal moves in UCI notation, with ep the en-passant
// target (alice-ep) or NoSquare.
func refLegal(p *Position) []string {
	b := refFromPosition(p)
	us := p.SideToMove()
	var out []string
	try := func(x Board, from, to Square, promo Kind, epVictim Square) {
		y := x.Other()
		if b[y][to] != NoPiece {
			return // the landing square on the other board must be empty
		}
		nb := b
		pc := nb[x][from]
		nb[x][from] = NoPiece
		if epVictim != NoSquare {
			nb[y][epVictim] = NoPiece
		}
		nb[x][to] = pc
		if promo != NoKind {
			nb[x][to] = MakePiece(us, promo)
		}
		if kb, _ := refKing(&nb, us); kb == x && refInCheck(&nb, us) { // before the transfer, on X
			return
		}
		nb[y][to] = nb[x][to]
		nb[x][to] = NoPiece
		if refInCheck(&nb, us) { // after it
			return
		}
		m := from.String() + to.String()
		if promo != NoKind {
			m += string(promo.Letter())
		}
		out = append(out, m)
	}
	for x := BoardA; x <= BoardB; x++ {
		for from := Square(0); from < 64; from++ {
			pc := b[x][from]
			if pc == NoPiece || pc.Colour() != us {
				continue
			}
			f, r := from.File(), from.Rank()
			free := func(nf, nr int) bool { return b[x][SquareAt(nf, nr)] == NoPiece }
			enemy := func(nf, nr int) bool {
				q := b[x][SquareAt(nf, nr)]
				return q != NoPiece && q.Colour() != us
			}
			add := func(nf, nr int) {
				to := SquareAt(nf, nr)
				if pc.Kind() == Pawn && (nr == 7 || nr == 0) {
					for _, k := range []Kind{Queen, Rook, Bishop, Knight} {
						try(x, from, to, k, NoSquare)
					}
					return
				}
				try(x, from, to, NoKind, NoSquare)
			}
			switch pc.Kind() {
			case Pawn:
				dir, start := 1, 1
				if us == Black {
					dir, start = -1, 6
				}
				if onBoard(f, r+dir) && free(f, r+dir) {
					add(f, r+dir)
					if r == start && free(f, r+2*dir) {
						add(f, r+2*dir)
					}
				}
				for _, df := range []int{-1, 1} {
					if onBoard(f+df, r+dir) && enemy(f+df, r+dir) {
						add(f+df, r+dir)
					}
					if ep := p.EnPassant(); ep != NoSquare && onBoard(f+df, r+dir) && SquareAt(f+df, r+dir) == ep && free(f+df, r+dir) {
						victim := SquareAt(f+df, r)
						if b[x.Other()][victim] == MakePiece(us.Other(), Pawn) {
							try(x, from, ep, NoKind, victim)
						}
					}
				}
			case Knight, King:
				steps := [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
				if pc.Kind() == King {
					steps = [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
				}
				for _, d := range steps {
					if nf, nr := f+d[0], r+d[1]; onBoard(nf, nr) && (free(nf, nr) || enemy(nf, nr)) {
						add(nf, nr)
					}
				}
			default:
				dirs := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
				switch pc.Kind() {
				case Rook:
					dirs = dirs[:4]
				case Bishop:
					dirs = dirs[4:]
				}
				for _, d := range dirs {
					for nf, nr := f+d[0], r+d[1]; onBoard(nf, nr); nf, nr = nf+d[0], nr+d[1] {
						if free(nf, nr) {
							add(nf, nr)
							continue
						}
						if enemy(nf, nr) {
							add(nf, nr)
						}
						break
					}
				}
			}
		}
	}
	// Castling, on the board where the unmoved king and rook stand.
	rank := 0
	rights := p.Castling() & (CastleWK | CastleWQ)
	if us == Black {
		rank = 7
		rights = p.Castling() & (CastleBK | CastleBQ)
	}
	for _, side := range []struct {
		flag              uint8
		rookFile, kingTo  int
		rookTo            int
		empty, unattacked []int
	}{
		{CastleWK | CastleBK, 7, 6, 5, []int{5, 6}, []int{4, 5, 6}},
		{CastleWQ | CastleBQ, 0, 2, 3, []int{1, 2, 3}, []int{4, 3, 2}},
	} {
		if rights&side.flag == 0 {
			continue
		}
		for x := BoardA; x <= BoardB; x++ {
			y := x.Other()
			k, rk := SquareAt(4, rank), SquareAt(side.rookFile, rank)
			if b[x][k] != MakePiece(us, King) || b[x][rk] != MakePiece(us, Rook) {
				continue
			}
			ok := true
			for _, f := range side.empty {
				ok = ok && b[x][SquareAt(f, rank)] == NoPiece
			}
			for _, f := range side.unattacked {
				ok = ok && !refAttacks(&b, x, SquareAt(f, rank), us.Other())
			}
			kt, rt := SquareAt(side.kingTo, rank), SquareAt(side.rookTo, rank)
			ok = ok && b[y][kt] == NoPiece && b[y][rt] == NoPiece
			if !ok {
				continue
			}
			nb := b
			nb[x][k], nb[x][rk] = NoPiece, NoPiece
			nb[y][kt], nb[y][rt] = MakePiece(us, King), MakePiece(us, Rook)
			if !refInCheck(&nb, us) {
				out = append(out, k.String()+kt.String())
			}
		}
	}
	return out
}
