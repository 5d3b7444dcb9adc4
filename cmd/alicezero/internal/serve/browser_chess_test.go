package serve

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/serve/servetest"
)

// gameOver is what the game-over panel shows.
type gameOver struct {
	Hidden                  bool
	Status, Title, Detail   string
	NewButton, ReviewButton bool
}

func gameOverPanel(t *testing.T, p *servetest.Page) gameOver {
	t.Helper()
	var g gameOver
	p.Eval(`(() => { const e = document.getElementById('game-over'); return {hidden: e.classList.contains('hidden'), status: e.dataset.status || '',
		title: document.getElementById('go-title').textContent, detail: document.getElementById('go-detail').textContent,
		newButton: document.getElementById('go-new').offsetParent !== null, reviewButton: document.getElementById('go-review').offsetParent !== null}; })()`, &g)
	return g
}

// loadPGN pastes a game into the Play view and waits for it.
func loadPGN(t *testing.T, p *servetest.Page, pgn string, plies int) {
	t.Helper()
	p.Click("#btn-paste")
	p.SetValue("#paste-text", pgn)
	p.Click("#paste-load")
	p.WaitFor(10*time.Second, fmt.Sprintf(`document.body.dataset.ply === '%d' && document.getElementById('paste-box').classList.contains('hidden')`, plies))
}

// Resigning asks once more, then ends the game: the game-over panel says
// who resigned and who won, and offers a new game and a review of this
// one.
func TestBrowserResign(t *testing.T) {
	p, _ := openPage(t, Options{}, &fakeLoader{steps: 1})
	g := p.PlayAgainstEngine(2, firstMove, 20*time.Second)
	if g.Ply != 2 {
		t.Fatalf("ply %d", g.Ply)
	}
	if over := gameOverPanel(t, p); !over.Hidden {
		t.Fatalf("a game going on shows %+v", over)
	}
	p.Click("#btn-resign")
	var text string
	p.Eval(`document.getElementById('btn-resign').textContent`, &text)
	if text != "Resign? Click again" || p.CurrentGame().Status != "ongoing" {
		t.Fatalf("one click on Resign: the button reads %q, the game %s", text, p.CurrentGame().Status)
	}
	p.Click("#btn-resign")
	p.WaitFor(10*time.Second, `!document.getElementById('game-over').classList.contains('hidden')`)
	over := gameOverPanel(t, p)
	if over.Status != "resigned" || over.Title != "You resigned" || over.Detail != "AliceZero wins · 0-1" || !over.NewButton || !over.ReviewButton {
		t.Errorf("after resigning: %+v", over)
	}
	var state struct {
		Status       string
		Resign, Draw bool
	}
	p.Eval(`({status: document.getElementById('play-status').textContent, resign: document.getElementById('btn-resign').disabled, draw: document.getElementById('btn-draw').disabled})`, &state)
	if state.Status != "White resigned: Black wins (0-1)" || !state.Resign || !state.Draw {
		t.Errorf("after resigning: %+v", state)
	}
	// Review this game: the Review view at its end, with its result.
	p.Click("#go-review")
	p.WaitFor(10*time.Second, `document.body.dataset.view === 'review' && document.body.dataset.reviewPly === '2'`)
	var status string
	p.Eval(`document.getElementById('review-status').textContent`, &status)
	if status != "Ply 2 of 2 · result 0-1" {
		t.Errorf("the reviewed game: %q", status)
	}
	// New game: the panel goes.
	p.Click(`#tabs [data-view=play]`)
	p.Click("#go-new")
	p.WaitFor(10*time.Second, `document.body.dataset.ply === '0' && document.getElementById('game-over').classList.contains('hidden')`)
	noPageErrors(t, p)
}

