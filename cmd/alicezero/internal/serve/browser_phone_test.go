package serve

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/serve/servetest"
	"github.com/alicezero/alicezero/env"
)

// phoneShots, when set, is a folder the phone tests save their
// screenshots in, to look at.
var phoneShots = flag.String("phone-shots", "", "save the phone-width screenshots in this folder")

// longEngineLabel is as long as the label "alicezero serve" gives its
// built-in network: a select that fits its longest option would widen a
// phone's page to fit it.
const longEngineLabel = "the built-in network (small, 2940 iterations of training) for alice; the plain search in the other variants"

// screens are the phones and the tablet the page must fit: width ×
// height in CSS pixels.
var screens = [][2]int{{390, 844}, {360, 740}, {768, 1024}}

// box is an element's place on the page, in CSS pixels of the layout
// viewport, as getBoundingClientRect gives it.
type box struct{ Top, Bottom, Left, Right float64 }

// screenView is what a person sees of the page on a phone: the visual
// viewport (its size and where it lies in the layout viewport), the
// layout's width, and where the boards and the header are.
type screenView struct {
	Visual struct{ Left, Top, Width, Height float64 }
	Layout float64
	Header box
	Boards []box
	Wide   []string
}

// measureScreen measures the Play or Training view as the screen shows it.
func measureScreen(t *testing.T, p *servetest.Page, boards string) screenView {
	t.Helper()
	var v screenView
	p.Eval(fmt.Sprintf(`(() => {
		const vv = visualViewport;
		const r = (e) => { const b = e.getBoundingClientRect(); return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
		const wide = [...document.querySelectorAll('body *')].filter((e) => e.offsetParent !== null && e.getBoundingClientRect().right > vv.offsetLeft + vv.width + 0.5)
			.slice(0, 6).map((e) => e.tagName + '#' + e.id + '.' + (e.getAttribute('class') || '') + ' ' + Math.round(e.getBoundingClientRect().right));
		return {visual: {left: vv.offsetLeft, top: vv.offsetTop, width: vv.width, height: vv.height}, layout: document.documentElement.scrollWidth,
			header: r(document.querySelector('header.top')), boards: [...document.querySelectorAll(%q)].map(r), wide};
	})()`, boards), &v)
	return v
}

// inside reports whether b lies within the visual viewport of v.
func (v screenView) inside(b box) bool {
	const eps = 0.5
	return b.Left >= v.Visual.Left-eps && b.Right <= v.Visual.Left+v.Visual.Width+eps &&
		b.Top >= v.Visual.Top-eps && b.Bottom <= v.Visual.Top+v.Visual.Height+eps
}

// checkFits fails the test unless the page is no wider than the screen
// and every board lies inside it.
func checkFits(t *testing.T, p *servetest.Page, when, boards string, wantBoards int) {
	t.Helper()
	v := measureScreen(t, p, boards)
	if v.Layout > v.Visual.Width+0.5 || len(v.Wide) > 0 {
		t.Errorf("%s: the page is %v px wide on a screen of %v; wider than the screen: %v", when, v.Layout, v.Visual.Width, v.Wide)
	}
	if v.Header.Right-v.Header.Left < v.Visual.Width-0.5 {
		t.Errorf("%s: the header is %v px wide, the screen %v", when, v.Header.Right-v.Header.Left, v.Visual.Width)
	}
	if len(v.Boards) != wantBoards {
		t.Fatalf("%s: %d boards, want %d", when, len(v.Boards), wantBoards)
	}
	for i, b := range v.Boards {
		if !v.inside(b) {
			t.Errorf("%s: board %d at %+v, outside the screen %+v", when, i, b, v.Visual)
		}
	}
}

// unreachable returns a man of the side to move that has a move, on its
// board, and an empty square of that board it cannot go to.
func unreachable(t *testing.T, g servetest.Game) (board, from, to string) {
	t.Helper()
	m := g.Legal[0]
	targets := map[string]bool{m.From: true}
	for _, l := range g.Legal {
		if l.From == m.From && l.FromBoard == m.FromBoard {
			targets[l.To] = true
		}
	}
	squares := g.Boards[m.FromBoard]
	files := "abcdefgh"
	if g.Variant == "alice-mini" {
		files = "abcd"
	}
	for rank := 4; rank <= 5; rank++ {
		for _, f := range files {
			sq := fmt.Sprintf("%c%d", f, rank)
			if !targets[sq] && squares[int(f-'a')+8*(rank-1)] == '.' {
				return m.FromBoard, m.From, sq
			}
		}
	}
	t.Fatalf("no empty square out of reach of %s on board %s", m.From, m.FromBoard)
	return "", "", ""
}

