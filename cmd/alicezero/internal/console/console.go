// Package console is the game in the terminal: a person plays the engine
// by typing moves (SAN or UCI) and commands (undo, hint, save FILE, ...),
// and sees both boards drawn side by side after every move. It keeps the
// game and drives an engine.Interface with it: package engine's Engine in
// the alicezero binary, enginetest's fake in the tests.
//
//	e, err := engine.New(engine.Options{Weights: "checkpoints/run1"})
//	...
//	err = console.Run(ctx, e, os.Stdin, os.Stdout, console.Options{User: env.White})
//
// Input is read line by line, so a script can be piped in; a line over
// 1 MiB is refused and the game goes on.
package console

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/fileutil"
	"github.com/alicezero/alicezero/internal/lines"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// Options configure a game.
type Options struct {
	// User is the side the person plays; the boards are drawn from it.
	User env.Colour
	// ASCII draws pieces as letters instead of Unicode symbols.
	ASCII bool
	// Limits bound the engine's searches (zero: its visits).
	Limits clock.Limits
	// Start is the position the game starts from, of the engine's
	// variant; nil means the variant's start position. A new game starts
	// there.
	Start *env.Position
}

// Run plays games on in and out until the user quits, in ends or ctx ends.
func Run(ctx context.Context, e engine.Interface, in io.Reader, out io.Writer, opts Options) error {
	v := e.Options().Variant
	start := opts.Start
	if start == nil {
		start = env.NewPosition(v)
	}
	if start.Variant() != v {
		return fmt.Errorf("console: a start position of variant %s, the engine plays %s", start.Variant().Name, v.Name)
	}
	p := &session{e: e, pos: start.Clone(), out: out, user: opts.User, ascii: opts.ASCII, flipped: opts.User == env.Black, lim: opts.Limits}
	return p.run(ctx, in)
}

// session is a game in the terminal: the user against the engine.
type session struct {
	e engine.Interface
	// pos is the game: the position it started from, the moves since its
	// history.
	pos     *env.Position
	out     io.Writer
	user    env.Colour
	ascii   bool
	flipped bool
	lim     clock.Limits
	// announced is set once the end of the game has been announced.
	announced bool
}

func (p *session) printf(format string, args ...any) {
	_, _ = fmt.Fprintf(p.out, format, args...) // a closed terminal ends the input too
}

const playHelp = `Commands:
  a move        in SAN (e4, Nf3, exd5, O-O, e8=Q; a board suffix like d4/A is checked)
                or UCI (e2e4, e7e8q)
  undo          take back your last move (and the engine's reply)
  hint          ask the engine for a move
  flip          turn the boards round
  board         show the boards again
  moves         list your legal moves
  fen           show the position as FEN ('|' marks board-B pieces)
  save FILE     write the game as PGN
  new           start a new game (same colours)
  help          this list
  quit          leave
`

func (p *session) run(ctx context.Context, stdin io.Reader) error {
	input := lines.Read(stdin, lines.DefaultMax)
	defer input.Close()
	p.printf("AliceZero: Alice Chess, %s.\n", variantLine(p.pos.Variant()))
	p.printf("Engine: %s.\n", p.e.Network())
	p.printf("You play %s. Type a move (e4, Nf3, e2e4) or help.\n\n", colourName(p.user))
	p.printBoard()
	for {
		if err := ctx.Err(); err != nil {
			return nil
		}
		pos := p.pos
		st := pos.Status()
		if st.IsOver() && !p.announced {
			p.announce(pos, st)
		}
		if !st.IsOver() && pos.SideToMove() != p.user {
			if err := p.engineMove(ctx); err != nil {
				return err
			}
			continue
		}
		if st.IsOver() {
			p.printf("> ")
		} else {
			p.printf("%s to move (move %d) > ", colourName(pos.SideToMove()), pos.FullmoveNumber())
		}
		var l lines.Line
		var ok bool
		select {
		case l, ok = <-input.C:
		case <-ctx.Done():
			p.printf("\n")
			return nil
		}
		switch {
		case !ok:
			p.printf("\n")
			return nil
		case l.Err != nil:
			return l.Err
		case l.TooLong:
			p.printf("That line is too long (%d bytes). Type a move, or help for the commands.\n", l.Len)
			continue
		}
		if quit := p.command(ctx, strings.TrimSpace(l.Text)); quit {
			return nil
		}
	}
}

