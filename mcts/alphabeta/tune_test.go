//go:build tune

package alphabeta

// The fitting of the evaluation's weights (weights.go) to the results of
// played games, in the manner of Texel tuning: every quiet position of the
// games (not in check, the move played from it neither a capture nor a
// promotion) is labelled with its game's result, and the weights minimise
// the squared error between that result and the score's winning chance,
// 1/(1+10^(-score/400·k)) with k fitted first. Every tenth game is held
// out to judge the fit. It runs as a test under the tune build tag:
//
//	go test -tags tune -run TestTune -timeout 0 ./mcts/alphabeta \
//	    -tune.games '/path/to/run/games/*.pgn' -tune.write
//
// With -tune.start hand -tune.epochs 0 -tune.write (and any data) it
// writes handWeights as they are: the shipped table, since a fit to
// 37,000 self-play positions labelled half by result and half by the
// network's value lost 7-15 (3 draws) to it at 60,000 nodes a move.
//
// The games are any PGN files (a training run's games folder, arena
// matches); -tune.write rewrites weights.go, else the fit is only reported.

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"go/format"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/alicezero/alicezero/env"
)

var (
	tuneGames  = flag.String("tune.games", "", "comma-separated globs of the PGN files to fit to")
	tuneEPD    = flag.String("tune.epd", "", "comma-separated globs of EPD files to fit to: a c9 result (White's view) and a c8 search value (the side to move's, -1..1) on each line")
	tuneLambda = flag.Float64("tune.lambda", 1, "the share of the game's result in an EPD position's label, the rest the search's value")
	tuneWrite  = flag.Bool("tune.write", false, "rewrite weights.go with the fitted weights")
	tuneEpochs = flag.Int("tune.epochs", 400, "full-batch gradient steps")
	tuneSkip   = flag.Int("tune.skip", 8, "opening plies of every game left out")
	tuneStart  = flag.String("tune.start", "current", "weights to start from: current (weights.go) or hand")
)

// sample is one quiet position: its terms, phase and the result from the
// side to move's view (1 win, 0.5 draw, 0 loss).
type sample struct {
	first, last int32 // its terms in the samples' shared slice
	phase       float64
	result      float64
}

type sampleSet struct {
	terms   []term
	samples []sample
}

func (set *sampleSet) add(l *termList, result float64) {
	first := int32(len(set.terms))
	set.terms = append(set.terms, l.t[:l.n]...)
	set.samples = append(set.samples, sample{first, int32(len(set.terms)), float64(l.phase) / phaseFull, result})
}

// readSamples collects the quiet positions of every game in the files
// matched by globs, the games numbered i%10 == 9 into held.
func readSamples(t *testing.T, globs string) (train, held *sampleSet, games int) {
	train, held = &sampleSet{}, &sampleSet{}
	var l termList
	var ml env.MoveList
	for _, g := range strings.Split(globs, ",") {
		if g == "" {
			continue
		}
		files, err := filepath.Glob(g)
		if err != nil {
			t.Fatalf("-tune.games %q: %v", g, err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			gs, err := env.ReadPGN(bytes.NewReader(data), env.Alice)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, game := range gs {
				var white float64
				switch game.Result {
				case env.WhiteWins:
					white = 1
				case env.BlackWins:
					white = 0
				case env.Draw:
					white = 0.5
				default:
					continue
				}
				pos, err := game.StartPosition()
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				set := train
				if games%10 == 9 {
					set = held
				}
				games++
				theirs := 0
				for i, m := range game.Moves {
					pos.LegalMoves(&ml)
					ours := ml.N
					quiet := !pos.InCheck() && pos.Captured(m) == env.NoPiece && m.Promotion() == env.NoKind
					if i >= *tuneSkip && quiet {
						terms(pos, ours, theirs, &l)
						r := white
						if pos.SideToMove() == env.Black {
							r = 1 - white
						}
						set.add(&l, r)
					}
					theirs = ours
					pos.MakeMove(m)
				}
			}
		}
	}
	for _, g := range strings.Split(*tuneEPD, ",") {
		if g == "" {
			continue
		}
		files, err := filepath.Glob(g)
		if err != nil {
			t.Fatalf("-tune.epd %q: %v", g, err)
		}
		for _, f := range files {
			readEPD(t, f, train, held)
		}
	}
	return train, held, games
}

// readEPD adds the quiet positions of an EPD file, every tenth line into
// held. A position is quiet when not in check and the quiescence search
// finds no capture that changes the score.
func readEPD(t *testing.T, path string, train, held *sampleSet) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{HashMB: 1})
	if err != nil {
		t.Fatal(err)
	}
	s.ctx = context.Background()
	var l termList
	var ml env.MoveList
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		e, err := env.ParseEPD(line, env.Alice)
		if err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		res, ok1 := e.Op("c9")
		val, ok2 := e.Op("c8")
		r, ok3 := env.ParseResult(res)
		v, err := strconv.ParseFloat(val, 64)
		if !ok1 || !ok2 || !ok3 || err != nil {
			t.Fatalf("%s:%d: want a c9 result and a c8 value", path, i+1)
		}
		pos := e.Position
		if pos.InCheck() {
			continue
		}
		white := map[env.Result]float64{env.WhiteWins: 1, env.Draw: 0.5, env.BlackWins: 0}[r]
		if pos.SideToMove() == env.Black {
			white = 1 - white
		}
		label := *tuneLambda*white + (1-*tuneLambda)*(v+1)/2
		pos.MakePass()
		theirs := pos.CountLegalMoves()
		pos.UnmakeMove()
		pos.LegalMoves(&ml)
		s.pos.CopyFrom(pos)
		s.stopped, s.maxNodes = false, 0
		s.stack[0].nLegal = theirs
		stand := s.evaluate(ml.N, theirs)
		if q := s.quiesce(1, -infinity, infinity); abs32(q-stand) > 20 {
			continue
		}
		terms(pos, ml.N, theirs, &l)
		set := train
		if i%10 == 9 {
			set = held
		}
		set.add(&l, label)
	}
}

