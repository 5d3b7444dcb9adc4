// Package uci speaks the Universal Chess Interface to a GUI for an
// engine: it reads commands, sets options and positions, runs searches on
// a goroutine of its own (so that stop, isready and quit are answered while
// it thinks) and writes info and bestmove lines.
//
// The loop keeps the game (the position set up last, with the moves
// played from it) and drives an engine.Interface with it: package
// engine's Engine in the alicezero binary, enginetest's fake in this
// package's tests.
//
//	e, err := engine.New(engine.Options{Weights: "checkpoints/run1"})
//	...
//	err = uci.Run(ctx, e, os.Stdin, os.Stdout)
//
// Conventions, for GUI authors:
//
//   - Positions use the rule book's FEN ('|' before each board-B piece)
//     and UCI moves as the rule book writes them for each variant (the
//     from-board prefix and target-board suffix where a square may hold
//     men on several boards); UCI_Variant is any of env.VariantNames(),
//     "position startpos" being the variant's start. A network plays the
//     variant it was trained for only: with such weights named, go in
//     another variant is refused (the engine's error names both).
//   - Scores: "score mate N" for a proven mate, else "score cp C" with
//     lc0's mapping of the value W−L (engine.Centipawns); with
//     UCI_ShowWDL, "wdl W D L" in permille. With MultiPV N the N best
//     moves (the alpha-beta's exact lines, or the tree's most visited
//     moves) each get a line with their own score, WDL and line.
//   - What plays: by default the classical alpha-beta; a network named by
//     Weights (builtin, a checkpoint, a run folder) plays through the
//     tree search, as does Search mcts (the variant's built-in network
//     unless Weights names another). The first go, and each go after what
//     plays has changed, says it: "info string playing with ...".
//   - Hash is the search's memory in MiB (engine.Options.HashMB): the
//     alpha-beta's transposition table; for the tree search a quarter for
//     the evaluation cache, the rest for the tree, which holds
//     about 1,500 visits a MiB of Hash before a search first fills it; a
//     search that fills it recycles its least-visited subtrees and goes on
//     adding visits, however long it runs. The process's resident memory
//     stays below Hash plus what it holds before its first search (32 MB
//     with the built-in network; docs/PERFORMANCE.md).
//   - A position with no legal move (checkmate, stalemate) is answered as
//     Stockfish does: "info depth 0 score mate 0" (or "score cp 0") and
//     "bestmove (none)". A position drawn by repetition or fifty moves
//     still gets a searched move. Every other bestmove is a legal move.
//   - Bad input (an unknown command, an illegal move, a line over 1 MiB, a
//     limit such as "go nodes 0") is answered with "info string error
//     ..." and otherwise ignored; the engine stays up. A go whose nodes or
//     movetime is not a number of at least 1 is not searched (no bestmove).
//   - When the input ends during a search, the search stops and its best
//     move so far is sent before the engine exits.
//   - A network that cannot be loaded (a Weights file that is missing or
//     damaged, weights of another variant than UCI_Variant) is reported
//     at isready as "info string error ...", and every go is refused
//     while it stands: "info string error go refused: ..." and "bestmove
//     (none)", so that the engine never plays under its name with
//     another evaluation and a GUI is not left waiting. Setting Weights
//     to a network that loads, to none (the plain search, chosen) or to
//     empty (the default), or UCI_Variant back to the weights' variant,
//     ends it.
package uci

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sourcegraph/conc/panics"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/lines"
	"github.com/alicezero/alicezero/internal/task"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// Option bounds.
const (
	maxMultiPV  = engine.MaxMultiPV
	maxOverhead = 5000 // ms
	// infoInterval is the time between two info reports of a search.
	infoInterval = 500 * time.Millisecond
)

// Run speaks UCI on in and out until quit, the end of in or the end of
// ctx. It returns an error only when reading in fails.
func Run(ctx context.Context, e engine.Interface, in io.Reader, out io.Writer) error {
	s := &session{e: e, out: lines.NewWriter(out), multiPV: 1, pos: env.NewPosition(e.Options().Variant)}
	s.search.Panicked = func(err error) { s.errorf("internal error: %v", err) }
	input := lines.Read(in, lines.DefaultMax)
	defer input.Close()
	defer s.search.Stop() // a search still running sends its bestmove
	for {
		select {
		case <-ctx.Done():
			return nil
		case l, ok := <-input.C:
			switch {
			case !ok:
				return nil // the input ended: as quit
			case l.Err != nil:
				return l.Err
			case l.TooLong:
				s.errorf("line too long (%d bytes, the limit is %d): ignored", l.Len, lines.DefaultMax)
			default:
				if quit := s.handle(ctx, l.Text); quit {
					return nil
				}
			}
		}
	}
}

