package env

import (
	"errors"
	"fmt"
)

// Snapshot is what the network sees of a position, without the game
// history: the men with their boards, side to move, castling rights,
// en-passant square, halfmove clock, how often the position occurred
// before, and the variant. Replay buffers store snapshots (SnapshotSize
// bytes each) rather than the 8.7 kB of input planes, and encode them when
// sampled.
type Snapshot struct {
	s    state
	wide *wideBoards // the men on the general path (Variant.SharedSquares); nil otherwise
	reps uint8
	code uint8 // the variant's code; 0 in snapshots written before variants were recorded
}

// SnapshotSize is the length of a snapshot's binary form.
const SnapshotSize = 64 + 8

// Snapshot captures the position's encodable state.
// The move number and last move are not kept: the network does not see
// them.
func (p *Position) Snapshot() Snapshot {
	sn := Snapshot{s: p.state, reps: uint8(min(p.Repetitions(), 2)), code: p.variant.code}
	sn.s.fullmove, sn.s.lastMove = 1, NoMove
	if p.wide != nil {
		w := p.wide.wideBoards
		sn.wide = &w
	}
	return sn
}

// Variant returns the rule set the snapshot was taken under; ok is false
// for a snapshot read from a binary form written before snapshots recorded
// it (those are of alice or alice-ep, which share a layout).
func (sn *Snapshot) Variant() (v Variant, ok bool) { return variantByCode(sn.code) }

// variantOr returns the recorded variant, or def when none is recorded.
func (sn *Snapshot) variantOr(def Variant) Variant {
	if v, ok := sn.Variant(); ok {
		return v
	}
	return def
}

// position returns the snapshot as a position of variant v (without
// history).
func (sn *Snapshot) position(v Variant) Position {
	p := Position{state: sn.s, variant: v}
	if sn.wide != nil {
		p.wide = &wideGame{wideBoards: *sn.wide}
	}
	return p
}

// Encode writes the snapshot's input planes, exactly as Position.Encode
// does for the position it was taken from: dst holds the variant's
// InputSize values.
func (sn *Snapshot) Encode(dst []float32) {
	encode(&sn.s, sn.wide, sn.variantOr(Alice), int(sn.reps), dst)
}

// LegalMask is Position.LegalMask of the position the snapshot was taken
// from, under the rules of variant v (the caller's: a snapshot written
// before variants were recorded does not say): the training target's mask
// of legal moves. It allocates nothing on the fast path's variants. The
// game's history is not kept, which changes no move's legality
// (repetition draws; it forbids nothing).
func (sn *Snapshot) LegalMask(v Variant, mask []float32) int {
	p := sn.position(v)
	return p.LegalMask(mask)
}

// SideToMove returns the colour to move in the snapshot.
func (sn *Snapshot) SideToMove() Colour { return sn.s.side }

// FEN writes the snapshot as FEN (without its repetition count).
func (sn *Snapshot) FEN() string {
	p := sn.position(sn.variantOr(Alice))
	return p.FEN()
}

// Transform returns the image of the snapshot under a symmetry of its
// variant.
func (sn *Snapshot) Transform(y Symmetry) Snapshot {
	y.validFor(sn.variantOr(Alice))
	img := Snapshot{s: y.state(&sn.s, sn.wide != nil), reps: sn.reps, code: sn.code}
	if sn.wide != nil {
		w := y.wideBoards(sn.wide)
		img.wide = &w
		img.s.hash = w.menHash() ^ img.s.hashOfRights()
	}
	return img
}

