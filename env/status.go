package env

// Status is the state of play of a position.
type Status uint8

const (
	Ongoing Status = iota
	Checkmate
	Stalemate
	Threefold
	FiftyMove
	DeadPosition
	// Adjudicated marks a game stopped at a configured ply cap and scored as
	// a draw: not a draw by the rules, and recorded as such.
	Adjudicated
)

var statusNames = [...]string{"ongoing", "checkmate", "stalemate", "threefold", "fifty-move", "dead-position", "adjudicated"}

// String returns the status's name as the replay command prints it.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

// IsOver reports whether the game has ended.
func (s Status) IsOver() bool { return s != Ongoing }

// Result is a game's score.
type Result uint8

const (
	NoResult Result = iota
	WhiteWins
	BlackWins
	Draw
)

// String writes the result as PGN does: "1-0", "0-1", "1/2-1/2" or "*".
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// ParseResult reads a PGN result token.
func ParseResult(s string) (Result, bool) {
	switch s {
	case "1-0":
		return WhiteWins, true
	case "0-1":
		return BlackWins, true
	case "1/2-1/2":
		return Draw, true
	case "*":
		return NoResult, true
	}
	return NoResult, false
}

// Status returns the state of play: checkmate and stalemate first (a mate
// on the hundredth ply still wins), then the draws by rule.
func (p *Position) Status() Status {
	var ml MoveList
	p.LegalMoves(&ml)
	return p.statusWith(ml.N)
}

// StatusWithCap is Status with a ply cap: a game still going after plyCap
// plies (counted from the set-up position) is Adjudicated. plyCap ≤ 0 means
// no cap.
func (p *Position) StatusWithCap(plyCap int) Status {
	st := p.Status()
	if st == Ongoing && plyCap > 0 && p.Ply() >= plyCap {
		return Adjudicated
	}
	return st
}

func (p *Position) statusWith(legal int) Status { return p.StatusGiven(legal, p.Repetitions()) }

// StatusGiven is Status for a caller that has already generated the legal
// moves and counted the repetitions (Repetitions): legal and reps are
// their numbers. The search needs both anyway and calls it at every new
// leaf, so that the rules of a finished game live in one place.
func (p *Position) StatusGiven(legal, reps int) Status {
	if legal == 0 {
		if p.InCheck() {
			return Checkmate
		}
		return Stalemate
	}
	if p.OnlyKings() {
		return DeadPosition
	}
	if reps >= 2 {
		return Threefold
	}
	if p.halfmove >= 100 {
		return FiftyMove
	}
	return Ongoing
}

// OnlyKings reports the dead position of the rule book: the two kings
// alone on the boards.
func (p *Position) OnlyKings() bool { return p.menCount(White)+p.menCount(Black) == 2 }

// Repetitions counts how often the current position (both boards, side to
// move, castling rights, en-passant square) occurred before in the game.
func (p *Position) Repetitions() int {
	n := 0
	h := len(p.history)
	// Only positions since the last capture or pawn move can repeat —
	// except in alice-null, where a pawn's null move resets the fifty-move
	// count (it is a pawn move) but can be undone.
	limit := h
	if p.variant.null != nullPlain {
		limit = min(int(p.halfmove), h)
	}
	if p.lastMove == NoMove {
		return 0 // the game's first position, or a search's pass (MakePass)
	}
	for i := 1; i <= limit; i++ {
		e := &p.history[h-i]
		if i%2 == 0 && e.hash == p.hash {
			n++
		}
		if e.lastMove == NoMove {
			break // nothing before a game's first position or a pass repeats
		}
	}
	return n
}

// Outcome returns the result of a finished game with the given status, or
// NoResult while it is ongoing.
func (p *Position) Outcome(st Status) Result {
	switch st {
	case Ongoing:
		return NoResult
	case Checkmate:
		if p.side == White {
			return BlackWins
		}
		return WhiteWins
	}
	return Draw
}
