package pychess

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sourcegraph/conc"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/enginetest"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/syncbuf"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// searchFunc is a scripted search of the fake engine (enginetest.Engine's
// Search): pos is the game after its moves, lim.MoveTime the budget.
type searchFunc = func(ctx context.Context, pos *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error)

// fakes returns n fake engines that search with search.
func fakes(n int, search searchFunc) []engine.Interface {
	es := make([]engine.Interface, n)
	for i := range es {
		e := enginetest.New()
		e.Search = search
		es[i] = e
	}
	return es
}

// played is a search's answer of m (UCI in pos), with a value when nodes
// is positive.
func played(pos *env.Position, m string, value float64, nodes int) (mcts.Result, error) {
	mv, err := pos.ParseUCI(m)
	if err != nil {
		return mcts.Result{}, err
	}
	return mcts.Result{BestMove: mv, PV: []env.Move{mv}, RootValue: float32(value), Nodes: nodes}, nil
}

// pickEngine plays pick's choice at once, with the given value.
func pickEngine(pick func(pos *env.Position, ply int) string, value float64) searchFunc {
	return func(ctx context.Context, pos *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
		return played(pos, pick(pos, pos.Ply()), value, 1)
	}
}

// scriptEngine plays the bot's moves of a game given in UCI (and reports
// no value).
func scriptEngine(t *testing.T, moves string) searchFunc {
	list := strings.Fields(moves)
	return func(ctx context.Context, pos *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
		if pos.Ply() >= len(list) {
			t.Errorf("the script has no move %d", pos.Ply()+1)
			return mcts.Result{}, errors.New("script over")
		}
		return played(pos, list[pos.Ply()], 0, 0)
	}
}

// scriptOpponent plays the opponent's moves of the same script.
func scriptOpponent(moves string) func(*env.Position, int) string {
	list := strings.Fields(moves)
	return func(pos *env.Position, ply int) string { return list[ply] }
}

// testRig is a fake server, a client and a bot with fast timings.
type testRig struct {
	f    *fakeServer
	bot  *Bot
	logs *syncbuf.Buffer
	dir  string
}

func newRig(t *testing.T, search searchFunc, cfg Config) *testRig {
	t.Helper()
	f := newFakeServer(t)
	logs := &syncbuf.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := NewClient(f.srv.URL, f.token, ClientOptions{Variants: []string{"alice"}, IdleTimeout: 3 * time.Second, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if cfg.PGNDir == "" {
		cfg.PGNDir = dir
	}
	cfg.Logger = log
	cfg.Backoff = Backoff{Initial: time.Millisecond, Max: 10 * time.Millisecond, Factor: 2, Jitter: 0.5}
	if cfg.Clock.Overhead == 0 {
		cfg.Clock.Overhead = 50 * time.Millisecond
	}
	b, err := New(c, fakes(max(1, cfg.MaxGames), search), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("bot log:\n%s", logs.String())
		}
	})
	return &testRig{f: f, bot: b, logs: logs, dir: cfg.PGNDir}
}

// run starts the bot; the returned function stops it and returns Run's
// error.
func (r *testRig) run(t *testing.T) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var wg conc.WaitGroup
	wg.Go(func() { done <- r.bot.Run(ctx) })
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-done:
				wg.Wait()
			case <-time.After(5 * time.Second):
				t.Fatal("the bot did not stop within 5 s of its context ending")
			}
		})
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

func aliceChallenge(id, colour string, limit, inc float64) *Challenge {
	c := &Challenge{ID: id, Rated: false, Color: colour, Speed: "blitz"}
	c.Challenger.Name, c.Challenger.Rating = "Tweedledum", 1500
	c.Variant.Key = "alice"
	c.TimeControl = TimeControl{Type: "clock", Limit: limit, Increment: inc}
	return c
}

// waitPGN waits for the bot's record of a game.
func (r *testRig) waitPGN(t *testing.T, id string) {
	t.Helper()
	r.f.waitFor("the PGN of "+id, 5*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(r.dir, "pychess-"+id+".pgn"))
		return err == nil
	})
}

