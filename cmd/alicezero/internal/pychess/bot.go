package pychess

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/panics"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/sleep"
	"github.com/alicezero/alicezero/mcts/engine"
)

// variants maps pychess's variant names to the rule sets they are.
var variants = map[string]env.Variant{
	"alice": env.Alice,
}

// VariantNames lists the pychess variants the bot can play.
func VariantNames() []string {
	names := make([]string, 0, len(variants))
	for n := range variants {
		names = append(names, n)
	}
	return names
}

// Config configures a Bot. The zero value plays Alice Chess, one game at
// a time, at any real-time control, and keeps no PGN.
type Config struct {
	// Variants are the pychess variant names to accept; empty means
	// "alice".
	Variants []string
	// MaxGames is the most games played at once; 0 means 1.
	MaxGames int
	// MinTC and MaxTC bound the time controls accepted, compared by
	// Estimate (base + 40 increments); a zero bound does not apply.
	MinTC, MaxTC clock.Control
	// PGNDir receives each finished game as PGN; "" keeps none.
	PGNDir string
	// Clock turns clock readings into move budgets.
	Clock Clock
	// Draw decides about draws by agreement.
	Draw DrawRule
	// Backoff spaces out reconnections of dropped streams; without an
	// Initial wait it is DefaultBackoff.
	Backoff Backoff
	// Visits bounds each search's visits (the alpha-beta's nodes, as
	// many as take as long: engine.VisitNodes); 0 leaves the clock's
	// budget the only bound.
	Visits int
	// Logger receives the bot's log; nil discards it.
	Logger *slog.Logger
}

// pendingTimeout is how long an accepted challenge holds a game slot
// while its gameStart has not arrived.
const pendingTimeout = time.Minute

// Bot plays on pychess.org through a Client, with moves from its engines.
type Bot struct {
	client *Client
	// free holds the engines no search is using.
	free     chan engine.Interface
	cfg      Config
	log      *slog.Logger
	accepted map[string]env.Variant

	mu      sync.Mutex
	me      string
	active  map[string]bool
	pending map[string]pendingGame
	panics  []error
}

// pendingGame is an accepted challenge whose game has not started.
type pendingGame struct {
	since time.Time
	tc    clock.Control
}

