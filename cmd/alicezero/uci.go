package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/panics"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/train/engine"
)

// UCI option bounds.
const (
	uciMaxVisits   = 1 << 30
	uciMaxMultiPV  = 256
	uciMaxOverhead = 5000 // ms
)

func runUCI(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("uci", "", stderr)
	weights := fs.String("weights", "", "checkpoint file or run folder (default: no network, a plain search)")
	threads := fs.Int("threads", 1, "search threads")
	visits := fs.Int("visits", engine.DefaultVisits, "visits per move when go sets no limit")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: alicezero uci [flags]\n\nSpeaks UCI on standard input and output (variants alice and alice-ep;\nFEN with '|' before board-B pieces, moves in UCI notation).\n\nFlags:\n")
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
	u := &uciSession{e: e, out: &lineWriter{w: stdout}, multiPV: 1}
	return u.run(ctx, stdin)
}

// lineWriter writes whole lines to w, one Write per line, from any
// goroutine.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (lw *lineWriter) printf(format string, args ...any) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	_, _ = fmt.Fprintf(lw.w, format+"\n", args...) // a GUI that stopped reading is noticed when its input ends
}

// readLines delivers r's lines (without line endings) on the returned
// channel, which is closed when r ends or fails. It stops early when done
// is closed.
//
// Its goroutine is the one not run under conc: a read from standard input
// cannot be interrupted, so nothing may wait for it (a session ends on
// quit or a signal while the reader may still be blocked); it ends when the
// input does.
func readLines(r io.Reader, done <-chan struct{}) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 4<<20)
		for sc.Scan() {
			select {
			case ch <- strings.TrimRight(sc.Text(), "\r"):
			case <-done:
				return
			}
		}
	}()
	return ch
}

// searchTask runs one search at a time on its own goroutine, so that the
// protocol keeps reading commands (stop, isready) meanwhile.
type searchTask struct {
	wg     *conc.WaitGroup
	cancel context.CancelFunc
	done   chan struct{} // closed when the search's goroutine ends
}

// start runs f on a new goroutine with a context that stop cancels.
func (s *searchTask) start(parent context.Context, f func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	s.wg, s.cancel, s.done = conc.NewWaitGroup(), cancel, done
	s.wg.Go(func() {
		defer close(done)
		f(ctx)
	})
}

// running reports whether a search is still going on.
func (s *searchTask) running() bool {
	if s.wg == nil {
		return false
	}
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// stop cancels the search, if any, and waits for it to end.
func (s *searchTask) stop() {
	if s.wg == nil {
		return
	}
	s.cancel()
	s.wait()
}

// wait waits for the search, if any, to end by itself. A panic is
// impossible here (f recovers its own), but WaitAndRecover keeps one from
// crashing the engine all the same.
func (s *searchTask) wait() {
	if s.wg == nil {
		return
	}
	_ = s.wg.WaitAndRecover()
	s.cancel()
	s.wg, s.cancel, s.done = nil, nil, nil
}

// goSafely runs the engine's search, turning a panic into an error with a
// legal fallback move, so that a bestmove is always sent.
func goSafely(ctx context.Context, e *engine.Engine, pos *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
	var (
		res mcts.Result
		err error
	)
	if r := panics.Try(func() { res, err = e.Go(ctx, lim, progress) }); r != nil {
		var ml env.MoveList
		pos.LegalMoves(&ml)
		res = mcts.Result{}
		if ml.N > 0 {
			res.BestMove, res.PV = ml.Moves[0], ml.Moves[:1]
		}
		err = fmt.Errorf("internal error: %v", r.Value)
	}
	return res, err
}

// uciSession is one UCI conversation.
type uciSession struct {
	e       *engine.Engine
	out     *lineWriter
	search  searchTask
	multiPV int
	showWDL bool
}

// uciOption describes one option: its uci declaration and setter.
type uciOption struct {
	name string
	decl func(o engine.Options, u *uciSession) string
	set  func(u *uciSession, o *engine.Options, value string) error
}

func spinValue(value string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", value)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%d is outside %d..%d", n, lo, hi)
	}
	return n, nil
}