// AppendBinary appends the snapshot's binary form, SnapshotSize bytes:
// 64 bytes of men, then side to move, castling rights, en-passant square
// (255 for none), repetitions, the halfmove clock (little-endian uint16,
// capped), the variant's code and a reserved zero byte.
//
// Where a square holds at most one man, the 64 bytes are one per square:
// 0 empty, else 1 + piece, plus 128 on board B. Where it may hold several
// (Variant.SharedSquares), they list the men, two bytes each: square +
// 64·board, then 1 + piece; a zero piece byte ends the list (16 men a side
// fill it exactly).
func (sn *Snapshot) AppendBinary(b []byte) []byte {
	if sn.wide != nil {
		n := 0
		for brd := range sn.wide.mailbox {
			for sq, pc := range sn.wide.mailbox[brd] {
				if pc != NoPiece {
					b = append(b, byte(sq)|byte(brd)<<6, 1+byte(pc))
					n++
				}
			}
		}
		b = append(b, make([]byte, 64-2*n)...)
	} else {
		for sq := Square(0); sq < 64; sq++ {
			var v byte
			if pc := sn.s.mailbox[sq]; pc != NoPiece {
				v = 1 + byte(pc)
				if sn.s.onB&bit(sq) != 0 {
					v |= 128
				}
			}
			b = append(b, v)
		}
	}
	ep := byte(255)
	if sn.s.ep != NoSquare {
		ep = byte(sn.s.ep)
	}
	hm := uint16(min(sn.s.halfmove, 65535))
	return append(b, byte(sn.s.side), sn.s.castling, ep, sn.reps, byte(hm), byte(hm>>8), sn.code, 0)
}

var errSnapshotShort = errors.New("snapshot: need 72 bytes")

// DecodeSnapshot reads a snapshot written by AppendBinary, checking that
// every field is in range. A snapshot written before variants were
// recorded (code 0) reads as one of alice or alice-ep.
func DecodeSnapshot(b []byte) (Snapshot, error) {
	var sn Snapshot
	if len(b) < SnapshotSize {
		return sn, errSnapshotShort
	}
	sn.code = b[70]
	v, ok := sn.Variant()
	if !ok {
		if sn.code != 0 {
			return sn, fmt.Errorf("snapshot: unknown variant code %d", sn.code)
		}
		v = Alice
	}
	if b[71] != 0 {
		return sn, fmt.Errorf("snapshot: reserved byte is %d, want 0", b[71])
	}
	p := Position{variant: v}
	s := &p.state
	for i := range s.mailbox {
		s.mailbox[i] = NoPiece
	}
	if v.SharedSquares() {
		p.wide = newWideGame()
		for i := 0; i < 64; i += 2 {
			if b[i+1] == 0 {
				if b[i] != 0 {
					return sn, fmt.Errorf("snapshot: list entry %d has square byte %d but no man", i/2, b[i])
				}
				continue
			}
			sq, brd, pc := Square(b[i]&63), Board(b[i]>>6), Piece(b[i+1]-1)
			if pc >= NoPiece || int(brd) >= v.Boards() || !v.onBoard(sq) {
				return sn, fmt.Errorf("snapshot: list entry %d (% x) is no man of variant %s", i/2, b[i:i+2], v.Name)
			}
			if reason := p.place(pc, sq, brd); reason != "" {
				return sn, errors.New("snapshot: " + reason)
			}
		}
	} else {
		for sq := Square(0); sq < 64; sq++ {
			x := b[sq]
			if x == 0 {
				continue
			}
			pc := Piece(x&127) - 1
			if x&127 == 0 || pc >= NoPiece || !v.onBoard(sq) {
				return sn, fmt.Errorf("snapshot: square %s holds bad piece code %d", sq, x)
			}
			brd := BoardA
			if x&128 != 0 {
				brd = BoardB
			}
			s.put(pc, sq, brd)
		}
	}
	if b[64] > 1 || b[65] > 15 || (b[66] > 63 && b[66] != 255) || b[67] > 2 {
		return sn, fmt.Errorf("snapshot: bad side, castling, en-passant or repetition byte % x", b[64:68])
	}
	s.side, s.castling, sn.reps = Colour(b[64]), b[65], b[67]
	s.ep = NoSquare
	if b[66] != 255 {
		s.ep = Square(b[66])
	}
	s.halfmove = int32(b[68]) | int32(b[69])<<8
	s.fullmove = 1
	for c := White; c <= Black; c++ {
		if p.count(c, King) != 1 {
			return sn, fmt.Errorf("snapshot: %s must have exactly one king", c)
		}
	}
	s.hash = p.computeHash()
	sn.s = p.state
	if p.wide != nil {
		sn.wide = &p.wide.wideBoards
	}
	return sn, nil
}