// TestBrowserPhoneWidth plays on a phone's screen (390×844, and the
// narrowest the page promises, 360×740) and a tablet's (768×1024), in
// every variant, with an engine whose name is as long as the built-in
// network's: the page is no wider than the screen (no horizontal
// scrolling, the dark header across it), every board lies on the
// screen, the message an illegal move raises shows on the screen, and
// after a move both boards are still in view, the page not scrolled to
// the move list.
func TestBrowserPhoneWidth(t *testing.T) {
	for _, size := range screens {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			servetest.Chromium(t)
			ts := newTestServer(t, Options{DefaultLabel: longEngineLabel}, &fakeLoader{steps: 1})
			p := servetest.Open(t, size[0], size[1])
			p.Phone(size[0], size[1])
			p.Navigate(ts.URL + "/")
			// A newcomer finds how Alice moves work.
			var how string
			p.Eval(`(() => { const d = document.getElementById('how-to-play'); d.open = true; return d.textContent; })()`, &how)
			if !strings.Contains(how, "looking glass") || !strings.Contains(how, "empty on the other board") {
				t.Errorf("no word on how to play: %q", how)
			}
			checkFits(t, p, "with how to play open", "#play-boards svg.board", 2)
			for _, variant := range env.VariantNames() {
				count := 2
				if variant == "alice-3" {
					count = 3
				}
				choose(t, p, "#set-variant", variant)
				p.WaitFor(10*time.Second, fmt.Sprintf(`document.body.dataset.variant === %q && document.body.dataset.ply === '0' && document.querySelectorAll('#play-boards svg.board').length === %d`, variant, count))
				checkFits(t, p, variant+" at the start", "#play-boards svg.board", count)

				// A man tapped, then a square it cannot reach: the reason
				// shows where the player looks.
				g := p.CurrentGame()
				board, from, to := unreachable(t, g)
				p.Tap(fmt.Sprintf(`#play-boards svg[data-board=%q] rect[data-sq=%q]`, board, from))
				p.Tap(fmt.Sprintf(`#play-boards svg[data-board=%q] rect[data-sq=%q]`, board, to))
				p.WaitFor(10*time.Second, `!document.getElementById('toast').classList.contains('hidden') && document.getElementById('toast').textContent.startsWith('Illegal')`)
				v := measureScreen(t, p, "#toast")
				if len(v.Boards) != 1 || !v.inside(v.Boards[0]) {
					t.Errorf("%s: the toast for %s-%s is at %+v, the screen %+v", variant, from, to, v.Boards, v.Visual)
				}

				p.ClickMove(firstMove(0, g.Legal))
				p.WaitFor(10*time.Second, `Number(document.body.dataset.ply) >= 2 && document.body.dataset.thinking !== '1'`)
				checkFits(t, p, variant+" after a move and the reply", "#play-boards svg.board", count)
				if *phoneShots != "" && (variant == "alice" || variant == "alice-3") {
					p.Screenshot(filepath.Join(*phoneShots, fmt.Sprintf("phone-%dx%d-%s.png", size[0], size[1], variant)))
				}
			}
			noPageErrors(t, p)
		})
	}
}

// TestBrowserStatusTexts checks the statuses the page writes for
// positions that carry no result (a review's).
func TestBrowserStatusTexts(t *testing.T) {
	p, _ := openPage(t, Options{}, nil)
	var mate string
	p.Eval(`import('./js/ui.js').then((m) => m.statusText({status: 'checkmate', side: 'black'}))`, &mate)
	if mate != "Checkmate: White wins (1-0)" {
		t.Errorf("a review's mate reads %q", mate)
	}
	noPageErrors(t, p)
}

// The how-to-play panel links to the rule book, which the server serves
// in the page's style, and which fits a phone.
func TestBrowserRulesPage(t *testing.T) {
	servetest.Chromium(t)
	ts := newTestServer(t, Options{}, nil)
	p := servetest.Open(t, 360, 740)
	p.Phone(360, 740)
	p.Navigate(ts.URL + "/")
	var href string
	p.Eval(`document.getElementById('rules-link').href`, &href)
	if href != ts.URL+"/rules" {
		t.Fatalf("the rules link goes to %q", href)
	}
	p.NavigateTo(href)
	var page struct {
		Sections int
		Header   string
		Layout   float64
		Visual   float64
	}
	p.Eval(`({sections: document.querySelectorAll('main.rules h2').length, header: getComputedStyle(document.querySelector('header.top')).backgroundColor,
		layout: document.documentElement.scrollWidth, visual: visualViewport.width})`, &page)
	if page.Sections < 8 || page.Header != "rgb(17, 24, 39)" || page.Layout > page.Visual+0.5 {
		t.Errorf("the rules page: %+v", page)
	}
	if *phoneShots != "" {
		p.Screenshot(filepath.Join(*phoneShots, "phone-360x740-rules.png"))
	}
	noPageErrors(t, p)
}