// readPGN reads the bot's record of a game.
func (r *testRig) readPGN(t *testing.T, id string) *env.Game {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, "pychess-"+id+".pgn"))
	if err != nil {
		t.Fatalf("the game's PGN: %v", err)
	}
	games, err := env.ReadPGN(bytes.NewReader(b), env.Alice)
	if err != nil || len(games) != 1 {
		t.Fatalf("the PGN does not read back (%v):\n%s", err, b)
	}
	return games[0]
}

func uciList(moves []env.Move) string {
	s := make([]string, len(moves))
	for i, m := range moves {
		s[i] = m.UCI()
	}
	return strings.Join(s, " ")
}

// A whole game: the challenge is accepted, the bot plays White through
// the streams to a mate, and the PGN records it.
func TestBotPlaysAGameToMate(t *testing.T) {
	const mate = "e2e4 d7d5 f1e2 d5e4 e2b5" // pychess's MATE1 (testdata/alice_mates.txt)
	r := newRig(t, scriptEngine(t, mate), Config{})
	r.run(t)
	r.f.challenge(aliceChallenge("Yq3xPk7Z", "black", 300, 3), func(g *fakeGame) { g.opponent = scriptOpponent(mate) })
	r.f.waitFor("the game", 5*time.Second, func() bool { return r.f.games["Yq3xPk7Z"] != nil })
	r.waitPGN(t, "Yq3xPk7Z")
	r.f.withGame("Yq3xPk7Z", func(g *fakeGame) {
		if g.result != "1-0" || strings.Join(g.moves, " ") != mate {
			t.Errorf("the server saw %q, %s; want the mate, 1-0", g.moves, g.result)
		}
	})
	pg := r.readPGN(t, "Yq3xPk7Z")
	if got := uciList(pg.Moves); got != mate || pg.Result != env.WhiteWins {
		t.Errorf("PGN has %q, %v; want the mate, 1-0", got, pg.Result)
	}
	for tag, want := range map[string]string{"White": "AliceZeroBot", "Black": "Tweedledum", "TimeControl": "300+3",
		"Termination": "normal", "Site": r.f.srv.URL + "/Yq3xPk7Z", "Date": "2026.01.01"} {
		if got := pg.Tag(tag); got != want {
			t.Errorf("PGN tag %s = %q, want %q", tag, got, want)
		}
	}
	if raw, _ := os.ReadFile(filepath.Join(r.dir, "pychess-Yq3xPk7Z.pgn")); !bytes.Contains(raw, []byte(`[Variant "Alice"]`)) {
		t.Errorf("the PGN lacks [Variant \"Alice\"]:\n%s", raw)
	}
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	if r.f.capsSeen != `{"version":1,"variants":["alice"]}` {
		t.Errorf("capability header %s", r.f.capsSeen)
	}
	if r.f.unauthorized != 0 {
		t.Errorf("%d requests were refused for their token", r.f.unauthorized)
	}
	if strings.Contains(r.logs.String(), r.f.token) {
		t.Error("the token appears in the log")
	}
}

// The move that ends a game never reaches the bot as a state (pychess
// sends gameEnd instead). The bot asks for the final gameFull; when the
// server no longer has it, its own last move is still recorded.
func TestBotRecordsTheLastMove(t *testing.T) {
	const botMates = "e2e4 d7d5 f1e2 d5e4 e2b5"   // MATE1: the bot is White
	const botIsMated = "e2e4 e7e5 d1h5 g8f6 h5e5" // MATE3: the bot is Black
	const botIsMatedSeen = "e2e4 e7e5 d1h5 g8f6"  // what the bot sees of it
	for _, tc := range []struct {
		name, script, colour string
		evicted              bool
		wantMoves            string
		wantResult           env.Result
	}{
		{"bot mates", botMates, "black", false, botMates, env.WhiteWins},
		{"bot mates, game evicted", botMates, "black", true, botMates, env.WhiteWins},
		{"bot is mated", botIsMated, "white", false, botIsMated, env.WhiteWins},
		{"bot is mated, game evicted", botIsMated, "white", true, botIsMatedSeen, env.NoResult},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, scriptEngine(t, tc.script), Config{})
			r.run(t)
			r.f.mu.Lock()
			g := r.f.newGameLocked("LastMove", aliceChallenge("LastMove", tc.colour, 300, 3))
			g.opponent, g.evicted = scriptOpponent(tc.script), tc.evicted
			r.f.mu.Unlock()
			r.f.events <- gameStartLine("LastMove")
			r.waitPGN(t, "LastMove")
			pg := r.readPGN(t, "LastMove")
			if got := uciList(pg.Moves); got != tc.wantMoves || pg.Result != tc.wantResult {
				t.Errorf("PGN %q %v, want %q %v", got, pg.Result, tc.wantMoves, tc.wantResult)
			}
		})
	}
}