// fit holds the weights being fitted, as floats.
type fit struct {
	mg, eg [numFeatures]float64
	k      float64 // the score's scale: winning chance σ(k·score)
}

func (f *fit) score(set *sampleSet, s *sample) float64 {
	var mg, eg float64
	for _, t := range set.terms[s.first:s.last] {
		mg += f.mg[t.index] * float64(t.n)
		eg += f.eg[t.index] * float64(t.n)
	}
	return mg*s.phase + eg*(1-s.phase)
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// loss is the mean squared error of the winning chances over set.
func (f *fit) loss(set *sampleSet) float64 {
	var sum float64
	for i := range set.samples {
		s := &set.samples[i]
		d := s.result - sigmoid(f.k*f.score(set, s))
		sum += d * d
	}
	return sum / float64(len(set.samples))
}

// gradient adds the loss's gradient over set to gmg and geg.
func (f *fit) gradient(set *sampleSet, gmg, geg *[numFeatures]float64) {
	scale := 2 / float64(len(set.samples))
	for i := range set.samples {
		s := &set.samples[i]
		p := sigmoid(f.k * f.score(set, s))
		d := -(s.result - p) * p * (1 - p) * f.k * scale
		for _, t := range set.terms[s.first:s.last] {
			gmg[t.index] += d * s.phase * float64(t.n)
			geg[t.index] += d * (1 - s.phase) * float64(t.n)
		}
	}
}

// fitK finds the scale k that best fits the current weights, by golden
// section over a wide bracket.
func (f *fit) fitK(set *sampleSet) {
	lo, hi := 0.0005, 0.05
	for range 40 {
		a, b := lo+(hi-lo)*0.382, lo+(hi-lo)*0.618
		f.k = a
		la := f.loss(set)
		f.k = b
		lb := f.loss(set)
		if la < lb {
			hi = b
		} else {
			lo = a
		}
	}
	f.k = (lo + hi) / 2
}

// handWeights are the hand-written starting weights: material, simple
// piece-square rules, a king that shelters in the middle game and
// centralises in the endgame, six centipawns a move of mobility.
func handWeights() (w [numFeatures]weight) {
	values := [5]int16{100, 320, 330, 500, 900}
	for k, v := range values {
		w[featMaterial+k] = weight{v, v}
	}
	for sq := range 64 {
		f, r := sq%8, sq/8
		cf, cr := min(f, 7-f), min(r, 7-r)
		centre := int16(min(cf, cr))
		pawn := []int16{0, 0, 5, 10, 20, 35, 60, 0}[r]
		if (f == 3 || f == 4) && r >= 2 && r <= 4 {
			pawn += 10
		}
		set := func(k env.Kind, mg, eg int16) { w[featPST+int(k)*64+sq] = weight{mg, eg} }
		set(env.Pawn, pawn, pawn)
		set(env.Knight, 10*centre-20, 10*centre-20)
		set(env.Bishop, 5*centre-5, 5*centre-5)
		if r == 6 {
			set(env.Rook, 15, 15)
		}
		set(env.Queen, 3*centre, 3*centre)
		king := int16(-15 * min(r, 3))
		if r == 0 {
			king = 10
			if f == 6 || f == 1 || f == 2 {
				king = 20
			}
		}
		set(env.King, king, 10*centre-15)
	}
	w[featMobility] = weight{6, 6}
	w[featTempo] = weight{10, 10}
	return w
}

func TestTune(t *testing.T) {
	if *tuneGames == "" && *tuneEPD == "" {
		t.Skip("no -tune.games or -tune.epd")
	}
	train, held, games := readSamples(t, *tuneGames)
	t.Logf("%d games: %d positions to fit, %d held out", games, len(train.samples), len(held.samples))
	start := evalWeights
	if *tuneStart == "hand" {
		start = handWeights()
	}
	var f fit
	for i, w := range start {
		f.mg[i], f.eg[i] = float64(w.mg), float64(w.eg)
	}
	f.fitK(train)
	t.Logf("k %.5f: loss %.5f, held out %.5f at the start", f.k, f.loss(train), f.loss(held))

	// Adam, full batch; no decay on material, a little on the rest to keep
	// rarely seen squares near zero.
	var m1, m2 [2][numFeatures]float64
	const lr, b1, b2, eps, decay = 2.0, 0.9, 0.999, 1e-8, 1e-7
	for epoch := 1; epoch <= *tuneEpochs; epoch++ {
		var gmg, geg [numFeatures]float64
		f.gradient(train, &gmg, &geg)
		for i := range numFeatures {
			if i >= featPST {
				gmg[i] += decay * f.mg[i]
				geg[i] += decay * f.eg[i]
			}
			for j, g := range [2]float64{gmg[i], geg[i]} {
				m1[j][i] = b1*m1[j][i] + (1-b1)*g
				m2[j][i] = b2*m2[j][i] + (1-b2)*g*g
				step := lr * (m1[j][i] / (1 - math.Pow(b1, float64(epoch)))) /
					(math.Sqrt(m2[j][i]/(1-math.Pow(b2, float64(epoch)))) + eps)
				if j == 0 {
					f.mg[i] -= step
				} else {
					f.eg[i] -= step
				}
			}
		}
		if epoch%50 == 0 || epoch == *tuneEpochs {
			t.Logf("epoch %d: loss %.5f, held out %.5f", epoch, f.loss(train), f.loss(held))
		}
	}
	var out [numFeatures]weight
	for i := range out {
		out[i] = weight{clamp16(f.mg[i]), clamp16(f.eg[i])}
	}
	t.Logf("material %v; on theirs %v; on ours %v; kings meet %v; bishop pair %v; mobility %v; tempo %v",
		out[featMaterial:featPST], out[featOnTheirs:featOnOurs], out[featOnOurs:featKingsMeet],
		out[featKingsMeet], out[featBishopPair], out[featMobility], out[featTempo])
	if *tuneWrite {
		what := fmt.Sprintf("fitted to %d positions of %d games and positions", len(train.samples), games)
		if *tuneEpochs == 0 && *tuneStart == "hand" {
			what = "handWeights of tune_test.go as written (no fit has beaten them in a match)"
		}
		if err := writeWeights("weights.go", &out, what); err != nil {
			t.Fatal(err)
		}
	}
}

func clamp16(x float64) int16 { return int16(max(-32000, min(32000, math.Round(x)))) }

// writeWeights writes the weight table as Go source.
func writeWeights(path string, w *[numFeatures]weight, what string) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by tune_test.go (go test -tags tune -run TestTune); DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package alphabeta\n\n")
	fmt.Fprintf(&b, "// evalWeights are the evaluation's weights (eval.go): %s.\n", what)
	fmt.Fprintf(&b, "var evalWeights = [numFeatures]weight{\n")
	names := []struct {
		at   int
		name string
	}{{featMaterial, "material"}, {featPST, "piece-square"}, {featOnTheirs, "on the enemy king's board"},
		{featOnOurs, "on its king's board"}, {featKingsMeet, "kings meet"}, {featBishopPair, "bishop pair"},
		{featMobility, "mobility"}, {featTempo, "tempo"}}
	for i, x := range w {
		for _, n := range names {
			if n.at == i {
				fmt.Fprintf(&b, "// %s\n", n.name)
			}
		}
		if i >= featPST && i < featOnTheirs && (i-featPST)%64 == 0 {
			fmt.Fprintf(&b, "// %s\n", []string{"pawn", "knight", "bishop", "rook", "queen", "king"}[(i-featPST)/64])
		}
		fmt.Fprintf(&b, "{%d, %d},", x.mg, x.eg)
		if i < featPST || i >= featOnTheirs || (i-featPST)%8 == 7 {
			b.WriteByte('\n')
		}
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, src, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