func uciOptions() []uciOption {
	var variants []string
	for _, v := range env.Variants() {
		variants = append(variants, "var "+v.Name)
	}
	return []uciOption{
		{"UCI_Variant",
			func(o engine.Options, _ *uciSession) string {
				return "type combo default " + o.Variant.Name + " " + strings.Join(variants, " ")
			},
			func(_ *uciSession, o *engine.Options, v string) error {
				vr, err := env.VariantByName(strings.TrimSpace(v))
				o.Variant = vr
				return err
			}},
		{"Threads",
			func(o engine.Options, _ *uciSession) string {
				return fmt.Sprintf("type spin default %d min 1 max %d", o.Threads, engine.MaxThreads)
			},
			func(_ *uciSession, o *engine.Options, v string) (err error) {
				o.Threads, err = spinValue(v, 1, engine.MaxThreads)
				return err
			}},
		{"Hash",
			func(o engine.Options, _ *uciSession) string {
				return fmt.Sprintf("type spin default %d min 1 max %d", o.HashMB, engine.MaxHashMB)
			},
			func(_ *uciSession, o *engine.Options, v string) (err error) {
				o.HashMB, err = spinValue(v, 1, engine.MaxHashMB)
				return err
			}},
		{"Weights",
			func(o engine.Options, _ *uciSession) string {
				if o.Weights == "" {
					return "type string default <empty>"
				}
				return "type string default " + o.Weights
			},
			func(_ *uciSession, o *engine.Options, v string) error {
				v = strings.TrimSpace(v)
				if v == "<empty>" {
					v = ""
				}
				o.Weights = v
				return nil
			}},
		{"Visits",
			func(o engine.Options, _ *uciSession) string {
				return fmt.Sprintf("type spin default %d min 1 max %d", o.Visits, uciMaxVisits)
			},
			func(_ *uciSession, o *engine.Options, v string) (err error) {
				o.Visits, err = spinValue(v, 1, uciMaxVisits)
				return err
			}},
		{"MultiPV",
			func(_ engine.Options, u *uciSession) string {
				return fmt.Sprintf("type spin default %d min 1 max %d", u.multiPV, uciMaxMultiPV)
			},
			func(u *uciSession, _ *engine.Options, v string) (err error) {
				n, err := spinValue(v, 1, uciMaxMultiPV)
				if err == nil {
					u.multiPV = n
				}
				return err
			}},
		{"UCI_ShowWDL",
			func(_ engine.Options, u *uciSession) string { return fmt.Sprintf("type check default %t", u.showWDL) },
			func(u *uciSession, _ *engine.Options, v string) error {
				b, err := strconv.ParseBool(strings.TrimSpace(v))
				if err != nil {
					return fmt.Errorf("%q is not true or false", v)
				}
				u.showWDL = b
				return nil
			}},
		{"Move Overhead",
			func(o engine.Options, _ *uciSession) string {
				return fmt.Sprintf("type spin default %d min 0 max %d", o.MoveOverhead.Milliseconds(), uciMaxOverhead)
			},
			func(_ *uciSession, o *engine.Options, v string) error {
				ms, err := spinValue(v, 0, uciMaxOverhead)
				if err != nil {
					return err
				}
				// 0 would mean the default; 1 µs is as good as none.
				o.MoveOverhead = max(time.Duration(ms)*time.Millisecond, time.Microsecond)
				return nil
			}},
	}
}

// isUCICommand reports whether w is a command of the protocol (GUI to
// engine), or d (print the position, as Stockfish does).
func isUCICommand(w string) bool {
	switch w {
	case "uci", "debug", "isready", "setoption", "register", "ucinewgame", "position", "go", "stop", "ponderhit", "quit", "d":
		return true
	}
	return false
}

func (u *uciSession) run(ctx context.Context, stdin io.Reader) error {
	done := make(chan struct{})
	defer close(done)
	lines := readLines(stdin, done)
	defer u.search.stop()
	for {
		var line string
		var ok bool
		select {
		case line, ok = <-lines:
		case <-ctx.Done():
			return nil
		}
		if !ok {
			return nil // input ended: as quit
		}
		if quit := u.handle(ctx, line); quit {
			return nil
		}
	}
}

func (u *uciSession) errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	msg = strings.ReplaceAll(msg, "\n", " ")
	u.out.printf("info string error %s", msg)
}

