package env

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Game is one game of a PGN file: its tag pairs, rule set, start position,
// moves and result.
type Game struct {
	// Tags holds the tag pairs in the order read or set, name then value.
	// The Variant, SetUp, FEN and Result tags are kept as read, but the
	// fields below are what counts: WritePGN writes those tags from them.
	Tags [][2]string
	// Variant is the rule set, from the [Variant] tag or the reader's
	// default.
	Variant Variant
	// StartFEN is the position the moves start from: the [FEN] tag, or
	// the variant's start position.
	StartFEN string
	// Moves are the moves of the main line, each legal in turn.
	Moves []Move
	// Result is the result token ending the movetext, else the [Result]
	// tag, else NoResult.
	Result Result
}

// NewGame returns an empty game of variant v from the start position.
func NewGame(v Variant) *Game {
	return &Game{Variant: v, StartFEN: v.StartFEN()}
}

// GameOf returns the game that led to pos: the position before pos's
// history, its set-up position, as StartFEN, and the moves played since,
// in order. The result is left to the caller (NoResult): a game in
// progress has none, and a front end may know an ending the rules do not
// (a resignation, a flag). It is the one place that unwinds a position's
// history: front ends keep a position and hand its game to an engine or a
// PGN writer.
func GameOf(pos *Position) *Game {
	q := pos.Clone()
	moves := make([]Move, q.Ply())
	for i := len(moves) - 1; i >= 0; i-- {
		moves[i] = q.LastMove()
		q.UnmakeMove()
	}
	return &Game{Variant: pos.Variant(), StartFEN: q.FEN(), Moves: moves}
}

// Tag returns the value of the tag named name (case-sensitive, as PGN
// tag names are), or "" when the game has none.
func (g *Game) Tag(name string) string {
	for _, t := range g.Tags {
		if t[0] == name {
			return t[1]
		}
	}
	return ""
}

// SetTag sets the value of the tag named name, keeping its place if the
// game has it already and appending it otherwise.
func (g *Game) SetTag(name, value string) {
	for i := range g.Tags {
		if g.Tags[i][0] == name {
			g.Tags[i][1] = value
			return
		}
	}
	g.Tags = append(g.Tags, [2]string{name, value})
}

// StartPosition returns the position the game starts from.
func (g *Game) StartPosition() (*Position, error) {
	fen := g.StartFEN
	if fen == "" {
		fen = g.Variant.StartFEN()
	}
	return ParseFEN(fen, g.Variant)
}

// FinalPosition returns the position after all of the game's moves. A move
// that is not legal where it is played is a *PGNError naming its ply. Moves
// are matched by from-square, to-square and promotion.
func (g *Game) FinalPosition() (*Position, error) {
	p, err := g.StartPosition()
	if err != nil {
		return nil, &PGNError{Err: err}
	}
	if err := playChecked(p, g.Moves, nil); err != nil {
		return nil, err
	}
	return p, nil
}

// playChecked plays moves on p, checking each is legal first; visit, when
// not nil, sees each move in the position before it is played.
func playChecked(p *Position, moves []Move, visit func(i int, m Move)) error {
	var ml MoveList
	for i, m := range moves {
		p.LegalMoves(&ml)
		legal, ok := ml.Find(m)
		if !ok {
			return &PGNError{Ply: i + 1, Move: m.UCI(), Err: &MoveError{Move: m.UCI(), FEN: p.FEN(), Reason: "illegal move"}}
		}
		if visit != nil {
			visit(i, legal)
		}
		p.MakeMove(legal)
	}
	return nil
}

// PGNError locates an error in PGN input or in a game being written.
type PGNError struct {
	Game int    // 1-based number of the game in the input; 0 when not known
	Line int    // 1-based line of the input; 0 when not known
	Ply  int    // 1-based ply of the offending move; 0 when the error is not about a move
	Move string // the move as written; "" when the error is not about a move
	// Notation is the notation Move was read in ("SAN", "long
	// algebraic"), for a move that could not be read or played.
	Notation string
	Err      error
}

