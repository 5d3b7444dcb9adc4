package pychess

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicezero/alicezero/env"
)

// fakeServer is an in-process pychess.org speaking the BOT API as the
// server code recorded in testdata/README.md does: the same endpoints,
// status codes, payload templates, keep-alive pings, 409 for a second game
// stream, game streams left open after gameEnd, and BOT clocks charged
// from the opponent's move to the BOT's (plus the increment). The opponent
// is a person who plays legal moves.
type fakeServer struct {
	t     *testing.T
	srv   *httptest.Server
	token string
	bot   string
	title string
	ping  time.Duration
	// known are the variants the server has (bot_api's ALL_VARIANTS).
	known []string

	events    chan string   // the BOT's event queue
	dropEvent chan struct{} // a value aborts the event stream connection

	mu             sync.Mutex
	eventConnects  int
	badCaps        int
	challenges     map[string]*Challenge
	declined       map[string]string
	accepted       []string
	games          map[string]*fakeGame
	prepare        map[string]func(*fakeGame) // applied to a game when it is created
	unauthorized   int
	capsSeen       string
	illegalBotMove string
}

// fakeGame is one game on the fake server.
type fakeGame struct {
	id           string
	variant      string // "alice" unless a test says otherwise
	initialFen   string
	white, black string
	botColour    env.Colour
	pos          *env.Position
	moves        []string
	clocks       [2]float64 // ms
	inc          int        // s
	created      int64
	lastMove     time.Time // when the clock of the side to move started
	ended        bool
	result       string
	flagged      bool
	queue        chan string // the BOT's game queue
	streamActive bool
	connects     int
	conflicts    int // answer this many game stream connections with 409
	dropAtPly    int // abort the game stream when the game reaches this ply
	// conflictsAfterDrop is how many connections after the drop get 409:
	// pychess notices a dead stream only when a write to it fails.
	conflictsAfterDrop int
	injectMove         string // the opponent's next move, unchecked (a rules disagreement)
	// evicted: the server no longer holds the finished game, and a new game
	// stream fails (bot_api.game_stream's game_queues lookup raises).
	evicted  bool
	drop     chan struct{}
	opponent func(pos *env.Position, ply int) string
	oppDelay time.Duration
	oppDraw  bool // the opponent's standing draw offer (wdraw/bdraw)
	maxPly   int  // the opponent resigns at this ply (0: never)
	botMoves []botMove
}

// botMove is a move the BOT sent, with what the server saw.
type botMove struct {
	uci       string
	offerDraw bool
	ply       int
	charged   time.Duration // the time the clock charged for it
	clockLeft float64       // ms, before the move
}

func newFakeServer(t *testing.T) *fakeServer {
	t.Helper()
	f := &fakeServer{
		t: t, token: "secret-token-123", bot: "AliceZeroBot", title: "BOT", ping: 500 * time.Millisecond,
		known:  []string{"chess", "alice", "crazyhouse"},
		events: make(chan string, 100), dropEvent: make(chan struct{}, 1),
		challenges: map[string]*Challenge{}, declined: map[string]string{}, games: map[string]*fakeGame{},
		prepare: map[string]func(*fakeGame){},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/account", f.auth(false, f.account))
	mux.HandleFunc("POST /api/bot/account/upgrade", f.auth(false, f.upgrade))
	mux.HandleFunc("GET /api/stream/event", f.auth(true, f.eventStream))
	mux.HandleFunc("POST /api/challenge/{id}/accept", f.auth(true, f.accept))
	mux.HandleFunc("POST /api/challenge/{id}/decline", f.auth(true, f.decline))
	mux.HandleFunc("GET /api/bot/game/stream/{id}", f.auth(true, f.gameStream))
	mux.HandleFunc("POST /api/bot/game/{id}/move/{move}", f.auth(true, f.move))
	mux.HandleFunc("POST /api/bot/game/{id}/abort", f.auth(true, f.abort))
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

// auth checks the token as bot_api._authorize_token does: 403 without a
// valid bearer token, or without the BOT title where needed.
func (f *fakeServer) auth(needBot bool, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		ok := r.Header.Get("Authorization") == "Bearer "+f.token && (!needBot || f.title == "BOT")
		if !ok {
			f.unauthorized++
		}
		f.mu.Unlock()
		if !ok {
			http.Error(w, "403: Forbidden", http.StatusForbidden)
			return
		}
		h(w, r)
	}
}

func writeOK(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"ok":true}`)
}

func (f *fakeServer) account(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":%q,"username":%q,"title":%q}`, f.bot, f.bot, f.title)
}

