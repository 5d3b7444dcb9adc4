package serve

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/internal/serve/servetest"
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

func noPageErrors(t *testing.T, p *servetest.Page) {
	t.Helper()
	if errs := p.Errors(); len(errs) > 0 {
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
	var marks map[string]int
	p.Eval(`({from: document.querySelectorAll('#play-boards .mark.last-from').length,
		via: document.querySelectorAll('#play-boards .mark.last-via').length,
		to: document.querySelectorAll('#play-boards .mark.last-to').length})`, &marks)
	if marks["from"] != 1 || marks["to"] != 1 || marks["via"] != 1 {
		t.Errorf("last-move marks %v, want one of each", marks)
	}
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