// The bot plays Black too, and a game it did not accept in this run (a
// gameStart on connecting) is played all the same.
func TestBotPlaysBlackAndResumesAGame(t *testing.T) {
	r := newRig(t, pickEngine(spreadLegal, 0.3), Config{})
	r.f.mu.Lock()
	g := r.f.newGameLocked("Rsm3Game", aliceChallenge("Rsm3Game", "white", 60, 0))
	g.opponent, g.maxPly = spreadLegal, 12
	r.f.mu.Unlock()
	r.run(t)
	r.f.waitFor("the game to end", 5*time.Second, func() bool { return g.ended })
	r.waitPGN(t, "Rsm3Game")
	pg := r.readPGN(t, "Rsm3Game")
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	if got := uciList(pg.Moves); got != strings.Join(g.moves, " ") || len(g.moves) != 12 {
		t.Errorf("PGN moves %q, server %q", got, g.moves)
	}
	if pg.Result != env.NoResult || pg.Tag("Black") != "AliceZeroBot" || pg.Tag("TimeControl") != "" {
		t.Errorf("a resigned game (result not reported) recorded as %v, Black %q, TimeControl %q", pg.Result, pg.Tag("Black"), pg.Tag("TimeControl"))
	}
}

func TestBotAcceptsAndDeclines(t *testing.T) {
	minTC, _ := ParseTimeControl("1+0")
	maxTC, _ := ParseTimeControl("15+10")
	r := newRig(t, pickEngine(firstLegal, 0), Config{MaxGames: 1, MinTC: minTC, MaxTC: maxTC})
	r.run(t)

	standard := aliceChallenge("St4ndard", "black", 300, 3)
	standard.Variant.Key = "standard"
	corr := aliceChallenge("Cr4Ndays", "white", 0, 0)
	corr.TimeControl = TimeControl{Type: "correspondence", DaysPerTurn: 3}
	fischer := aliceChallenge("Alice960", "white", 300, 3)
	fischer.Chess960 = true
	for _, c := range []*Challenge{
		standard, corr, fischer,
		aliceChallenge("TooFast1", "white", 30, 0), // ½+0: 30 s
		aliceChallenge("TooSlow1", "white", 1800, 0),
		aliceChallenge("Accept01", "black", 300, 3), // fits
		aliceChallenge("Later001", "black", 300, 3), // one game at a time
	} {
		r.f.challenge(c)
	}
	want := map[string]string{"St4ndard": "variant", "Cr4Ndays": "timeControl", "Alice960": "variant",
		"TooFast1": "tooFast", "TooSlow1": "tooSlow", "Later001": "later"}
	r.f.waitFor("the answers", 5*time.Second, func() bool { return len(r.f.declined) == len(want) && len(r.f.accepted) == 1 })
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	for id, reason := range want {
		if got := r.f.declined[id]; got != reason {
			t.Errorf("challenge %s declined with %q, want %q", id, got, reason)
		}
	}
	if r.f.accepted[0] != "Accept01" {
		t.Errorf("accepted %v, want Accept01", r.f.accepted)
	}
}

// A bot whose account is not a BOT stops at once and says so; a bad
// token is a clear error too, not an endless reconnection.
func TestBotRefusedByTheServer(t *testing.T) {
	r := newRig(t, pickEngine(firstLegal, 0), Config{})
	r.f.title = ""
	err := r.bot.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not a BOT account") {
		t.Errorf("Run on a non-BOT account: %v", err)
	}
	// A server without Alice Chess refuses the event stream (400).
	r.f.title, r.f.known = "BOT", []string{"chess"}
	err = r.bot.Run(context.Background())
	var he *HTTPError
	if !errors.As(err, &he) || he.Status != 400 || r.f.badCaps != 1 {
		t.Errorf("Run on a server without Alice: %v, want one 400", err)
	}
	c, err := NewClient(r.f.srv.URL, r.f.token, ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(c, fakes(1, pickEngine(firstLegal, 0)), Config{}); err == nil {
		t.Error("New accepted a client that advertises no variant")
	}

	r.f.token = "another"
	err = r.bot.Run(context.Background())
	if !errors.As(err, &he) || he.Status != 403 {
		t.Errorf("Run with a bad token: %v, want a 403", err)
	}
}