func (e *PGNError) Error() string {
	// game 2, ply 7 ("Qd4"): illegal move: … (line 15; position …)
	var sb strings.Builder
	if e.Game > 0 {
		fmt.Fprintf(&sb, "game %d", e.Game)
	}
	if e.Ply > 0 {
		if sb.Len() > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "ply %d", e.Ply)
	}
	if e.Move != "" {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "(%q)", e.Move)
	}
	if sb.Len() > 0 {
		sb.WriteString(": ")
	}
	var where []string
	if e.Line > 0 {
		where = append(where, "line "+strconv.Itoa(e.Line))
	}
	if e.Notation != "" {
		where = append(where, "read as "+e.Notation)
	}
	// A MoveError about the same text need not repeat it.
	var me *MoveError
	if errors.As(e.Err, &me) && me.Move == e.Move {
		sb.WriteString(me.Reason)
		where = append(where, "position "+me.FEN)
	} else if e.Err != nil {
		sb.WriteString(e.Err.Error())
	}
	if len(where) > 0 {
		sb.WriteString(" (")
		sb.WriteString(strings.Join(where, "; "))
		sb.WriteByte(')')
	}
	return sb.String()
}

func (e *PGNError) Unwrap() error { return e.Err }

// Limits on single tokens, so that hostile input cannot make one grow
// without bound.
const (
	maxSymbolLen   = 255
	maxTagValueLen = 1 << 16
)

// PGNReader reads games one at a time from PGN text: tag pairs, then
// movetext in SAN (or long algebraic, "e2e4", as people type it) with
// move numbers, comments ({…} and ; to the end of the line), variations
// (skipped, nested or not), NAGs ($1) and a result token that ends the
// game. Movetext without tags is read too: a game then ends at a result
// token or a blank line. A move after the rules ended the game (mate,
// stalemate, repetition, fifty moves, bare kings) is an error, as an
// illegal move is.
type PGNReader struct {
	r       *bufio.Reader
	variant Variant
	games   int  // games begun so far
	line    int  // current line, 1-based
	lineBeg bool // at the start of a line (for % escapes)
	nl      int  // newlines since the last token, for blank lines
	err     error
	sym     []byte // scratch for the current symbol
}

// NewPGNReader returns a reader of the games in r; games without a
// [Variant] tag are of defaultVariant.
func NewPGNReader(r io.Reader, defaultVariant Variant) *PGNReader {
	return &PGNReader{r: bufio.NewReader(r), variant: defaultVariant, line: 1, lineBeg: true}
}

// ReadPGN reads every game of r. On an error it returns the games read
// before it with the error.
func ReadPGN(r io.Reader, defaultVariant Variant) ([]*Game, error) {
	pr := NewPGNReader(r, defaultVariant)
	var games []*Game
	for {
		g, err := pr.Next()
		if err == io.EOF {
			return games, nil
		}
		if err != nil {
			return games, err
		}
		games = append(games, g)
	}
}

// gameState is a game being read.
type gameState struct {
	g         *Game
	num       int
	started   bool // a tag or movetext token was seen
	movetext  bool // a movetext token was seen
	depth     int  // variation nesting
	pos       *Position
	gotResult bool
	err       error // the first error; the rest of the game is skipped
	// tagLines are the lines of the Variant and FEN tags, for errors in
	// their values.
	tagLines map[string]int
}