func (f *fakeServer) upgrade(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.title = "BOT"
	f.mu.Unlock()
	writeOK(w)
}

// --- payloads, in the server's templates (testdata/README.md) ---

const pingLine = `{"type":"ping"}`

func gameStartLine(id string) string {
	return fmt.Sprintf(`{"type": "gameStart", "game": {"id": "%s", "skill_level": "%s", "chess960": "%s"}}`, id, "0", "False")
}

func gameEndLine(id string) string {
	return fmt.Sprintf(`{"type": "gameEnd", "game": {"id": "%s"}}`, id)
}

// pyNumber writes a clock as Python's %s does: an int as an int, a float
// with its fraction (30000.0).
func pyNumber(ms float64, isFloat bool) string {
	if isFloat {
		return fmt.Sprintf("%.1f", ms)
	}
	return fmt.Sprintf("%d", int64(ms))
}

func gameStateLine(moves []string, wtime, btime string, inc int, wdraw, bdraw bool) string {
	return fmt.Sprintf(`{"type": "gameState", "moves": "%s", "wtime": %s, "btime": %s, "winc": %d, "binc": %d, "wdraw": %t, "bdraw": %t, "wtakeback": %s, "btakeback": %s, "status": "%s"}`,
		strings.Join(moves, " "), wtime, btime, inc, inc, wdraw, bdraw, "false", "false", "started")
}

func gameFullLine(id, variant, white, black, initialFen string, created int64, state string) string {
	return fmt.Sprintf(`{"type": "gameFull", "id": "%s", "variant": {"name": "%s"}, "white": {"name": "%s"}, "black": {"name": "%s"}, "initialFen": "%s", "createdAt": %d, "state": %s}`,
		id, variant, white, black, initialFen, created, state)
}

// challengeLine writes a challenge as seek.challenge does, through
// msgspec (compact, keys in insertion order).
func challengeLine(c *Challenge) string {
	tc := `{"type":"clock","limit":` + fmt.Sprint(int(c.TimeControl.Limit)) + `,"increment":` + fmt.Sprint(int(c.TimeControl.Increment)) + `}`
	if c.TimeControl.Type == "correspondence" {
		tc = `{"type":"correspondence","daysPerTurn":` + fmt.Sprint(c.TimeControl.DaysPerTurn) + `}`
	}
	name, _ := json.Marshal(c.Challenger.Name)
	title, _ := json.Marshal(c.Challenger.Title)
	final := c.Color
	if final == "random" {
		final = "white"
	}
	perf := c.Variant.Key
	if perf == "standard" {
		perf = "chess"
	}
	return `{"type":"challenge","challenge":{"id":"` + c.ID + `","challenger":{"name":` + string(name) + `,"rating":` + fmt.Sprint(c.Challenger.Rating) +
		`,"title":` + string(title) + `},"variant":{"key":"` + c.Variant.Key + `"},"rated":` + fmt.Sprint(c.Rated) + `,"timeControl":` + tc +
		`,"color":"` + c.Color + `","finalColor":"` + final + `","speed":"` + c.Speed + `","perf":{"name":"` + perf + `"},"level":0,"chess960":` + fmt.Sprint(c.Chess960) + `}}`
}