// The event stream breaks twice: right after the bot accepted (the
// gameStart is still queued) and in the middle of the game. The bot
// reconnects each time and finishes the game.
func TestBotSurvivesDroppedEventStream(t *testing.T) {
	r := newRig(t, pickEngine(spreadLegal, 0.2), Config{})
	r.run(t)
	r.f.waitFor("the event stream", 5*time.Second, func() bool { return r.f.eventConnects == 1 })
	r.f.dropEvent <- struct{}{}
	r.f.waitFor("a reconnection", 5*time.Second, func() bool { return r.f.eventConnects == 2 })

	r.f.challenge(aliceChallenge("Drop1Evt", "black", 300, 3), func(g *fakeGame) { g.opponent, g.maxPly = spreadLegal, 20 })
	r.f.waitFor("the game", 5*time.Second, func() bool { return r.f.games["Drop1Evt"] != nil })
	r.f.dropEvent <- struct{}{} // the gameStart may not have gone out
	r.f.waitFor("ply 8", 5*time.Second, func() bool { return len(r.f.games["Drop1Evt"].moves) >= 8 })
	r.f.dropEvent <- struct{}{}
	r.f.waitFor("the game to end", 5*time.Second, func() bool { return r.f.games["Drop1Evt"].ended })
	r.waitPGN(t, "Drop1Evt")
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	if r.f.eventConnects < 4 {
		t.Errorf("%d event stream connections, want at least 4", r.f.eventConnects)
	}
	if g := r.f.games["Drop1Evt"]; len(g.moves) != 20 || g.flagged {
		t.Errorf("the game went to ply %d (flagged %v), want 20", len(g.moves), g.flagged)
	}
	if n := strings.Count(r.logs.String(), "event stream dropped"); n < 3 {
		t.Errorf("%d drops logged, want 3", n)
	}
}

// The game stream breaks in the middle of the game, and the server at
// first refuses a new one (409: it has not noticed the old one is gone).
// The bot reconnects, learns the moves it missed from gameFull, and
// finishes the game; its PGN matches the server's moves.
func TestBotSurvivesDroppedGameStream(t *testing.T) {
	r := newRig(t, pickEngine(spreadLegal, 0.2), Config{})
	r.run(t)
	r.f.challenge(aliceChallenge("Drop2Gam", "white", 300, 3), func(g *fakeGame) {
		g.opponent, g.maxPly, g.dropAtPly, g.conflictsAfterDrop = spreadLegal, 24, 7, 2
	})
	r.f.waitFor("the game", 5*time.Second, func() bool { return r.f.games["Drop2Gam"] != nil })
	r.f.waitFor("the game to end", 5*time.Second, func() bool { return r.f.games["Drop2Gam"].ended })
	r.waitPGN(t, "Drop2Gam")
	pg := r.readPGN(t, "Drop2Gam")
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	g := r.f.games["Drop2Gam"]
	if g.connects < 2 || len(g.moves) != 24 {
		t.Errorf("%d game stream connections, game to ply %d; want ≥ 2 and 24", g.connects, len(g.moves))
	}
	if got := uciList(pg.Moves); got != strings.Join(g.moves, " ") {
		t.Errorf("PGN moves %q\nserver moves %q", got, g.moves)
	}
	logs := r.logs.String()
	if !strings.Contains(logs, "game stream dropped") || !strings.Contains(logs, "409") {
		t.Errorf("the drop and the 409 are not in the log")
	}
}