// A draw offered to the engine is accepted when it rates the position
// level, and declined, with its evaluation, when not; playing both sides,
// the draw is agreed at once.
func TestBrowserDrawOffer(t *testing.T) {
	p, _ := openPage(t, Options{}, &fakeLoader{steps: 1, wdl: [3]float32{0.5, 0.3, 0.2}})
	g := p.PlayAgainstEngine(2, firstMove, 20*time.Second)
	p.Click("#btn-draw")
	p.WaitFor(10*time.Second, `document.getElementById('play-status').textContent.includes('AliceZero declines the draw')`)
	var status string
	p.Eval(`document.getElementById('play-status').textContent`, &status)
	if !strings.Contains(status, "it rates the position -0.30 for Black, worse than level") || gameOverPanel(t, p).Hidden != true {
		t.Errorf("declined: status %q, panel %+v", status, gameOverPanel(t, p))
	}
	// The game goes on: a move, and the answer is gone from the status.
	p.ClickMove(firstMove(g.Ply, p.CurrentGame().Legal))
	p.WaitFor(10*time.Second, `document.body.dataset.ply === '4' && document.body.dataset.thinking !== '1'`)
	p.Eval(`document.getElementById('play-status').textContent`, &status)
	if strings.Contains(status, "declines") {
		t.Errorf("two moves after the offer the status still reads %q", status)
	}

	p, _ = openPage(t, Options{}, &fakeLoader{steps: 1, wdl: [3]float32{0.3, 0.45, 0.25}})
	p.PlayAgainstEngine(2, firstMove, 20*time.Second)
	p.Click("#btn-draw")
	p.WaitFor(10*time.Second, `document.getElementById('game-over').dataset.status === 'draw-agreed' && !document.getElementById('game-over').classList.contains('hidden')`)
	p.Eval(`document.getElementById('play-status').textContent`, &status)
	over := gameOverPanel(t, p)
	if over.Title != "Draw agreed" || over.Detail != "a draw · 1/2-1/2" || !strings.Contains(status, "AliceZero accepts the draw: it rates the position level (-0.05 for Black") {
		t.Errorf("accepted: status %q, panel %+v", status, over)
	}

	choose(t, p, "#set-colour", "both")
	p.Click("#go-new")
	p.WaitFor(10*time.Second, `document.body.dataset.ply === '0'`)
	p.Click("#btn-draw")
	p.WaitFor(10*time.Second, `document.getElementById('game-over').dataset.status === 'draw-agreed' && !document.getElementById('game-over').classList.contains('hidden')`)
	noPageErrors(t, p)
}

// shownBoards is the pieces the Play view's boards show, board by board,
// as 64 characters a1 first.
func shownBoards(t *testing.T, p *servetest.Page) map[string]string {
	t.Helper()
	var b map[string]string
	p.Eval(`(() => { const out = {}; for (const svg of document.querySelectorAll('#play-boards svg.board')) {
		const sq = Array(64).fill('.');
		for (const u of svg.querySelectorAll('use.piece')) { const n = u.dataset.sq; sq['abcdefgh'.indexOf(n[0]) + 8 * (Number(n[1]) - 1)] = u.dataset.piece; }
		out[svg.dataset.board] = sq.join(''); } return out; })()`, &b)
	return b
}

// positionAfter is the boards after the first plies moves of the game.
func positionAfter(t *testing.T, p *servetest.Page, g servetest.Game, plies int) map[string]string {
	t.Helper()
	var pos struct{ Boards map[string]string }
	p.Eval(fmt.Sprintf(`fetch('/api/game').then(r => r.json()).then(g => fetch('/api/position', {method: 'POST', headers: {'Content-Type': 'application/json'},
		body: JSON.stringify({fen: g.start_fen, moves: g.moves.slice(0, %d).map(m => m.uci)})})).then(r => r.json())`, plies), &pos)
	return pos.Boards
}

func sameBoards(a, b map[string]string) bool { return a["A"] == b["A"] && a["B"] == b["B"] }