// Next returns the next game, or io.EOF when there are no more. An error in
// a game comes as a *PGNError with the game read up to it (its tags and the
// moves before the bad one); the following call goes on with the next game.
// Any other error is the underlying reader's, and every later call returns
// it again.
func (pr *PGNReader) Next() (*Game, error) {
	gs := gameState{g: NewGame(pr.variant)}
	for {
		blank := pr.skipSpace()
		if blank && gs.movetext && gs.depth == 0 && len(gs.g.Tags) == 0 {
			return pr.finish(&gs)
		}
		c, ok := pr.peek()
		if !ok {
			if pr.err != nil {
				return nil, fmt.Errorf("reading PGN, line %d: %w", pr.line, pr.err)
			}
			if !gs.started {
				return nil, io.EOF
			}
			if gs.depth > 0 {
				pr.fail(&gs, &PGNError{Line: pr.line, Err: errors.New("unterminated variation: missing ')'")})
			}
			return pr.finish(&gs)
		}
		if c == '[' && gs.movetext {
			// The next game's tags: this one had no result token.
			if gs.depth > 0 {
				pr.fail(&gs, &PGNError{Line: pr.line, Err: errors.New("unterminated variation: missing ')'")})
			}
			return pr.finish(&gs)
		}
		pr.begin(&gs, c)
		line := pr.line
		switch {
		case c == '[':
			pr.readTag(&gs)
		case c == '{':
			pr.skipComment(&gs)
		case c == ';':
			pr.skipLine()
		case c == '(':
			pr.readByte()
			gs.depth++
		case c == ')':
			pr.readByte()
			if gs.depth == 0 {
				pr.fail(&gs, &PGNError{Line: line, Err: errors.New("')' without a variation to close")})
			} else {
				gs.depth--
			}
		case c == '$':
			pr.readByte()
			for c, ok := pr.peek(); ok && c >= '0' && c <= '9'; c, ok = pr.peek() {
				pr.readByte()
			}
		case c == '.':
			pr.readByte() // dots after a move number, or stray ones
		case c == '*':
			pr.readByte()
			if gs.depth == 0 {
				gs.g.Result, gs.gotResult = NoResult, true
				return pr.finish(&gs)
			}
		case isSymbolStart(c):
			if done := pr.readSymbolToken(&gs, line); done {
				return pr.finish(&gs)
			}
		default:
			pr.readByte()
			pr.fail(&gs, &PGNError{Line: line, Err: fmt.Errorf("unexpected character %q", c)})
		}
	}
}

// begin marks the game started by a token that starts with c; comments
// before a game belong to no game.
func (pr *PGNReader) begin(gs *gameState, c byte) {
	if c == '{' || c == ';' {
		return
	}
	if !gs.started {
		gs.started = true
		pr.games++
		gs.num = pr.games
	}
	if c != '[' {
		gs.movetext = true
	}
}

// readSymbolToken reads a move number, move, annotation or result token;
// it reports whether a result token ended the game.
func (pr *PGNReader) readSymbolToken(gs *gameState, line int) bool {
	sym, tooLong := pr.readSymbol()
	if tooLong {
		pr.fail(gs, &PGNError{Line: line, Err: fmt.Errorf("token %q… is too long", sym[:16])})
		return false
	}
	if allDigits(sym) {
		return false // a move number; its dots are read as stray dots
	}
	if r, ok := ParseResult(string(sym)); ok {
		if gs.depth > 0 {
			return false
		}
		gs.g.Result, gs.gotResult = r, true
		return true
	}
	if len(bytes.Trim(sym, "!?")) == 0 {
		return false // an annotation written apart from its move
	}
	if string(sym) == "e" {
		// "e.p." after an en-passant capture.
		if b, _ := pr.r.Peek(3); string(b) == ".p." {
			pr.r.Discard(3)
			return false
		}
	}
	if gs.depth > 0 || gs.err != nil {
		return false
	}
	tok := string(sym)
	if gs.pos == nil && !pr.setUp(gs, line) {
		return false
	}
	ply := len(gs.g.Moves) + 1
	if st := gs.pos.Status(); st.IsOver() {
		// The rules ended the game (mate, stalemate, repetition, fifty
		// moves, bare kings): no move may follow, whichever way it ended.
		reason := fmt.Sprintf("illegal move: the game was already over after ply %d (%s)", ply-1, st)
		pr.fail(gs, &PGNError{Line: line, Ply: ply, Move: tok, Err: &MoveError{Move: tok, FEN: gs.pos.FEN(), Reason: reason}})
		return false
	}
	// Movetext is SAN; long algebraic ("e2e4", as UCI writes moves) is
	// read too, as people type it.
	m, err := gs.pos.ParseMove(tok)
	if err != nil {
		notation := "SAN"
		if looksUCI(tok) {
			notation = "long algebraic (from and to squares)"
		}
		pr.fail(gs, &PGNError{Line: line, Ply: ply, Move: tok, Notation: notation, Err: err})
		return false
	}
	gs.g.Moves = append(gs.g.Moves, m)
	gs.pos.MakeMove(m)
	return false
}