func (g *fakeGame) stateLine() string {
	w, b := g.clocks[0], g.clocks[1]
	isFloat := func(x float64) bool { return x != float64(int64(x)) }
	// pychess always sends wdraw and bdraw false; the fake can show the
	// opponent's offer, to exercise the draw rule.
	opp := g.botColour.Other()
	return gameStateLine(g.moves, pyNumber(w, isFloat(w)), pyNumber(b, isFloat(b)), g.inc,
		g.oppDraw && opp == env.White, g.oppDraw && opp == env.Black)
}

// --- streams ---

// streamWriter writes NDJSON lines and flushes each.
type streamWriter struct {
	w http.ResponseWriter
	f http.Flusher
}

func newStream(w http.ResponseWriter) *streamWriter {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	fl := w.(http.Flusher)
	fl.Flush()
	return &streamWriter{w: w, f: fl}
}

func (s *streamWriter) line(l string) bool {
	if _, err := fmt.Fprint(s.w, l+"\n"); err != nil {
		return false
	}
	s.f.Flush()
	return true
}

func (f *fakeServer) eventStream(w http.ResponseWriter, r *http.Request) {
	var caps struct {
		Version  int      `json:"version"`
		Variants []string `json:"variants"`
	}
	raw := r.Header.Get("X-PyChess-Bot-Capabilities")
	f.mu.Lock()
	known := f.known
	f.mu.Unlock()
	if err := json.Unmarshal([]byte(raw), &caps); err != nil || caps.Version != 1 ||
		!slices.ContainsFunc(caps.Variants, func(v string) bool { return slices.Contains(known, v) }) {
		f.mu.Lock()
		f.badCaps++
		f.mu.Unlock()
		http.Error(w, "Missing required X-PyChess-Bot-Capabilities header.", http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.eventConnects++
	f.capsSeen = raw
	// A reconnecting BOT is told about its games still going that have no
	// game stream (bot_api.event_stream).
	var resume []string
	for id, g := range f.games {
		if !g.ended && !g.streamActive {
			resume = append(resume, id)
		}
	}
	f.mu.Unlock()
	s := newStream(w)
	for _, id := range resume {
		s.line(gameStartLine(id))
	}
	s.pump(r, f.ping, f.events, f.dropEvent)
}

// pump writes lines from the queue, and a ping when idle for ping, until
// the client goes away; a value on drop breaks the connection mid-stream.
func (s *streamWriter) pump(r *http.Request, ping time.Duration, queue <-chan string, drop <-chan struct{}) {
	tick := time.NewTicker(ping)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-drop:
			panic(http.ErrAbortHandler)
		case l := <-queue:
			if !s.line(l) {
				return
			}
		case <-tick.C:
			if !s.line(pingLine) {
				return
			}
		}
	}
}

func (f *fakeServer) gameStream(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	g := f.gameOr404(w, r)
	if g == nil {
		f.mu.Unlock()
		return
	}
	if g.ended && g.evicted {
		f.mu.Unlock()
		http.Error(w, "500 Internal Server Error", http.StatusInternalServerError)
		return
	}
	if g.streamActive || g.conflicts > 0 {
		if g.conflicts > 0 {
			g.conflicts--
		}
		f.mu.Unlock()
		http.Error(w, "game stream already active", http.StatusConflict)
		return
	}
	g.streamActive = true
	g.connects++
	first := g.connects == 1
	// game_stream queues gameFull behind whatever the queue still holds
	// (states a dropped connection did not deliver).
	g.queue <- gameFullLine(g.id, g.variant, g.white, g.black, g.initialFen, g.created, g.stateLine())
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		g.streamActive = false
		f.mu.Unlock()
	}()

	s := newStream(w)
	if first {
		f.mu.Lock()
		f.opponentMaybe(g)
		f.mu.Unlock()
	}
	s.pump(r, f.ping, g.queue, g.drop)
}

