// Package servetest helps the tests of the web frontend (cmd/alicezero/internal/serve
// and cmd/alicezero): it drives headless Chromium, collecting the page's
// console errors and playing moves by clicking the boards as a person
// would, and it writes training run folders to show.
//
// Browser tests skip when Chromium is missing, unless the CI environment
// variable is set: then they fail, since CI must run them (.ci/run
// installs Debian's chromium package).
package servetest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Chromium returns the browser to run, or skips (fails under CI) when
// there is none.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{os.Getenv("CHROMIUM"), "chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if name == "" {
			continue
		}
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	msg := "Chromium is not installed, so the browser tests cannot run (apt-get install chromium, or set CHROMIUM to a browser)"
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// Page is a browser tab.
type Page struct {
	Ctx context.Context
	t   testing.TB

	mu     sync.Mutex
	errors []string
}

// Open starts a headless Chromium with a fresh profile and returns a tab
// of width×height pixels. Everything ends with the test.
func Open(t testing.TB, width, height int) *Page {
	t.Helper()
	path := Chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
	})
	p := &Page{Ctx: ctx, t: t}
	// Listen starts the browser, with no timeout: the test's end stops it.
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
				}
				p.addError("console.error: " + strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			p.addError(fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber, msg))
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				p.addError(fmt.Sprintf("%s: %s (%s)", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
			}
		}
	})
	if err != nil {
		t.Fatalf("starting Chromium (%s): %v", path, err)
	}
	return p
}

func (p *Page) addError(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errors = append(p.errors, s)
}

// Errors returns the console errors, exceptions and failed loads seen.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errors...)
}

// do runs actions with a timeout, failing the test on error.
func (p *Page) do(timeout time.Duration, what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, timeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("%s: %v (page errors: %v)", what, err, p.Errors())
	}
}

