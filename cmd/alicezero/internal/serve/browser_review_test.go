package serve

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/serve/servetest"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts"
)

// fakeBest is the move the fake engine plays after moves (SAN) from the
// start of alice, in SAN.
func fakeBest(t *testing.T, moves ...string) string {
	t.Helper()
	p := env.NewPosition(env.Alice)
	for _, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		p.MakeMove(m)
	}
	res, err := (&fakeSearch{steps: 1}).search(context.Background(), p.Clone(), clock.Limits{Nodes: 10}, mcts.Progress{})
	if err != nil {
		t.Fatal(err)
	}
	return p.SAN(res.BestMove)
}

// analysisPane is what Review's analysis pane shows.
type analysisPane struct {
	Ply, State, Caption, Line, Text, Button string
}

func reviewAnalysis(t *testing.T, p *servetest.Page) analysisPane {
	t.Helper()
	var a analysisPane
	p.Eval(`(() => { const b = document.getElementById('rv-analysis'); const q = (s) => { const e = b.querySelector(s); return e ? e.textContent : ''; };
		return {ply: b.dataset.ply || '', state: b.dataset.state || '', caption: q('.an-caption'), line: q('.pv-moves'), text: b.textContent,
			button: document.getElementById('rv-analyse').textContent}; })()`, &a)
	return a
}

// Review's analysis follows the position on the boards: stepped on, it
// analyses the new position; switched off, the pane is cleared; another
// game loaded, nothing of the last one's is left.
func TestBrowserReviewAnalysisFollows(t *testing.T) {
	p, _ := openPage(t, Options{}, &fakeLoader{steps: 1})
	p.Click(`#tabs [data-view=review]`)
	p.SetValue("#rv-text", "1. e4 d5 2. Be2 dxe4 3. Bb5# 1-0\n")
	p.Click("#rv-load")
	p.WaitFor(10*time.Second, `document.body.dataset.reviewPly === '5'`)
	p.Click("#rv-first")
	p.Click("#rv-next")
	p.Click("#rv-next")
	p.WaitFor(5*time.Second, `document.body.dataset.reviewPly === '2'`)
	p.Click("#rv-analyse")
	p.WaitFor(10*time.Second, `document.getElementById('rv-analysis').dataset.ply === '2' && document.getElementById('rv-analysis').dataset.state === 'ended'`)
	a := reviewAnalysis(t, p)
	if want := fakeBest(t, "e4", "d5"); !strings.HasPrefix(a.Line, "2. "+want) || !strings.Contains(a.Caption, "1… d5") || a.Button != "Stop analysis" {
		t.Errorf("the analysis of ply 2: %+v; want the line to start 2. %s", a, want)
	}
	// Two steps on: the pane shows ply 4, analysed afresh.
	p.Click("#rv-next")
	p.Click("#rv-next")
	p.WaitFor(10*time.Second, `document.body.dataset.reviewPly === '4' && document.getElementById('rv-analysis').dataset.ply === '4' && document.getElementById('rv-analysis').dataset.state === 'ended'`)
	a = reviewAnalysis(t, p)
	if want := fakeBest(t, "e4", "d5", "Be2", "dxe4"); !strings.HasPrefix(a.Line, "3. "+want) || !strings.Contains(a.Caption, "(ply 4)") {
		t.Errorf("after two steps: %+v; want ply 4's line, 3. %s", a, want)
	}
	// Switched off and stepped back: nothing is left of ply 4's analysis.
	p.Click("#rv-analyse")
	p.WaitFor(5*time.Second, `document.getElementById('rv-analyse').textContent === 'Analyse position'`)
	p.Click("#rv-prev")
	p.WaitFor(5*time.Second, `document.body.dataset.reviewPly === '3' && document.getElementById('rv-analysis').dataset.state === 'idle'`)
	if a = reviewAnalysis(t, p); a.Line != "" || a.Ply != "" {
		t.Errorf("stepped with the analysis off, the pane shows %+v", a)
	}
	// On again, then another game: the pane is cleared and the analysis off.
	p.Click("#rv-analyse")
	p.WaitFor(10*time.Second, `document.getElementById('rv-analysis').dataset.ply === '3' && document.getElementById('rv-analysis').dataset.state === 'ended'`)
	p.SetValue("#rv-text", reviewPGN)
	p.Click("#rv-load")
	p.WaitFor(10*time.Second, `document.getElementById('rv-tags').textContent.includes('Review test') && document.getElementById('rv-analysis').dataset.state === 'idle'`)
	if a = reviewAnalysis(t, p); a.Line != "" || a.Ply != "" || a.Button != "Analyse position" {
		t.Errorf("after loading another game the pane shows %+v", a)
	}
	// And the evaluation of the game ends a running analysis, not the
	// other way round.
	p.Click("#rv-analyse")
	p.Click("#rv-eval")
	p.WaitFor(20*time.Second, `document.body.dataset.reviewEvaluated === '6'`)
	if a = reviewAnalysis(t, p); a.Button != "Analyse position" {
		t.Errorf("after the evaluation: %+v", a)
	}
	noPageErrors(t, p)
}