// handle runs one command line and reports whether it was quit.
func (u *uciSession) handle(ctx context.Context, line string) bool {
	f := strings.Fields(line)
	// Unknown leading words are skipped, as UCI asks.
	i := slices.IndexFunc(f, isUCICommand)
	if i < 0 {
		if len(f) > 0 {
			u.errorf("unknown command: %s", line)
		}
		return false
	}
	if i > 0 {
		u.errorf("unknown command %q skipped", strings.Join(f[:i], " "))
	}
	cmd, args := f[i], f[i+1:]
	switch cmd {
	case "isready":
		if !u.search.running() {
			if err := u.e.Ready(); err != nil {
				u.errorf("%v", err)
			}
		}
		u.out.printf("readyok")
		return false
	case "stop":
		u.search.stop()
		return false
	case "ponderhit":
		// There is no Ponder option; a "go ponder" searches as "go
		// infinite", and ponderhit ends it at once with its bestmove.
		u.search.stop()
		return false
	case "debug", "register":
		return false
	case "quit":
		return true
	}
	// Every other command changes the engine: a search still running
	// ends first (its bestmove is sent).
	u.search.stop()
	switch cmd {
	case "uci":
		u.out.printf("id name AliceZero")
		u.out.printf("id author the AliceZero authors")
		o := u.e.Options()
		for _, opt := range uciOptions() {
			u.out.printf("option name %s %s", opt.name, opt.decl(o, u))
		}
		u.out.printf("uciok")
	case "setoption":
		u.setOption(args)
	case "ucinewgame":
		u.e.NewGame()
	case "position":
		u.position(args)
	case "go":
		u.goCmd(ctx, args)
	case "d":
		pos := u.e.Position()
		u.out.printf("info string fen %s", pos.FEN())
		u.out.printf("info string %s", u.e.Network())
	}
	return false
}

func (u *uciSession) setOption(args []string) {
	if len(args) < 2 || args[0] != "name" {
		u.errorf("setoption: want setoption name NAME [value VALUE]")
		return
	}
	vi := slices.Index(args, "value")
	var name, value string
	if vi < 0 {
		name = strings.Join(args[1:], " ")
	} else {
		name, value = strings.Join(args[1:vi], " "), strings.Join(args[vi+1:], " ")
	}
	for _, opt := range uciOptions() {
		if !strings.EqualFold(opt.name, name) {
			continue
		}
		o := u.e.Options()
		if err := opt.set(u, &o, value); err != nil {
			u.errorf("setoption %s: %v", opt.name, err)
			return
		}
		if err := u.e.SetOptions(o); err != nil {
			u.errorf("setoption %s: %v", opt.name, err)
		}
		return
	}
	u.errorf("setoption: unknown option %q", name)
}

func (u *uciSession) position(args []string) {
	if len(args) == 0 {
		u.errorf("position: want position startpos|fen FEN [moves ...]")
		return
	}
	mi := slices.Index(args, "moves")
	var moves []string
	head := args
	if mi >= 0 {
		head, moves = args[:mi], args[mi+1:]
	}
	var fen string
	switch head[0] {
	case "startpos":
		if len(head) > 1 {
			u.errorf("position: unexpected %q after startpos", strings.Join(head[1:], " "))
			return
		}
	case "fen":
		if len(head) < 2 {
			u.errorf("position: fen needs a FEN")
			return
		}
		fen = strings.Join(head[1:], " ")
	default:
		u.errorf("position: want startpos or fen, got %q", head[0])
		return
	}
	if err := u.e.SetPosition(fen, moves); err != nil {
		u.errorf("%v (the position is unchanged)", err)
	}
}

// parseGo reads a go command's limits, reporting (and skipping) the words
// it cannot use.
func (u *uciSession) parseGo(args []string) clock.Limits {
	var lim clock.Limits
	ms := func(n int) time.Duration { return time.Duration(max(n, 1)) * time.Millisecond }
	depth := 0
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch w {
		case "infinite", "ponder":
			lim.Infinite = true
			continue
		case "searchmoves":
			u.errorf("go: searchmoves is not supported; searching every move")
			for i+1 < len(args) && !slices.Contains([]string{"wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime", "infinite", "ponder"}, args[i+1]) {
				i++
			}
			continue
		case "wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime":
		default:
			u.errorf("go: unknown word %q", w)
			continue
		}
		if i+1 >= len(args) {
			u.errorf("go: %s needs a value", w)
			break
		}
		i++
		n, err := strconv.ParseInt(args[i], 10, 64)
		if err != nil {
			u.errorf("go: %s: %q is not a number", w, args[i])
			continue
		}
		n = max(math.MinInt32, min(n, math.MaxInt32))
		v := int(n)
		switch w {
		case "wtime":
			lim.WTime = ms(v)
		case "btime":
			lim.BTime = ms(v)
		case "winc":
			lim.WInc = time.Duration(max(v, 0)) * time.Millisecond
		case "binc":
			lim.BInc = time.Duration(max(v, 0)) * time.Millisecond
		case "movestogo":
			lim.MovesToGo = max(v, 0)
		case "movetime":
			lim.MoveTime = ms(v)
		case "nodes":
			lim.Nodes = int64(max(v, 1))
		case "depth":
			depth = v
		case "mate":
			u.errorf("go: mate search is not supported; searching normally")
		}
	}
	if depth > 0 && lim.Nodes == 0 && lim.MoveTime == 0 && lim.WTime == 0 && lim.BTime == 0 && !lim.Infinite {
		u.out.printf("info string depth limits are not supported (a tree search has no fixed depth); searching %d visits", u.e.Options().Visits)
	}
	return lim
}

