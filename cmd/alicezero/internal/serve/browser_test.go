package serve

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/serve/servetest"
)

// openPage serves a server with the fake engine and opens its page.
func openPage(t *testing.T, opts Options, fl *fakeLoader) (*servetest.Page, string) {
	t.Helper()
	servetest.Chromium(t)
	ts := newTestServer(t, opts, fl)
	p := servetest.Open(t, 1400, 1000)
	p.Navigate(ts.URL + "/")
	return p, ts.URL
}

// noPageErrors fails the test on the page's errors, but for failed loads
// of the given API paths, which the test asked for.
func noPageErrors(t *testing.T, p *servetest.Page, refused ...string) {
	t.Helper()
	var errs []string
	for _, e := range p.Errors() {
		expected := false
		for _, path := range refused {
			expected = expected || strings.Contains(e, "status of 400") && strings.Contains(e, path+")")
		}
		if !expected {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}

// firstMove picks the first legal move in UCI order that is not a king's:
// deterministic, and a game of them lasts.
func firstMove(ply int, legal []servetest.Move) servetest.Move {
	best := legal[0]
	for _, m := range legal {
		if !strings.HasPrefix(m.SAN, "K") && (strings.HasPrefix(best.SAN, "K") || m.UCI < best.UCI) {
			best = m
		}
	}
	return best
}

func TestBrowserPlay(t *testing.T) {
	p, _ := openPage(t, Options{}, &fakeLoader{steps: 2})
	g := p.PlayAgainstEngine(12, firstMove, 20*time.Second)
	if g.Ply < 12 && g.Status == "ongoing" {
		t.Fatalf("game stopped at ply %d", g.Ply)
	}
	var n int
	p.Eval(`document.querySelectorAll('#play-moves .move:not(.empty)').length`, &n)
	if n != g.Ply {
		t.Errorf("the move list shows %d moves, the game has %d", n, g.Ply)
	}
	// The engine's last move is marked on both boards.
	lm := g.LastMove
	wantMarks(t, p, lm.FromBoard+" from", lm.FromBoard+" via", lm.ToBoard+" to")
	var analysis string
	p.Eval(`document.getElementById('play-analysis').textContent`, &analysis)
	if !strings.Contains(analysis, "visits") {
		t.Errorf("analysis pane: %q", analysis)
	}

	// Undo takes back the engine's reply and the player's move.
	p.Click("#btn-undo")
	p.WaitFor(10*time.Second, fmt.Sprintf(`document.body.dataset.ply === '%d'`, g.Ply-2))
	// Flip turns both boards: a1 goes to the top right.
	var before, after float64
	p.Eval(`document.querySelector('#play-boards svg[data-board=A] rect[data-sq=a1]').getBoundingClientRect().top`, &before)
	p.Click("#btn-flip")
	p.Eval(`document.querySelector('#play-boards svg[data-board=A] rect[data-sq=a1]').getBoundingClientRect().top`, &after)
	if after >= before {
		t.Errorf("flip: a1 at %v, was %v", after, before)
	}
	p.Click("#btn-flip")
	p.Click("#btn-new")
	p.WaitFor(10*time.Second, `document.body.dataset.ply === '0'`)
	noPageErrors(t, p)
}

func TestBrowserDragAndPromotion(t *testing.T) {
	p, _ := openPage(t, Options{}, nil)
	// Both sides by hand: no engine.
	p.Eval(`(() => { const s = document.getElementById('set-colour'); s.value = 'both'; s.dispatchEvent(new Event('change')); return true; })()`, new(bool))
	// Drag the knight from g1 on board A to f3 on board B, where it lands.
	p.Drag(`#play-boards svg[data-board=A] rect[data-sq=g1]`, `#play-boards svg[data-board=B] rect[data-sq=f3]`)
	p.WaitFor(10*time.Second, `document.body.dataset.ply === '1'`)
	g := p.CurrentGame()
	if g.Side != "black" {
		t.Fatalf("after the drag: %+v", g)
	}
	// A pawn on the seventh rank: promotion asks which piece.
	p.Click("#btn-paste")
	p.SetValue("#paste-text", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
	p.Click("#paste-load")
	p.WaitFor(10*time.Second, `document.body.dataset.ply === '0' && document.getElementById('paste-box').classList.contains('hidden')`)
	p.ClickMove(servetest.Move{From: "a7", To: "a8", FromBoard: "A", ToBoard: "B", Promotion: "n"})
	p.WaitFor(10*time.Second, `document.body.dataset.ply === '1'`)
	var boardB string
	p.Eval(`fetch('/api/game').then(r => r.json()).then(g => g.boards.B)`, &boardB)
	if boardB[56] != 'N' {
		t.Errorf("a8 on board B holds %q, want a knight", boardB[56])
	}
	noPageErrors(t, p)
}

const reviewPGN = `[Event "Review test"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]

1. e3 d6 2. Bc4 c5 3. Bb5# 1-0
`

func TestBrowserReview(t *testing.T) {
	p, _ := openPage(t, Options{}, &fakeLoader{steps: 1})
	p.Click(`#tabs [data-view=review]`)
	p.SetValue("#rv-text", reviewPGN)
	p.Click("#rv-load")
	p.WaitFor(10*time.Second, `document.body.dataset.reviewPly === '5'`)
	var status string
	p.Eval(`document.getElementById('review-status').textContent`, &status)
	if !strings.Contains(status, "Checkmate") {
		t.Errorf("status at the end: %q", status)
	}
	p.Click("#rv-first")
	p.WaitFor(5*time.Second, `document.body.dataset.reviewPly === '0'`)
	for i := 1; i <= 3; i++ {
		p.Click("#rv-next")
		p.WaitFor(5*time.Second, fmt.Sprintf(`document.body.dataset.reviewPly === '%d'`, i))
	}
	// After 1. e3 d6 2. Bc4: the bishop stands on c4 of board B.
	var piece string
	p.Eval(`document.querySelector('#review-boards svg[data-board=B] use[data-sq=c4]').dataset.piece`, &piece)
	if piece != "B" {
		t.Errorf("c4 on board B: %q", piece)
	}
	p.Click("#rv-prev")
	p.WaitFor(5*time.Second, `document.body.dataset.reviewPly === '2'`)
	p.Click(`#rv-moves .move[data-ply="5"]`)
	p.WaitFor(5*time.Second, `document.body.dataset.reviewPly === '5'`)
	p.Click("#rv-eval")
	p.WaitFor(20*time.Second, `document.body.dataset.reviewEvaluated === '6'`)
	var points int
	p.Eval(`document.querySelectorAll('#rv-graph circle.pt').length`, &points)
	if points != 6 {
		t.Errorf("the evaluation graph has %d points, want 6", points)
	}
	noPageErrors(t, p)
}

func TestBrowserTraining(t *testing.T) {
	dir := makeRun(t, "small-demo", 24)
	p, _ := openPage(t, Options{RunsDir: dir}, nil)
	p.Click(`#tabs [data-view=training]`)
	p.WaitFor(10*time.Second, `Number(document.body.dataset.charts) >= 5 && document.querySelectorAll('#ckpt-table tbody tr').length === 24`)
	var titles []string
	p.Eval(`[...document.querySelectorAll('#charts .chart-title')].map(e => e.textContent)`, &titles)
	joined := strings.Join(titles, "|")
	for _, want := range []string{"Training losses", "Held-out metrics", "Strength", "Self-play speed"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no chart %q among %q", want, titles)
		}
	}
	// A field the page has no name for is drawn too.
	var other []string
	p.Eval(`[...document.querySelectorAll('#other-charts .chart-title')].map(e => e.textContent)`, &other)
	if !strings.Contains(strings.Join(other, "|"), "ramp fraction") {
		t.Errorf("other charts %q lack ramp fraction", other)
	}
	// Hovering a chart shows the values at that iteration.
	p.Hover(`#charts .chart svg`)
	p.WaitFor(5*time.Second, `!document.querySelector('#charts .chart-tip').classList.contains('hidden')`)

	// The run goes on: a new line appears in the charts without a reload.
	servetest.WriteRun(t, dir, "small-demo", 25)
	p.WaitFor(15*time.Second, `document.querySelectorAll('#ckpt-table tbody tr').length === 25`)

	// A sampled game opens in the review view.
	p.Click(`#run-games button[data-file="iter-000025.pgn"]`)
	p.WaitFor(10*time.Second, `document.body.dataset.view === 'review' && document.body.dataset.reviewPly === '5'`)
	noPageErrors(t, p)
}

// choose sets a select or text field as a person would, firing its
// change event.
func choose(t *testing.T, p *servetest.Page, sel, value string) {
	t.Helper()
	var ok bool
	p.Eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = %q; e.dispatchEvent(new Event('change')); return e.value === %q; })()`, sel, value, value), &ok)
	if !ok {
		t.Fatalf("%s has no choice %q", sel, value)
	}
}

func TestBrowserPlayBlack(t *testing.T) {
	p, _ := openPage(t, Options{}, &fakeLoader{steps: 2})
	var whiteTop, blackTop float64
	choose(t, p, "#set-colour", "black")
	// The engine has White and moves first, at once.
	p.WaitFor(20*time.Second, `document.body.dataset.ply === '1' && document.body.dataset.thinking !== '1'`)
	g := p.CurrentGame()
	if g.Side != "black" {
		t.Fatalf("after the engine's first move: %+v", g)
	}
	// The boards turn round: Black's side at the bottom.
	p.Eval(`document.querySelector('#play-boards svg[data-board=A] rect[data-sq=a1]').getBoundingClientRect().top`, &whiteTop)
	p.Eval(`document.querySelector('#play-boards svg[data-board=A] rect[data-sq=a8]').getBoundingClientRect().top`, &blackTop)
	if whiteTop >= blackTop {
		t.Errorf("playing Black: a1 at %v, a8 at %v; want a8 below", whiteTop, blackTop)
	}
	var names []string
	// The bars beside the boards: the engine's (White's) above, yours below.
	p.Eval(`[...document.querySelectorAll('#play-area .player-bar')].sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
		.map(e => e.querySelector('.player-name').textContent)`, &names)
	if strings.Join(names, ",") != "AliceZero,You" {
		t.Errorf("the bars from the top: %q", names)
	}
	g = p.PlayAs("black", 11, firstMove, 20*time.Second)
	if g.Ply < 11 && g.Status == "ongoing" {
		t.Fatalf("game stopped at ply %d", g.Ply)
	}
	if g.Ply%2 != 1 || g.Side != "black" {
		t.Errorf("after the engine's reply: ply %d, %s to move", g.Ply, g.Side)
	}
	var status string
	p.Eval(`document.getElementById('play-status').textContent`, &status)
	if !strings.HasPrefix(status, "Black to move") {
		t.Errorf("status %q", status)
	}
	// Undo takes back Black's move and the engine's reply: Black to move.
	p.Click("#btn-undo")
	p.WaitFor(10*time.Second, fmt.Sprintf(`document.body.dataset.ply === '%d'`, g.Ply-2))
	if g := p.CurrentGame(); g.Side != "black" {
		t.Errorf("after undo: %s to move", g.Side)
	}
	noPageErrors(t, p)
}

func TestBrowserClock(t *testing.T) {
	fl := &fakeLoader{steps: 1}
	p, _ := openPage(t, Options{}, fl)
	var options []string
	p.Eval(`[...document.querySelectorAll('#set-clock option')].map(o => o.value)`, &options)
	if strings.Join(options, ",") != "none,1+0,3+2,5+3,15+10,custom" {
		t.Errorf("time controls offered: %q", options)
	}
	var hidden bool
	p.Eval(`document.getElementById('clock-white').classList.contains('hidden') && document.getElementById('clock-black').classList.contains('hidden')`, &hidden)
	if !hidden {
		t.Error("an untimed game shows clocks")
	}

	// A custom time control the server cannot read is refused, with its
	// reason, and the game stays untimed.
	choose(t, p, "#set-clock", "custom")
	p.WaitFor(5*time.Second, `!document.getElementById('set-clock-custom').classList.contains('hidden')`)
	choose(t, p, "#set-clock-custom", "three minutes")
	p.WaitFor(10*time.Second, `document.getElementById('set-clock-custom').getAttribute('aria-invalid') === 'true' &&
		document.getElementById('toast').textContent.includes('e.g. 3+2')`)
	if g := p.CurrentGame(); g.Clock != nil {
		t.Fatalf("a refused time control timed the game: %+v", g.Clock)
	}

	// A preset, before any move: a new game on it at once, both clocks
	// full and stopped until the first move.
	choose(t, p, "#set-clock", "3+2")
	p.WaitFor(10*time.Second, `!document.getElementById('clock-white').classList.contains('hidden')`)
	var shown map[string]string
	p.Eval(`({white: document.querySelector('#clock-white .clock-time').textContent, black: document.querySelector('#clock-black .clock-time').textContent,
		cls: document.getElementById('clock-white').className + '|' + document.getElementById('clock-black').className,
		status: document.getElementById('play-status').textContent, visits: String(document.getElementById('set-visits').disabled)})`, &shown)
	if shown["white"] != "3:00" || shown["black"] != "3:00" || strings.Contains(shown["cls"], "running") || strings.Contains(shown["cls"], "low") ||
		!strings.Contains(shown["status"], "clocks start with the first move") || shown["visits"] != "true" {
		t.Fatalf("a new 3+2 game: %v", shown)
	}

	// A short custom one: three seconds and one a move.
	choose(t, p, "#set-clock", "custom")
	choose(t, p, "#set-clock-custom", "0.05+1")
	p.WaitFor(10*time.Second, `document.querySelector('#clock-white .clock-time').textContent === '0:03.0'`)
	g := p.CurrentGame()
	if g.Clock == nil || g.Clock.TimeControl != "0.05+1" || g.Ply != 0 {
		t.Fatalf("the short game: %+v", g)
	}
	// The first move is free; the engine answers on its clock, gains its
	// increment, and White's clock runs.
	p.ClickMove(firstMove(0, g.Legal))
	p.WaitFor(10*time.Second, `document.body.dataset.ply === '2' && document.body.dataset.clock === 'white'`)
	g = p.CurrentGame()
	if g.Clock.Running != "white" || g.Clock.BlackMS <= 3000 || g.Clock.BlackMS > 4000 || g.Clock.WhiteMS > 3000 {
		t.Errorf("after the engine's reply: %+v", g.Clock)
	}
	if lims := fl.limits(); len(lims) != 1 || lims[0].Nodes != 0 || lims[0].BTime <= 0 || lims[0].BInc != time.Second {
		t.Errorf("the engine searched within %+v; want its clock alone", lims)
	}
	// White's clock counts down visibly, red with so little time, until
	// the flag falls.
	var before string
	p.Eval(`document.querySelector('#clock-white .clock-time').textContent`, &before)
	p.WaitFor(5*time.Second, fmt.Sprintf(`document.querySelector('#clock-white .clock-time').textContent !== %q`, before))
	p.Eval(`document.getElementById('clock-white').className + '|' + document.getElementById('clock-black').className`, &before)
	white, black, _ := strings.Cut(before, "|")
	if !slices.Contains(strings.Fields(white), "running") || !slices.Contains(strings.Fields(white), "low") || slices.Contains(strings.Fields(black), "running") {
		t.Errorf("while White thinks: classes %q", before)
	}
	// The clocks are beside the boards, each at its side's end, in its
	// side's bar, White's lit.
	var place struct {
		BlackBottom, BoardsTop, BoardsBottom, WhiteTop float64
		WhiteLit, BlackLit                             bool
	}
	p.Eval(`(() => { const r = (id) => document.getElementById(id).getBoundingClientRect();
		return {blackBottom: r('clock-black').bottom, boardsTop: r('play-boards').top, boardsBottom: r('play-boards').bottom, whiteTop: r('clock-white').top,
			whiteLit: document.getElementById('bar-white').classList.contains('to-move'), blackLit: document.getElementById('bar-black').classList.contains('to-move')}; })()`, &place)
	if place.BlackBottom > place.BoardsTop || place.WhiteTop < place.BoardsBottom || place.BoardsTop-place.BlackBottom > 20 || place.WhiteTop-place.BoardsBottom > 20 ||
		!place.WhiteLit || place.BlackLit {
		t.Errorf("the clocks: %+v; want Black's just above the boards, White's just below and lit", place)
	}
	p.WaitFor(15*time.Second, `document.getElementById('clock-white').classList.contains('flagged') && document.body.dataset.clock === ''`)
	var status, whiteTime string
	p.Eval(`document.getElementById('play-status').textContent`, &status)
	p.Eval(`document.querySelector('#clock-white .clock-time').textContent`, &whiteTime)
	if status != "White's time ran out: Black wins (0-1)" || whiteTime != "0:00.0" {
		t.Errorf("after the flag: status %q, White's clock %q", status, whiteTime)
	}
	if g := p.CurrentGame(); g.Status != "time-forfeit" || g.Result != "0-1" || g.Clock.Flag != "white" || len(g.Legal) != 0 {
		t.Errorf("the game after the flag: %+v", g)
	}
	var pgn string
	p.Eval(`fetch('/api/game/pgn').then(r => r.json()).then(r => r.pgn)`, &pgn)
	for _, want := range []string{`[Result "0-1"]`, `[TimeControl "3+1"]`, `[Termination "time forfeit"]`} {
		if !strings.Contains(pgn, want) {
			t.Errorf("PGN lacks %s:\n%s", want, pgn)
		}
	}
	// Undo gives no time back: refused, with the reason.
	p.Click("#btn-undo")
	p.WaitFor(10*time.Second, `document.getElementById('toast').textContent.includes('undo gives none back')`)
	// A new game starts on full clocks.
	p.Click("#btn-new")
	p.WaitFor(10*time.Second, `document.body.dataset.ply === '0' && !document.getElementById('clock-white').classList.contains('flagged')`)
	if g := p.CurrentGame(); g.Status != "ongoing" || g.Clock == nil || g.Clock.WhiteMS != 3000 {
		t.Errorf("new game: %+v", g)
	}
	noPageErrors(t, p, "/api/game/new", "/api/game/undo")
}

// newVariantGame starts a game of the variant from the Play view's
// choice, both sides by hand, and waits for its boards: count of them,
// the man at want standing on the square named by want's selector.
func newVariantGame(t *testing.T, p *servetest.Page, variant string, count int, want string) servetest.Game {
	t.Helper()
	choose(t, p, "#set-colour", "both")
	choose(t, p, "#set-variant", variant)
	p.WaitFor(10*time.Second, fmt.Sprintf(`document.querySelectorAll('#play-boards svg.board').length === %d && document.querySelector(%q) !== null`, count, want))
	g := p.CurrentGame()
	if g.Variant != variant || g.Ply != 0 {
		t.Fatalf("new %s game: %+v", variant, g)
	}
	return g
}

// lastMove waits for the game's ply and returns its last move.
func lastMove(t *testing.T, p *servetest.Page, ply int) (servetest.Game, servetest.Move) {
	t.Helper()
	p.WaitFor(10*time.Second, fmt.Sprintf(`document.body.dataset.ply === '%d'`, ply))
	g := p.CurrentGame()
	if g.LastMove == nil {
		t.Fatalf("ply %d: no last move", ply)
	}
	return g, *g.LastMove
}

// wantMarks checks the last-move marks on the Play view's boards: one of
// each wanted, "A from" (the square left), "A via" (the square moved to
// on that board, then left), "B to" (the landing), and no other.
func wantMarks(t *testing.T, p *servetest.Page, want ...string) {
	t.Helper()
	var got []string
	p.Eval(`[...document.querySelectorAll('#play-boards .mark')].flatMap((m) => [...m.classList]
		.filter((c) => c.startsWith('last-')).map((c) => m.closest('svg').dataset.board + ' ' + c.slice(5)))`, &got)
	slices.Sort(got)
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		t.Errorf("last-move marks %q, want %q", got, want)
	}
}

func TestBrowserAlice3(t *testing.T) {
	p, _ := openPage(t, Options{}, nil)
	newVariantGame(t, p, "alice-3", 3, `#play-boards svg[data-board=C] rect[data-sq=h8]`)
	// The pawn goes to board C: picked on A, dropped on e4 of C.
	p.ClickMove(servetest.Move{From: "e2", To: "e4", FromBoard: "A", ToBoard: "C"})
	g, lm := lastMove(t, p, 1)
	if lm.UCI != "e2e4/c" || g.Boards["C"][28] != 'P' || g.Boards["B"][28] != '.' {
		t.Fatalf("after the drop on C: last move %+v, boards %v", lm, g.Boards)
	}
	wantMarks(t, p, "A from", "A via", "C to")
	// Dropped on its own board, where it may land on B or C, the pawn asks.
	p.ClickSquare("play-boards", "A", "e7")
	p.ClickSquare("play-boards", "A", "e5")
	var offered []string
	p.WaitFor(5*time.Second, `!document.getElementById('promo').classList.contains('hidden')`)
	p.Eval(`[...document.querySelectorAll('#promo button[data-board]')].map(b => b.dataset.board)`, &offered)
	if strings.Join(offered, ",") != "B,C" {
		t.Errorf("boards offered: %q, want B and C", offered)
	}
	p.Click(`#promo button[data-board="C"]`)
	if _, lm = lastMove(t, p, 2); lm.UCI != "e7e5/c" || lm.ToBoard != "C" {
		t.Errorf("after choosing board C: %+v", lm)
	}
	// Three rooks on a4, one a board: the one on B is picked, not the others.
	p.Click("#btn-paste")
	p.SetValue("#paste-text", "4k3/8/8/8/[R|R||R]7/8/8/4K3 w - - 0 1")
	p.Click("#paste-load")
	p.WaitFor(10*time.Second, `document.body.dataset.ply === '0' && document.getElementById('paste-box').classList.contains('hidden')`)
	p.ClickMove(servetest.Move{From: "a4", To: "a6", FromBoard: "B", ToBoard: "C"})
	if g, lm = lastMove(t, p, 1); lm.UCI != "b:a4a6/c" || g.Boards["A"][24] != 'R' || g.Boards["C"][24] != 'R' || g.Boards["C"][40] != 'R' {
		t.Errorf("the rook of board B: last move %+v, boards %v", lm, g.Boards)
	}
	noPageErrors(t, p)
}

