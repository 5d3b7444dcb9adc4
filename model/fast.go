package model

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/alicezero/alicezero/env"
	"github.com/sourcegraph/conc"
)

// FastOptions tunes a FastEvaluator. The zero value picks defaults.
type FastOptions struct {
	// Workers is how many goroutines one batch is split across (the caller's
	// goroutine counts as one). Default: GOMAXPROCS. Use 1 when many
	// evaluators run side by side, e.g. one per self-play worker.
	Workers int
	// ChunkSize is how many positions a worker pushes through the whole
	// network at a time; small chunks keep activations in cache. Default 8
	// (measured best for preset small: the im2col buffer stays in L2).
	ChunkSize int
	// Portable selects the portable matrix kernel (gonum's pure-Go Sgemm)
	// even where the AVX2 assembly kernel is available: for tests and
	// comparisons. The purego build tag removes the assembly entirely.
	Portable bool
}

const defaultChunkSize = 8

// FastEvaluator evaluates the network without gorgonia: im2col plus one
// matrix product per layer (an AVX2/FMA kernel in Go assembly on amd64 CPUs
// that have it, gonum's pure-Go Sgemm otherwise), ReLU and residual adds
// fused into the products, preallocated buffers (no allocation per call once
// running) and the batch split across worker goroutines. It computes what
// the gorgonia graph computes, to float32 rounding. Safe for concurrent use,
// but calls are serialised: put a Batcher in front of it to merge concurrent
// callers' positions into one batch.
type FastEvaluator struct {
	mu      sync.Mutex
	w       *Weights // our own copy, see SetWeights
	workers []*fastWorker
	jobs    []chan fastJob // jobs[i] feeds workers[i+1]; workers[0] runs on the caller
	done    chan error
	wg      conc.WaitGroup
	closed  bool
}

// fastJob is one contiguous slice of a batch. Sent by value: no allocation.
type fastJob struct {
	planes, policy, wdl []float32
	n                   int
}

// NewFastEvaluator returns a fast evaluator over a copy of w. Call Close to
// stop its worker goroutines.
func NewFastEvaluator(w *Weights, opts FastOptions) (*FastEvaluator, error) {
	if w == nil {
		return nil, errors.New("model: fast evaluator: nil weights")
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.ChunkSize <= 0 {
		opts.ChunkSize = defaultChunkSize
	}
	if opts.Workers > 256 || opts.ChunkSize > 4096 {
		return nil, fmt.Errorf("model: fast evaluator: unreasonable options %+v", opts)
	}
	e := &FastEvaluator{w: w.Clone(), done: make(chan error, opts.Workers)}
	for i := 0; i < opts.Workers; i++ {
		gemm := bestGemm()
		if opts.Portable {
			gemm = gemmAccGonum
		}
		e.workers = append(e.workers, newFastWorker(e.w, opts.ChunkSize, gemm))
	}
	for i := 1; i < opts.Workers; i++ {
		ch := make(chan fastJob, 1)
		e.jobs = append(e.jobs, ch)
		wk := e.workers[i]
		e.wg.Go(func() {
			for job := range ch {
				e.done <- wk.runSafe(job)
			}
		})
	}
	return e, nil
}

// Evaluate implements Evaluator.
func (e *FastEvaluator) Evaluate(planes []float32, n int, policy, wdl []float32) error {
	if err := checkEvalArgs(planes, n, policy, wdl); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return fmt.Errorf("fast evaluator: %w", ErrClosed)
	}
	if n == 0 {
		return nil
	}
	parts := min(len(e.workers), n)
	// Hand parts 1.. to the workers, run part 0 here, then collect.
	for i := 1; i < parts; i++ {
		lo, hi := i*n/parts, (i+1)*n/parts
		e.jobs[i-1] <- fastJob{
			planes: planes[lo*env.InputSize : hi*env.InputSize],
			policy: policy[lo*env.PolicySize : hi*env.PolicySize],
			wdl:    wdl[lo*env.WDLSize : hi*env.WDLSize],
			n:      hi - lo,
		}
	}
	hi := n / parts
	err := e.workers[0].runSafe(fastJob{planes: planes, policy: policy, wdl: wdl, n: hi})
	for i := 1; i < parts; i++ {
		if werr := <-e.done; werr != nil && err == nil {
			err = werr
		}
	}
	return err
}

// SetWeights replaces the evaluator's weights with a copy of w (same
// architecture), e.g. after a training step. It waits for a running
// Evaluate to finish.
func (e *FastEvaluator) SetWeights(w *Weights) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return fmt.Errorf("fast evaluator: %w", ErrClosed)
	}
	return e.w.CopyFrom(w)
}

// Config returns the architecture evaluated.
func (e *FastEvaluator) Config() Config { return e.w.cfg }

// Close stops the worker goroutines. Evaluate fails afterwards.
func (e *FastEvaluator) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	for _, ch := range e.jobs {
		close(ch)
	}
	e.mu.Unlock()
	e.wg.Wait()
	return nil
}

