package pychess

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/conc"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/sleep"
)

// game is one game being played: a reader goroutine follows the game
// stream (reconnecting when it drops) and keeps the newest state; the
// player, on the game's own goroutine, moves whenever that state says it
// is the bot's turn.
type game struct {
	b   *Bot
	id  string
	me  string
	tc  clock.Control // from the challenge; zero for a game resumed after a restart
	log *slog.Logger
	// release frees the game's slot (idempotent): it is called once the
	// game is over, before the bot looks for its final moves.
	release func()

	wake chan struct{} // has a value when the state changed

	mu        sync.Mutex
	full      *GameFull // the newest gameFull; nil before the first
	state     GameState
	haveState bool
	stateAt   time.Time // when state arrived: the clock reading's time
	changes   int       // how often the move list has changed
	ended     bool      // gameEnd arrived
}

func newGame(b *Bot, id, me string, tc clock.Control, release func()) *game {
	return &game{b: b, id: id, me: me, tc: tc, log: b.log.With("game", id), release: release, wake: make(chan struct{}, 1)}
}

// snapshot is a copy of the game's state for the player.
type snapshot struct {
	full      *GameFull
	state     GameState
	haveState bool
	at        time.Time
	changes   int
	ended     bool
}

func (g *game) snapshot() snapshot {
	g.mu.Lock()
	defer g.mu.Unlock()
	return snapshot{full: g.full, state: g.state, haveState: g.haveState, at: g.stateAt, changes: g.changes, ended: g.ended}
}