// Malformed lines on both streams are logged and skipped; the bot goes on
// to accept the next challenge and play its game.
func TestBotSkipsMalformedEvents(t *testing.T) {
	r := newRig(t, pickEngine(spreadLegal, 0.1), Config{})
	r.run(t)
	bad := []string{
		`{"type":"challenge","challenge":{"id":`,
		`this is not json`,
		`{"type":"challenge"}`,
		`{"type":"gameStart","game":{}}`,
		strings.Repeat("x", DefaultMaxLine+10),
		"", "   ",
	}
	for _, l := range bad {
		r.f.events <- l
	}
	r.f.challenge(aliceChallenge("AfterBad", "black", 300, 3), func(g *fakeGame) {
		g.opponent, g.maxPly = spreadLegal, 10
		g.queue <- `{"type":"gameState","moves":5}`
		g.queue <- `{"type": "gameState", "moves": "e2e4", "wtime": 1000, "btime":}`
	})
	r.f.waitFor("the game", 5*time.Second, func() bool { return r.f.games["AfterBad"] != nil })
	r.f.waitFor("the game to end", 5*time.Second, func() bool { return r.f.games["AfterBad"].ended })
	r.f.mu.Lock()
	if n := len(r.f.games["AfterBad"].moves); n != 10 || r.f.illegalBotMove != "" {
		t.Errorf("the game went to ply %d (illegal move %q), want 10", n, r.f.illegalBotMove)
	}
	connects := r.f.eventConnects
	r.f.mu.Unlock()
	logs := r.logs.String()
	if n := strings.Count(logs, "ignoring a malformed line"); n != 6 {
		t.Errorf("%d malformed lines logged, want 6 (4 events, 2 game lines)", n)
	}
	if !strings.Contains(logs, "skipping an over-long line") {
		t.Error("the over-long line is not logged")
	}
	if connects != 1 {
		t.Errorf("%d event stream connections: a malformed line broke the stream", connects)
	}
}

// The draw rule: with the opponent's offer standing (reported as
// wdraw/bdraw) and a level position after MinPly, the bot's move carries
// lichess's offeringDraw; before MinPly, or with a clear value, it does
// not.
func TestBotDrawOffers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		value   float64
		offered bool
		// wantFrom is the first bot ply whose move offers a draw (0: none).
		wantFrom int
	}{
		{"level, opponent offers", 0.01, true, 7},
		{"level, no offer: after a streak of 5", 0.01, false, 9},
		{"clear advantage", 0.6, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, pickEngine(spreadLegal, tc.value), Config{Draw: DrawRule{MinPly: 6, MaxValue: 0.05, Streak: 5}})
			r.run(t)
			r.f.challenge(aliceChallenge("Draw0001", "black", 300, 3), func(g *fakeGame) { g.opponent, g.maxPly, g.oppDraw = spreadLegal, 16, tc.offered })
			r.f.waitFor("the game", 5*time.Second, func() bool { return r.f.games["Draw0001"] != nil })
			r.f.waitFor("the game to end", 5*time.Second, func() bool { return r.f.games["Draw0001"].ended })
			r.f.withGame("Draw0001", func(g *fakeGame) {
				for _, m := range g.botMoves {
					want := tc.wantFrom > 0 && m.ply >= tc.wantFrom
					if m.offerDraw != want {
						t.Errorf("bot move at ply %d: offeringDraw %v, want %v", m.ply, m.offerDraw, want)
					}
				}
			})
		})
	}
}

