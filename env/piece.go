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

// Board names one of the two boards.
type Board uint8

const (
	BoardA Board = iota
	BoardB
)

// Other returns the other board.
func (b Board) Other() Board { return b ^ 1 }

func (b Board) String() string {
	if b == BoardA {
		return "A"
	}
	return "B"
}

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