func (g *game) signal() {
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// play plays the game until it ends, the server refuses its stream, or
// ctx ends; a game that ended is written as PGN.
func (g *game) play(ctx context.Context) {
	g.log.Info("pychess: game started")
	gctx, stop := context.WithCancel(ctx)
	defer stop()
	var reader conc.WaitGroup
	reader.Go(func() { g.read(gctx, stop) })
	out := g.playMoves(gctx, ctx)
	stop()
	reader.Wait()

	g.release()
	snap := g.snapshot()
	switch {
	case out.setup == nil:
		g.log.Info("pychess: left the game")
	case snap.ended || out.aborted:
		g.finish(out.setup, g.finalMoves(ctx, out.setup, snap.state.MoveList(), out.sent), out.aborted)
	default:
		g.log.Info("pychess: stopped following the game", "moves", len(snap.state.MoveList()))
	}
}

// finalMoves returns the game's moves to the end. The stream does not
// show the move that ended a game: after it pychess sends gameEnd, not a
// state (utils.play_move). So the bot asks for the game stream once more,
// whose gameFull lists every move while the server still holds the game
// (half an hour). Until the server notices that the first stream is
// closed (at its next ping, 6 s) it answers 409, so this is retried for a
// while. Failing that, the bot adds its own last move if that move ended
// the game by the rules (pychess accepts, and ignores, a move sent to a
// game that ended otherwise); a game ended by the opponent's move then
// lacks that move.
func (g *game) finalMoves(ctx context.Context, st *setup, seen, sent []string) []string {
	ctx, cancel := context.WithTimeout(ctx, finalFetchTimeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		var full *GameFull
		err := g.b.client.StreamGame(ctx, g.id, func(ev GameEvent) bool {
			if ev.Type != GameEventFull {
				return true
			}
			full = ev.Full
			return false
		})
		if full != nil {
			return full.State.MoveList() // the server's record
		}
		var he *HTTPError
		if !errors.As(err, &he) || he.Status != http.StatusConflict || sleep.For(ctx, g.b.cfg.Backoff.Delay(attempt)) != nil {
			g.log.Info("pychess: the game's final moves are not available", "err", errString(err))
			break
		}
	}
	if len(sent) == len(seen)+1 && extends(sent, seen) {
		if p, err := st.position(sent); err == nil && p.Status().IsOver() {
			return sent
		}
	}
	return seen
}

// finalFetchTimeout bounds the search for the final moves: two of
// pychess's ping intervals and some.
const finalFetchTimeout = 15 * time.Second

// extends reports whether long is short followed by more moves.
func extends(long, short []string) bool {
	if len(long) <= len(short) {
		return false
	}
	for i, m := range short {
		if long[i] != m {
			return false
		}
	}
	return true
}

// read follows the game stream until gameEnd, a refusal, or ctx ends, and
// then calls stop.
func (g *game) read(ctx context.Context, stop context.CancelFunc) {
	defer stop()
	attempt := 0
	for {
		err := g.b.client.StreamGame(ctx, g.id, func(ev GameEvent) bool {
			attempt = 0 // the stream works
			return g.apply(ev)
		})
		g.mu.Lock()
		ended := g.ended
		g.mu.Unlock()
		if ended || ctx.Err() != nil {
			return
		}
		if err != nil && !isTransient(err) {
			g.log.Error("pychess: the server refused the game stream", "err", err)
			return
		}
		d := g.b.cfg.Backoff.Delay(attempt)
		attempt++
		g.log.Warn("pychess: game stream dropped; reconnecting", "err", errString(err), "in", d.Round(time.Millisecond))
		if sleep.For(ctx, d) != nil {
			return
		}
	}
}

// apply records one game event; false stops reading (the game is over).
func (g *game) apply(ev GameEvent) bool {
	g.mu.Lock()
	switch ev.Type {
	case GameEventFull:
		g.full = ev.Full
		g.setState(ev.Full.State)
	case GameEventState:
		g.setState(*ev.State)
	case GameEventEnd:
		g.ended = true
	case GameEventChat:
		g.log.Info("pychess: chat", "from", ev.Chat.Username, "room", ev.Chat.Room, "text", ev.Chat.Text)
	case EventPing:
	default:
		g.log.Debug("pychess: ignoring game event", "type", ev.Type)
	}
	ended := g.ended
	g.mu.Unlock()
	g.signal()
	return !ended
}

// setState records a new state; g.mu is held.
func (g *game) setState(st GameState) {
	if !g.haveState || strings.Join(st.MoveList(), " ") != strings.Join(g.state.MoveList(), " ") {
		g.changes++
	}
	g.state, g.haveState, g.stateAt = st, true, time.Now()
}

// setup is what the bot learns from the first gameFull.
type setup struct {
	variant      env.Variant
	startFEN     string
	colour       env.Colour
	white, black string
	created      time.Time
}

func (g *game) newSetup(f *GameFull) (*setup, error) {
	v, ok := variants[f.Variant.Name]
	if !ok {
		return nil, fmt.Errorf("variant %q is not one the bot plays", f.Variant.Name)
	}
	s := &setup{variant: v, white: f.White.Name, black: f.Black.Name, created: time.Unix(f.CreatedAt, 0).UTC()}
	switch {
	case strings.EqualFold(f.White.Name, g.me):
		s.colour = env.White
	case strings.EqualFold(f.Black.Name, g.me):
		s.colour = env.Black
	default:
		return nil, fmt.Errorf("%s plays neither side (%s v %s)", g.me, f.White.Name, f.Black.Name)
	}
	p, err := env.ParseFEN(f.StartFEN(), v)
	if err != nil {
		return nil, fmt.Errorf("start position: %w", err)
	}
	s.startFEN = p.FEN()
	return s, nil
}

// position returns the position after moves, or the position after the
// legal ones and an error naming the first that is not.
func (s *setup) position(moves []string) (*env.Position, error) {
	p, err := env.ParseFEN(s.startFEN, s.variant)
	if err != nil {
		return nil, err
	}
	if i, err := p.PlayUCI(moves); err != nil {
		return p, fmt.Errorf("move %d (%s): %w", i+1, moves[i], err)
	}
	return p, nil
}

// pendingMove is a move whose sending failed. It is sent again, after a
// wait, only if no new state has arrived meanwhile: once the opponent has
// replied, the old move would be played in the new position. (pychess
// ignores a resent move equal to the last one played, so a move that got
// through although its reply was lost does no harm.)
type pendingMove struct {
	changes   int
	move      string
	offerDraw bool
	tries     int
}

// outcome is what the player knows when it stops.
type outcome struct {
	setup   *setup // nil if no usable gameFull arrived
	aborted bool
	sent    []string // the moves after the bot's last move was accepted
}

// playMoves moves whenever it is the bot's turn, until the game ends or
// ctx does. Moves are sent under send, the bot's own context, so that a
// move in flight when gameEnd arrives (the one that ended the game,
// perhaps) still learns whether it was taken.
func (g *game) playMoves(ctx, send context.Context) (out outcome) {
	var (
		answered = -1 // g.changes when the last move was sent
		values   []float64
		retry    *pendingMove
	)
	for {
		select {
		case <-ctx.Done():
			return out
		case <-g.wake:
		}
		snap := g.snapshot()
		if snap.ended {
			return out
		}
		if snap.full == nil || !snap.haveState {
			continue
		}
		if out.setup == nil {
			s, err := g.newSetup(snap.full)
			if err != nil {
				g.abort(ctx, err)
				return outcome{aborted: true}
			}
			out.setup = s
			g.log.Info("pychess: playing", "colour", s.colour, "white", s.white, "black", s.black, "start", s.startFEN)
		}
		st := out.setup
		moves := snap.state.MoveList()
		pos, err := st.position(moves)
		if err != nil {
			g.abort(ctx, fmt.Errorf("cannot follow the game: %w", err))
			out.aborted = true
			return out
		}
		if pos.SideToMove() != st.colour || snap.changes == answered || !hasLegalMove(pos) {
			// Only the lack of a legal move stops the bot: a draw by rule
			// is the server's to declare, and a move it no longer wants
			// is ignored there, while a move not sent loses on time.
			continue
		}
		var (
			move  string
			offer bool
			tries int
		)
		if retry != nil && retry.changes == snap.changes {
			move, offer, tries = retry.move, retry.offerDraw, retry.tries
		} else {
			reply, ok := g.choose(ctx, st, pos, moves, snap)
			if !ok {
				continue // ctx ended
			}
			if reply.HasValue {
				values = append(values, reply.Value)
			} else {
				values = values[:0]
			}
			move = reply.Move
			offer = g.b.cfg.Draw.Want(len(moves), values, snap.state.DrawOffered(st.colour.Other()))
		}
		retry = nil
		err = g.b.client.Move(send, g.id, move, offer)
		switch {
		case err == nil:
			answered = snap.changes
			out.sent = append(moves[:len(moves):len(moves)], move)
		case ctx.Err() != nil:
		case isTransient(err):
			retry = &pendingMove{changes: snap.changes, move: move, offerDraw: offer, tries: tries + 1}
			// Quicker than a reconnection: the clock is running.
			d := min(g.b.cfg.Backoff.Delay(tries), min(100*time.Millisecond<<tries, 2*time.Second))
			g.log.Warn("pychess: sending the move failed; trying again", "move", move, "err", err, "in", d)
			time.AfterFunc(d, g.signal)
		default:
			g.log.Error("pychess: the server refused the move; leaving the game", "move", move, "err", err)
			return out
		}
	}
}

func hasLegalMove(p *env.Position) bool {
	var ml env.MoveList
	p.LegalMoves(&ml)
	return ml.N > 0
}

// choose asks the engine for a move, handing it the bot's clock. The move
// is always legal: an engine failure or an illegal reply is logged and
// replaced by the first legal move. It reports false when ctx ended.
func (g *game) choose(ctx context.Context, st *setup, pos *env.Position, moves []string, snap snapshot) (choice, bool) {
	left, inc := snap.state.Clock(st.colour)
	clk := g.b.cfg.Clock
	lim := clk.Limits(st.colour, len(moves), left, inc, time.Since(snap.at))
	// The engine's time manager spends what it judges right, at most the
	// window's end; the context ends a little later, out of the overhead
	// kept for the move's trip, in case the search overruns.
	budget, most := lim.Window(st.colour)
	tctx, cancel := context.WithTimeout(ctx, most+clk.overhead()/2)
	start := time.Now()
	reply, err := g.b.search(tctx, pos, lim)
	cancel()
	took := time.Since(start)
	if ctx.Err() != nil {
		return choice{}, false
	}
	var m env.Move
	if err == nil {
		m, err = pos.ParseUCI(reply.Move)
	}
	if err != nil {
		var ml env.MoveList
		pos.LegalMoves(&ml)
		m = ml.Moves[0] // playMoves checked that there is one
		g.log.Error("pychess: the engine failed; playing the first legal move", "err", err, "move", m.UCI())
		reply = choice{}
	}
	reply.Move = m.UCI()
	g.log.Debug("pychess: move", "ply", len(moves)+1, "move", reply.Move, "budget", budget, "took", took.Round(time.Millisecond), "left", left, "value", reply.Value)
	return reply, true
}

// abort aborts the game, saying why.
func (g *game) abort(ctx context.Context, why error) {
	g.log.Error("pychess: aborting the game", "reason", why)
	if err := g.b.client.Abort(ctx, g.id); err != nil && ctx.Err() == nil {
		g.log.Warn("pychess: aborting failed", "err", err)
	}
}

// finish logs the game's end and writes its PGN.
func (g *game) finish(st *setup, moves []string, aborted bool) {
	pos, err := st.position(moves)
	if pos == nil {
		g.log.Error("pychess: cannot record the game", "err", err)
		return
	}
	pg := env.GameOf(pos)
	status := pos.Status()
	pg.Result = pos.Outcome(status)
	pg.SetTag("Event", "pychess.org game")
	pg.SetTag("Site", g.b.client.GameURL(g.id))
	if !st.created.IsZero() && st.created.Unix() > 0 {
		pg.SetTag("Date", st.created.Format("2006.01.02"))
	}
	pg.SetTag("Round", "-")
	pg.SetTag("White", st.white)
	pg.SetTag("Black", st.black)
	if !g.tc.IsZero() {
		pg.SetTag("TimeControl", g.tc.PGN())
	}
	switch {
	case status.IsOver():
		pg.SetTag("Termination", "normal")
	case aborted:
		pg.SetTag("Termination", "abandoned")
	}
	how := status.String()
	if !status.IsOver() {
		// gameEnd carries no result: resignation, time, agreement and
		// abort all look alike (testdata/README.md).
		how = "not reported by the server"
	}
	log := g.log.With("result", pg.Result.String(), "how", how, "plies", len(pg.Moves))
	if g.b.cfg.PGNDir == "" {
		log.Info("pychess: game over")
		return
	}
	path, err := writePGNFile(g.b.cfg.PGNDir, g.id, pg)
	if err != nil {
		log.Error("pychess: game over; writing its PGN failed", "err", err)
		return
	}
	log.Info("pychess: game over", "pgn", path)
}
