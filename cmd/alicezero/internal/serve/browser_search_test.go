package serve

import (
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/serve/servetest"
	"github.com/alicezero/alicezero/mcts/engine"
)

// playPane is what Play's analysis pane shows.
type playPane struct{ State, End, Text string }

func playAnalysis(t *testing.T, p *servetest.Page) playPane {
	t.Helper()
	var a playPane
	p.Eval(`(() => { const b = document.getElementById('play-analysis'); return {state: b.dataset.state || '', end: b.dataset.end || '', text: b.textContent}; })()`, &a)
	return a
}

// Unticking "think on my moves" while the engine thinks about the
// player's position, after its own move, ends the pane's report: it no
// longer says "thinking…" but why it stopped.
func TestBrowserThinkToggleEnds(t *testing.T) {
	// The engine's move takes one report (10 visits asked for); the
	// analysis, bound by time only, twenty seconds.
	p, _ := openPage(t, Options{}, &fakeLoader{steps: 400, delay: 50 * time.Millisecond})
	choose(t, p, "#set-visits", "10")
	p.Click("#set-analyse")
	g := p.CurrentGame()
	p.ClickMove(firstMove(0, g.Legal))
	p.WaitFor(10*time.Second, `document.body.dataset.ply === '2' && document.getElementById('play-analysis').dataset.state === 'thinking' && document.getElementById('play-analysis').textContent.includes('visits')`)
	p.Click("#set-analyse")
	p.WaitFor(5*time.Second, `document.getElementById('play-analysis').dataset.state === 'ended'`)
	a := playAnalysis(t, p)
	if a.End != "stopped" || strings.Contains(a.Text, "thinking") || !strings.Contains(a.Text, "Search ended: stopped by you") {
		t.Errorf("after unticking: %+v", a)
	}
	// Still so a moment later: no report of the stopped search comes.
	time.Sleep(300 * time.Millisecond)
	if b := playAnalysis(t, p); b != a {
		t.Errorf("the pane changed after the stop: %+v, was %+v", b, a)
	}
	noPageErrors(t, p)
}

// The pane says why the engine's search for its move ended: its visits
// reached, or stopped by the player's "Move now".
func TestBrowserSearchEndShown(t *testing.T) {
	p, _ := openPage(t, Options{}, &fakeLoader{steps: 2, reachLimit: true})
	g := p.PlayAgainstEngine(2, firstMove, 20*time.Second)
	if g.Ply != 2 {
		t.Fatalf("ply %d", g.Ply)
	}
	p.WaitFor(5*time.Second, `document.getElementById('play-analysis').dataset.end === 'visits'`)
	if a := playAnalysis(t, p); !strings.Contains(a.Text, "Search ended: the 400 visits asked for were reached") {
		t.Errorf("after the engine's move: %+v", a)
	}

	gate := make(chan struct{})
	defer close(gate)
	p, _ = openPage(t, Options{}, &fakeLoader{steps: 1, gate: gate})
	choose(t, p, "#set-colour", "black")
	p.WaitFor(10*time.Second, `document.body.dataset.thinking === '1'`)
	p.Click("#btn-engine") // Move now, perhaps before the server has named the search
	p.WaitFor(10*time.Second, `document.body.dataset.ply === '1' && document.getElementById('play-analysis').dataset.end === 'stopped'`)
	if a := playAnalysis(t, p); !strings.Contains(a.Text, "Search ended: stopped by you") {
		t.Errorf("after Move now: %+v", a)
	}
	noPageErrors(t, p)
}

// The header names the engine that answered once, its full description
// in its title.
func TestBrowserHeaderNamesEngineOnce(t *testing.T) {
	dir := makeRun(t, "othervariant-1", 2)
	p, _ := openPage(t, Options{RunsDir: dir}, &fakeLoader{steps: 1})
	choose(t, p, "#set-weights", "run:othervariant-1")
	g := p.CurrentGame()
	p.ClickMove(firstMove(0, g.Legal))
	p.WaitFor(10*time.Second, `document.body.dataset.ply === '2' && document.body.dataset.thinking !== '1'`)
	var header struct{ Text, Title string }
	p.Eval(`({text: document.getElementById('engine-name').textContent, title: document.getElementById('engine-name').title})`, &header)
	if header.Text != "plain search (othervariant-1 iter-000002 does not play alice)" || !strings.Contains(header.Title, "was trained for alice-3") {
		t.Errorf("header %+v", header)
	}
	noPageErrors(t, p)
}

// A search of Review's takes the place of Play's analysis (a visitor has
// one search at a time); back in Play, the analysis starts again.
func TestBrowserPlayAnalysisResumes(t *testing.T) {
	p, _ := openPage(t, Options{}, &fakeLoader{steps: 400, delay: 50 * time.Millisecond})
	choose(t, p, "#set-colour", "both")
	p.Click("#set-analyse")
	p.WaitFor(10*time.Second, `document.getElementById('play-analysis').dataset.state === 'thinking'`)
	p.Click(`#tabs [data-view=review]`)
	p.SetValue("#rv-text", reviewPGN)
	p.Click("#rv-load")
	p.WaitFor(10*time.Second, `document.body.dataset.reviewPly === '5'`)
	p.Click("#rv-first")
	p.Click("#rv-analyse")
	p.WaitFor(10*time.Second, `document.getElementById('rv-analysis').dataset.state === 'thinking' && document.getElementById('play-analysis').dataset.state === 'ended'`)
	if a := playAnalysis(t, p); !strings.Contains(a.Text, "a newer search took its place") {
		t.Errorf("Play's analysis, replaced: %+v", a)
	}
	p.Click(`#tabs [data-view=play]`)
	p.WaitFor(10*time.Second, `document.getElementById('play-analysis').dataset.state === 'thinking'`)
	noPageErrors(t, p)
}

// The alpha-beta's analysis lists its lines, each with its value and
// moves, and counts nodes, not visits.
func TestBrowserAlphaBetaLines(t *testing.T) {
	p, _ := openPage(t, Options{}, &fakeLoader{steps: 400, delay: 50 * time.Millisecond, kind: engine.SearchAlphaBeta})
	choose(t, p, "#set-colour", "both")
	p.Click("#set-analyse")
	p.WaitFor(10*time.Second, `document.getElementById('play-analysis').dataset.state === 'thinking' && document.querySelectorAll('#play-analysis table.top.lines tr').length === 4`)
	var pane struct {
		Head  string
		Cells [][]string
	}
	p.Eval(`(() => {
		const b = document.getElementById('play-analysis');
		return {head: b.querySelector('.an-head').textContent,
			cells: [...b.querySelectorAll('table.top tr')].map((tr) => [...tr.children].map((c) => c.textContent))};
	})()`, &pane)
	want := [][]string{{"move", "lands", "Q", "line"}, {"a3", "B", "0.30", "1. a3"}, {"a4", "B", "0.20", "1. a4"}, {"Na3", "B", "0.10", "1. Na3"}}
	if !strings.Contains(pane.Head, "nodes · depth") || strings.Contains(pane.Head, "visits") || len(pane.Cells) != len(want) {
		t.Fatalf("the pane: %+v", pane)
	}
	for i, row := range want {
		if strings.Join(pane.Cells[i], "|") != strings.Join(row, "|") {
			t.Errorf("row %d: %q, want %q", i, pane.Cells[i], row)
		}
	}
	noPageErrors(t, p)
}