// push queues a line for the BOT's game stream and drops the stream when
// the game reaches dropAtPly. f.mu is held.
func (f *fakeServer) push(g *fakeGame, line string) {
	if g.dropAtPly > 0 && len(g.moves) == g.dropAtPly {
		g.dropAtPly = 0
		g.conflicts = g.conflictsAfterDrop
		g.drop <- struct{}{}
		// The state is queued after the break, so the BOT learns it from
		// the gameFull of its next connection, or from the queue.
	}
	g.queue <- line
}

// --- challenges ---

// challenge queues a challenge for the BOT; prepare, if any, sets up its
// game when the BOT accepts.
func (f *fakeServer) challenge(c *Challenge, prepare ...func(*fakeGame)) {
	f.mu.Lock()
	f.challenges[c.ID] = c
	if len(prepare) > 0 {
		f.prepare[c.ID] = prepare[0]
	}
	f.mu.Unlock()
	f.events <- challengeLine(c)
}

func (f *fakeServer) accept(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	f.mu.Lock()
	c := f.challenges[id]
	if c == nil {
		f.mu.Unlock()
		http.Error(w, "404: Not Found", http.StatusNotFound)
		return
	}
	delete(f.challenges, id)
	f.accepted = append(f.accepted, id)
	f.newGameLocked(id, c)
	f.mu.Unlock()
	f.events <- gameStartLine(id)
	writeOK(w)
}

func (f *fakeServer) newGameLocked(id string, c *Challenge) *fakeGame {
	pos, err := env.ParseFEN(env.StartFEN, env.Alice)
	if err != nil {
		f.t.Fatal(err)
	}
	g := &fakeGame{
		id: id, variant: "alice", pos: pos, inc: int(c.TimeControl.Increment), created: 1767225600,
		queue: make(chan string, 1000), drop: make(chan struct{}, 1), lastMove: time.Now(),
		opponent: firstLegal, oppDelay: time.Millisecond,
	}
	ms := c.TimeControl.Limit * 1000
	g.clocks = [2]float64{ms, ms}
	if c.Color == "white" { // the challenger's colour
		g.white, g.black, g.botColour = c.Challenger.Name, f.bot, env.Black
	} else {
		g.white, g.black, g.botColour = f.bot, c.Challenger.Name, env.White
	}
	if prep := f.prepare[id]; prep != nil {
		prep(g)
	}
	f.games[id] = g
	return g
}