// fastWorker owns the scratch buffers of one goroutine. Activations are
// stored channel-major across the chunk: row c holds channel c of every
// position of the chunk, 64 squares each, so that a 3×3 convolution of the
// whole chunk is a single matrix product W[out][in·9] × col[in·9][chunk·64].
type fastWorker struct {
	cfg   Config
	w     *Weights
	chunk int
	gemm  gemmFunc
	// parameter shortcuts, in the layouts the products want
	stemW, stemB       []float32
	resW1, resB1       [][]float32
	resW2, resB2       [][]float32
	polCW, polCB       []float32
	polLW, polLB       []float32
	valCW, valCB       []float32
	valF1W, valF1B     []float32
	valF2W, valF2B     []float32
	in, x, y, col      []float32
	pconv, plogits     []float32
	vconv, vflat, vhid []float32
}

func newFastWorker(w *Weights, chunk int, gemm gemmFunc) *fastWorker {
	cfg := w.cfg
	C, P, V, H := cfg.Channels, cfg.PolicyChannels, cfg.ValueChannels, cfg.ValueHidden
	N := chunk * env.PlaneSize
	d := func(name string) []float32 { return w.Param(name).Data }
	f := &fastWorker{
		cfg: cfg, w: w, chunk: chunk, gemm: gemm,
		stemW: d("stem.w"), stemB: d("stem.b"),
		polCW: d("policy.conv.w"), polCB: d("policy.conv.b"),
		polLW: d("policy.logits.w"), polLB: d("policy.logits.b"),
		valCW: d("value.conv.w"), valCB: d("value.conv.b"),
		valF1W: d("value.fc1.w"), valF1B: d("value.fc1.b"),
		valF2W: d("value.fc2.w"), valF2B: d("value.fc2.b"),
		in:      make([]float32, env.NumPlanes*N),
		x:       make([]float32, C*N),
		y:       make([]float32, C*N),
		col:     make([]float32, max(env.NumPlanes, C)*9*N),
		pconv:   make([]float32, P*N),
		plogits: make([]float32, env.PolicyPlanes*N),
		vconv:   make([]float32, V*N),
		vflat:   make([]float32, V*N),
		vhid:    make([]float32, chunk*H),
	}
	for b := 0; b < cfg.Blocks; b++ {
		f.resW1 = append(f.resW1, d(fmt.Sprintf("res%d.conv1.w", b)))
		f.resB1 = append(f.resB1, d(fmt.Sprintf("res%d.conv1.b", b)))
		f.resW2 = append(f.resW2, d(fmt.Sprintf("res%d.conv2.w", b)))
		f.resB2 = append(f.resB2, d(fmt.Sprintf("res%d.conv2.b", b)))
	}
	return f
}

// runSafe evaluates job, turning a panic (a bug) into an error rather than
// killing the process from a worker goroutine.
func (f *fastWorker) runSafe(job fastJob) (err error) {
	defer catch(&err, "fast evaluator")
	for done := 0; done < job.n; done += f.chunk {
		s := min(f.chunk, job.n-done)
		f.forward(job.planes[done*env.InputSize:], s, job.policy[done*env.PolicySize:], job.wdl[done*env.WDLSize:])
	}
	return nil
}

// forward runs s ≤ chunk positions through the network.
func (f *fastWorker) forward(planes []float32, s int, policy, wdl []float32) {
	cfg := f.cfg
	C, P, V, H := cfg.Channels, cfg.PolicyChannels, cfg.ValueChannels, cfg.ValueHidden
	const sq = env.PlaneSize
	N := s * sq

	// Planes arrive position-major; regroup them channel-major.
	in := f.in[:env.NumPlanes*N]
	for p := 0; p < s; p++ {
		pos := planes[p*env.InputSize : (p+1)*env.InputSize]
		for c := 0; c < env.NumPlanes; c++ {
			copy(in[c*N+p*sq:c*N+p*sq+sq], pos[c*sq:c*sq+sq])
		}
	}

	x, y := f.x[:C*N], f.y[:C*N]
	f.conv3x3(in, env.NumPlanes, f.stemW, f.stemB, C, N, x, false, true)
	for b := 0; b < cfg.Blocks; b++ {
		f.conv3x3(x, C, f.resW1[b], f.resB1[b], C, N, y, false, true)
		// x = relu(x + conv(y)): accumulate the second conv straight into
		// the trunk, which im2col has already finished reading.
		f.conv3x3(y, C, f.resW2[b], f.resB2[b], C, N, x, true, true)
	}

	// Policy head: 3×3 conv, ReLU, 1×1 conv to the move-type planes, whose
	// per-position flattening is the policy's plane-major layout.
	pc := f.pconv[:P*N]
	f.conv3x3(x, C, f.polCW, f.polCB, P, N, pc, false, true)
	pl := f.plogits[:env.PolicyPlanes*N]
	f.conv1x1(pc, P, f.polLW, f.polLB, env.PolicyPlanes, N, pl, false)
	flatten(pl, env.PolicyPlanes, s, policy)

	// Value head: 1×1 conv, ReLU, flatten, FC, ReLU, FC, softmax.
	vc := f.vconv[:V*N]
	f.conv1x1(x, C, f.valCW, f.valCB, V, N, vc, true)
	vf := f.vflat[:V*N]
	flatten(vc, V, s, vf)
	hid := f.vhid[:s*H]
	for p := 0; p < s; p++ {
		copy(hid[p*H:(p+1)*H], f.valF1B)
	}
	f.gemm(s, H, V*sq, vf, V*sq, f.valF1W, H, hid, H, true)
	for p := 0; p < s; p++ {
		h := hid[p*H : (p+1)*H]
		var l [env.WDLSize]float32
		for j := range l {
			l[j] = f.valF2B[j]
		}
		for i, hv := range h {
			if hv == 0 {
				continue // ReLU output is often exactly zero
			}
			row := f.valF2W[i*env.WDLSize : (i+1)*env.WDLSize]
			for j := range l {
				l[j] += hv * row[j]
			}
		}
		softmax3(l[:], wdl[p*env.WDLSize:(p+1)*env.WDLSize])
	}
}

