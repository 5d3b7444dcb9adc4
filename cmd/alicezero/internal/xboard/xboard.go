// Package xboard speaks the XBoard/WinBoard protocol (CECP version 2) to
// a GUI for an engine, showing Alice Chess as engine-defined variants on
// one board with both Alice boards side by side (see package board16 for
// the notation).
//
// XBoard knows no Alice Chess, but it lets an engine define a variant: on
// "variant NAME" the engine answers with a setup command that sizes the
// board and sets up the men. The variants are the rule book's, by their
// names (env.Variants): alice, alice-ep, alice-black-b, alice-null,
// alice-optional-transfer and alice-stone on a board of 16 files (a–h
// board A, i–p board B), alice-mini on one of 8 (a–d board A, e–h board
// B). Their special moves are ordinary XBoard moves there: a null move
// goes from a square of one half to the same square of the other (e4m4),
// a move that stays on its board stays in its half (e2e4), two men on one
// square of different boards stand on two XBoard squares. alice-3 is not
// offered and its variant command is answered "Error (unsupported
// variant)": three boards of 8 files side by side need 24 files, and
// XBoard's board has at most 16 files and 16 ranks (board16.LayoutOf).
// The feature command's variants list names the variants XBoard can show;
// a variant command for one the engine cannot play (weights trained for
// another variant) is refused with the engine's reason. Before its first
// move, and whenever what plays changes (a variant with a built-in network
// of its own, option Weights), the engine says who plays in a debug line:
// "# playing with ...".
//
// XBoard must run with legality testing off (-testLegality false): it
// does not know the rules, so the engine checks every move, marks the
// legal destinations of a man the user picks up (the highlight feature)
// and announces the results.
//
// The loop keeps the game (the position set up last, with the moves
// played since) and drives an engine.Interface with it: package engine's
// Engine in the alicezero binary, enginetest's fake in this package's
// tests.
//
//	e, err := engine.New(engine.Options{Weights: "checkpoints/run1"})
//	...
//	err = xboard.Run(ctx, e, os.Stdin, os.Stdout, xboard.Options{})
//
// Searches run on a goroutine of their own, so that "?" (move now), ping,
// force and the clock commands are answered while the engine thinks. Bad
// input is answered with "Error (...)" or "Illegal move"; the engine stays
// up. A line over 1 MiB is refused the same way. When the input ends while
// the engine thinks, it plays its best move so far before it exits.
package xboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/conc/panics"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/board16"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/lines"
	"github.com/alicezero/alicezero/internal/task"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// Shown returns the variants XBoard can show (board16.LayoutOf): every
// variant but alice-3.
func Shown() []env.Variant {
	var vs []env.Variant
	for _, v := range env.Variants() {
		if _, err := board16.LayoutOf(v); err == nil {
			vs = append(vs, v)
		}
	}
	return vs
}

// Offered returns the names of the variants the feature command lists:
// those XBoard can show.
func Offered() []string {
	var names []string
	for _, v := range Shown() {
		names = append(names, v.Name)
	}
	return names
}

// The setup command's piece-to-character tables. In Pieces the king's
// letter K names XBoard's commoner (a non-royal king, drawn as a crown
// without a cross), not its king: XBoard takes every king move along a
// rank by more than one file for castling and moves the nearest piece
// beside the king, and in these coordinates every sideways king step (Kd1
// from e1 is e1l1) is such a move. The price: castling is shown as the
// king's move only, the rook stays where it was in XBoard's picture.
// PiecesRoyal (Options.RoyalKing) makes the other trade.
const (
	Pieces      = "(PNBRQ.....K.pnbrq.....k.)"
	PiecesRoyal = "(PNBRQKpnbrqk)"
)

// Options configure the conversation.
type Options struct {
	// RoyalKing shows the kings as XBoard kings (PiecesRoyal): castling
	// is drawn right, but every sideways king step is drawn as a
	// castling.
	RoyalKing bool
}

// hintVisits bounds the search of a hint (for the alpha-beta, as long a
// search: engine.VisitNodes).
const hintVisits = 400