// setUp builds the game's start position from its tags when it is first
// needed; it reports false after recording an error.
func (pr *PGNReader) setUp(gs *gameState, line int) bool {
	g := gs.g
	fenTag := false
	for _, t := range g.Tags {
		switch {
		case strings.EqualFold(t[0], "Variant"):
			v, err := variantFromTag(t[1], pr.variant)
			if err != nil {
				pr.fail(gs, &PGNError{Line: gs.tagLine("variant", line), Err: err})
				return false
			}
			g.Variant = v
		case strings.EqualFold(t[0], "FEN"):
			g.StartFEN = strings.TrimSpace(t[1])
			fenTag = true
		}
	}
	if !fenTag {
		g.StartFEN = g.Variant.StartFEN()
	}
	p, err := ParseFEN(g.StartFEN, g.Variant)
	if err != nil {
		pr.fail(gs, &PGNError{Line: gs.tagLine("fen", line), Err: fmt.Errorf("[FEN] tag: %w", err)})
		return false
	}
	gs.pos = p
	return true
}

// tagLine is the line of the tag name (lower case), or line when the game
// has no such tag.
func (gs *gameState) tagLine(name string, line int) int {
	if l, ok := gs.tagLines[name]; ok {
		return l
	}
	return line
}

// variantFromTag maps a [Variant] tag to a rule set: the name WritePGN
// writes (the variant's title: "Alice", "Alice EP", "Alice Stone", …) or the
// variant's key ("alice-stone"). Names compare without case, spaces,
// hyphens or underscores, so "Alice 3", "alice-3" and "Alice3" all work; an
// empty tag means the default.
func variantFromTag(name string, def Variant) (Variant, error) {
	key := variantKey(name)
	if key == "" {
		return def, nil
	}
	var names []string
	for _, v := range Variants() {
		if variantKey(v.Name) == key || variantKey(v.title) == key {
			return v, nil
		}
		names = append(names, v.title)
	}
	return Variant{}, fmt.Errorf("[Variant %q]: not a variant this program plays (known: %s)", name, strings.Join(names, ", "))
}

