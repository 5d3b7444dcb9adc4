package env

import (
	"errors"
	"fmt"
)

// Snapshot is what the network sees of a position, without the game
// history: the pieces with their boards, side to move, castling rights,
// en-passant square, halfmove clock and how often the position occurred
// before. Replay buffers store snapshots (SnapshotSize bytes each) rather
// than the 8.7 kB of input planes, and encode them when sampled.
type Snapshot struct {
	s    state
	reps uint8
}

// SnapshotSize is the length of a snapshot's binary form.
const SnapshotSize = 64 + 8

// Snapshot captures the position's encodable state.
// The move number and last move are not kept: the network does not see
// them.
func (p *Position) Snapshot() Snapshot {
	sn := Snapshot{s: p.state, reps: uint8(min(p.Repetitions(), 2))}
	sn.s.fullmove, sn.s.lastMove = 1, NoMove
	return sn
}

// Encode writes the snapshot's input planes, exactly as Position.Encode
// does for the position it was taken from.
func (sn *Snapshot) Encode(dst []float32) { encodeState(&sn.s, int(sn.reps), dst) }

// LegalMask is Position.LegalMask of the position the snapshot was taken
// from, under the rules of variant v (a snapshot does not record them):
// the training target's mask of legal moves. It allocates nothing. The
// game's history is not kept, which changes no move's legality
// (repetition draws; it forbids nothing).
func (sn *Snapshot) LegalMask(v Variant, mask []float32) int {
	p := Position{state: sn.s, variant: v}
	return p.LegalMask(mask)
}

// SideToMove returns the colour to move in the snapshot.
func (sn *Snapshot) SideToMove() Colour { return sn.s.side }

// FEN writes the snapshot as FEN (without its repetition count).
func (sn *Snapshot) FEN() string {
	p := Position{state: sn.s}
	return p.FEN()
}

// Transform returns the image of the snapshot under a symmetry.
func (sn *Snapshot) Transform(y Symmetry) Snapshot {
	return Snapshot{s: y.state(&sn.s), reps: sn.reps}
}

// AppendBinary appends the snapshot's binary form: per square one byte
// (0 empty, else 1 + piece, plus 128 on board B), then side to move,
// castling rights, en-passant square (255 for none), repetitions, and the
// halfmove clock (little-endian uint16, capped), and two reserved zero
// bytes.
func (sn *Snapshot) AppendBinary(b []byte) []byte {
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
	ep := byte(255)
	if sn.s.ep != NoSquare {
		ep = byte(sn.s.ep)
	}
	hm := uint16(min(sn.s.halfmove, 65535))
	return append(b, byte(sn.s.side), sn.s.castling, ep, sn.reps, byte(hm), byte(hm>>8), 0, 0)
}

var errSnapshotShort = errors.New("snapshot: need 72 bytes")

// DecodeSnapshot reads a snapshot written by AppendBinary, checking that
// every field is in range.
func DecodeSnapshot(b []byte) (Snapshot, error) {
	var sn Snapshot
	if len(b) < SnapshotSize {
		return sn, errSnapshotShort
	}
	s := &sn.s
	for i := range s.mailbox {
		s.mailbox[i] = NoPiece
	}
	for sq := Square(0); sq < 64; sq++ {
		v := b[sq]
		if v == 0 {
			continue
		}
		pc := Piece(v&127) - 1
		if v&127 == 0 || pc >= NoPiece {
			return sn, fmt.Errorf("snapshot: square %s holds bad piece code %d", sq, v)
		}
		brd := BoardA
		if v&128 != 0 {
			brd = BoardB
		}
		s.put(pc, sq, brd)
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
	if n := s.pieces[White][King]; n == 0 || n&(n-1) != 0 {
		return sn, errors.New("snapshot: White must have exactly one king")
	}
	if n := s.pieces[Black][King]; n == 0 || n&(n-1) != 0 {
		return sn, errors.New("snapshot: Black must have exactly one king")
	}
	s.hash = s.computeHash()
	return sn, nil
}