// The move list in Play shows the game's earlier positions: click a move
// to look, step with the arrows, come back to the game with End, Escape,
// the last move or "back to the game"; looking back, no man moves.
func TestBrowserPlayHistory(t *testing.T) {
	p, _ := openPage(t, Options{}, &fakeLoader{steps: 1})
	g := p.PlayAgainstEngine(4, firstMove, 20*time.Second)
	if g.Ply != 4 {
		t.Fatalf("ply %d", g.Ply)
	}
	live := shownBoards(t, p)
	p.Click(`#play-moves .move[data-ply="2"]`)
	p.WaitFor(10*time.Second, `document.body.dataset.viewPly === '2'`)
	if got, want := shownBoards(t, p), positionAfter(t, p, g, 2); !sameBoards(got, want) {
		t.Errorf("looking at ply 2 the boards show %v, want %v", got, want)
	}
	var status string
	p.Eval(`document.getElementById('play-status').textContent + '|' + document.querySelector('#play-moves .move.current').dataset.ply`, &status)
	if !strings.HasPrefix(status, "Looking at the position after 1… ") || !strings.HasSuffix(status, "(move 2 of 4) · ← → to step ·|2") {
		t.Errorf("looking back: %q", status)
	}
	// No man moves from an earlier position.
	p.ClickSquare("play-boards", "A", "b1")
	var marks int
	p.Eval(`document.querySelectorAll('#play-boards .target').length`, &marks)
	if marks != 0 {
		t.Errorf("a man picked in an earlier position shows %d targets", marks)
	}
	p.Keys(kb.ArrowLeft)
	p.WaitFor(5*time.Second, `document.body.dataset.viewPly === '1'`)
	if got, want := shownBoards(t, p), positionAfter(t, p, g, 1); !sameBoards(got, want) {
		t.Errorf("after ← the boards show %v, want %v", got, want)
	}
	p.Keys(kb.ArrowRight + kb.ArrowRight + kb.ArrowRight)
	p.WaitFor(5*time.Second, `document.body.dataset.viewPly === undefined && document.getElementById('btn-live').classList.contains('hidden')`)
	if got := shownBoards(t, p); !sameBoards(got, live) {
		t.Errorf("back at the game the boards show %v, want %v", got, live)
	}
	p.Keys(kb.Home)
	p.WaitFor(5*time.Second, `document.body.dataset.viewPly === '0'`)
	p.Keys(kb.End)
	p.WaitFor(5*time.Second, `document.body.dataset.viewPly === undefined`)
	p.Click(`#play-moves .move[data-ply="3"]`)
	p.WaitFor(5*time.Second, `document.body.dataset.viewPly === '3'`)
	p.Keys(kb.Escape)
	p.WaitFor(5*time.Second, `document.body.dataset.viewPly === undefined`)
	p.Click(`#play-moves .move[data-ply="1"]`)
	p.WaitFor(5*time.Second, `document.body.dataset.viewPly === '1'`)
	p.Click("#btn-live")
	p.WaitFor(5*time.Second, `document.body.dataset.viewPly === undefined`)
	// And the game goes on from there.
	p.PlayAgainstEngine(6, firstMove, 20*time.Second)
	noPageErrors(t, p)
}

// The keyboard: f turns the boards round, Escape puts a picked man down.
func TestBrowserKeyboard(t *testing.T) {
	p, _ := openPage(t, Options{}, nil)
	top := func() float64 {
		var y float64
		p.Eval(`document.querySelector('#play-boards svg[data-board=A] rect[data-sq=a1]').getBoundingClientRect().top`, &y)
		return y
	}
	before := top()
	p.Keys("f")
	if after := top(); after >= before {
		t.Errorf("f: a1 at %v, was %v", after, before)
	}
	var bars []string
	p.Eval(`[...document.querySelectorAll('#play-area .player-bar')].sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top).map(e => e.id)`, &bars)
	if strings.Join(bars, ",") != "bar-white,bar-black" {
		t.Errorf("turned round, the bars from the top: %q", bars)
	}
	p.Keys("f")
	p.ClickSquare("play-boards", "A", "g1")
	var picked int
	p.Eval(`document.querySelectorAll('#play-boards .mark.selected').length + document.querySelectorAll('#play-boards .target').length`, &picked)
	if picked == 0 {
		t.Fatal("picking the knight marks nothing")
	}
	p.Keys(kb.Escape)
	p.Eval(`document.querySelectorAll('#play-boards .mark.selected').length + document.querySelectorAll('#play-boards .target').length`, &picked)
	if picked != 0 {
		t.Errorf("after Escape %d marks of the picked man are left", picked)
	}
	noPageErrors(t, p)
}