func TestBrowserAliceStone(t *testing.T) {
	p, _ := openPage(t, Options{}, nil)
	newVariantGame(t, p, "alice-stone", 2, `#play-boards svg[data-board=B] use[data-sq=e8][data-piece=k]`)
	// The pawn stays on its board: dropped on e4 of A.
	p.ClickMove(servetest.Move{From: "e2", To: "e4", FromBoard: "A", ToBoard: "A"})
	g, lm := lastMove(t, p, 1)
	if lm.UCI != "e2e4/a" || lm.ToBoard != "A" || g.Boards["A"][28] != 'P' || g.Boards["B"][28] != '.' {
		t.Fatalf("after the stay: last move %+v, boards %v", lm, g.Boards)
	}
	wantMarks(t, p, "A from", "A to")
	// Black's knight makes a null move: from b8 of B to b8 of A.
	p.ClickMove(servetest.Move{From: "b8", To: "b8", FromBoard: "B", ToBoard: "A", Null: true})
	g, lm = lastMove(t, p, 2)
	if !lm.Null || lm.UCI != "b8b8" || g.Boards["A"][57] != 'n' || g.Boards["B"][57] != '.' {
		t.Fatalf("after the null move: last move %+v, boards %v", lm, g.Boards)
	}
	// It leaves B and lands on A, moving nowhere on its board.
	wantMarks(t, p, "B from", "A to")
	noPageErrors(t, p)
}