// Clock management: an engine that uses its whole budget plays a game on
// a 3-second clock without increment, 40 plies, and never flags; each
// budget is at most a quarter of what is left, and the server never
// charges more than the budget plus the overhead.
func TestBotManagesItsClock(t *testing.T) {
	var (
		mu      sync.Mutex
		budgets []time.Duration
	)
	eng := func(ctx context.Context, pos *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
		// The engine's time manager turns the bot's clock into the time
		// to spend.
		budget := lim.Budget(pos.SideToMove())
		mu.Lock()
		budgets = append(budgets, budget)
		mu.Unlock()
		select { // think for the whole budget
		case <-time.After(budget):
		case <-ctx.Done():
		}
		return pickEngine(spreadLegal, 0.3)(ctx, pos, lim, progress)
	}
	r := newRig(t, eng, Config{Clock: Clock{Overhead: 200 * time.Millisecond, MovesToGo: 20, MinBudget: 5 * time.Millisecond}})
	r.run(t)
	r.f.challenge(aliceChallenge("Clock001", "black", 3, 0), func(g *fakeGame) { g.opponent, g.maxPly = spreadLegal, 40 })
	r.f.waitFor("the game", 5*time.Second, func() bool { return r.f.games["Clock001"] != nil })
	r.f.waitFor("the game to end", 10*time.Second, func() bool { return r.f.games["Clock001"].ended })
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	g := r.f.games["Clock001"]
	if g.flagged || len(g.moves) != 40 {
		t.Fatalf("flagged %v at ply %d, clock %.0f ms", g.flagged, len(g.moves), g.clocks[env.White])
	}
	mu.Lock()
	defer mu.Unlock()
	if len(budgets) != len(g.botMoves) {
		t.Fatalf("%d budgets for %d moves", len(budgets), len(g.botMoves))
	}
	var used time.Duration
	for i, m := range g.botMoves {
		left := time.Duration(m.clockLeft) * time.Millisecond
		if budgets[i] > max((left-200*time.Millisecond)/4, 5*time.Millisecond) {
			t.Errorf("ply %d: budget %v with %v left", m.ply, budgets[i], left)
		}
		// Budget ≤ (left − overhead)/4 and charged ≤ budget + overhead
		// is what keeps the flag up.
		if m.charged > budgets[i]+200*time.Millisecond {
			t.Errorf("ply %d: charged %v for a budget of %v", m.ply, m.charged, budgets[i])
		}
		used += m.charged
	}
	if used < time.Second {
		t.Errorf("the bot used only %v of its 3 s: the budgets are not spent", used)
	}
}

// Several games at once: with MaxGames 2, two challenges are accepted
// and their searches overlap; a third is declined for later.
func TestBotPlaysGamesConcurrently(t *testing.T) {
	var inFlight, overlap atomic.Int32
	both := make(chan struct{})
	var once sync.Once
	eng := func(ctx context.Context, pos *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		if n == 2 {
			overlap.Store(1)
			once.Do(func() { close(both) })
		}
		if pos.Ply() == 0 { // the first move of each game waits for the other
			select {
			case <-both:
			case <-time.After(3 * time.Second):
			case <-ctx.Done():
			}
		}
		return pickEngine(spreadLegal, 0.3)(ctx, pos, lim, progress)
	}
	r := newRig(t, eng, Config{MaxGames: 2})
	r.run(t)
	for _, id := range []string{"Concur01", "Concur02", "Concur03"} {
		r.f.challenge(aliceChallenge(id, "black", 300, 3), func(g *fakeGame) { g.opponent, g.maxPly = spreadLegal, 10 })
	}
	r.f.waitFor("two games", 5*time.Second, func() bool { return len(r.f.games) == 2 && len(r.f.declined) == 1 })
	r.f.waitFor("both games to end", 5*time.Second, func() bool {
		return r.f.games["Concur01"].ended && r.f.games["Concur02"].ended
	})
	if overlap.Load() != 1 {
		t.Error("the two games' searches never overlapped")
	}
	r.f.mu.Lock()
	if r.f.declined["Concur03"] != "later" {
		t.Errorf("the third challenge: %q, want declined for later", r.f.declined["Concur03"])
	}
	r.f.mu.Unlock()
	// Once they are over (and recorded), the slots are free again.
	r.waitPGN(t, "Concur01")
	r.waitPGN(t, "Concur02")
	r.f.challenge(aliceChallenge("Concur04", "black", 300, 3))
	r.f.waitFor("the next game", 5*time.Second, func() bool { return r.f.games["Concur04"] != nil })
}

// Cancelling the context stops everything promptly: the event stream, a
// game stream, and a search in progress (which sees its context end).
func TestBotStopsOnCancel(t *testing.T) {
	searching := make(chan struct{})
	var stopped atomic.Bool
	eng := func(ctx context.Context, pos *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
		close(searching)
		<-ctx.Done()
		stopped.Store(true)
		return mcts.Result{}, ctx.Err()
	}
	r := newRig(t, eng, Config{})
	stop := r.run(t)
	r.f.challenge(aliceChallenge("Cancel01", "black", 3600, 0)) // a long budget: only ctx ends it
	select {
	case <-searching:
	case <-time.After(5 * time.Second):
		t.Fatal("the search did not start")
	}
	start := time.Now()
	err := stop()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("stopping took %v", d)
	}
	if !stopped.Load() {
		t.Error("the search did not see its context end")
	}
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	if n := len(r.f.games["Cancel01"].botMoves); n != 0 {
		t.Errorf("%d moves sent after cancelling", n)
	}
}