// conv3x3 computes out = relu(bias + W ⋆ a), or with residual
// out = relu(out + bias + W ⋆ a), for a same-padded 3×3 convolution of
// a[cin][N] (N = positions·64) via im2col and one product with a fused
// ReLU. out must not alias a.
func (f *fastWorker) conv3x3(a []float32, cin int, w, bias []float32, cout, N int, out []float32, residual, relu bool) {
	col := f.col[:cin*9*N]
	im2col3x3(a, cin, N, col)
	for c := 0; c < cout; c++ {
		if residual {
			addScalar(out[c*N:(c+1)*N], bias[c])
		} else {
			fill(out[c*N:(c+1)*N], bias[c])
		}
	}
	f.gemm(cout, N, cin*9, w, cin*9, col, N, out, N, relu)
}

// conv1x1 computes out[cout][N] = bias + W·a, through a ReLU if relu.
func (f *fastWorker) conv1x1(a []float32, cin int, w, bias []float32, cout, N int, out []float32, relu bool) {
	for c := 0; c < cout; c++ {
		fill(out[c*N:(c+1)*N], bias[c])
	}
	f.gemm(cout, N, cin, w, cin, a, N, out, N, relu)
}

// im2col3x3 writes, for each input channel ci and kernel tap t = ky·3+kx,
// row ci·9+t of col: the input shifted by (dy, dx) = (ky−1, kx−1), zero off
// the board. Positions are 64 consecutive floats, so the shift is one
// offset copy of the whole row (dy·8+dx); the squares whose source fell off
// the board (and so read a neighbouring rank, file or position) are then
// zeroed: one rank and/or one file per position.
func im2col3x3(a []float32, cin, N int, col []float32) {
	const sq = env.PlaneSize
	positions := N / sq
	for ci := 0; ci < cin; ci++ {
		src := a[ci*N : (ci+1)*N]
		for t := 0; t < 9; t++ {
			dy, dx := t/3-1, t%3-1
			off := dy*8 + dx
			dst := col[(ci*9+t)*N : (ci*9+t+1)*N]
			if off >= 0 {
				copy(dst[:N-off], src[off:])
				clear(dst[N-off:])
			} else {
				copy(dst[-off:], src[:N+off])
				clear(dst[:-off])
			}
			for p := 0; p < positions; p++ {
				d := dst[p*sq : (p+1)*sq : (p+1)*sq]
				switch dy {
				case -1:
					clear(d[0:8])
				case 1:
					clear(d[56:64])
				}
				switch dx {
				case -1:
					d[0], d[8], d[16], d[24], d[32], d[40], d[48], d[56] = 0, 0, 0, 0, 0, 0, 0, 0
				case 1:
					d[7], d[15], d[23], d[31], d[39], d[47], d[55], d[63] = 0, 0, 0, 0, 0, 0, 0, 0
				}
			}
		}
	}
}

// flatten turns a[c][positions·64] into out[position][c·64], the layout of
// gorgonia's reshape of a [batch, c, 8, 8] tensor to [batch, c·64].
func flatten(a []float32, channels, positions int, out []float32) {
	const sq = env.PlaneSize
	N := positions * sq
	for p := 0; p < positions; p++ {
		for c := 0; c < channels; c++ {
			copy(out[(p*channels+c)*sq:(p*channels+c+1)*sq], a[c*N+p*sq:c*N+(p+1)*sq])
		}
	}
}

func addScalar(s []float32, v float32) {
	for i := range s {
		s[i] += v
	}
}

func fill(s []float32, v float32) {
	for i := range s {
		s[i] = v
	}
}

func reluInPlace(s []float32) {
	for i, v := range s {
		if v < 0 {
			s[i] = 0
		}
	}
}

// softmax3 writes the softmax of logits l to out, shifted by the maximum
// for stability.
func softmax3(l, out []float32) {
	m := max(l[0], l[1], l[2])
	var sum float32
	for i, v := range l {
		e := float32(math.Exp(float64(v - m)))
		out[i] = e
		sum += e
	}
	for i := range out[:len(l)] {
		out[i] /= sum
	}
}