func TestBrowserAliceMini(t *testing.T) {
	p, _ := openPage(t, Options{}, nil)
	newVariantGame(t, p, "alice-mini", 2, `#play-boards svg[data-board=A] use[data-sq=c1][data-piece=K]`)
	var squares int
	p.Eval(`document.querySelectorAll('#play-boards svg[data-board=A] rect.sq').length`, &squares)
	if squares != 32 {
		t.Errorf("board A of alice-mini has %d squares, want 32", squares)
	}
	p.ClickMove(servetest.Move{From: "a2", To: "b4", FromBoard: "A", ToBoard: "B"})
	if _, lm := lastMove(t, p, 1); lm.SAN != "Nb4" {
		t.Errorf("after a2-b4: %+v", lm)
	}
	noPageErrors(t, p)
}

// A man dropped where it cannot go is not ignored without a word: the
// page says why.
func TestBrowserIllegalDropSaysWhy(t *testing.T) {
	p, _ := openPage(t, Options{}, &fakeLoader{steps: 1})
	p.Eval(`(() => { const s = document.getElementById('set-colour'); s.value = 'both'; s.dispatchEvent(new Event('change')); return true; })()`, new(bool))
	for i, uci := range []string{"g1f3", "a7a6"} {
		g := p.CurrentGame()
		j := slices.IndexFunc(g.Legal, func(m servetest.Move) bool { return m.UCI == uci })
		if j < 0 {
			t.Fatalf("no legal %s", uci)
		}
		p.ClickMove(g.Legal[j])
		p.WaitFor(10*time.Second, fmt.Sprintf(`document.body.dataset.ply === '%d'`, i+1))
	}
	// f2-f3 would land on f3 of board B, where the knight stands.
	p.Drag(`#play-boards svg[data-board="A"] rect[data-sq="f2"]`, `#play-boards svg[data-board="B"] rect[data-sq="f3"]`)
	p.WaitFor(10*time.Second, `document.getElementById('toast').textContent.includes('that square is taken on board B')`)
	if g := p.CurrentGame(); g.Ply != 2 {
		t.Errorf("the illegal drop changed the game: ply %d", g.Ply)
	}
	noPageErrors(t, p)
}
