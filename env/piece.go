package env

// Colour is White or Black.
type Colour uint8

const (
	White Colour = iota
	Black
)

// Other returns the opposing colour.
func (c Colour) Other() Colour { return c ^ 1 }

func (c Colour) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Kind is a kind of chessman.
type Kind uint8

const (
	Pawn Kind = iota
	Knight
	Bishop
	Rook
	Queen
	King
	NoKind
)

const kindLetters = "pnbrqk"

// Letter returns the kind's lower-case FEN letter.
func (k Kind) Letter() byte {
	if k >= NoKind {
		return '?'
	}
	return kindLetters[k]
}

func kindFromLetter(b byte) Kind {
	for k := Pawn; k < NoKind; k++ {
		if kindLetters[k] == b|0x20 {
			return k
		}
	}
	return NoKind
}

// Board names one of the boards: A and B, and C in the three-board
// variant.
type Board uint8

const (
	BoardA Board = iota
	BoardB
	BoardC
)

// maxBoards is the most boards a variant plays on.
const maxBoards = 3

// Other returns the other board of a two-board game (A for B, B for A).
func (b Board) Other() Board { return b ^ 1 }

// String names the board by its capital letter, as SAN suffixes do.
func (b Board) String() string {
	if b > BoardC {
		return "?"
	}
	return string(rune('A' + b))
}

// letter is the board's lower-case letter, as UCI writes it.
func (b Board) letter() byte { return byte('a' + b) }

// Piece is a coloured chessman; NoPiece marks an empty square.
type Piece uint8

// NoPiece is the value of an empty square.
const NoPiece Piece = 12

// MakePiece combines a colour and a kind.
func MakePiece(c Colour, k Kind) Piece { return Piece(uint8(c)*6 + uint8(k)) }

// Colour and Kind take a piece apart.
func (p Piece) Colour() Colour { return Colour(p / 6) }
func (p Piece) Kind() Kind     { return Kind(p % 6) }

// Letter is the piece's FEN letter: upper case for White.
func (p Piece) Letter() byte {
	if p == NoPiece {
		return '.'
	}
	l := p.Kind().Letter()
	if p.Colour() == White {
		l -= 0x20
	}
	return l
}
