package env

import (
	"fmt"
	"strings"
)

// Variant is a rule set of the rule book: the default alice and the variants
// of its §8. All of them fit one frame: a move is a movement of one man on
// the board it stands on, X (an ordinary chess move or, where the variant
// allows it, a null move), then a transfer to a target board. A variant is
// a set of switches that the one generator reads (board geometry, number of
// boards, start position, which movements exist, whether and where the
// transfer happens); a new variant adds a switch and the code that honours
// it, not a generator of its own.
//
// Variants compare with ==. Get them from the package variables or
// VariantByName; the zero Variant is no rule set.
type Variant struct {
	// Name is the variant's key, as used on the command line.
	Name string
	// EnPassant allows en-passant captures (the rule book's alice-ep).
	EnPassant bool

	code     uint8        // the variant's number in a snapshot's binary form (never reused)
	title    string       // the PGN [Variant] tag
	start    string       // the start position, in FEN
	boards   uint8        // 2 or 3
	files    uint8        // 8, or 4 for alice-mini
	transfer transferRule // where the moved man goes after its movement
	null     nullRule     // which null moves exist
	noDouble bool         // pawns never double-step
	// offBoard is the part of the 8×8 frame that is not a board (files e–h
	// in alice-mini): the generator treats it as occupied, so nothing
	// lands there.
	offBoard uint64
}

// transferRule says where a man goes after its movement on X.
type transferRule uint8

const (
	// transferAlways: to the other board, whose landing square must be
	// empty (the default).
	transferAlways transferRule = iota
	// transferUnlessBlocked: to the other board when its landing square is
	// empty, else the man stays on X (alice-optional-transfer).
	transferUnlessBlocked
	// transferOptional: the mover chooses to stay on X or to transfer to an
	// empty landing square (alice-stone).
	transferOptional
	// transferChosen: the mover chooses either other board whose landing
	// square is empty (alice-3).
	transferChosen
)

// nullRule says which null moves (a man passing to the same square of
// another board without moving on X) exist.
type nullRule uint8

const (
	nullNone nullRule = iota
	// nullPlain: every man, pawns included, to an empty square; the frame's
	// check rules unchanged (alice-null).
	nullPlain
	// nullCapture: men other than pawns, taking an enemy man (not a king)
	// on the landing square; a king stands in check when an enemy man other
	// than a pawn stands on its square of the other board, and may escape
	// check by its own null move (alice-stone).
	nullCapture
)

// The start positions of the variants that do not start from StartFEN.
const (
	// StartFENBlackB has Black's army on board B (alice-black-b, alice-stone).
	StartFENBlackB = "|r|n|b|q|k|b|n|r/|p|p|p|p|p|p|p|p/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	// StartFENMini is alice-mini's start on two boards of 4 files.
	StartFENMini = "rqkr/nbbn/pppp/4/4/PPPP/NBBN/RQKR w - - 0 1"
)

// filesEtoH are the squares of files e–h, outside the boards of 4 files.
const filesEtoH uint64 = 0xf0f0f0f0f0f0f0f0

// The variants of the rule book, §8.
var (
	Alice = Variant{Name: "alice", code: 1, title: "Alice", start: StartFEN, boards: 2, files: 8}
	// AliceEP allows en passant.
	AliceEP = Variant{Name: "alice-ep", code: 2, EnPassant: true, title: "Alice EP", start: StartFEN, boards: 2, files: 8}
	// AliceBlackB starts Black's army on board B.
	AliceBlackB = Variant{Name: "alice-black-b", code: 3, title: "Alice Black B", start: StartFENBlackB, boards: 2, files: 8}
	// AliceNull adds null moves (Ishkan, 1973).
	AliceNull = Variant{Name: "alice-null", code: 4, title: "Alice Null", start: StartFEN, boards: 2, files: 8, null: nullPlain}
	// AliceOptionalTransfer lets a man whose landing square is occupied
	// stay on its board (O'Donohue, 2003).
	AliceOptionalTransfer = Variant{Name: "alice-optional-transfer", code: 5, title: "Alice Optional Transfer", start: StartFEN, boards: 2, files: 8, transfer: transferUnlessBlocked}
	// AliceStone: Black on B, optional transfers, null moves that capture
	// (Stone, 1981).
	AliceStone = Variant{Name: "alice-stone", code: 6, title: "Alice Stone", start: StartFENBlackB, boards: 2, files: 8, transfer: transferOptional, null: nullCapture}
	// AliceMini plays on two boards of 4 files (Parton).
	AliceMini = Variant{Name: "alice-mini", code: 7, title: "Alice Mini", start: StartFENMini, boards: 2, files: 4, noDouble: true, offBoard: filesEtoH}
	// Alice3 plays on three boards; the mover chooses the target board
	// (Parton).
	Alice3 = Variant{Name: "alice-3", code: 8, title: "Alice 3", start: StartFEN, boards: 3, files: 8, transfer: transferChosen}
)

// Variants lists every implemented variant, the default first.
func Variants() []Variant {
	return []Variant{Alice, AliceEP, AliceBlackB, AliceNull, AliceOptionalTransfer, AliceStone, AliceMini, Alice3}
}

// VariantNames lists the variants' names, the default first.
func VariantNames() []string {
	var names []string
	for _, v := range Variants() {
		names = append(names, v.Name)
	}
	return names
}

// VariantByName looks a variant up by its name (case-insensitive).
func VariantByName(name string) (Variant, error) {
	for _, v := range Variants() {
		if strings.EqualFold(v.Name, name) {
			return v, nil
		}
	}
	return Variant{}, fmt.Errorf("unknown variant %q (known: %s)", name, strings.Join(VariantNames(), ", "))
}

// variantByCode returns the variant numbered code in snapshots.
func variantByCode(code uint8) (Variant, bool) {
	for _, v := range Variants() {
		if v.code == code {
			return v, true
		}
	}
	return Variant{}, false
}

// StartFEN returns the variant's start position.
func (v Variant) StartFEN() string { return v.start }

// Boards returns the number of boards: 2, or 3 for alice-3.
func (v Variant) Boards() int { return int(v.boards) }

// Files returns the number of files of each board: 8, or 4 for alice-mini.
func (v Variant) Files() int { return int(v.files) }

// SharedSquares reports whether a square may hold men on several boards at
// once (alice-optional-transfer, alice-stone, alice-3). Then a position is
// no longer one board with a board per man, and the notation grows: FEN
// bracket groups, the UCI from-board prefix.
func (v Variant) SharedSquares() bool { return v.transfer != transferAlways || v.boards > 2 }

// region returns the squares of one board in the 8×8 frame.
func (v Variant) region() uint64 { return ^v.offBoard }

// onBoard reports whether s is a square of the variant's boards.
func (v Variant) onBoard(s Square) bool { return s >= 0 && s < 64 && v.offBoard&bit(s) == 0 }

// offBoardReason says why square s is not one of the variant's, or "".
func (v Variant) offBoardReason(s Square) string {
	if v.onBoard(s) {
		return ""
	}
	return fmt.Sprintf("%s is not a square of variant %s's boards (files a–%c)", s, v.Name, 'a'+v.Files()-1)
}

// canCastle reports whether the variant has castling (all but alice-mini).
func (v Variant) canCastle() bool { return v.files == 8 }