// New returns a bot that plays with engines: each search borrows a free
// one (an engine.Interface serves one game at a time), so that as many
// games as there are engines search at once; a search waits for an
// engine while all are busy. The bot does not close them. New checks the
// configuration; nothing is sent yet.
func New(client *Client, engines []engine.Interface, cfg Config) (*Bot, error) {
	if client == nil || len(engines) == 0 || slices.Contains(engines, nil) {
		return nil, errors.New("pychess: New needs a client and an engine")
	}
	if cfg.Visits < 0 {
		return nil, fmt.Errorf("pychess: the visits per move must not be negative, got %d", cfg.Visits)
	}
	if len(cfg.Variants) == 0 {
		cfg.Variants = []string{"alice"}
	}
	accepted := make(map[string]env.Variant)
	for _, name := range cfg.Variants {
		v, ok := variants[name]
		if !ok {
			return nil, fmt.Errorf("pychess: variant %q is not one the bot plays (known: %s)", name, strings.Join(VariantNames(), ", "))
		}
		if !slices.Contains(client.variants, name) {
			return nil, fmt.Errorf("pychess: the client does not advertise variant %q, so no challenge in it would come", name)
		}
		accepted[name] = v
	}
	if cfg.MaxGames == 0 {
		cfg.MaxGames = 1
	}
	if cfg.MaxGames < 0 {
		return nil, fmt.Errorf("pychess: the number of games at once must be positive, got %d", cfg.MaxGames)
	}
	if !cfg.MaxTC.IsZero() && Estimate(cfg.MaxTC) < Estimate(cfg.MinTC) {
		return nil, fmt.Errorf("pychess: the slowest time control accepted (%s) is faster than the fastest (%s): pychess compares base + %d increments",
			clock.Lobby.Format(cfg.MaxTC), clock.Lobby.Format(cfg.MinTC), estimateMoves)
	}
	if cfg.Backoff.Initial <= 0 {
		cfg.Backoff = DefaultBackoff
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	free := make(chan engine.Interface, len(engines))
	for _, e := range engines {
		free <- e
	}
	return &Bot{
		client: client, free: free, cfg: cfg, log: log, accepted: accepted,
		active: make(map[string]bool), pending: make(map[string]pendingGame),
	}, nil
}

// ParseTimeControl reads a time control as pychess's lobby writes it
// (clock.Lobby): minutes of base time (a fraction allowed) "+" seconds of
// increment, e.g. "5+3" or "0.5+0", or with units ("5m+3s").
func ParseTimeControl(s string) (clock.Control, error) {
	c, err := clock.Lobby.Parse(s)
	if err != nil {
		return clock.Control{}, err
	}
	if c.Moves != 0 {
		return clock.Control{}, fmt.Errorf("time control %q: pychess has no moves per period (want MINUTES+SECONDS, e.g. 5+3)", s)
	}
	return c, nil
}

// estimateMoves is the game length pychess assumes when it classes a time
// control by speed (seek.ESTIMATE_MOVES).
const estimateMoves = 40

// Estimate returns the expected length of one side's clock over a game of
// pychess's assumed length: base + 40 increments, the quantity pychess
// classes its speeds by.
func Estimate(c clock.Control) time.Duration { return c.Base + estimateMoves*c.Inc }

// Run plays until ctx ends or the server refuses the bot: it reads the
// event stream (reconnecting after drops, with backoff), accepts the
// challenges that fit, and plays each game on its own goroutine. Games in
// progress when ctx ends are left as they are (a restarted bot resumes
// them: the server announces them again). A panic in a game ends that
// game's goroutine only; it is logged and returned with Run's error.
func (b *Bot) Run(ctx context.Context) error {
	acct, err := b.client.Account(ctx)
	if err != nil {
		return err
	}
	if acct.Title != "BOT" {
		return fmt.Errorf("pychess: account %s is not a BOT account (title %q); upgrade it first (see README)", acct.Username, acct.Title)
	}
	b.mu.Lock()
	b.me = acct.Username
	b.mu.Unlock()
	b.log.Info("pychess: connected", "account", acct.Username, "variants", strings.Join(b.cfg.Variants, ","), "max_games", b.cfg.MaxGames)

	ctx, cancel := context.WithCancel(ctx)
	var games conc.WaitGroup
	err = b.readEvents(ctx, &games)
	cancel()
	games.Wait()

	b.mu.Lock()
	defer b.mu.Unlock()
	return errors.Join(append([]error{err}, b.panics...)...)
}

// readEvents reads the event stream until ctx ends or the server refuses
// it for good.
func (b *Bot) readEvents(ctx context.Context, games *conc.WaitGroup) error {
	attempt := 0
	for {
		err := b.client.StreamEvents(ctx, func(ev Event) bool {
			attempt = 0 // the stream works
			return b.handleEvent(ctx, games, ev)
		})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if he := (*HTTPError)(nil); errors.As(err, &he) && !he.Transient() {
			return fmt.Errorf("pychess: the server refused the event stream: %w", err)
		}
		d := b.cfg.Backoff.Delay(attempt)
		attempt++
		b.log.Warn("pychess: event stream dropped; reconnecting", "err", errString(err), "in", d.Round(time.Millisecond))
		if err := sleep.For(ctx, d); err != nil {
			return err
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "the server ended it"
	}
	return err.Error()
}

// handleEvent acts on one event; false drops the connection.
func (b *Bot) handleEvent(ctx context.Context, games *conc.WaitGroup, ev Event) bool {
	switch ev.Type {
	case EventPing:
	case EventChallenge:
		b.answerChallenge(ctx, ev.Challenge)
	case EventGameStart:
		b.startGame(ctx, games, ev.GameID)
	case EventTerminated:
		b.log.Warn("pychess: the server is shutting down")
		return false
	default:
		b.log.Debug("pychess: ignoring event", "type", ev.Type)
	}
	return true
}

// decline returns the reason to decline c, or "" to accept it, not
// counting the games already being played.
func (b *Bot) decline(c *Challenge) string {
	if _, ok := b.accepted[c.Variant.Key]; !ok || c.Chess960 {
		return DeclineVariant
	}
	if c.TimeControl.Type != "clock" {
		return DeclineTimeControl
	}
	switch est := Estimate(c.TimeControl.Control()); {
	case est <= 0:
		return DeclineTimeControl
	case est < Estimate(b.cfg.MinTC):
		return DeclineTooFast
	case !b.cfg.MaxTC.IsZero() && est > Estimate(b.cfg.MaxTC):
		return DeclineTooSlow
	}
	return ""
}

func (b *Bot) answerChallenge(ctx context.Context, c *Challenge) {
	log := b.log.With("challenge", c.ID, "from", c.Challenger.Name, "variant", c.Variant.Key, "tc", c.TimeControl.String())
	reason := b.decline(c)
	if reason == "" {
		b.mu.Lock()
		now := time.Now()
		for id, p := range b.pending {
			if now.Sub(p.since) > pendingTimeout {
				delete(b.pending, id)
			}
		}
		if len(b.active)+len(b.pending) >= b.cfg.MaxGames {
			reason = DeclineLater
		} else {
			b.pending[c.ID] = pendingGame{since: now, tc: c.TimeControl.Control()}
		}
		b.mu.Unlock()
	}
	if reason != "" {
		if err := b.client.DeclineChallenge(ctx, c.ID, reason); err != nil && ctx.Err() == nil {
			log.Warn("pychess: declining failed", "err", err)
			return
		}
		log.Info("pychess: declined", "reason", reason)
		return
	}
	if err := b.client.AcceptChallenge(ctx, c.ID); err != nil {
		b.mu.Lock()
		delete(b.pending, c.ID)
		b.mu.Unlock()
		if ctx.Err() == nil {
			log.Warn("pychess: accepting failed", "err", err)
		}
		return
	}
	log.Info("pychess: accepted")
}

// startGame plays game id on a new goroutine unless it is being played.
// A game the server starts is played even beyond MaxGames: it is the
// bot's, accepted before a restart or a dropped stream.
func (b *Bot) startGame(ctx context.Context, games *conc.WaitGroup, id string) {
	b.mu.Lock()
	p := b.pending[id]
	delete(b.pending, id)
	if b.active[id] {
		b.mu.Unlock()
		return
	}
	b.active[id] = true
	me := b.me
	b.mu.Unlock()

	var once sync.Once
	release := func() {
		once.Do(func() {
			b.mu.Lock()
			delete(b.active, id)
			b.mu.Unlock()
		})
	}
	games.Go(func() {
		defer release()
		g := newGame(b, id, me, p.tc, release)
		if r := panics.Try(func() { g.play(ctx) }); r != nil {
			err := fmt.Errorf("pychess: game %s: %w", id, r.AsError())
			b.log.Error("pychess: game crashed", "game", id, "panic", r.String())
			b.mu.Lock()
			b.panics = append(b.panics, err)
			b.mu.Unlock()
		}
	})
}