// command runs one line typed by the user and reports whether it was quit.
func (p *session) command(ctx context.Context, line string) bool {
	word, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch strings.ToLower(word) {
	case "":
		return false
	case "quit", "exit", "q":
		return true
	case "help", "?":
		p.printf("%s", playHelp)
		p.printf("Variant %s: %s.\n", p.pos.Variant().Name, variantLine(p.pos.Variant()))
	case "new":
		p.e.NewGame()
		p.pos = env.NewPosition(p.pos.Variant())
		p.announced = false
		p.printf("New game. You play %s.\n", colourName(p.user))
		p.printBoard()
	case "undo", "takeback":
		p.undo()
	case "hint":
		p.hint(ctx)
	case "flip":
		p.flipped = !p.flipped
		p.printBoard()
	case "board", "show":
		p.printBoard()
	case "fen":
		p.printf("%s\n", p.pos.FEN())
	case "moves":
		p.listMoves()
	case "save":
		p.save(arg)
	default:
		p.userMove(ctx, line)
	}
	return false
}

func (p *session) userMove(ctx context.Context, s string) {
	pos := p.pos
	if st := pos.Status(); st.IsOver() {
		p.printf("The game is over (%s). Type new, undo, save FILE or quit.\n", st)
		return
	}
	m, err := pos.ParseMove(s)
	if err != nil {
		reason := err.Error()
		var me *env.MoveError
		if errors.As(err, &me) {
			reason = me.Reason
		}
		reason = strings.TrimPrefix(reason, "illegal move: ")
		if reason == "illegal move" {
			reason = "not legal here"
		}
		p.printf("Illegal move %q: %s. Type moves for the legal moves, help for the commands.\n", lines.Clip(s), reason)
		return
	}
	san := moveNumber(pos) + pos.SANWithBoard(m)
	pos.MakeMove(m) // ParseMove answers legal moves only
	p.printf("You play %s\n", san)
	if p.pos.Status().IsOver() {
		p.printBoard()
	}
}

// moveNumber writes the move number before a move of pos: "12. " for
// White, "12... " for Black.
func moveNumber(pos *env.Position) string {
	if pos.SideToMove() == env.White {
		return fmt.Sprintf("%d. ", pos.FullmoveNumber())
	}
	return fmt.Sprintf("%d... ", pos.FullmoveNumber())
}

func (p *session) engineMove(ctx context.Context) error {
	pos := p.pos
	p.printf("AliceZero is thinking...\n")
	t0 := time.Now()
	res, err := p.e.Go(ctx, env.GameOf(pos), p.lim, mcts.Progress{})
	if res.BestMove == env.NoMove {
		return fmt.Errorf("no move from the engine: %w", err)
	}
	if err != nil {
		p.printf("(engine: %v)\n", strings.ReplaceAll(err.Error(), "\n", " "))
	}
	var ml env.MoveList
	pos.LegalMoves(&ml)
	if !ml.Contains(res.BestMove) {
		return fmt.Errorf("engine move %v: not a legal move", res.BestMove) // cannot happen: Go returns legal moves
	}
	san := moveNumber(pos) + pos.SANWithBoard(res.BestMove)
	pos.MakeMove(res.BestMove)
	p.printf("AliceZero plays %s   (%s, %d %s, %.1fs)\n\n", san, evalText(res), res.Nodes, engine.NodeName(p.e.SearchKind()), time.Since(t0).Seconds())
	p.printBoard()
	return nil
}

// evalText describes a search's verdict from the engine's side.
func evalText(res mcts.Result) string {
	switch {
	case res.MateIn > 0:
		return fmt.Sprintf("AliceZero mates in %d", res.MateIn)
	case res.MateIn < 0:
		return fmt.Sprintf("AliceZero is mated in %d", -res.MateIn)
	}
	return fmt.Sprintf("eval %+.2f for AliceZero", float64(engine.Centipawns(res.RootValue))/100)
}

