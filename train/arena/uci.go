package arena

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/sourcegraph/conc"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/player"
)

// Defaults of the UCI engine player.
const (
	// DefaultStartTimeout bounds the wait for uciok and readyok.
	DefaultStartTimeout = 10 * time.Second
	// DefaultEngineMoveTime is the move time an engine gets when the match
	// sets no limit at all (engines need one to stop searching).
	DefaultEngineMoveTime = time.Second
	// quitTimeout is how long an engine may take to exit after "quit"
	// before it is killed.
	quitTimeout = 2 * time.Second
)

// UCIEngine is an external engine speaking UCI over its standard input and
// output. Its process runs from StartUCI to Close.
type UCIEngine struct {
	name         string
	commandLine  string
	cmd          *exec.Cmd
	stdin        io.WriteCloser
	lines        chan string   // the engine's output; closed when it ends
	done         chan struct{} // closed by Close: the reader stops sending
	exited       chan struct{} // closed once the process has been waited for
	waitErr      error         // the process's exit, set before lines closes
	reader       conc.WaitGroup
	startTimeout time.Duration
	log          io.Writer // the match's log, for the engine's error lines; nil: none
	closed       bool
	// score is the last score the engine printed during its last move
	// (LastScore), valid when scored is set.
	score  int
	scored bool
}

// NewUCIFromSpec is the factory of "uci:COMMAND LINE[,Option=Value]...":
// every option is sent to the engine with setoption, in the order given.
func NewUCIFromSpec(ctx context.Context, spec player.Spec, setup player.Setup) (player.Player, error) {
	if spec.Arg == "" {
		return nil, fmt.Errorf("player %q: uci needs an engine command, e.g. uci:/path/engine,Threads=2", spec.Text)
	}
	return StartUCI(ctx, spec.Text, spec.Arg, spec.Options, setup)
}

// StartUCI starts the engine commandLine (split at spaces; quotes group),
// completes the uci/uciok handshake, selects the variant with
// "setoption name UCI_Variant", sends options and waits for readyok.
// An engine that does not answer in time is an error naming it, and so is
// one that reports an error ("info string error ...") before its readyok:
// an engine whose set-up failed (weights it could not load, an option it
// refused) would play as something else than the spec says. An option
// UCI_Variant of another variant than the match's is refused before the
// engine starts.
func StartUCI(ctx context.Context, name, commandLine string, options []player.Option, setup player.Setup) (*UCIEngine, error) {
	args, err := splitCommandLine(commandLine)
	if err != nil {
		return nil, fmt.Errorf("engine %q: %w", name, err)
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("engine %q: empty command line", name)
	}
	v := setup.Variant.Name
	if v == "" {
		v = env.Alice.Name
	}
	for _, o := range options {
		if strings.EqualFold(o.Name, "UCI_Variant") && !strings.EqualFold(strings.TrimSpace(o.Value), v) {
			return nil, fmt.Errorf("engine %q: option UCI_Variant=%s, but the match plays %s: the arena sets UCI_Variant to the match's variant itself (leave the option out, or play the match with --variant %s)",
				name, o.Value, v, strings.TrimSpace(o.Value))
		}
	}
	e := &UCIEngine{
		name:         name,
		commandLine:  commandLine,
		lines:        make(chan string, 64),
		done:         make(chan struct{}),
		exited:       make(chan struct{}),
		startTimeout: setup.StartTimeout,
		log:          setup.Log,
	}
	if e.startTimeout <= 0 {
		e.startTimeout = DefaultStartTimeout
	}
	e.cmd = exec.Command(args[0], args[1:]...)
	if setup.Log != nil {
		e.cmd.Stderr = prefixWriter{w: setup.Log, prefix: name + ": "}
	}
	if e.stdin, err = e.cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("engine %q: %w", name, err)
	}
	stdout, err := e.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("engine %q: %w", name, err)
	}
	if err := e.cmd.Start(); err != nil {
		return nil, fmt.Errorf("engine %q: cannot start %q: %w", name, args[0], err)
	}
	// The pipe must be read concurrently: the engine writes whenever it
	// likes, and Move waits on the channel with a deadline.
	e.reader.Go(func() { e.readLines(stdout) })

	ok := false
	defer func() {
		if !ok {
			e.Close()
		}
	}()
	if err := e.send("uci"); err != nil {
		return nil, err
	}
	var declared []string // option names the engine lists
	var variants []string // UCI_Variant's choices, when it lists them
	var errs []string     // its error lines before readyok
	hasVariant := false
	err = e.waitFor(ctx, "uciok", e.startTimeout, func(line string) {
		if msg, ok := errorLine(line); ok {
			errs = append(errs, msg)
			return
		}
		name, typ, vars := parseOptionLine(line)
		if name == "" {
			return
		}
		declared = append(declared, name)
		if strings.EqualFold(name, "UCI_Variant") {
			hasVariant = true
			if typ == "combo" {
				variants = vars
			}
		}
	})
	if err != nil {
		return nil, err
	}
	if hasVariant && len(variants) > 0 && !containsFold(variants, v) {
		return nil, fmt.Errorf("engine %q does not play variant %q (its UCI_Variant choices: %s)", name, v, strings.Join(variants, " "))
	}
	if err := e.send("setoption name UCI_Variant value " + v); err != nil {
		return nil, err
	}
	for _, o := range options {
		if len(declared) > 0 && !containsFold(declared, o.Name) {
			return nil, fmt.Errorf("engine %q has no option %q (it has: %s)", name, o.Name, strings.Join(declared, ", "))
		}
		if err := e.send("setoption name " + o.Name + " value " + o.Value); err != nil {
			return nil, err
		}
	}
	later, err := e.ready(ctx)
	if err != nil {
		return nil, err
	}
	if errs = append(errs, later...); len(errs) > 0 {
		return nil, fmt.Errorf("engine %q failed its set-up: %s", name, strings.Join(errs, "; "))
	}
	ok = true
	return e, nil
}

