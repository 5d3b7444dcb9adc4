package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/train/engine"
)

// XBoard knows no Alice Chess, but it lets an engine define a variant: on
// "variant alice" the engine answers with a setup command that makes the
// board 16 files wide. Files a–h are board A and files i–p board B, so a
// piece on e4 of board B stands on m4. Moves and positions travel in these
// coordinates: 1. e4 is "e2m4" (the pawn leaves e2 of A and lands on e4 of
// B), and a move from a square of B starts on files i–p. A capture travels
// in two legs, through the victim's square (see xbMoveLegs). XBoard must
// run with legality testing off (-testLegality false): it does not know
// the rules, so the engine checks every move, marks the legal
// destinations of a piece the user picks up (see highlight) and announces
// the results.

// xbVariant is the engine-defined variant's name in XBoard.
const xbVariant = "alice"

// xbPieces is the setup command's piece-to-character table. The king's
// letter K names XBoard's commoner (a non-royal king, drawn as a crown
// without a cross), not its king: XBoard takes every king move along a
// rank by more than one file for castling and moves the nearest piece
// beside the king, and in these coordinates every sideways king step
// (Kd1 from e1 is e1l1) is such a move. The price: castling is shown as
// the king's move only, the rook stays where it was in XBoard's picture.
// xbPiecesRoyal (--royal-king) makes the other trade.
const (
	xbPieces      = "(PNBRQ.....K.pnbrq.....k.)"
	xbPiecesRoyal = "(PNBRQKpnbrqk)"
)

func runXboard(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("xboard", "", stderr)
	weights := fs.String("weights", "", "checkpoint file or run folder (default: no network, a plain search)")
	threads := fs.Int("threads", 1, "search threads")
	visits := fs.Int("visits", engine.DefaultVisits, "visits per move when the GUI sets no time control")
	royal := fs.Bool("royal-king", false, "show the kings as XBoard kings: castling is drawn right, but XBoard then draws every sideways king step as a castling")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: alicezero xboard [flags]\n\nSpeaks the XBoard/WinBoard protocol (CECP v2) on standard input and output,\nAlice Chess as the engine-defined variant %q on a 16x8 board (files a-h:\nboard A, i-p: board B). Run XBoard with -testLegality false.\n\nFlags:\n", xbVariant)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	e, err := engine.New(engine.Options{Weights: *weights, Threads: *threads, Visits: *visits})
	if err != nil {
		return err
	}
	defer e.Close()
	x := &xbSession{e: e, out: &lineWriter{w: stdout}, engineSide: env.Black, pieces: xbPieces}
	if *royal {
		x.pieces = xbPiecesRoyal
	}
	return x.run(ctx, stdin)
}

// xbSession is one CECP conversation.
type xbSession struct {
	e      *engine.Engine
	out    *lineWriter
	search searchTask
	pieces string // the setup command's piece table
	// discard, set before a search is stopped, makes it end without
	// playing its move (force, new, undo... while thinking).
	discard atomic.Bool
	post    atomic.Bool

	force      bool
	engineSide env.Colour
	invalid    string // why the position set up last is unusable; "" when fine
	// The square the GUI lifted a piece from last (see highlight).
	lifted    xbSq
	liftedSet bool

	// Time control: level MPS BASE INC, st, and the clocks from time/otim.
	mps       int
	base, inc time.Duration
	st        time.Duration
	myTime    time.Duration
	oppTime   time.Duration
	haveClock bool
}

func (x *xbSession) run(ctx context.Context, stdin io.Reader) error {
	done := make(chan struct{})
	defer close(done)
	lines := readLines(stdin, done)
	defer x.stopSearch(true)
	for {
		var line string
		var ok bool
		select {
		case line, ok = <-lines:
		case <-ctx.Done():
			return nil
		}
		if !ok {
			return nil
		}
		if quit := x.handle(ctx, line); quit {
			return nil
		}
	}
}

// stopSearch ends a search in progress: discarding its move, or (for "?")
// letting it play the best move found so far.
func (x *xbSession) stopSearch(discard bool) {
	if discard {
		x.discard.Store(true)
	}
	x.search.stop()
	x.discard.Store(false)
}