func (p *session) hint(ctx context.Context) {
	pos := p.pos
	if pos.Status().IsOver() {
		p.printf("The game is over.\n")
		return
	}
	res, err := p.e.Go(ctx, env.GameOf(pos), p.lim, mcts.Progress{})
	if res.BestMove == env.NoMove {
		p.printf("No hint: %v\n", err)
		return
	}
	p.printf("Hint: %s   (%s)\n", pos.SANWithBoard(res.BestMove), strings.ReplaceAll(evalText(res), "AliceZero", "you"))
}

// undo takes back the user's last move and the engine's reply to it (or
// just the user's move when the game ended with it).
func (p *session) undo() {
	pos := p.pos
	n := 2
	if pos.SideToMove() != p.user {
		n = 1 // the user's move ended the game: no reply to take back
	}
	if pos.Ply() < n {
		p.printf("Nothing to take back.\n")
		return
	}
	for range n {
		pos.UnmakeMove()
	}
	p.announced = false
	if n == 1 {
		p.printf("Took back your move.\n")
	} else {
		p.printf("Took back your move and the engine's reply.\n")
	}
	p.printBoard()
}

func (p *session) listMoves() {
	pos := p.pos
	var ml env.MoveList
	pos.LegalMoves(&ml)
	if ml.N == 0 {
		p.printf("No legal moves.\n")
		return
	}
	sans := make([]string, 0, ml.N)
	for _, m := range ml.Slice() {
		sans = append(sans, pos.SANWithBoard(m))
	}
	p.printf("%d legal moves: %s\n", ml.N, strings.Join(sans, " "))
}

func (p *session) save(path string) {
	if path == "" {
		p.printf("save: name a file, e.g. save game.pgn\n")
		return
	}
	g := env.GameOf(p.pos)
	g.Result = p.pos.Outcome(p.pos.Status())
	g.SetTag("Event", "AliceZero play")
	g.SetTag("Date", time.Now().Format("2006.01.02"))
	white, black := "You", "AliceZero"
	if p.user == env.Black {
		white, black = black, white
	}
	g.SetTag("White", white)
	g.SetTag("Black", black)
	var b strings.Builder
	if err := env.WritePGN(&b, g); err != nil {
		p.printf("save: %v\n", err)
		return
	}
	if err := fileutil.WriteAtomic(path, []byte(b.String())); err != nil {
		p.printf("save: %v\n", err)
		return
	}
	p.printf("Saved the game to %s.\n", path)
}

// announce tells the user how the game ended.
func (p *session) announce(pos *env.Position, st env.Status) {
	p.announced = true
	res := pos.Outcome(st)
	var msg string
	switch st {
	case env.Checkmate:
		winner := pos.SideToMove().Other()
		who := "AliceZero wins"
		if winner == p.user {
			who = "you win"
		}
		msg = fmt.Sprintf("Checkmate: %s wins (%s), %s.", colourName(winner), res, who)
	case env.Stalemate:
		msg = fmt.Sprintf("Stalemate: a draw (%s).", res)
	case env.Threefold:
		msg = fmt.Sprintf("Draw by threefold repetition (%s).", res)
	case env.FiftyMove:
		msg = fmt.Sprintf("Draw by the fifty-move rule (%s).", res)
	case env.DeadPosition:
		msg = fmt.Sprintf("Draw: only the two kings are left (%s).", res)
	default:
		msg = fmt.Sprintf("Game over: %s (%s).", st, res)
	}
	p.printf("*** %s ***\nType new for another game, undo to take back, save FILE to keep it, or quit.\n", msg)
}