func variantKey(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r != ' ' && r != '-' && r != '_' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// finish completes the game: the position is set up even for a game
// without moves, so that a bad [FEN] or [Variant] tag is still reported.
func (pr *PGNReader) finish(gs *gameState) (*Game, error) {
	g := gs.g
	if gs.err == nil && gs.pos == nil {
		pr.setUp(gs, pr.line)
	}
	if !gs.gotResult {
		for _, t := range g.Tags {
			if strings.EqualFold(t[0], "Result") {
				g.Result, _ = ParseResult(strings.TrimSpace(t[1]))
			}
		}
	}
	if gs.err != nil {
		return g, gs.err
	}
	return g, nil
}

// fail records the game's first error; the rest of the game is read but
// not played.
func (pr *PGNReader) fail(gs *gameState, e *PGNError) {
	if gs.err != nil {
		return
	}
	if !gs.started {
		gs.started = true
		pr.games++
		gs.num = pr.games
	}
	e.Game = gs.num
	gs.err = e
}

// readTag reads one tag pair, [Name "value"].
func (pr *PGNReader) readTag(gs *gameState) {
	line := pr.line
	bad := func(format string, args ...any) {
		pr.fail(gs, &PGNError{Line: line, Err: fmt.Errorf("tag pair: "+format, args...)})
		pr.skipLine()
	}
	pr.readByte() // '['
	pr.skipBlanks()
	var name []byte
	for c, ok := pr.peek(); ok && isTagNameByte(c); c, ok = pr.peek() {
		pr.readByte()
		if len(name) < maxSymbolLen {
			name = append(name, c)
		}
	}
	if len(name) == 0 {
		bad("want [Name \"value\"]")
		return
	}
	pr.skipBlanks()
	if c, ok := pr.peek(); !ok || c != '"' {
		bad("[%s: value must be a quoted string", name)
		return
	}
	pr.readByte()
	var val []byte
	for {
		c, ok := pr.readByte()
		if !ok || c == '\n' {
			bad("[%s: unterminated string", name)
			return
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if n, ok := pr.peek(); ok && (n == '"' || n == '\\') {
				c, _ = pr.readByte()
			}
		}
		if len(val) >= maxTagValueLen {
			bad("[%s: value longer than %d bytes", name, maxTagValueLen)
			return
		}
		val = append(val, c)
	}
	pr.skipBlanks()
	if c, ok := pr.peek(); !ok || c != ']' {
		bad("[%s: missing ']'", name)
		return
	}
	pr.readByte()
	gs.g.Tags = append(gs.g.Tags, [2]string{string(name), string(val)})
	if n := strings.ToLower(string(name)); n == "fen" || n == "variant" {
		if gs.tagLines == nil {
			gs.tagLines = map[string]int{}
		}
		gs.tagLines[n] = line
	}
}

func (pr *PGNReader) skipComment(gs *gameState) {
	line := pr.line
	pr.readByte() // '{'
	for {
		c, ok := pr.readByte()
		if !ok {
			pr.fail(gs, &PGNError{Line: line, Err: errors.New("unterminated comment: missing '}'")})
			return
		}
		if c == '}' {
			return
		}
	}
}

// skipLine skips to the end of the line, leaving the newline to be read.
func (pr *PGNReader) skipLine() {
	for c, ok := pr.peek(); ok && c != '\n'; c, ok = pr.peek() {
		pr.readByte()
	}
}

// skipBlanks skips spaces and tabs within a line.
func (pr *PGNReader) skipBlanks() {
	for c, ok := pr.peek(); ok && (c == ' ' || c == '\t'); c, ok = pr.peek() {
		pr.readByte()
	}
}

// skipSpace skips white space and % escape lines; it reports whether it
// crossed a blank line (two newlines with only white space between them
// since the last token).
func (pr *PGNReader) skipSpace() bool {
	blank := false
	for {
		c, ok := pr.peek()
		if !ok {
			return blank
		}
		switch c {
		case '\n':
			pr.nl++
			if pr.nl >= 2 {
				blank = true
			}
		case ' ', '\t', '\r', '\f', '\v':
		case '%':
			if !pr.lineBeg {
				pr.nl = 0
				return blank
			}
			pr.nl = 0 // an escape line is not a blank one
			pr.skipLine()
			continue
		case 0xEF:
			// A UTF-8 byte-order mark at the very start.
			if b, _ := pr.r.Peek(3); pr.line == 1 && pr.lineBeg && string(b) == "\xEF\xBB\xBF" {
				pr.r.Discard(3)
				continue
			}
			pr.nl = 0
			return blank
		default:
			pr.nl = 0
			return blank
		}
		pr.readByte()
	}
}

func (pr *PGNReader) peek() (byte, bool) {
	if pr.err != nil {
		return 0, false
	}
	b, err := pr.r.Peek(1)
	if err != nil {
		if err != io.EOF {
			pr.err = err
		}
		return 0, false
	}
	return b[0], true
}

func (pr *PGNReader) readByte() (byte, bool) {
	if pr.err != nil {
		return 0, false
	}
	c, err := pr.r.ReadByte()
	if err != nil {
		if err != io.EOF {
			pr.err = err
		}
		return 0, false
	}
	pr.lineBeg = c == '\n'
	if c == '\n' {
		pr.line++
	}
	return c, true
}

// readSymbol reads a symbol token into the scratch buffer; one longer than
// maxSymbolLen is read whole but reported.
func (pr *PGNReader) readSymbol() ([]byte, bool) {
	pr.sym = pr.sym[:0]
	n := 0
	for c, ok := pr.peek(); ok && isSymbolByte(c); c, ok = pr.peek() {
		pr.readByte()
		if n < maxSymbolLen {
			pr.sym = append(pr.sym, c)
		}
		n++
	}
	return pr.sym, n > maxSymbolLen
}

func isSymbolStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '!' || c == '?' || c == '-'
}