// session is one UCI conversation.
type session struct {
	e engine.Interface
	// pos is the game: the position set up last, its moves its history.
	pos     *env.Position
	out     *lines.Writer
	search  task.Runner
	multiPV int
	showWDL bool
	// announced is the engine's Network() said last ("info string
	// playing with").
	announced string
}

func (s *session) errorf(format string, args ...any) {
	msg := strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", " ")
	s.out.Printf("info string error %s", msg)
}

// echo quotes input for an error message, cut short.
func echo(text string) string { return strconv.Quote(lines.Clip(text)) }

// isCommand reports whether w is a command of the protocol (GUI to
// engine), or d (print the position, as Stockfish does).
func isCommand(w string) bool {
	switch w {
	case "uci", "debug", "isready", "setoption", "register", "ucinewgame", "position", "go", "stop", "ponderhit", "quit", "d":
		return true
	}
	return false
}

// handle runs one command line and reports whether it was quit.
func (s *session) handle(ctx context.Context, line string) bool {
	f := strings.Fields(line)
	// Unknown leading words are skipped, as UCI asks.
	i := slices.IndexFunc(f, isCommand)
	if i < 0 {
		if len(f) > 0 {
			s.errorf("unknown command %s", echo(f[0]))
		}
		return false
	}
	if i > 0 {
		s.errorf("unknown command %s skipped", echo(strings.Join(f[:i], " ")))
	}
	cmd, args := f[i], f[i+1:]
	switch cmd {
	case "isready":
		if !s.search.Running() {
			if err := s.e.Ready(); err != nil {
				s.errorf("%v", err)
			}
		}
		s.out.Printf("readyok")
		return false
	case "stop", "ponderhit":
		// There is no Ponder option: "go ponder" searches as "go
		// infinite", and ponderhit ends it at once with its bestmove.
		s.search.Stop()
		return false
	case "debug", "register":
		return false
	case "quit":
		return true
	}
	// Every other command changes the engine: a search still running
	// ends first (its bestmove is sent).
	s.search.Stop()
	switch cmd {
	case "uci":
		s.out.Printf("id name AliceZero")
		s.out.Printf("id author the AliceZero authors")
		o := s.e.Options()
		for _, opt := range options() {
			s.out.Printf("option name %s %s", opt.name, opt.decl(o, s))
		}
		s.out.Printf("uciok")
	case "setoption":
		s.setOption(args)
	case "ucinewgame":
		s.e.NewGame()
		s.pos = env.NewPosition(s.e.Options().Variant)
	case "position":
		s.position(args)
	case "go":
		s.goCmd(ctx, args)
	case "d":
		s.out.Printf("info string fen %s", s.pos.FEN())
		s.out.Printf("info string %s", s.e.Network())
	}
	return false
}

func (s *session) setOption(args []string) {
	if len(args) < 2 || args[0] != "name" {
		s.errorf("setoption: want setoption name NAME [value VALUE]")
		return
	}
	vi := slices.Index(args, "value")
	var name, value string
	if vi < 0 {
		name = strings.Join(args[1:], " ")
	} else {
		name, value = strings.Join(args[1:vi], " "), strings.Join(args[vi+1:], " ")
	}
	for _, opt := range options() {
		if !strings.EqualFold(opt.name, name) {
			continue
		}
		o := s.e.Options()
		old := o.Variant
		if err := opt.set(s, &o, value); err != nil {
			s.errorf("setoption %s: %v", opt.name, err)
			return
		}
		if err := s.e.SetOptions(o); err != nil {
			s.errorf("setoption %s: %v", opt.name, err)
			return
		}
		if v := s.e.Options().Variant; v != old {
			s.pos = env.NewPosition(v) // a new rule set: a new game at its start
		}
		return
	}
	s.errorf("setoption: unknown option %s", echo(name))
}