// variantLine says what the variant's boards and moves are, with the
// notation of its own moves.
func variantLine(v env.Variant) string {
	switch v {
	case env.AliceEP:
		return "two boards, every moved piece passes to the other board, en passant allowed"
	case env.AliceBlackB:
		return "two boards, Black's army starts on board B, every moved piece passes to the other board"
	case env.AliceNull:
		return "two boards, every moved piece passes to the other board; a piece may also pass to its own square of the other board (a null move: e4e4, or Qd1/B)"
	case env.AliceOptionalTransfer:
		return "two boards, every moved piece passes to the other board unless its landing square there is taken: then it stays"
	case env.AliceStone:
		return "two boards, Black starts on B; a moved piece passes to the other board or stays (e2e4/a), and a null move (d1d1) may capture"
	case env.AliceMini:
		return "two boards of 4 files, every moved piece passes to the other board"
	case env.Alice3:
		return "three boards, every moved piece passes to the board you name (e2e4/b or e2e4/c; SAN e4/B)"
	}
	return "two boards, every moved piece passes to the other board"
}

func colourName(c env.Colour) string {
	if c == env.White {
		return "White"
	}
	return "Black"
}

// unicodePieces are the pieces' symbols by Piece (White's, then Black's).
const unicodePieces = "♙♘♗♖♕♔♟♞♝♜♛♚"

// printBoard draws the variant's boards side by side (A, B and in alice-3
// C, left to right), each man on the board it stands on, with the last
// move's from-square on the board it left and its to-square on the board it
// ended on in brackets: one board for a move that stays on its board, the
// same square on two boards for a null move.
func (p *session) printBoard() {
	pos := p.pos
	var b strings.Builder
	hlFrom, hlTo := env.NoSquare, env.NoSquare
	var fromB, toB env.Board
	lastMove := ""
	if m := pos.LastMove(); m != env.NoMove {
		before := pos.Clone()
		before.UnmakeMove()
		fromB, toB = before.MoveBoards(m)
		hlFrom, hlTo = m.From(), m.To()
		lastMove = "Last move: " + before.UCI(m)
		switch {
		case m.IsNull():
			lastMove += fmt.Sprintf(" (a null move, board %v to board %v).  ", fromB, toB)
		case fromB == toB:
			lastMove += fmt.Sprintf(" (stays on board %v).  ", fromB)
		default:
			lastMove += fmt.Sprintf(" (board %v to board %v).  ", fromB, toB)
		}
	}
	// The variant's files: a–h, or a–d in alice-mini.
	n := pos.Variant().Files()
	boards := pos.Variant().Boards()
	files := make([]int, n)
	for f := range n {
		files[f] = f
	}
	ranks := []int{7, 6, 5, 4, 3, 2, 1, 0}
	if p.flipped {
		for f := range n {
			files[f] = n - 1 - f
		}
		ranks = []int{0, 1, 2, 3, 4, 5, 6, 7}
	}
	fileLine := ""
	for _, f := range files {
		fileLine += " " + string(rune('a'+f)) + " "
	}
	const gap = "     " // between two boards
	// Each board's name centred over its files; board A has its rank
	// numbers on the left, the last board on the right.
	names, fileLines := "  ", "  "
	for board := range boards {
		if board > 0 {
			names += strings.Repeat(" ", 2+board*(3*n+len(gap))-len(names))
			fileLines += gap
		}
		names += strings.Repeat(" ", (3*n-7)/2) + "Board " + env.Board(board).String()
		fileLines += fileLine
	}
	b.WriteString(names + "\n" + fileLines + "\n")
	pieces := []rune(unicodePieces)
	for _, r := range ranks {
		fmt.Fprintf(&b, "%d ", r+1)
		for board := env.BoardA; int(board) < boards; board++ {
			if board > env.BoardA {
				b.WriteString(gap)
			}
			for _, f := range files {
				sq := env.SquareAt(f, r)
				glyph := "·"
				if p.ascii {
					glyph = "."
				}
				if pc := pos.PieceOn(sq, board); pc != env.NoPiece {
					if p.ascii {
						glyph = string(pc.Letter())
					} else {
						glyph = string(pieces[pc])
					}
				}
				if (sq == hlFrom && board == fromB) || (sq == hlTo && board == toB) {
					b.WriteString("[" + glyph + "]")
				} else {
					b.WriteString(" " + glyph + " ")
				}
			}
		}
		fmt.Fprintf(&b, " %d\n", r+1)
	}
	b.WriteString(fileLines + "\n")
	fmt.Fprintf(&b, "%s%s to move.\n", lastMove, colourName(pos.SideToMove()))
	p.printf("%s", b.String())
}