// An engine that fails, or answers an illegal move, does not lose the
// game: the bot plays a legal move and logs the failure.
func TestBotReplacesBadEngineMoves(t *testing.T) {
	var calls atomic.Int32
	// e1e8: a rook's move of another game, never legal in this one.
	other, err := env.ParseFEN("7k/8/8/8/8/8/8/4R2K w - - 0 1", env.Alice)
	if err != nil {
		t.Fatal(err)
	}
	eng := func(ctx context.Context, pos *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
		if calls.Add(1)%2 == 1 {
			return played(other, "e1e8", 0, 1)
		}
		return mcts.Result{}, fmt.Errorf("out of cheese")
	}
	r := newRig(t, eng, Config{})
	r.run(t)
	r.f.challenge(aliceChallenge("BadEng01", "black", 300, 3), func(g *fakeGame) { g.opponent, g.maxPly = spreadLegal, 8 })
	r.f.waitFor("the game", 5*time.Second, func() bool { return r.f.games["BadEng01"] != nil })
	r.f.waitFor("the game to end", 5*time.Second, func() bool { return r.f.games["BadEng01"].ended })
	r.f.mu.Lock()
	defer r.f.mu.Unlock()
	if r.f.illegalBotMove != "" || len(r.f.games["BadEng01"].moves) != 8 {
		t.Errorf("illegal move %q sent; game to ply %d", r.f.illegalBotMove, len(r.f.games["BadEng01"].moves))
	}
	if n := strings.Count(r.logs.String(), "the engine failed"); n != 4 {
		t.Errorf("%d engine failures logged, want 4", n)
	}
}

// A game the bot cannot follow is aborted, not played blind: one in a
// variant it does not play (an account shared with another program), and
// one where the server accepts a move the bot's rules reject.
func TestBotAbortsAnUnplayableGame(t *testing.T) {
	for _, tc := range []struct {
		name   string
		set    func(g *fakeGame)
		reason string
	}{
		{"another variant", func(g *fakeGame) { g.variant = "crazyhouse" }, `variant \"crazyhouse\"`},
		{"a move the rules reject", func(g *fakeGame) { g.opponent, g.injectMove = spreadLegal, "e1e5" }, "cannot follow the game"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, pickEngine(spreadLegal, 0), Config{})
			r.f.mu.Lock()
			g := r.f.newGameLocked("Unplay01", aliceChallenge("Unplay01", "white", 300, 3))
			tc.set(g)
			r.f.mu.Unlock()
			r.run(t)
			r.f.waitFor("the abort", 5*time.Second, func() bool { return g.ended && g.result == "*" })
			logs := r.logs.String()
			if !strings.Contains(logs, "aborting the game") || !strings.Contains(logs, tc.reason) {
				t.Errorf("the abort and its reason (%s) are not in the log", tc.reason)
			}
		})
	}
}

// A panic in a game ends that game only: it is logged with its stack, the
// bot goes on, and Run returns it when it stops.
func TestBotSurfacesAPanic(t *testing.T) {
	eng := func(ctx context.Context, pos *env.Position, lim clock.Limits, progress mcts.Progress) (mcts.Result, error) {
		panic("engine exploded")
	}
	r := newRig(t, eng, Config{MaxGames: 1})
	stop := r.run(t)
	r.f.challenge(aliceChallenge("Panic001", "black", 300, 3))
	r.f.waitFor("the crash", 5*time.Second, func() bool { return strings.Contains(r.logs.String(), "game crashed") })
	// The slot is free again: the next challenge is accepted.
	r.f.challenge(aliceChallenge("Panic002", "white", 300, 3))
	r.f.waitFor("the next game", 5*time.Second, func() bool { return r.f.games["Panic002"] != nil })
	err := stop()
	if err == nil || !strings.Contains(err.Error(), "engine exploded") || !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want the panic and context.Canceled", err)
	}
	if !strings.Contains(r.logs.String(), "goroutine") {
		t.Error("the panic's stack is not logged")
	}
}
