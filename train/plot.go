package train

import (
	"bytes"
	"fmt"
	"image/color"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/alicezero/alicezero/internal/fileutil"
	"github.com/alicezero/alicezero/internal/runs"
)

// writePlots draws the run's curves (losses, game length, strength) as
// curves.png and curves.svg in dir, each written atomically.
func writePlots(dir string, history []runs.Metrics) error {
	panels, err := curvePanels(history)
	if err != nil {
		return err
	}
	const w, h = 16 * vg.Inch, 9 * vg.Inch
	png := vgimg.PngCanvas{Canvas: vgimg.New(w, h)}
	drawPanels(draw.New(png), panels)
	if err := saveCanvas(filepath.Join(dir, "curves.png"), png); err != nil {
		return err
	}
	svg := vgsvg.New(w, h)
	drawPanels(draw.New(svg), panels)
	return saveCanvas(filepath.Join(dir, "curves.svg"), svg)
}

func drawPanels(dc draw.Canvas, panels [][]*plot.Plot) {
	tiles := draw.Tiles{Rows: len(panels), Cols: len(panels[0]), PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(panels, tiles, dc)
	for i := range panels {
		for j := range panels[i] {
			panels[i][j].Draw(canvases[i][j])
		}
	}
}

func saveCanvas(path string, c vg.CanvasWriterTo) error {
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return fmt.Errorf("drawing %s: %w", path, err)
	}
	return fileutil.WriteAtomic(path, buf.Bytes())
}

type series struct {
	name string
	pts  plotter.XYs
}

func curvePanels(history []runs.Metrics) ([][]*plot.Plot, error) {
	var lossP, klP, lossV, hoV, hoBase, hoKL, length, vsRandom, vsAB, vsPrev, elo, falseResign series
	lossP.name, klP.name, lossV.name = "training policy loss", "training policy KL", "training value loss"
	hoV.name, hoBase.name, hoKL.name = "held-out value loss", "constant guess", "held-out policy KL"
	length.name = "mean game length (plies)"
	vsRandom.name, vsAB.name, vsPrev.name, elo.name = "vs random", "vs alpha-beta", "vs earlier checkpoint", "Elo vs alpha-beta"
	falseResign.name = "false resignations"
	for _, m := range history {
		x := float64(m.Iteration)
		if m.Steps > 0 {
			lossP.pts = append(lossP.pts, plotter.XY{X: x, Y: m.LossPolicy})
			klP.pts = append(klP.pts, plotter.XY{X: x, Y: m.PolicyKL})
			lossV.pts = append(lossV.pts, plotter.XY{X: x, Y: m.LossValue})
		}
		if m.HeldoutValueBaseline > 0 {
			hoV.pts = append(hoV.pts, plotter.XY{X: x, Y: m.HeldoutValueLoss})
			hoBase.pts = append(hoBase.pts, plotter.XY{X: x, Y: m.HeldoutValueBaseline})
		}
		if m.HeldoutPolicyKL > 0 {
			hoKL.pts = append(hoKL.pts, plotter.XY{X: x, Y: m.HeldoutPolicyKL})
		}
		if m.FalseResignRate != nil {
			falseResign.pts = append(falseResign.pts, plotter.XY{X: x, Y: *m.FalseResignRate})
		}
		length.pts = append(length.pts, plotter.XY{X: x, Y: m.MeanGameLength})
		if e := m.Eval; e != nil {
			if e.VsRandom != nil {
				vsRandom.pts = append(vsRandom.pts, plotter.XY{X: x, Y: e.VsRandom.Score})
			}
			if e.VsAlphaBeta != nil {
				vsAB.pts = append(vsAB.pts, plotter.XY{X: x, Y: e.VsAlphaBeta.Score})
				elo.pts = append(elo.pts, plotter.XY{X: x, Y: e.Elo})
			}
			if e.VsPrevious != nil {
				vsPrev.pts = append(vsPrev.pts, plotter.XY{X: x, Y: e.VsPrevious.Score})
			}
		}
	}
	mk := func(title, ylabel string, ss ...series) (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = title
		p.X.Label.Text = "iteration"
		p.Y.Label.Text = ylabel
		p.Add(plotter.NewGrid())
		for i, s := range ss {
			if len(s.pts) == 0 {
				continue
			}
			l, pts, err := plotter.NewLinePoints(s.pts)
			if err != nil {
				return nil, err
			}
			c := palette[i%len(palette)]
			l.Color, pts.Color = c, c
			p.Add(l, pts)
			p.Legend.Add(s.name, l, pts)
		}
		p.Legend.Top = true
		return p, nil
	}
	var panels []*plot.Plot
	for _, spec := range []struct {
		title, ylabel string
		ss            []series
	}{
		{"Value: held-out against training", "cross-entropy (nats)", []series{hoV, hoBase, lossV}},
		{"Policy", "nats", []series{lossP, klP, hoKL}},
		{"Self-play games", "plies", []series{length}},
		{"Strength: score of the checkpoint", "score (0–1)", []series{vsRandom, vsAB, vsPrev}},
		{"Elo against the alpha-beta reference", "Elo", []series{elo}},
		{"Resignation", "false-resignation rate", []series{falseResign}},
	} {
		p, err := mk(spec.title, spec.ylabel, spec.ss...)
		if err != nil {
			return nil, err
		}
		panels = append(panels, p)
	}
	panels[3].Y.Min, panels[3].Y.Max = 0, 1
	return [][]*plot.Plot{panels[:3], panels[3:]}, nil
}

var palette = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
}