func (s *session) position(args []string) {
	if len(args) == 0 {
		s.errorf("position: want position startpos|fen FEN [moves ...]")
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
			s.errorf("position: unexpected %s after startpos", echo(strings.Join(head[1:], " ")))
			return
		}
	case "fen":
		if len(head) < 2 {
			s.errorf("position: fen needs a FEN")
			return
		}
		fen = strings.Join(head[1:], " ")
	default:
		s.errorf("position: want startpos or fen, got %s", echo(head[0]))
		return
	}
	pos, err := setUp(s.e.Options().Variant, fen, moves)
	if err != nil {
		s.errorf("%v (the position is unchanged)", err)
		return
	}
	s.pos = pos
}

// setUp returns the position fen ("" for the variant's start position),
// in the rule book's notation ('|' marks board-B pieces), after moves
// (UCI notation); an error names the offending move.
func setUp(v env.Variant, fen string, moves []string) (*env.Position, error) {
	if fen == "" {
		fen = v.StartFEN()
	}
	pos, err := env.ParseFEN(fen, v)
	if err != nil {
		return nil, fmt.Errorf("position: %w", err)
	}
	if i, err := pos.PlayUCI(moves); err != nil {
		return nil, fmt.Errorf("position: move %d (%s): %w", i+1, moves[i], err)
	}
	return pos, nil
}

// goWords are the words of a go command that take a number.
var goWords = []string{"wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime"}

// parseGo reads a go command's limits, reporting (and skipping) what it
// cannot use. A limit it cannot read (a word without its number, nodes or
// movetime below 1) makes the whole command bad input: ok is false, and
// the command is ignored, not searched with a default instead.
func (s *session) parseGo(args []string) (lim clock.Limits, ok bool) {
	ok = true
	// A clock at zero or below (a GUI's lag) still means "move at once".
	ms := func(n int) time.Duration { return time.Duration(max(n, 1)) * time.Millisecond }
	depth := 0
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w == "infinite" || w == "ponder":
			lim.Infinite = true
			continue
		case w == "searchmoves":
			s.errorf("go: searchmoves is not supported; searching every move")
			for i+1 < len(args) && !slices.Contains(goWords, args[i+1]) && args[i+1] != "infinite" && args[i+1] != "ponder" {
				i++
			}
			continue
		case !slices.Contains(goWords, w):
			s.errorf("go: unknown word %s", echo(w))
			continue
		}
		if i+1 >= len(args) {
			s.errorf("go: %s needs a value; go ignored", w)
			ok = false
			break
		}
		i++
		n, err := strconv.ParseInt(args[i], 10, 64)
		if err != nil {
			s.errorf("go: %s: %s is not a number; go ignored", w, echo(args[i]))
			ok = false
			continue
		}
		v := int(max(math.MinInt32, min(n, math.MaxInt32)))
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
			if n < 1 {
				s.errorf("go: movetime must be at least 1 ms, got %d; go ignored", n)
				ok = false
				continue
			}
			lim.MoveTime = ms(v)
		case "nodes":
			if n < 1 {
				s.errorf("go: nodes must be at least 1, got %d; go ignored", n)
				ok = false
				continue
			}
			lim.Nodes = n
		case "depth":
			depth = v
		case "mate":
			s.errorf("go: mate search is not supported; searching normally")
		}
	}
	lim.Depth = max(depth, 0)
	if depth > 0 && s.e.SearchKind() == engine.SearchMCTS && lim.Nodes == 0 && lim.MoveTime == 0 && lim.WTime == 0 && lim.BTime == 0 && !lim.Infinite {
		s.out.Printf("info string depth limits are not supported by the tree search (it has no fixed depth); searching %d visits", s.e.Options().Visits)
	}
	return lim, ok
}

func (s *session) goCmd(ctx context.Context, args []string) {
	lim, ok := s.parseGo(args)
	if !ok {
		return
	}
	// An engine told to load a network it cannot load does not play in
	// its name with the plain search: the GUI is told why and gets no
	// move, until Weights (or UCI_Variant) names something that loads.
	if err := s.e.Ready(); err != nil {
		s.errorf("go refused: %v; set Weights to a network that loads for %s, or to %s for the plain search", err, s.e.Options().Variant.Name, engine.NoWeights)
		s.out.Printf("bestmove (none)")
		return
	}
	if n := s.e.Network(); n != s.announced {
		// Who plays, once each time it changes (UCI_Variant to a variant
		// with a network of its own, Weights, Search).
		s.out.Printf("info string playing with %s", n)
		s.announced = n
	}
	pos := s.pos.Clone()
	multiPV, showWDL := s.multiPV, s.showWDL
	s.search.Start(ctx, func(ctx context.Context) {
		var res mcts.Result
		// A panic (the engine's or this package's) is reported, and the
		// bestmove still goes out: a GUI must never wait for it forever.
		if p := panics.Try(func() { res = s.think(ctx, pos, lim, multiPV, showWDL) }); p != nil {
			s.errorf("internal error: %v", p.Value)
		}
		s.out.Printf("%s", bestMoveLine(pos, res))
	})
}