func (u *uciSession) goCmd(ctx context.Context, args []string) {
	lim := u.parseGo(args)
	pos := u.e.Position()
	multiPV, showWDL := u.multiPV, u.showWDL
	u.search.start(ctx, func(ctx context.Context) {
		var last mcts.Info
		info := func(in mcts.Info) {
			last = in
			if in.Final && multiPV > 1 {
				return // the final lines come from the result
			}
			u.out.printf("%s", uciInfoLine(in, multiPV > 1, showWDL))
		}
		res, err := goSafely(ctx, u.e, pos, lim, mcts.Progress{Report: info, Interval: 500 * time.Millisecond})
		if err != nil {
			if errors.Is(err, engine.ErrNoLegalMove) {
				u.out.printf("info string no legal move: the game is over (%s)", pos.Status())
			} else {
				u.errorf("%v", err)
			}
		}
		if multiPV > 1 && res.Nodes > 0 {
			for _, l := range uciMultiPVLines(res, last, multiPV, showWDL) {
				u.out.printf("%s", l)
			}
		}
		if res.BestMove == env.NoMove {
			u.out.printf("bestmove 0000")
			return
		}
		if len(res.PV) > 1 {
			u.out.printf("bestmove %s ponder %s", res.BestMove.UCI(), res.PV[1].UCI())
			return
		}
		u.out.printf("bestmove %s", res.BestMove.UCI())
	})
}

// uciScore writes a score: mate in moves when proven, else centipawns.
func uciScore(value float32, mateIn int) string {
	if mateIn != 0 {
		return fmt.Sprintf("score mate %d", mateIn)
	}
	return fmt.Sprintf("score cp %d", engine.Centipawns(value))
}

func uciMoves(pv []env.Move) string {
	s := make([]string, len(pv))
	for i, m := range pv {
		s[i] = m.UCI()
	}
	return strings.Join(s, " ")
}

// uciInfoLine writes a progress report as an info line.
func uciInfoLine(in mcts.Info, multiPV, showWDL bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d seldepth %d", max(in.Depth, 1), max(in.SelDepth, 1))
	if multiPV {
		b.WriteString(" multipv 1")
	}
	b.WriteString(" " + uciScore(in.Value, in.MateIn))
	if showWDL {
		w, d, l := engine.WDLPermille(in.WDL)
		fmt.Fprintf(&b, " wdl %d %d %d", w, d, l)
	}
	fmt.Fprintf(&b, " nodes %d nps %d time %d", in.Nodes, in.NPS, in.Elapsed.Milliseconds())
	if len(in.PV) > 0 {
		b.WriteString(" pv " + uciMoves(in.PV))
	}
	return b.String()
}

// uciMultiPVLines writes the final report of a search as n info lines: the
// principal variation, then the other root moves by visits (each with its
// own value and just its move as the line).
func uciMultiPVLines(res mcts.Result, in mcts.Info, n int, showWDL bool) []string {
	children := slices.Clone(res.Children)
	slices.SortStableFunc(children, func(a, b mcts.ChildStat) int {
		switch {
		case a.Move == res.BestMove:
			return -1
		case b.Move == res.BestMove:
			return 1
		case a.Visits != b.Visits:
			return b.Visits - a.Visits
		case a.Q > b.Q:
			return -1
		case a.Q < b.Q:
			return 1
		}
		return 0
	})
	n = min(n, len(children))
	lines := make([]string, 0, n)
	for k := range n {
		c := children[k]
		var b strings.Builder
		fmt.Fprintf(&b, "info depth %d seldepth %d multipv %d ", max(res.Depth, 1), max(res.SelDepth, 1), k+1)
		pv := []env.Move{c.Move}
		if k == 0 {
			b.WriteString(uciScore(res.RootValue, res.MateIn))
			if len(res.PV) > 0 {
				pv = res.PV
			}
		} else {
			b.WriteString(uciScore(c.Q, c.MateIn))
		}
		if showWDL {
			wdl := res.RootWDL
			if k > 0 {
				// A child's W-L alone: no draw estimate per move.
				wdl = [3]float32{max(0, (1+c.Q)/2), 0, max(0, (1-c.Q)/2)}
			}
			w, d, l := engine.WDLPermille(wdl)
			fmt.Fprintf(&b, " wdl %d %d %d", w, d, l)
		}
		fmt.Fprintf(&b, " nodes %d nps %d time %d pv %s", res.Nodes, in.NPS, in.Elapsed.Milliseconds(), uciMoves(pv))
		lines = append(lines, b.String())
	}
	return lines
}