func isSymbolByte(c byte) bool {
	return isSymbolStart(c) || strings.IndexByte("_+#=:/", c) >= 0
}

func isTagNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// sevenTagRoster is PGN's mandatory tags, in order, with the values written
// when a game lacks them (Result is written from Game.Result).
var sevenTagRoster = [...][2]string{
	{"Event", "?"}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "?"},
	{"White", "?"}, {"Black", "?"}, {"Result", ""},
}

// pgnLineWidth is the longest movetext line WritePGN writes.
const pgnLineWidth = 79

// WritePGN writes g as PGN: the seven-tag roster, [Variant], [SetUp] and
// [FEN] when the game does not start from the start position, the game's
// other tags in order, then the movetext in canonical SAN with move
// numbers, wrapped before column 80, ending with the result. Nothing is
// written when a move is illegal or a tag name is not a PGN symbol.
func WritePGN(w io.Writer, g *Game) error {
	p, err := g.StartPosition()
	if err != nil {
		return &PGNError{Err: err}
	}
	var b []byte
	writeTag := func(name, value string) {
		b = append(b, '[')
		b = append(b, name...)
		b = append(b, " \""...)
		for i := 0; i < len(value); i++ {
			switch c := value[i]; {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c < ' ' || c == 0x7f:
				b = append(b, ' ') // PGN strings hold no control characters
			default:
				b = append(b, c)
			}
		}
		b = append(b, "\"]\n"...)
	}
	for _, t := range sevenTagRoster {
		v := g.Tag(t[0])
		if v == "" {
			v = t[1]
		}
		if t[0] == "Result" {
			v = g.Result.String()
		}
		writeTag(t[0], v)
	}
	writeTag("Variant", variantTagValue(g.Variant))
	if fen := p.FEN(); fen != g.Variant.StartFEN() {
		writeTag("SetUp", "1")
		writeTag("FEN", fen)
	}
	for _, t := range g.Tags {
		if isWrittenFromFields(t[0]) {
			continue
		}
		if t[0] == "" || strings.IndexFunc(t[0], func(r rune) bool { return r > 0x7f || !isTagNameByte(byte(r)) }) >= 0 {
			return &PGNError{Err: fmt.Errorf("tag name %q is not a PGN symbol (letters, digits and _)", t[0])}
		}
		writeTag(t[0], t[1])
	}
	b = append(b, '\n')

	lineStart := len(b)
	var unit []byte
	emit := func(u []byte) {
		if len(b) > lineStart {
			if len(b)-lineStart+1+len(u) > pgnLineWidth {
				b = append(b, '\n')
				lineStart = len(b)
			} else {
				b = append(b, ' ')
			}
		}
		b = append(b, u...)
	}
	err = playChecked(p, g.Moves, func(i int, m Move) {
		unit = unit[:0]
		if p.side == White {
			unit = strconv.AppendInt(unit, int64(p.fullmove), 10)
			unit = append(unit, ". "...)
		} else if i == 0 {
			unit = strconv.AppendInt(unit, int64(p.fullmove), 10)
			unit = append(unit, "... "...)
		}
		unit = p.appendSAN(unit, m, false)
		emit(unit)
	})
	if err != nil {
		return err
	}
	emit([]byte(g.Result.String()))
	b = append(b, "\n\n"...)
	_, err = w.Write(b)
	return err
}

// isWrittenFromFields reports whether WritePGN writes tag name from the
// Game's fields (or the roster) rather than from Tags.
func isWrittenFromFields(name string) bool {
	for _, t := range sevenTagRoster {
		if t[0] == name {
			return true
		}
	}
	for _, n := range [...]string{"Variant", "SetUp", "FEN", "Result"} {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// variantTagValue is the [Variant] tag for v: "Alice" as pychess.org
// writes it for the default rules, and in the same style for the others
// (the variant's title).
func variantTagValue(v Variant) string {
	if v.title == "" {
		return Alice.title
	}
	return v.title
}