// Run speaks CECP on in and out until quit, the end of in or the end of
// ctx. It returns an error only when reading in fails.
func Run(ctx context.Context, e engine.Interface, in io.Reader, out io.Writer, opts Options) error {
	x := &session{e: e, pos: env.NewPosition(e.Options().Variant), out: lines.NewWriter(out), engineSide: env.Black, pieces: Pieces}
	if opts.RoyalKing {
		x.pieces = PiecesRoyal
	}
	x.search.Panicked = func(err error) { x.out.Printf("# internal error: %s", oneLine(err.Error())) }
	input := lines.Read(in, lines.DefaultMax)
	defer input.Close()
	for {
		select {
		case <-ctx.Done():
			x.stopSearch(true)
			return nil
		case l, ok := <-input.C:
			switch {
			case !ok:
				x.stopSearch(false) // the input ended: a move being thought of is played
				return nil
			case l.Err != nil:
				x.stopSearch(true)
				return l.Err
			case l.TooLong:
				x.out.Printf("Error (line too long: %d bytes, the limit is %d): %s", l.Len, lines.DefaultMax, lines.Clip(l.Text))
			default:
				if quit := x.handle(ctx, l.Text); quit {
					x.stopSearch(true)
					return nil
				}
			}
		}
	}
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// session is one CECP conversation.
type session struct {
	e engine.Interface
	// pos is the game: the position set up last, the moves since its
	// history. A search's goroutine plays its move into it; the loop
	// leaves it alone while a search runs.
	pos    *env.Position
	out    *lines.Writer
	search task.Runner
	pieces string // the setup command's piece table
	// discard, set before a search is stopped, makes it end without
	// playing its move (force, new, undo... while thinking).
	discard atomic.Bool
	post    atomic.Bool
	// announced is the engine's Network() said last ("# playing with").
	announced string

	force      bool
	engineSide env.Colour
	invalid    string // why the position set up last is unusable; "" when fine
	// The square the GUI lifted a piece from last (see highlight).
	lifted    board16.Square
	liftedSet bool

	// Time control: level MPS BASE INC, st, and the clocks from time/otim.
	tc        clock.Control
	st        time.Duration
	depth     int // sd: the deepest iteration, 0 for none
	myTime    time.Duration
	oppTime   time.Duration
	haveClock bool
}

// stopSearch ends a search in progress: discarding its move, or (for "?")
// letting it play the best move found so far.
func (x *session) stopSearch(discard bool) {
	if discard {
		x.discard.Store(true)
	}
	x.search.Stop()
	x.discard.Store(false)
}

// handle runs one command line and reports whether it was quit.
func (x *session) handle(ctx context.Context, line string) bool {
	line = strings.TrimSpace(line)
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	cmd, args := f[0], f[1:]
	arg := strings.TrimSpace(strings.TrimPrefix(line, cmd))

	// Commands that leave a search running.
	switch cmd {
	case "xboard", "accepted", "rejected", "random", "computer", "name", "rating", "ics", "easy", "hard", "draw", ".", "exit", "pause", "resume", "white", "black":
		return false // nothing to do for this engine
	case "post":
		x.post.Store(true)
		return false
	case "nopost":
		x.post.Store(false)
		return false
	case "bk":
		x.out.Printf(" AliceZero has no opening book")
		x.out.Printf("")
		return false
	case "time", "otim":
		cs, err := strconv.Atoi(arg)
		if err != nil {
			x.out.Printf("Error (bad argument): %s", lines.Clip(line))
			return false
		}
		d := time.Duration(max(cs, 1)) * 10 * time.Millisecond
		if cmd == "time" {
			x.myTime = d
			x.haveClock = true
		} else {
			x.oppTime = d
		}
		return false
	case "?":
		x.stopSearch(false) // move now
		return false
	case "ping":
		x.search.Wait() // the pong follows the move being made
		x.out.Printf("pong %s", lines.Clip(arg))
		return false
	case "quit":
		return true
	case "lift":
		if !x.search.Running() {
			x.highlight(arg)
		}
		return false
	case "put", "hover":
		return false
	}

	// Every other command needs the engine: a search in progress ends
	// without moving.
	x.stopSearch(true)
	switch cmd {
	case "protover":
		x.features()
	case "new":
		x.e.NewGame()
		x.pos = env.NewPosition(x.e.Options().Variant)
		x.force, x.engineSide, x.invalid = false, env.Black, ""
		x.haveClock, x.myTime, x.oppTime = false, 0, 0
		x.depth = 0 // CECP: new removes the sd limit
	case "variant":
		x.variant(arg)
	case "force":
		x.force = true
	case "go":
		if x.invalid != "" {
			x.out.Printf("Error (command not legal now): go (%s)", x.invalid)
			return false
		}
		x.force = false
		x.engineSide = x.pos.SideToMove()
		x.think(ctx)
	case "playother":
		x.force = false
		x.engineSide = x.pos.SideToMove().Other()
	case "usermove":
		x.userMove(ctx, arg)
	case "setboard":
		x.setBoard(arg)
	case "undo", "remove":
		n := 1
		if cmd == "remove" {
			n = 2
		}
		if x.pos.Ply() < n {
			x.out.Printf("Error (command not legal now): %s", cmd)
			return false
		}
		for range n {
			x.pos.UnmakeMove()
		}
	case "result":
		x.force = true
	case "level":
		x.level(line, args)
	case "st":
		st, err := clock.ParseTime("st", arg, time.Second)
		if err != nil {
			x.out.Printf("Error (bad argument): %s", lines.Clip(line))
			return false
		}
		x.st = st
	case "sd":
		// A depth bound for the alpha-beta (clock.Limits.Depth), beside
		// the time control; a tree search has no depth and ignores it.
		d, err := strconv.Atoi(arg)
		if err != nil || d < 0 {
			x.out.Printf("Error (bad argument): %s", lines.Clip(line))
			return false
		}
		x.depth = d
	case "nps":
		// Node-rate time controls are not supported; the time control
		// still holds.
	case "memory":
		x.setOption(line, func(o *engine.Options) error {
			mb, err := strconv.Atoi(arg)
			o.HashMB = max(1, min(mb, engine.MaxHashMB))
			return err
		})
	case "cores":
		x.setOption(line, func(o *engine.Options) error {
			n, err := strconv.Atoi(arg)
			o.Threads = max(1, min(n, engine.MaxThreads))
			return err
		})
	case "option":
		x.option(line, arg)
	case "hint":
		x.hint(ctx)
	default:
		// Protocol 1 sends moves without the usermove command.
		if len(f) == 1 && board16.LooksLikeMove(cmd) {
			x.userMove(ctx, cmd)
			return false
		}
		x.out.Printf("Error (unknown command): %s", lines.Clip(cmd))
	}
	return false
}

func (x *session) features() {
	o := x.e.Options()
	x.out.Printf(`feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=0 colors=0 ics=0 name=0 pause=0 nps=0 memory=1 smp=1 highlight=1 myname="AliceZero" variants="%s"`, strings.Join(Offered(), ","))
	x.out.Printf(`feature option="Weights -file %s"`, o.Weights)
	x.out.Printf(`feature option="Visits -spin %d 1 %d"`, o.Visits, engine.MaxVisits)
	x.out.Printf("feature done=1")
}

// variant answers "variant NAME": the engine switches to the rule set
// (a new game) and XBoard is sent the board and the men. A variant XBoard
// cannot show, or the engine cannot play, is refused, with a comment
// saying why.
func (x *session) variant(name string) {
	refuse := func(why string) {
		x.out.Printf("Error (unsupported variant): %s", lines.Clip(name))
		x.out.Printf("# %s", oneLine(why))
	}
	v, err := env.VariantByName(name)
	if err != nil {
		refuse("unknown variant; the known ones are " + strings.Join(env.VariantNames(), ", "))
		return
	}
	l, err := board16.LayoutOf(v)
	if err != nil {
		refuse(err.Error())
		return
	}
	if o := x.e.Options(); o.Variant != v {
		o.Variant = v
		if err := x.e.SetOptions(o); err != nil {
			refuse(err.Error())
			return
		}
		if err := x.e.Ready(); err != nil {
			x.out.Printf("tellusererror %s", oneLine(err.Error()))
		}
	}
	x.e.NewGame()
	x.pos = env.NewPosition(v)
	x.invalid, x.liftedSet = "", false
	x.out.Printf("setup %s %s %s", x.pieces, l.Geometry(), board16.FEN(x.pos))
}

// setOption changes the engine's options with f, reporting a bad value.
func (x *session) setOption(line string, f func(o *engine.Options) error) {
	o := x.e.Options()
	if err := f(&o); err != nil {
		x.out.Printf("Error (bad argument): %s", lines.Clip(line))
		return
	}
	if err := x.e.SetOptions(o); err != nil {
		x.out.Printf("Error (%v): %s", err, lines.Clip(line))
	}
}

func (x *session) option(line, arg string) {
	name, value, _ := strings.Cut(arg, "=")
	switch strings.TrimSpace(name) {
	case "Weights":
		x.setOption(line, func(o *engine.Options) error {
			o.Weights, o.Network = strings.TrimSpace(value), nil
			return nil
		})
		if err := x.e.Ready(); err != nil {
			x.out.Printf("tellusererror %s", oneLine(err.Error()))
		}
	case "Visits":
		x.setOption(line, func(o *engine.Options) error {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err == nil && (n < 1 || n > engine.MaxVisits) {
				err = errors.New("out of range")
			}
			o.Visits = n
			return err
		})
	default:
		x.out.Printf("Error (unknown option): %s", lines.Clip(line))
	}
}

// level reads "level MPS BASE INC" (clock.ParseLevel): BASE in minutes or
// minutes:seconds, INC in seconds.
func (x *session) level(line string, args []string) {
	if len(args) != 3 {
		x.out.Printf("Error (bad argument): %s", lines.Clip(line))
		return
	}
	tc, err := clock.ParseLevel(args[0], args[1], args[2])
	if err != nil {
		x.out.Printf("Error (bad argument): %s", lines.Clip(line))
		return
	}
	x.tc, x.st = tc, 0
}

// limits turns the time control into the search's limits.
func (x *session) limits(pos *env.Position) clock.Limits {
	lim := x.timeLimits(pos)
	lim.Depth = x.depth
	return lim
}

// timeLimits is limits without the depth bound.
func (x *session) timeLimits(pos *env.Position) clock.Limits {
	var lim clock.Limits
	if x.st > 0 {
		lim.MoveTime = x.st
		return lim
	}
	// The GUI keeps the clocks and reads them out (time, otim) before the
	// engine's move; without them, both sides have the base.
	my, opp := x.myTime, x.oppTime
	if !x.haveClock {
		my, opp = x.tc.Base, x.tc.Base
	}
	if my <= 0 {
		return lim // no time control: the engine's visits
	}
	if opp <= 0 {
		opp = my
	}
	clk := clock.NewGame(x.tc, x.tc)
	clk.Set(x.engineSide, my)
	clk.Set(x.engineSide.Other(), opp)
	lim = clk.Limits(x.engineSide, 0)
	lim.MovesToGo = x.tc.MovesToGo(pos.FullmoveNumber() - 1)
	return lim
}

func (x *session) userMove(ctx context.Context, s string) {
	if x.invalid != "" {
		x.out.Printf("Illegal move (%s): %s", x.invalid, lines.Clip(s))
		return
	}
	if st := x.pos.Status(); st.IsOver() {
		x.out.Printf("Illegal move (the game is over: %s): %s", st, lines.Clip(s))
		return
	}
	m, err := board16.ParseMove(x.pos, s) // a legal move, or an error
	if err != nil {
		x.out.Printf("Illegal move: %s", lines.Clip(s))
		x.out.Printf("# %s", lines.Clip(oneLine(err.Error())))
		return
	}
	x.pos.MakeMove(m)
	x.liftedSet = false
	if x.announceEnd() {
		return
	}
	if !x.force && x.pos.SideToMove() == x.engineSide {
		x.think(ctx)
	}
}

// announceEnd sends the result line if the game is over by rule.
func (x *session) announceEnd() bool {
	st := x.pos.Status()
	if !st.IsOver() {
		return false
	}
	x.out.Printf("%s", ResultLine(x.pos, st))
	return true
}

// ResultLine writes the result command for a finished game.
func ResultLine(pos *env.Position, st env.Status) string {
	res := pos.Outcome(st).String()
	switch st {
	case env.Checkmate:
		if pos.SideToMove() == env.White {
			return res + " {Black mates}"
		}
		return res + " {White mates}"
	case env.Stalemate:
		return res + " {Stalemate}"
	case env.Threefold:
		return res + " {Draw by repetition}"
	case env.FiftyMove:
		return res + " {Draw by fifty move rule}"
	case env.DeadPosition:
		return res + " {Insufficient material: only the kings are left}"
	}
	return res + " {" + st.String() + "}"
}

// think starts a search whose move is played and sent when it ends.
func (x *session) think(ctx context.Context) {
	if x.announceEnd() {
		return
	}
	if n := x.e.Network(); n != x.announced {
		// Who plays, once each time it changes (a variant with a network
		// of its own, Weights): a debug line the GUI shows in its log.
		x.out.Printf("# playing with %s", oneLine(n))
		x.announced = n
	}
	pos := x.pos.Clone() // the search's; the game stays the loop's
	lim := x.limits(pos)
	x.discard.Store(false)
	x.search.Start(ctx, func(ctx context.Context) {
		var res mcts.Result
		if p := panics.Try(func() { res = x.search1(ctx, pos, lim) }); p != nil {
			x.out.Printf("# internal error: %s", oneLine(fmt.Sprint(p.Value)))
		}
		if x.discard.Load() {
			return
		}
		var ml env.MoveList
		pos.LegalMoves(&ml)
		if !ml.Contains(res.BestMove) {
			if ml.N == 0 {
				x.announceEnd()
				return
			}
			res.BestMove = ml.Moves[0] // the engine failed: a legal move all the same
		}
		legs := board16.MoveLegs(pos, res.BestMove)
		x.pos.MakeMove(res.BestMove) // pos is x.pos as it stands: nothing changed it meanwhile
		for _, leg := range legs {
			x.out.Printf("move %s", leg)
		}
		x.announceEnd()
	})
}

// search1 runs one search of pos, writing thinking output when posting.
func (x *session) search1(ctx context.Context, pos *env.Position, lim clock.Limits) mcts.Result {
	scratch := pos.Clone()
	report := func(in mcts.Info) {
		if x.post.Load() {
			x.out.Printf("%s", ThinkingLine(scratch, in))
		}
	}
	res, err := x.e.Go(ctx, env.GameOf(pos), lim, mcts.Progress{Report: report, Interval: time.Second})
	if err != nil && !errors.Is(err, engine.ErrNoLegalMove) {
		x.out.Printf("# %s", oneLine(err.Error()))
	}
	return res
}

// ThinkingLine writes a progress report as CECP thinking output: depth,
// score in centipawns (mates as ±(100000+N)), time in centiseconds, nodes
// and the PV in the 16×8 coordinates.
func ThinkingLine(pos *env.Position, in mcts.Info) string {
	score := engine.Centipawns(in.Value)
	switch {
	case in.MateIn > 0:
		score = 100000 + in.MateIn
	case in.MateIn < 0:
		score = -100000 + in.MateIn
	}
	return fmt.Sprintf("%d %d %d %d %s", max(in.Depth, 1), score, in.Elapsed.Milliseconds()/10, in.Nodes, board16.Line(pos, in.PV))
}

func (x *session) hint(ctx context.Context) {
	if x.invalid != "" {
		return
	}
	pos := x.pos
	var res mcts.Result
	lim := clock.Limits{Nodes: engine.VisitNodes(x.e.SearchKind(), int64(min(x.e.Options().Visits, hintVisits)))}
	if p := panics.Try(func() { res, _ = x.e.Go(ctx, env.GameOf(pos), lim, mcts.Progress{}) }); p != nil {
		x.out.Printf("# internal error: %s", oneLine(fmt.Sprint(p.Value)))
		return
	}
	var ml env.MoveList
	pos.LegalMoves(&ml)
	if ml.Contains(res.BestMove) {
		x.out.Printf("Hint: %s", board16.Move(pos, res.BestMove))
	}
}

func (x *session) setBoard(fen string) {
	v := x.pos.Variant()
	pfen, err := board16.ParseFEN(fen, v)
	var pos *env.Position
	if err == nil {
		if pos, err = env.ParseFEN(pfen, v); err != nil {
			err = fmt.Errorf("position: %w", err)
		}
	}
	if err != nil {
		x.invalid = "illegal position"
		x.out.Printf("tellusererror Illegal position: %s", clipFENs(oneLine(err.Error()), fen, pfen))
		return
	}
	x.pos, x.invalid = pos, ""
}

// clipFENs shortens, in an error message, the quoted FENs it echoes (the
// GUI's, which may be long, and the project's reading of it), leaving the
// reason after them whole.
func clipFENs(msg string, fens ...string) string {
	for _, f := range fens {
		if f != "" {
			msg = strings.ReplaceAll(msg, strconv.Quote(f), strconv.Quote(lines.Clip(f)))
		}
	}
	return msg
}
