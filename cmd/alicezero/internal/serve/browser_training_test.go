package serve

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/serve/servetest"
	"github.com/alicezero/alicezero/env"
)

// longGame writes a game of at most plies legal moves of alice as PGN, a
// seeded random mover's, and returns it with its length.
func longGame(t *testing.T, plies int) (string, int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	p := env.NewPosition(env.Alice)
	g := env.NewGame(env.Alice)
	g.SetTag("Event", "a long game")
	var ml env.MoveList
	for len(g.Moves) < plies && !p.Status().IsOver() {
		p.LegalMoves(&ml)
		m := ml.Slice()[rng.IntN(ml.N)]
		g.Moves = append(g.Moves, m)
		p.MakeMove(m)
	}
	g.Result = p.Outcome(p.Status())
	var b bytes.Buffer
	if err := env.WritePGN(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.String(), len(g.Moves)
}

// A run's game opened from the bottom of the Training view lands at the
// top of Review, its last move in view in the move list.
func TestBrowserRunGameLandsInView(t *testing.T) {
	dir := makeRun(t, "small-demo", 12)
	pgn, n := longGame(t, 80)
	if n < 40 {
		t.Fatalf("the long game is %d plies", n)
	}
	if err := os.WriteFile(filepath.Join(dir, "small-demo", "games", "iter-000012.pgn"), []byte(pgn), 0o644); err != nil {
		t.Fatal(err)
	}
	servetest.Chromium(t)
	ts := newTestServer(t, Options{RunsDir: dir}, nil)
	p := servetest.Open(t, 1200, 700)
	p.Navigate(ts.URL + "/#training")
	p.WaitFor(10*time.Second, `document.querySelectorAll('#run-games button').length > 0`)
	p.Eval(`(() => { window.scrollTo(0, document.documentElement.scrollHeight); return scrollY > 0; })()`, new(bool))
	p.Click(`#run-games button[data-file="iter-000012.pgn"]`)
	p.WaitFor(10*time.Second, fmt.Sprintf(`document.body.dataset.view === 'review' && document.body.dataset.reviewPly === '%d'`, n))
	var v struct {
		ScrollY           float64
		BoardsTop         float64
		Current, ListView box
	}
	p.Eval(`(() => { const r = (e) => { const b = e.getBoundingClientRect(); return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
		return {scrollY, boardsTop: document.getElementById('review-boards').getBoundingClientRect().top,
			current: r(document.querySelector('#rv-moves .move.current')), listView: r(document.getElementById('rv-moves'))}; })()`, &v)
	if v.ScrollY != 0 || v.BoardsTop < 0 {
		t.Errorf("Review opened scrolled to %v, its boards at %v", v.ScrollY, v.BoardsTop)
	}
	if v.Current.Top < v.ListView.Top-0.5 || v.Current.Bottom > v.ListView.Bottom+0.5 {
		t.Errorf("the current move at %+v lies outside the move list's view %+v", v.Current, v.ListView)
	}
	noPageErrors(t, p)
}

// The Training view fits a phone's screen, as Play does.
func TestBrowserTrainingPhoneWidth(t *testing.T) {
	dir := makeRun(t, "small-20261130-121314", 30)
	servetest.Chromium(t)
	ts := newTestServer(t, Options{RunsDir: dir}, nil)
	p := servetest.Open(t, 360, 740)
	p.Phone(360, 740)
	p.Navigate(ts.URL + "/#training")
	p.WaitFor(10*time.Second, `document.querySelectorAll('#ckpt-table tbody tr').length === 30 && Number(document.body.dataset.charts) >= 5`)
	if v := measureScreen(t, p, "#charts .chart"); v.Layout > v.Visual.Width+0.5 || len(v.Wide) > 0 {
		t.Errorf("the training view is %v px wide on a screen of %v; wider: %v", v.Layout, v.Visual.Width, v.Wide)
	}
	if *phoneShots != "" {
		p.Screenshot(filepath.Join(*phoneShots, "phone-360x740-training.png"))
	}
	noPageErrors(t, p)
}

// Numbers read as a person writes them: no "-0", Elo in whole points.
func TestBrowserNumbers(t *testing.T) {
	p, _ := openPage(t, Options{}, nil)
	var got []string
	p.Eval(`Promise.all([import('./js/charts.js'), import('./js/training.js')]).then(([c, tr]) =>
		[c.formatNumber(-0), c.formatNumber(0), c.formatNumber(-0.0001), c.formatNumber(-2.5), tr.eloText(-0), tr.eloText(-0.4), tr.eloText(-12.6), tr.eloText(45.2)])`, &got)
	want := []string{"0", "0", "-1.00e-4", "-2.5", "0", "0", "−13", "+45"}
	if !slices.Equal(got, want) {
		t.Errorf("numbers %q, want %q", got, want)
	}
	noPageErrors(t, p)
}