// Navigate loads url and waits for the page to say it is ready.
func (p *Page) Navigate(url string) {
	p.t.Helper()
	p.do(30*time.Second, "loading "+url, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`)))
}

// NavigateTo loads url, a page other than the app's, and waits for it to
// load.
func (p *Page) NavigateTo(url string) {
	p.t.Helper()
	p.do(30*time.Second, "loading "+url, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("body")))
}

// Click clicks the element a CSS selector finds.
func (p *Page) Click(sel string) {
	p.t.Helper()
	p.do(10*time.Second, "clicking "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// SetValue sets the value of a text field.
func (p *Page) SetValue(sel, value string) {
	p.t.Helper()
	p.do(10*time.Second, "filling "+sel, chromedp.SetValue(chromedp.CSS(sel), value))
}

// Eval evaluates a JavaScript expression (a promise is awaited) and
// decodes its JSON value into out.
func (p *Page) Eval(expr string, out any) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 20*time.Second)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v (page errors: %v)", expr, err, p.Errors())
	}
	if err := json.Unmarshal(raw, out); err != nil {
		p.t.Fatalf("evaluating %s: %v in %s", expr, err, raw)
	}
}

// WaitFor polls a JavaScript condition until it is true.
func (p *Page) WaitFor(timeout time.Duration, cond string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, timeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(25*time.Millisecond))); err != nil {
		p.t.Fatalf("waiting for %s: %v (page errors: %v)", cond, err, p.Errors())
	}
}

// ClickSquare clicks a square of a board ("A", "B" or "C") of the boards in
// the element with the given id.
func (p *Page) ClickSquare(boards, board, sq string) {
	p.t.Helper()
	p.Click(fmt.Sprintf(`#%s svg[data-board=%q] rect[data-sq=%q]`, boards, board, sq))
}

// Move is a legal move as the API describes it.
type Move struct {
	UCI       string `json:"uci"`
	SAN       string `json:"san"`
	From      string `json:"from"`
	To        string `json:"to"`
	FromBoard string `json:"from_board"`
	ToBoard   string `json:"to_board"`
	Promotion string `json:"promotion"`
	Null      bool   `json:"null"`
}

// Game is the part of the API's game state the tests read.
type Game struct {
	Variant  string            `json:"variant"`
	Side     string            `json:"side"`
	Ply      int               `json:"ply"`
	Status   string            `json:"status"`
	Result   string            `json:"result"`
	Boards   map[string]string `json:"boards"`
	Legal    []Move            `json:"legal"`
	LastMove *Move             `json:"last_move"`
	Clock    *Clock            `json:"clock"`
}

// Clock is a timed game's clocks as the API describes them.
type Clock struct {
	TimeControl string `json:"time_control"`
	WhiteMS     int64  `json:"white_ms"`
	BlackMS     int64  `json:"black_ms"`
	Running     string `json:"running"`
	Flag        string `json:"flag"`
}

// CurrentGame asks the API (in the page's session) for the game.
func (p *Page) CurrentGame() Game {
	p.t.Helper()
	var g Game
	p.Eval(`fetch('/api/game').then(r => r.json())`, &g)
	return g
}

// ClickMove plays m on the Play view's boards by two clicks: the man on
// its board, then the square where it lands (on another board, or on its
// own for a stay; a null move on its square of another board). It checks
// that picking the man marks the move on both boards: a dot where it
// moves on its board (none for a null move), a frame where it lands.
func (p *Page) ClickMove(m Move) {
	p.t.Helper()
	p.ClickSquare("play-boards", m.FromBoard, m.From)
	var marks struct {
		Via  int `json:"via"`
		Land int `json:"land"`
	}
	p.Eval(fmt.Sprintf(`({via: document.querySelectorAll('#play-boards svg[data-board=%q] .target:not(.land)[data-target=%q]').length,
		land: document.querySelectorAll('#play-boards svg[data-board=%q] .land[data-target=%q]').length})`, m.FromBoard, m.To, m.ToBoard, m.To), &marks)
	wantVia := 1
	if m.Null {
		wantVia = 0
	}
	if marks.Via != wantVia || marks.Land != 1 {
		p.t.Fatalf("after picking %s on board %s: %d target marks on its board, %d landing marks on board %s; want %d and 1", m.From, m.FromBoard, marks.Via, marks.Land, m.ToBoard, wantVia)
	}
	p.ClickSquare("play-boards", m.ToBoard, m.To)
	if m.Promotion != "" {
		p.Click(fmt.Sprintf(`#promo button[data-promotion=%q]`, m.Promotion))
	}
}

// PlayAgainstEngine plays White's moves by clicks until the game has
// lasted plies plies (or ended), waiting for the engine's reply after
// each. choose picks the move to play from the legal ones.
func (p *Page) PlayAgainstEngine(plies int, choose func(ply int, legal []Move) Move, reply time.Duration) Game {
	p.t.Helper()
	return p.PlayAs("white", plies, choose, reply)
}

// PlayAs plays colour's moves ("white" or "black") by clicks, the engine
// playing the other side, as PlayAgainstEngine does.
func (p *Page) PlayAs(colour string, plies int, choose func(ply int, legal []Move) Move, reply time.Duration) Game {
	p.t.Helper()
	for {
		p.WaitFor(reply, `document.body.dataset.thinking !== '1'`)
		g := p.CurrentGame()
		if g.Status != "ongoing" || g.Ply >= plies {
			return g
		}
		if g.Side != colour {
			p.t.Fatalf("ply %d: the engine's side (%s) to move but the engine is not thinking", g.Ply, g.Side)
		}
		p.ClickMove(choose(g.Ply, g.Legal))
		p.WaitFor(reply, fmt.Sprintf(`Number(document.body.dataset.ply) >= %d && document.body.dataset.thinking !== '1'`, g.Ply+2))
	}
}

// Screenshot saves the whole page as a PNG file.
func (p *Page) Screenshot(path string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// ScreenshotView saves what the screen shows (the viewport, not the whole
// page) as a PNG file.
func (p *Page) ScreenshotView(path string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// Drag drags with the mouse from the centre of one element to the centre
// of another, in small steps, as a person would.
func (p *Page) Drag(from, to string) {
	p.t.Helper()
	p.do(10*time.Second, "dragging "+from+" to "+to, chromedp.DragAndDrop(chromedp.CSS(from), chromedp.CSS(to)))
}

// Hover moves the mouse over the centre of an element.
func (p *Page) Hover(sel string) {
	p.t.Helper()
	var box struct{ X, Y float64 }
	p.Eval(fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return {X: r.left + r.width / 2, Y: r.top + r.height / 2}; })()`, sel), &box)
	p.do(10*time.Second, "hovering "+sel, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, box.X, box.Y))
}

// Viewport makes the page's viewport width×height CSS pixels, narrower
// than a headless window may be.
func (p *Page) Viewport(width, height int) {
	p.t.Helper()
	p.do(10*time.Second, fmt.Sprintf("setting the viewport to %dx%d", width, height), chromedp.EmulateViewport(int64(width), int64(height)))
}

// Phone makes the tab a phone's or a tablet's screen of width×height CSS
// pixels: a mobile viewport at two device pixels a CSS pixel, with touch.
// As on a real phone, a page wider than the screen then widens the
// layout viewport instead of overflowing it, and the screen shows a part
// of it (window.visualViewport), so a test measures what a person sees
// by the visual viewport, not innerWidth.
func (p *Page) Phone(width, height int) {
	p.t.Helper()
	p.do(10*time.Second, fmt.Sprintf("emulating a %dx%d phone", width, height),
		chromedp.EmulateViewport(int64(width), int64(height), chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
}

// Keys types keys on the page, as a person at the keyboard would: runes,
// or the key names of package chromedp/kb (kb.ArrowLeft, kb.Escape).
func (p *Page) Keys(keys string) {
	p.t.Helper()
	p.do(10*time.Second, fmt.Sprintf("typing %q", keys), chromedp.KeyEvent(keys))
}

// Tap taps the element a CSS selector finds, as a finger would (touch
// emulation must be on: Phone).
func (p *Page) Tap(sel string) {
	p.t.Helper()
	p.do(10*time.Second, "tapping "+sel, chromedp.Tap(chromedp.CSS(sel)))
}