// errorLine reads an engine's "info string error MESSAGE" line.
func errorLine(line string) (msg string, ok bool) {
	f := strings.Fields(line)
	if len(f) < 3 || f[0] != "info" || f[1] != "string" || f[2] != "error" {
		return "", false
	}
	return strings.Join(f[3:], " "), true
}

// logError passes an engine's error line to the match's log.
func (e *UCIEngine) logError(msg string) {
	if e.log != nil {
		fmt.Fprintf(e.log, "%s: info string error %s\n", e.name, msg)
	}
}

// Name returns the engine's name (its spec text).
func (e *UCIEngine) Name() string { return e.name }

// NewGame sends ucinewgame and waits for the engine to be ready; error
// lines it reports meanwhile go to the log.
func (e *UCIEngine) NewGame(ctx context.Context) error {
	if err := e.send("ucinewgame"); err != nil {
		return err
	}
	errs, err := e.ready(ctx)
	for _, msg := range errs {
		e.logError(msg)
	}
	return err
}

// Move sends the game so far and a go command, and returns the engine's
// bestmove once checked against the rules. When ctx ends first the engine
// is told to stop and the error wraps ctx.Err(); the engine should then be
// closed, as its late bestmove would confuse the next search.
func (e *UCIEngine) Move(ctx context.Context, pos *env.Position, limits clock.Limits) (env.Move, error) {
	if err := e.send(positionCommand(pos)); err != nil {
		return env.NoMove, err
	}
	if err := e.send(goCommand(limits)); err != nil {
		return env.NoMove, err
	}
	e.scored = false
	var best string
	for best == "" {
		select {
		case line, ok := <-e.lines:
			if !ok {
				return env.NoMove, e.exitedError("while thinking")
			}
			f := strings.Fields(line)
			if msg, ok := errorLine(line); ok {
				e.logError(msg)
			} else if len(f) > 0 && f[0] == "info" {
				if cp, ok := infoScore(f); ok {
					e.score, e.scored = cp, true
				}
			}
			if len(f) > 0 && f[0] == "bestmove" {
				best = "(none)"
				if len(f) > 1 {
					best = f[1]
				}
			}
		case <-ctx.Done():
			_ = e.send("stop")
			return env.NoMove, fmt.Errorf("engine %q: no bestmove: %w", e.name, ctx.Err())
		}
	}
	m, err := pos.ParseUCI(best)
	if err != nil {
		return env.NoMove, &player.IllegalMoveError{Player: e.name, Move: best, Err: err}
	}
	return m, nil
}

// LastScore implements player.Scorer: the last "info ... score" of the
// engine's last move, "score mate N" as ±player.MateScore.
func (e *UCIEngine) LastScore() (int, bool) { return e.score, e.scored }

// infoScore reads the score of an info line's words: "score cp C" or
// "score mate N" (bounds included).
func infoScore(f []string) (int, bool) {
	for i := 0; i+2 < len(f); i++ {
		if f[i] != "score" {
			continue
		}
		n, err := strconv.Atoi(f[i+2])
		if err != nil {
			return 0, false
		}
		switch f[i+1] {
		case "cp":
			return max(-player.MateScore+1, min(n, player.MateScore-1)), true
		case "mate":
			if n <= 0 { // mate 0: mated already, as Stockfish says
				return -player.MateScore, true
			}
			return player.MateScore, true
		}
		return 0, false
	}
	return 0, false
}

// Close sends quit, waits a little for the engine to exit and kills it if
// it does not.
func (e *UCIEngine) Close() error {
	if e.closed {
		return nil
	}
	e.closed = true
	_ = e.send("quit")
	_ = e.stdin.Close()
	close(e.done)
	timer := time.NewTimer(quitTimeout)
	defer timer.Stop()
	select {
	case <-e.exited:
	case <-timer.C:
		_ = e.cmd.Process.Kill()
		<-e.exited
	}
	e.reader.Wait()
	return nil // an engine killed or exiting non-zero at quit is no fault of the match
}