// think runs one search of pos, writing its info lines.
func (s *session) think(ctx context.Context, pos *env.Position, lim clock.Limits, multiPV int, showWDL bool) mcts.Result {
	report := func(in mcts.Info) {
		for _, l := range infoLines(in, multiPV, showWDL) {
			s.out.Printf("%s", l)
		}
	}
	res, err := s.e.Go(ctx, env.GameOf(pos), lim, mcts.Progress{Report: report, Interval: infoInterval})
	switch {
	case errors.Is(err, engine.ErrNoLegalMove):
		if pos.Status() == env.Checkmate {
			s.out.Printf("info depth 0 score mate 0")
		} else {
			s.out.Printf("info depth 0 score cp 0")
		}
		return mcts.Result{}
	case err != nil:
		s.errorf("%v", err)
	}
	return res
}

// bestMoveLine writes the answer to go: the search's move with the
// expected reply, a legal move of pos if the search gave none (a failed
// engine), or "(none)" when pos has no legal move.
func bestMoveLine(pos *env.Position, res mcts.Result) string {
	var ml env.MoveList
	pos.LegalMoves(&ml)
	switch {
	case ml.N == 0:
		return "bestmove (none)"
	case !ml.Contains(res.BestMove):
		return "bestmove " + ml.Moves[0].UCI()
	case len(res.PV) > 1:
		return "bestmove " + res.BestMove.UCI() + " ponder " + res.PV[1].UCI()
	}
	return "bestmove " + res.BestMove.UCI()
}

// score writes a score: mate in moves when proven, else centipawns.
func score(value float32, mateIn int) string {
	if mateIn != 0 {
		return fmt.Sprintf("score mate %d", mateIn)
	}
	return fmt.Sprintf("score cp %d", engine.Centipawns(value))
}

func moves(pv []env.Move) string {
	s := make([]string, len(pv))
	for i, m := range pv {
		s[i] = m.UCI()
	}
	return strings.Join(s, " ")
}

// infoLines writes a progress report as info lines: one for the principal
// variation, or with multiPV > 1 one per root move (the best first, then
// by visits), each with its own score, WDL and line.
func infoLines(in mcts.Info, multiPV int, showWDL bool) []string {
	head := fmt.Sprintf("info depth %d seldepth %d", max(in.Depth, 1), max(in.SelDepth, 1))
	tail := fmt.Sprintf("nodes %d nps %d time %d", in.Nodes, in.NPS, in.Elapsed.Milliseconds())
	wdl := func(w [3]float32) string {
		if !showWDL {
			return ""
		}
		a, b, c := engine.WDLPermille(w)
		return fmt.Sprintf(" wdl %d %d %d", a, b, c)
	}
	if multiPV <= 1 || len(in.Children) == 0 {
		l := head + " " + score(in.Value, in.MateIn) + wdl(in.WDL) + " " + tail
		if len(in.PV) > 0 {
			l += " pv " + moves(in.PV)
		}
		return []string{l}
	}
	children := rankChildren(in)
	n := min(multiPV, len(children))
	out := make([]string, 0, n)
	for k, c := range children[:n] {
		pv := c.PV
		if len(pv) == 0 {
			pv = []env.Move{c.Move}
		}
		out = append(out, fmt.Sprintf("%s multipv %d %s%s %s pv %s", head, k+1, score(c.Q, c.MateIn), wdl(c.WDL), tail, moves(pv)))
	}
	return out
}

// rankChildren orders the root moves for MultiPV: the principal
// variation's first, then by visits, then by value.
func rankChildren(in mcts.Info) []mcts.ChildStat {
	best := env.NoMove
	if len(in.PV) > 0 {
		best = in.PV[0]
	}
	children := slices.Clone(in.Children)
	slices.SortStableFunc(children, func(a, b mcts.ChildStat) int {
		switch {
		case a.Move == best:
			return -1
		case b.Move == best:
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
	return children
}