// Beside each side: the men it has taken, by the board they were taken
// on, and its lead in material; looking back, as they stood then.
func TestBrowserMaterial(t *testing.T) {
	p, _ := openPage(t, Options{}, nil)
	choose(t, p, "#set-colour", "both")
	loadPGN(t, p, "1. g4 g6 2. h3 Nh6 3. Na3 Nxg4 4. Rxh7 e5 5. Rh4 Nxf2", 10)
	type bars struct{ WhiteTaken, WhiteLead, BlackTaken, BlackLead, BlackText string }
	read := func() bars {
		var b bars
		p.Eval(`(() => { const w = document.getElementById('material-white').dataset, b = document.getElementById('material-black');
			return {whiteTaken: w.taken, whiteLead: w.lead, blackTaken: b.dataset.taken, blackLead: b.dataset.lead,
				blackText: ([...b.querySelectorAll('.taken')].map(g => g.dataset.board + ':' + g.querySelectorAll('.taken-man').length).join(' ') + ' ' + ((b.querySelector('.lead') || {}).textContent || '')).trim()}; })()`, &b)
		return b
	}
	// White took a pawn on A (Rxh7); Black two, one on each board (Nxg4 on
	// B, Nxf2 on A).
	if got, want := read(), (bars{"pA", "", "PA PB", "+1", "A:1 B:1 +1"}); got != want {
		t.Errorf("after 5… Nxf2: %+v, want %+v", got, want)
	}
	p.Click(`#play-moves .move[data-ply="7"]`)
	p.WaitFor(10*time.Second, `document.body.dataset.viewPly === '7'`)
	if got, want := read(), (bars{"pA", "", "PB", "", "B:1"}); got != want {
		t.Errorf("looking at 4. Rxh7: %+v, want %+v", got, want)
	}
	noPageErrors(t, p)
}

// Sounds: a move, a capture, a check, the end; off by the toggle, and
// still off after a reload.
func TestBrowserSound(t *testing.T) {
	p, url := openPage(t, Options{}, nil)
	choose(t, p, "#set-colour", "both")
	sounds := func() (int, string) {
		var s struct {
			N    string
			Last string
		}
		p.Eval(`({n: document.body.dataset.sounds || '0', last: document.body.dataset.lastSound || ''})`, &s)
		var n int
		fmt.Sscan(s.N, &n)
		return n, s.Last
	}
	play := func(m servetest.Move, ply int, want string) {
		t.Helper()
		n, _ := sounds()
		p.ClickMove(m)
		p.WaitFor(10*time.Second, fmt.Sprintf(`document.body.dataset.ply === '%d'`, ply))
		if n2, last := sounds(); n2 != n+1 || last != want {
			t.Errorf("after %s: %d sounds (was %d), the last %q; want one more, %q", m.UCI, n2, n, last, want)
		}
	}
	play(servetest.Move{From: "g2", To: "g4", FromBoard: "A", ToBoard: "B"}, 1, "move")
	loadPGN(t, p, "1. g4 g6 2. h3 Nh6 3. Na3", 5)
	play(servetest.Move{From: "h6", To: "g4", FromBoard: "B", ToBoard: "A"}, 6, "capture")
	loadPGN(t, p, "1. f4 d6 2. h4 a5 3. Kf2", 5)
	play(servetest.Move{From: "d8", To: "d4", FromBoard: "A", ToBoard: "B"}, 6, "check")
	loadPGN(t, p, "1. e4 d5 2. Be2 dxe4", 4)
	play(servetest.Move{From: "e2", To: "b5", FromBoard: "B", ToBoard: "A"}, 5, "end")

	p.Click("#btn-sound")
	var button struct{ Text, Pressed, Stored string }
	readButton := func() {
		p.Eval(`({text: document.getElementById('btn-sound').textContent, pressed: document.getElementById('btn-sound').getAttribute('aria-pressed'), stored: localStorage.getItem('alicezero.sound')})`, &button)
	}
	readButton()
	if button.Text != "Sound off" || button.Pressed != "false" || button.Stored != "off" {
		t.Errorf("sound switched off: %+v", button)
	}
	loadPGN(t, p, "1. e4", 1)
	n, _ := sounds()
	p.ClickMove(servetest.Move{From: "d7", To: "d5", FromBoard: "A", ToBoard: "B"})
	p.WaitFor(10*time.Second, `document.body.dataset.ply === '2'`)
	if n2, _ := sounds(); n2 != n {
		t.Errorf("with the sound off a move made %d sounds", n2-n)
	}
	p.Navigate(url + "/")
	readButton()
	if button.Text != "Sound off" || button.Pressed != "false" {
		t.Errorf("after a reload: %+v", button)
	}
	noPageErrors(t, p)
}