// readLines passes the engine's output lines to e.lines until the output
// ends or Close stops it, then reaps the process.
func (e *UCIEngine) readLines(r io.Reader) {
	defer close(e.exited)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	delivering := true
	for sc.Scan() {
		if !delivering {
			continue
		}
		select {
		case e.lines <- strings.TrimRight(sc.Text(), "\r"):
		case <-e.done:
			delivering = false
		}
	}
	// Wait may only run once the pipe is read to its end.
	_, _ = io.Copy(io.Discard, r)
	e.waitErr = e.cmd.Wait()
	close(e.lines)
}

func (e *UCIEngine) send(line string) error {
	if _, err := io.WriteString(e.stdin, line+"\n"); err != nil {
		return fmt.Errorf("engine %q: writing %q: %w", e.name, line, err)
	}
	return nil
}

// ready sends isready and waits for readyok, returning the error lines
// the engine sent before it.
func (e *UCIEngine) ready(ctx context.Context) ([]string, error) {
	if err := e.send("isready"); err != nil {
		return nil, err
	}
	var errs []string
	err := e.waitFor(ctx, "readyok", e.startTimeout, func(line string) {
		if msg, ok := errorLine(line); ok {
			errs = append(errs, msg)
		}
	})
	return errs, err
}

// waitFor reads lines until one whose first word is token, passing the
// others to seen.
func (e *UCIEngine) waitFor(ctx context.Context, token string, timeout time.Duration, seen func(string)) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-e.lines:
			if !ok {
				return e.exitedError("before " + token)
			}
			if f := strings.Fields(line); len(f) > 0 && f[0] == token {
				return nil
			}
			if seen != nil {
				seen(line)
			}
		case <-timer.C:
			return fmt.Errorf("engine %q did not answer %s within %v", e.name, token, timeout)
		case <-ctx.Done():
			return fmt.Errorf("engine %q: waiting for %s: %w", e.name, token, ctx.Err())
		}
	}
}

// exitedError describes an engine whose output ended; its exit status is
// known then (the reader sets it before closing the channel).
func (e *UCIEngine) exitedError(when string) error {
	var ee *exec.ExitError
	if errors.As(e.waitErr, &ee) {
		return fmt.Errorf("engine %q exited %s (%v)", e.name, when, ee.ProcessState)
	}
	return fmt.Errorf("engine %q exited %s", e.name, when)
}

// positionCommand writes the UCI position command for pos: "startpos" when
// the game began at its variant's start position (UCI_Variant says which),
// the set-up FEN (in the rule book's '|' convention) otherwise, then every
// move played since.
func positionCommand(pos *env.Position) string {
	g := env.GameOf(pos)
	var b strings.Builder
	b.WriteString("position ")
	if g.StartFEN == g.Variant.StartFEN() {
		b.WriteString("startpos")
	} else {
		b.WriteString("fen " + g.StartFEN)
	}
	if len(g.Moves) > 0 {
		b.WriteString(" moves")
		for _, m := range g.Moves {
			b.WriteString(" " + m.UCI())
		}
	}
	return b.String()
}

// goCommand writes the UCI go command for the limits.
func goCommand(l clock.Limits) string {
	ms := func(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }
	parts := []string{"go"}
	if l.WTime > 0 || l.BTime > 0 {
		parts = append(parts, "wtime", ms(l.WTime), "btime", ms(l.BTime), "winc", ms(l.WInc), "binc", ms(l.BInc))
		if l.MovesToGo > 0 {
			parts = append(parts, "movestogo", strconv.Itoa(l.MovesToGo))
		}
	}
	if l.MoveTime > 0 {
		parts = append(parts, "movetime", ms(l.MoveTime))
	}
	if l.Nodes > 0 {
		parts = append(parts, "nodes", strconv.FormatInt(l.Nodes, 10))
	}
	if len(parts) == 1 {
		parts = append(parts, "movetime", ms(DefaultEngineMoveTime))
	}
	return strings.Join(parts, " ")
}

// parseOptionLine reads "option name NAME type TYPE ... var A var B" and
// returns the name, type and combo choices; name is "" for other lines.
func parseOptionLine(line string) (name, typ string, vars []string) {
	f := strings.Fields(line)
	if len(f) < 3 || f[0] != "option" || f[1] != "name" {
		return "", "", nil
	}
	i := 2
	var nameParts []string
	for ; i < len(f) && f[i] != "type"; i++ {
		nameParts = append(nameParts, f[i])
	}
	if i+1 < len(f) {
		typ = f[i+1]
	}
	for j := i; j+1 < len(f); j++ {
		if f[j] == "var" {
			vars = append(vars, f[j+1])
		}
	}
	return strings.Join(nameParts, " "), typ, vars
}

// splitCommandLine splits at white space; single or double quotes group
// words and a backslash escapes the next character (outside single
// quotes), as a shell would, without any expansion.
func splitCommandLine(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("command line %q: unterminated %c quote", s, quote)
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args, nil
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// prefixWriter labels an engine's stderr in the log. Writes are passed on
// whole, with the prefix in front of each.
type prefixWriter struct {
	w      io.Writer
	prefix string
}

func (p prefixWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, p.prefix+string(b)); err != nil {
		return 0, err
	}
	return len(b), nil
}