// handle runs one command line and reports whether it was quit.
func (x *xbSession) handle(ctx context.Context, line string) bool {
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
		x.out.printf(" AliceZero has no opening book")
		x.out.printf("")
		return false
	case "time", "otim":
		cs, err := strconv.Atoi(arg)
		if err != nil {
			x.out.printf("Error (bad argument): %s", line)
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
		x.search.wait() // the pong follows the move being made
		x.out.printf("pong %s", arg)
		return false
	case "quit":
		return true
	case "lift":
		if !x.search.running() {
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
		x.force, x.engineSide, x.invalid = false, env.Black, ""
		x.haveClock, x.myTime, x.oppTime = false, 0, 0
	case "variant":
		if arg != xbVariant {
			x.out.printf("Error (unsupported variant): %s", arg)
			return false
		}
		x.e.NewGame()
		x.invalid = ""
		x.out.printf("setup %s 16x8+0_fairy %s", x.pieces, fen16(x.e.Position()))
	case "force":
		x.force = true
	case "go":
		if x.invalid != "" {
			x.out.printf("Error (command not legal now): go (%s)", x.invalid)
			return false
		}
		x.force = false
		x.engineSide = x.e.Position().SideToMove()
		x.think(ctx)
	case "playother":
		x.force = false
		x.engineSide = x.e.Position().SideToMove().Other()
	case "usermove":
		x.userMove(ctx, arg)
	case "setboard":
		x.setBoard(arg)
	case "undo", "remove":
		n := 1
		if cmd == "remove" {
			n = 2
		}
		if x.e.Position().Ply() < n {
			x.out.printf("Error (command not legal now): %s", cmd)
			return false
		}
		for range n {
			x.e.Undo()
		}
	case "result":
		x.force = true
	case "level":
		x.level(line, args)
	case "st":
		s, err := strconv.ParseFloat(arg, 64)
		if err != nil || s < 0 || s > 1e6 {
			x.out.printf("Error (bad argument): %s", line)
			return false
		}
		x.st = time.Duration(s * float64(time.Second))
	case "sd", "nps":
		// A depth bound means nothing to a tree search; the time control
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
		if len(f) == 1 && looksLikeXBMove(cmd) {
			x.userMove(ctx, cmd)
			return false
		}
		x.out.printf("Error (unknown command): %s", cmd)
	}
	return false
}

func (x *xbSession) features() {
	o := x.e.Options()
	x.out.printf(`feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=0 colors=0 ics=0 name=0 pause=0 nps=0 memory=1 smp=1 highlight=1 myname="AliceZero" variants="%s"`, xbVariant)
	x.out.printf(`feature option="Weights -file %s"`, o.Weights)
	x.out.printf(`feature option="Visits -spin %d 1 %d"`, o.Visits, uciMaxVisits)
	x.out.printf("feature done=1")
}

// setOption changes the engine's options with f, reporting a bad value.
func (x *xbSession) setOption(line string, f func(o *engine.Options) error) {
	o := x.e.Options()
	if err := f(&o); err != nil {
		x.out.printf("Error (bad argument): %s", line)
		return
	}
	if err := x.e.SetOptions(o); err != nil {
		x.out.printf("Error (%v): %s", err, line)
	}
}

func (x *xbSession) option(line, arg string) {
	name, value, _ := strings.Cut(arg, "=")
	switch strings.TrimSpace(name) {
	case "Weights":
		x.setOption(line, func(o *engine.Options) error {
			o.Weights = strings.TrimSpace(value)
			return nil
		})
		if err := x.e.Ready(); err != nil {
			x.out.printf("tellusererror %s", oneLine(err.Error()))
		}
	case "Visits":
		x.setOption(line, func(o *engine.Options) error {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err == nil && (n < 1 || n > uciMaxVisits) {
				err = errors.New("out of range")
			}
			o.Visits = n
			return err
		})
	default:
		x.out.printf("Error (unknown option): %s", line)
	}
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// level reads "level MPS BASE INC": BASE in minutes or minutes:seconds,
// INC in seconds.
func (x *xbSession) level(line string, args []string) {
	bad := func() { x.out.printf("Error (bad argument): %s", line) }
	if len(args) != 3 {
		bad()
		return
	}
	mps, err := strconv.Atoi(args[0])
	if err != nil || mps < 0 {
		bad()
		return
	}
	var base time.Duration
	if m, s, ok := strings.Cut(args[1], ":"); ok {
		mi, err1 := strconv.Atoi(m)
		se, err2 := strconv.Atoi(s)
		if err1 != nil || err2 != nil || mi < 0 || se < 0 {
			bad()
			return
		}
		base = time.Duration(mi)*time.Minute + time.Duration(se)*time.Second
	} else {
		mi, err := strconv.ParseFloat(args[1], 64)
		if err != nil || mi < 0 || mi > 1e6 {
			bad()
			return
		}
		base = time.Duration(mi * float64(time.Minute))
	}
	inc, err := strconv.ParseFloat(args[2], 64)
	if err != nil || inc < 0 || inc > 1e6 {
		bad()
		return
	}
	x.mps, x.base, x.inc, x.st = mps, base, time.Duration(inc*float64(time.Second)), 0
}

// limits turns the time control into the search's limits.
func (x *xbSession) limits(pos *env.Position) clock.Limits {
	var lim clock.Limits
	if x.st > 0 {
		lim.MoveTime = x.st
		return lim
	}
	my, opp := x.myTime, x.oppTime
	if !x.haveClock {
		my, opp = x.base, x.base
	}
	if my <= 0 {
		return lim // no time control: the engine's visits
	}
	if opp <= 0 {
		opp = my
	}
	if x.engineSide == env.White {
		lim.WTime, lim.BTime, lim.WInc, lim.BInc = my, opp, x.inc, x.inc
	} else {
		lim.WTime, lim.BTime, lim.WInc, lim.BInc = opp, my, x.inc, x.inc
	}
	if x.mps > 0 {
		lim.MovesToGo = x.mps - (pos.FullmoveNumber()-1)%x.mps
	}
	return lim
}

func (x *xbSession) userMove(ctx context.Context, s string) {
	if x.invalid != "" {
		x.out.printf("Illegal move (%s): %s", x.invalid, s)
		return
	}
	pos := x.e.Position()
	if st := pos.Status(); st.IsOver() {
		x.out.printf("Illegal move (the game is over: %s): %s", st, s)
		return
	}
	m, err := parseXBMove(pos, s)
	if err != nil {
		x.out.printf("Illegal move: %s", s)
		x.out.printf("# %s", oneLine(err.Error()))
		return
	}
	if err := x.e.Play(m); err != nil {
		x.out.printf("Illegal move: %s", s)
		return
	}
	x.liftedSet = false
	if x.announceEnd() {
		return
	}
	if !x.force && x.e.Position().SideToMove() == x.engineSide {
		x.think(ctx)
	}
}

// announceEnd sends the result line if the game is over by rule.
func (x *xbSession) announceEnd() bool {
	pos := x.e.Position()
	st := pos.Status()
	if !st.IsOver() {
		return false
	}
	x.out.printf("%s", xbResultLine(pos, st))
	return true
}

// xbResultLine writes the result command for a finished game.
func xbResultLine(pos *env.Position, st env.Status) string {
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
func (x *xbSession) think(ctx context.Context) {
	if x.announceEnd() {
		return
	}
	pos := x.e.Position()
	lim := x.limits(pos)
	x.discard.Store(false)
	x.search.start(ctx, func(ctx context.Context) {
		scratch := pos.Clone()
		info := func(in mcts.Info) {
			if x.post.Load() {
				x.out.printf("%s", xbThinkingLine(scratch, in))
			}
		}
		res, err := goSafely(ctx, x.e, pos, lim, mcts.Progress{Report: info, Interval: time.Second})
		if x.discard.Load() {
			return
		}
		if err != nil && res.BestMove == env.NoMove {
			x.announceEnd()
			return
		}
		if err != nil {
			x.out.printf("# %s", oneLine(err.Error()))
		}
		legs := xbMoveLegs(pos, res.BestMove)
		if err := x.e.Play(res.BestMove); err != nil {
			x.out.printf("# %s", oneLine(err.Error())) // cannot happen: Go returns legal moves
			return
		}
		for _, leg := range legs {
			x.out.printf("move %s", leg)
		}
		x.announceEnd()
	})
}

// xbThinkingLine writes a progress report as CECP thinking output: depth,
// score in centipawns (mates as ±(100000+N)), time in centiseconds, nodes
// and the PV in the 16×8 coordinates.
func xbThinkingLine(pos *env.Position, in mcts.Info) string {
	score := engine.Centipawns(in.Value)
	switch {
	case in.MateIn > 0:
		score = 100000 + in.MateIn
	case in.MateIn < 0:
		score = -100000 + in.MateIn
	}
	return fmt.Sprintf("%d %d %d %d %s", max(in.Depth, 1), score, in.Elapsed.Milliseconds()/10, in.Nodes, xbLine(pos, in.PV))
}

// xbLine writes a sequence of moves from pos (left unchanged) in 16×8
// coordinates, stopping at a move that is not legal.
func xbLine(pos *env.Position, pv []env.Move) string {
	var b strings.Builder
	played := 0
	var ml env.MoveList
	for _, m := range pv {
		pos.LegalMoves(&ml)
		if !ml.Contains(m) {
			break
		}
		if played > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(xbMove(pos, m))
		pos.MakeMove(m)
		played++
	}
	for range played {
		pos.UnmakeMove()
	}
	return b.String()
}

func (x *xbSession) hint(ctx context.Context) {
	if x.invalid != "" {
		return
	}
	pos := x.e.Position()
	res, err := goSafely(ctx, x.e, pos, clock.Limits{Nodes: int64(min(x.e.Options().Visits, 400))}, mcts.Progress{})
	if err != nil && res.BestMove == env.NoMove {
		return
	}
	x.out.printf("Hint: %s", xbMove(pos, res.BestMove))
}

func (x *xbSession) setBoard(fen string) {
	pfen, err := parseFEN16(fen)
	if err == nil {
		err = x.e.SetPosition(pfen, nil)
	}
	if err != nil {
		x.invalid = "illegal position"
		x.out.printf("tellusererror Illegal position: %s", oneLine(err.Error()))
		return
	}
	x.invalid = ""
}

// xbSquare names square s of board b in the 16×8 coordinates.
func xbSquare(s env.Square, b env.Board) string {
	return string([]byte{byte('a' + s.File() + 8*int(b)), byte('1' + s.Rank())})
}

// xbMove writes m, a legal move of pos, in the 16×8 coordinates: from the
// square on the piece's board to the square on the other board, e.g.
// "e2m4". A capture is shown in one leg too ("a8i2" for a rook taking on
// a2 of board A and landing on a2 of B); see xbMoveLegs for what the GUI
// is sent.
func xbMove(pos *env.Position, m env.Move) string {
	_, b := pos.PieceAt(m.From())
	s := xbSquare(m.From(), b) + xbSquare(m.To(), b.Other())
	if k := m.Promotion(); k != env.NoKind {
		s += string(k.Letter())
	}
	return s
}

// xbMoveLegs writes m as the legs of an XBoard move. The victim of an
// Alice capture stands on the mover's board, not on its landing square, so
// a capture is two legs: onto the victim's square (which takes it), then
// through the looking glass to the landing square: "a8a2," "a2i2". XBoard
// (4.9) shows this correctly. Other moves are one leg.
func xbMoveLegs(pos *env.Position, m env.Move) []string {
	_, b := pos.PieceAt(m.From())
	promo := ""
	if k := m.Promotion(); k != env.NoKind {
		promo = string(k.Letter())
	}
	from, mid, land := xbSquare(m.From(), b), xbSquare(m.To(), b), xbSquare(m.To(), b.Other())
	if xbTwoLegs(pos, m) {
		return []string{from + mid + ",", mid + land + promo}
	}
	return []string{from + land + promo}
}

// xbTwoLegs reports whether m, a legal move of pos, goes to XBoard in two
// legs: whether it is a capture.
func xbTwoLegs(pos *env.Position, m env.Move) bool {
	if m.IsCastling() {
		return false
	}
	pc, _ := pos.PieceAt(m.To())
	return pc != env.NoPiece
}

// xbSq is a square of the 16×8 board: file 0–15 (8–15 board B), rank 0–7.
type xbSq struct{ file, rank int }

func (q xbSq) square() env.Square { return env.SquareAt(q.file%8, q.rank) }
func (q xbSq) board() env.Board   { return env.Board(q.file / 8) }

func parseXBSquare(t string) (xbSq, bool) {
	if len(t) != 2 || t[0] < 'a' || t[0] > 'p' || t[1] < '1' || t[1] > '8' {
		return xbSq{}, false
	}
	return xbSq{int(t[0] - 'a'), int(t[1] - '1')}, true
}

// xbLegs is a move as read from the GUI: its squares, leg by leg (two for
// one leg, three for two), and the promotion suffix.
type xbLegs struct {
	sq    []xbSq
	promo string
}

// splitXBMove reads a 16×8 coordinate move of one leg ("e2m4", "e7m8q")
// or two ("a8a2,a2i2": the second leg starts where the first ended).
func splitXBMove(s string) (xbLegs, bool) {
	var l xbLegs
	legs := strings.Split(strings.TrimRight(s, "+#!?"), ",")
	if len(legs) > 2 {
		return l, false
	}
	for i, leg := range legs {
		if len(leg) < 4 {
			return l, false
		}
		from, ok1 := parseXBSquare(leg[0:2])
		to, ok2 := parseXBSquare(leg[2:4])
		if !ok1 || !ok2 {
			return l, false
		}
		if i == 0 {
			l.sq = append(l.sq, from)
		} else if from != l.sq[len(l.sq)-1] {
			return l, false
		}
		l.sq = append(l.sq, to)
		suffix := strings.TrimPrefix(strings.ToLower(leg[4:]), "=")
		if suffix != "" && (i < len(legs)-1 || len(suffix) > 1 || !strings.Contains("qrbn", suffix)) {
			return l, false
		}
		l.promo = suffix
	}
	return l, true
}

// looksLikeXBMove reports whether s has the shape of a coordinate move on
// the 16×8 board.
func looksLikeXBMove(s string) bool {
	_, ok := splitXBMove(s)
	return ok
}

// parseXBMove reads a move in the 16×8 coordinates (one leg, or a capture
// in two legs through the victim's square) and returns it if it is legal
// in pos.
func parseXBMove(pos *env.Position, s string) (env.Move, error) {
	l, ok := splitXBMove(s)
	if !ok {
		return env.NoMove, fmt.Errorf("%q is not a coordinate move", s)
	}
	from, to := l.sq[0], l.sq[len(l.sq)-1]
	if from.board() == to.board() {
		// Never a move here: every move changes board. (Reading e2e4 as
		// the project's notation would leave the GUI showing the piece on
		// the wrong board.)
		return env.NoMove, fmt.Errorf("%s: a move always lands on the other board (files a-h are board A, i-p board B)", s)
	}
	m, err := pos.ParseUCI(from.square().String() + to.square().String() + l.promo)
	if err != nil {
		return env.NoMove, err
	}
	if _, b := pos.PieceAt(m.From()); b != from.board() {
		return env.NoMove, fmt.Errorf("%s: the piece on %s stands on board %v", s, m.From(), b)
	}
	if len(l.sq) == 3 && (l.sq[1] != xbSq{to.file - 8*int(to.board()) + 8*int(from.board()), to.rank} || !xbTwoLegs(pos, m)) {
		return env.NoMove, fmt.Errorf("%s: two legs are for a capture, through the victim's square", s)
	}
	return m, nil
}

// highlight answers the GUI's "lift SQUARE": it marks where the piece
// there may go, so that XBoard (which does not know the rules) offers
// exactly the legal moves: yellow for landing squares, magenta where a
// pawn promotes, cyan for the victim of a capture (the first leg of a
// two-leg move, see xbMoveLegs: dropping the piece there does not end the
// move; the GUI lifts it again from there and the landing square is
// marked).
func (x *xbSession) highlight(arg string) {
	q, ok := parseXBSquare(arg)
	if !ok || x.invalid != "" {
		return
	}
	pos := x.e.Position()
	var marks [8][16]byte
	mark := func(q xbSq, c byte) {
		if marks[q.rank][q.file] == 0 || c == 'M' {
			marks[q.rank][q.file] = c
		}
	}
	type legs struct {
		from, victim, land xbSq
		twoLeg, promo      bool
	}
	var ml env.MoveList
	pos.LegalMoves(&ml)
	moves := make([]legs, 0, ml.N)
	for _, m := range ml.Slice() {
		_, b := pos.PieceAt(m.From())
		moves = append(moves, legs{
			from:   xbSq{m.From().File() + 8*int(b), m.From().Rank()},
			victim: xbSq{m.To().File() + 8*int(b), m.To().Rank()},
			land:   xbSq{m.To().File() + 8*int(b.Other()), m.To().Rank()},
			twoLeg: xbTwoLegs(pos, m),
			promo:  m.Promotion() != env.NoKind,
		})
	}
	// A lift from the victim's square of a capture by the piece lifted
	// before is the capture's second leg.
	second := false
	for _, l := range moves {
		second = second || x.liftedSet && l.twoLeg && l.from == x.lifted && l.victim == q
	}
	for _, l := range moves {
		switch {
		case second && !(l.twoLeg && l.from == x.lifted && l.victim == q):
			continue
		case !second && l.from != q:
			continue
		case !second && l.twoLeg:
			mark(l.victim, 'C')
			continue
		}
		if l.promo {
			mark(l.land, 'M')
		} else {
			mark(l.land, 'Y')
		}
	}
	if !second {
		x.lifted, x.liftedSet = q, true
	}
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := range 16 {
			c := marks[r][f]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	x.out.printf("highlight %s", b.String())
}

// fen16 writes pos as a FEN of the 16×8 board: each rank lists board A's
// eight squares, then board B's.
func fen16(pos *env.Position) string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := range 16 {
			sq := env.SquareAt(f%8, r)
			pc, board := pos.PieceAt(sq)
			if pc == env.NoPiece || int(board) != f/8 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			b.WriteByte(pc.Letter())
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	// The other fields as in the project's FEN (the en-passant square, used
	// only by alice-ep, is named on board A's files).
	rest := strings.Fields(pos.FEN())[1:]
	return b.String() + " " + strings.Join(rest, " ")
}

// parseFEN16 converts a FEN of the 16×8 board to the project's FEN ('|'
// before board-B pieces). A FEN of 8-file ranks (the project's own) is
// returned unchanged.
func parseFEN16(fen string) (string, error) {
	fields := strings.Fields(fen)
	if len(fields) == 0 {
		return "", errors.New("empty FEN")
	}
	if strings.Contains(fields[0], "|") {
		return fen, nil
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return "", fmt.Errorf("FEN %q: want 8 ranks, got %d", fen, len(ranks))
	}
	var out strings.Builder
	for i, rank := range ranks {
		cells := make([]byte, 0, 16)
		for j := 0; j < len(rank); j++ {
			c := rank[j]
			switch {
			case c >= '1' && c <= '9':
				n := int(c - '0')
				for j+1 < len(rank) && rank[j+1] >= '0' && rank[j+1] <= '9' {
					j++
					n = 10*n + int(rank[j]-'0')
					if n > 16 {
						break
					}
				}
				if n > 16 {
					return "", fmt.Errorf("FEN %q: rank %d is too long", fen, 8-i)
				}
				for range n {
					cells = append(cells, 0)
				}
			case strings.IndexByte("pnbrqkPNBRQK", c) >= 0:
				cells = append(cells, c)
			default:
				return "", fmt.Errorf("FEN %q: unexpected %q in rank %d", fen, c, 8-i)
			}
		}
		if len(cells) == 8 && i == 0 {
			return fen, nil // an 8×8 FEN: the project's notation
		}
		if len(cells) != 16 {
			return "", fmt.Errorf("FEN %q: rank %d has %d squares, want 16", fen, 8-i, len(cells))
		}
		if i > 0 {
			out.WriteByte('/')
		}
		empty := 0
		for f := range 8 {
			a, bb := cells[f], cells[f+8]
			if a != 0 && bb != 0 {
				return "", fmt.Errorf("FEN %q: %c%d is occupied on both boards", fen, 'a'+f, 8-i)
			}
			if a == 0 && bb == 0 {
				empty++
				continue
			}
			if empty > 0 {
				out.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			if bb != 0 {
				out.WriteByte('|')
				out.WriteByte(bb)
			} else {
				out.WriteByte(a)
			}
		}
		if empty > 0 {
			out.WriteString(strconv.Itoa(empty))
		}
	}
	rest := fields[1:]
	if len(rest) >= 2 {
		rest[1] = fen16Castling(rest[1])
	}
	if len(rest) >= 3 && len(rest[2]) == 2 && rest[2][0] >= 'i' && rest[2][0] <= 'p' {
		rest[2] = string(rest[2][0]-8) + rest[2][1:]
	}
	s := out.String()
	if len(rest) > 0 {
		s += " " + strings.Join(rest, " ")
	}
	return s, nil
}

// fen16Castling maps Shredder-style castling letters (the rook's file, as
// XBoard may write them) to KQkq; the project's rules castle with the
// rooks of the a- and h-files only.
func fen16Castling(c string) string {
	if c == "-" {
		return c
	}
	var b strings.Builder
	for _, r := range c {
		switch r {
		case 'H':
			r = 'K'
		case 'A':
			r = 'Q'
		case 'h':
			r = 'k'
		case 'a':
			r = 'q'
		}
		b.WriteRune(r)
	}
	return b.String()
}