func (f *fakeServer) decline(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := r.ParseForm(); err != nil {
		http.Error(w, "invalid form data", http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.challenges[id] == nil {
		http.Error(w, "404: Not Found", http.StatusNotFound)
		return
	}
	delete(f.challenges, id)
	f.declined[id] = r.PostForm.Get("reason")
	writeOK(w)
}

// --- moves ---

func (f *fakeServer) move(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	f.mu.Lock()
	defer f.mu.Unlock()
	g := f.gameOr404(w, r)
	if g == nil {
		return
	}
	uci := r.PathValue("move")
	if g.ended {
		writeOK(w) // "never play moves in finished games": ignored
		return
	}
	if g.pos.SideToMove() != g.botColour {
		writeOK(w) // out of turn: ignored, as utils.play_move does
		return
	}
	m, err := g.pos.ParseUCI(uci)
	if err != nil {
		// pychess plays a BOT's move unchecked; an illegal one loses.
		f.illegalBotMove = uci
		f.endLocked(g, map[env.Colour]string{env.White: "0-1", env.Black: "1-0"}[g.botColour])
		writeOK(w)
		return
	}
	c := g.botColour
	bm := botMove{uci: uci, offerDraw: r.URL.Query().Get("offeringDraw") == "true", ply: len(g.moves) + 1, clockLeft: g.clocks[c]}
	if len(g.moves) >= 2 {
		// Game.play_move for a BOT: clock − elapsed + increment, flag at 0.
		bm.charged = now.Sub(g.lastMove)
		left := g.clocks[c] - float64(bm.charged.Milliseconds())
		if left <= 0 {
			g.clocks[c] = 0
			g.flagged = true
			g.botMoves = append(g.botMoves, bm)
			f.endLocked(g, map[env.Colour]string{env.White: "0-1", env.Black: "1-0"}[c])
			writeOK(w)
			return
		}
		g.clocks[c] = left + float64(g.inc*1000)
	}
	g.botMoves = append(g.botMoves, bm)
	f.playLocked(g, m, uci, now)
	writeOK(w)
}

// playLocked plays a move, queues the new state (or gameEnd) for the BOT
// and lets the opponent answer.
func (f *fakeServer) playLocked(g *fakeGame, m env.Move, uci string, now time.Time) {
	g.pos.MakeMove(m)
	g.moves = append(g.moves, uci)
	g.lastMove = now
	if st := g.pos.Status(); st.IsOver() {
		f.endLocked(g, g.pos.Outcome(st).String())
		return
	}
	if g.maxPly > 0 && len(g.moves) >= g.maxPly {
		f.endLocked(g, map[env.Colour]string{env.White: "1-0", env.Black: "0-1"}[g.botColour]) // the person resigns
		return
	}
	f.push(g, g.stateLine())
	f.opponentMaybe(g)
}

// opponentMaybe lets the person move after a short delay when it is
// their turn. f.mu is held.
func (f *fakeServer) opponentMaybe(g *fakeGame) {
	if g.ended || g.pos.SideToMove() == g.botColour {
		return
	}
	ply := len(g.moves)
	time.AfterFunc(g.oppDelay, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if g.ended || len(g.moves) != ply {
			return
		}
		if g.injectMove != "" {
			g.moves = append(g.moves, g.injectMove)
			g.injectMove = ""
			f.push(g, g.stateLine())
			return
		}
		uci := g.opponent(g.pos, ply)
		m, err := g.pos.ParseUCI(uci)
		if err != nil {
			f.t.Errorf("fake opponent: %v", err)
			return
		}
		opp := g.botColour.Other()
		if ply >= 2 {
			g.clocks[opp] = max(1, g.clocks[opp]-float64(time.Since(g.lastMove).Milliseconds())) + float64(g.inc*1000)
		}
		f.playLocked(g, m, uci, time.Now())
	})
}

func (f *fakeServer) endLocked(g *fakeGame, result string) {
	g.ended, g.result = true, result
	g.queue <- gameEndLine(g.id)
}

// gameOr404 returns the request's game, or answers 404 (bot_api's
// _load_authorized_game) and returns nil. f.mu is held.
func (f *fakeServer) gameOr404(w http.ResponseWriter, r *http.Request) *fakeGame {
	g := f.games[r.PathValue("id")]
	if g == nil {
		http.Error(w, "404: Not Found", http.StatusNotFound)
	}
	return g
}

func (f *fakeServer) abort(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g := f.gameOr404(w, r)
	if g == nil {
		return
	}
	if !g.ended {
		f.endLocked(g, "*")
	}
	writeOK(w)
}

// firstLegal is the simplest legal player.
func firstLegal(pos *env.Position, ply int) string {
	var ml env.MoveList
	pos.LegalMoves(&ml)
	return ml.Moves[0].UCI()
}

// spreadLegal varies its moves with the ply, so that games do not repeat
// at once.
func spreadLegal(pos *env.Position, ply int) string {
	var ml env.MoveList
	pos.LegalMoves(&ml)
	return ml.Moves[(ply*7+3)%ml.N].UCI()
}

// game returns the fake game id (read under the lock through fn).
func (f *fakeServer) withGame(id string, fn func(g *fakeGame)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g := f.games[id]
	if g == nil {
		f.t.Fatalf("no game %s", id)
	}
	fn(g)
}

// waitFor polls cond (called with f.mu held) until it holds or the
// timeout passes.
func (f *fakeServer) waitFor(what string, timeout time.Duration, cond func() bool) {
	f.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		f.mu.Lock()
		ok := cond()
		f.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
