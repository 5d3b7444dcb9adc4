package model

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/model/internal/kernel"
	"github.com/sourcegraph/conc"
)

// FastOptions tunes a FastEvaluator. The zero value picks defaults.
type FastOptions struct {
	// Workers is how many goroutines evaluate at once, the callers'
	// included: one call splits its batch across the workers idle at the
	// time. Default: GOMAXPROCS. Use 1 when many evaluators run side by
	// side, e.g. one per self-play worker.
	Workers int
	// Callers is how many goroutines are expected to call Evaluate at
	// once (search threads); default 1. A call leaves a worker idle for
	// each of the others that is not evaluating, rather than make it wait
	// for a whole batch of its own.
	Callers int
	// Portable selects the pure-Go kernels even where assembly ones are
	// available: for tests and comparisons. The purego build tag removes
	// the assembly entirely.
	Portable bool
	// kernels names the kernel set (see availableKernels); "" picks the
	// fastest. For tests of each fallback.
	kernels string
}

// FastEvaluator evaluates the network without gorgonia. Its 3×3
// convolutions use Winograd's F(2×2, 3×3) algorithm (see wino.go) on
// lanes positions at a time, laid out so that the transforms are plain
// vector arithmetic; the matrix products run on AVX-512 or AVX2/FMA
// kernels in Go assembly where the CPU has them (pure Go otherwise, or with
// the purego build tag); biases, ReLUs and residual adds are fused into
// the output transform; buffers are preallocated (no allocation per call
// once running). It computes what the gorgonia graph computes, to float32
// rounding.
//
// Safe for concurrent use: each call runs on a worker of its own (it waits
// for one when all are busy) and splits its batch, by groups of lanes
// positions, with the workers idle at that moment. Concurrent callers
// (several search threads) therefore each keep a core busy without handing
// work to parked goroutines, whose wake-up on a virtual machine can cost
// as much as a lane group's evaluation.
//
// This dispatch is the evaluator's own, not model/training's parallel-for
// (a team of helpers, team.run), on purpose: a team serves one caller at a
// time and its helpers spin between sections, where here several search
// threads call at once, each borrowing only the workers idle at that
// moment (with the scratch buffers they own, and none that the
// FastOptions.Callers reserve), and an idle worker must park rather than
// spin on a core the search needs. Channels of preallocated workers also
// keep a call free of allocations.
type FastEvaluator struct {
	mu      sync.RWMutex // Evaluate holds it shared; SetWeights and Close alone
	w       *Weights     // our own copy, see SetWeights
	net     *fastNet     // w's filters in the fast path's layouts
	idle    chan *fastWorker
	helpers chan fastTask // to the goroutines that run borrowed workers
	callers int           // FastOptions.Callers
	leading atomic.Int32  // calls in progress
	wg      conc.WaitGroup
	closed  bool
}

// fastJob is a batch. Workers take its lane groups in turn from next (so
// that a core slowed by other work, e.g. the search, evaluates fewer of
// them); a group's result does not depend on which worker evaluates it.
// Sent by value: no allocation.
type fastJob struct {
	planes, policy, wdl []float32
	n                   int
	next                *atomic.Int64
}

// fastTask is a job for a worker borrowed by another call's worker.
type fastTask struct {
	job fastJob
	wk  *fastWorker
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
	if opts.Callers <= 0 {
		opts.Callers = 1
	}
	if opts.Workers > 256 || opts.Callers > 256 {
		return nil, fmt.Errorf("model: fast evaluator: unreasonable options %+v", opts)
	}
	if opts.Portable {
		opts.kernels = kernel.Portable
	}
	k, err := kernel.ByName(opts.kernels)
	if err != nil {
		return nil, err
	}
	e := &FastEvaluator{
		w:       w.Clone(),
		idle:    make(chan *fastWorker, opts.Workers),
		helpers: make(chan fastTask, opts.Workers),
		callers: opts.Callers,
	}
	e.net = newFastNet(e.w)
	for range opts.Workers {
		e.idle <- newFastWorker(e.net, k, opts.Workers)
	}
	// A borrowed worker always leaves one lending worker running on its
	// caller, so Workers-1 helpers are never short.
	for range opts.Workers - 1 {
		e.wg.Go(func() {
			for t := range e.helpers {
				t.wk.done <- t.wk.runSafe(t.job)
			}
		})
	}
	return e, nil
}

// Evaluate runs the network on n positions (see CheckEvaluateArgs for the
// buffers); it is the method of the search's evaluator, mcts.Evaluator.
func (e *FastEvaluator) Evaluate(planes []float32, n int, policy, wdl []float32) error {
	if err := e.w.cfg.CheckEvaluateArgs(planes, n, policy, wdl); err != nil {
		return err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		return fmt.Errorf("fast evaluator: %w", ErrClosed)
	}
	if n == 0 {
		return nil
	}
	lead := <-e.idle
	active := int(e.leading.Add(1))
	defer e.leading.Add(-1)
	lead.next.Store(0)
	job := fastJob{planes: planes, policy: policy, wdl: wdl, n: n, next: &lead.next}
	lead.borrowed = lead.borrowed[:0]
	reserve := max(0, e.callers-active) // for callers about to come
	for groups := (n + kernel.Lanes - 1) / kernel.Lanes; len(lead.borrowed) < groups-1 && len(e.idle) > reserve; {
		var wk *fastWorker
		select {
		case wk = <-e.idle:
		default:
		}
		if wk == nil {
			break
		}
		lead.borrowed = append(lead.borrowed, wk)
		e.helpers <- fastTask{job: job, wk: wk}
	}
	err := lead.runSafe(job)
	for _, wk := range lead.borrowed {
		if werr := <-wk.done; werr != nil && err == nil {
			err = werr
		}
		e.idle <- wk
	}
	e.idle <- lead
	return err
}

// SetWeights replaces the evaluator's weights with a copy of w (same
// architecture), e.g. after a training step. It waits for running
// Evaluate calls to finish.
func (e *FastEvaluator) SetWeights(w *Weights) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return fmt.Errorf("fast evaluator: %w", ErrClosed)
	}
	if err := e.w.CopyFrom(w); err != nil {
		return err
	}
	e.net.load(e.w)
	return nil
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
	close(e.helpers)
	e.mu.Unlock()
	e.wg.Wait()
	return nil
}

// fastNet is the network's parameters in the layouts the fast path uses,
// shared read-only by the workers: the 3×3 filters Winograd-transformed,
// the rest as slices of the evaluator's Weights.
type fastNet struct {
	cfg Config
	// planes and polPlanes are the encoding's input planes and policy
	// planes; inSize and polSize the floats of one position's input and
	// policy.
	planes, polPlanes, inSize, polSize int
	stem                               *kernel.Layer
	res1, res2                         []*kernel.Layer
	polConv                            *kernel.Layer
	// polLWB is the policy's 1×1 filters [planes][P] with the bias as an
	// extra input channel: [planes][P+1]; the input's channel P is ones.
	polLWB         []float32
	valCW, valCB   []float32
	valF1W, valF1B []float32
	valF2W, valF2B []float32
}

func newFastNet(w *Weights) *fastNet {
	cfg := w.cfg
	C, P := cfg.Channels, cfg.PolicyChannels
	n := &fastNet{cfg: cfg, planes: cfg.NumInputPlanes(), polPlanes: cfg.NumPolicyPlanes(), inSize: cfg.InputSize(), polSize: cfg.PolicySize(),
		stem: kernel.NewLayer(cfg.NumInputPlanes(), C), polConv: kernel.NewLayer(C, P)}
	for b := 0; b < cfg.Blocks; b++ {
		n.res1 = append(n.res1, kernel.NewLayer(C, C))
		n.res2 = append(n.res2, kernel.NewLayer(C, C))
	}
	n.load(w)
	return n
}

// load (re)computes the layouts from w, which has n's architecture.
func (n *fastNet) load(w *Weights) {
	d := func(name string) []float32 { return w.Param(name).Data }
	conv := func(l *kernel.Layer, name string) { l.SetFilters(d(name+".w"), d(name+".b")) }
	conv(n.stem, "stem")
	for b := range n.res1 {
		conv(n.res1[b], fmt.Sprintf("res%d.conv1", b))
		conv(n.res2[b], fmt.Sprintf("res%d.conv2", b))
	}
	conv(n.polConv, "policy.conv")
	P := n.cfg.PolicyChannels
	lw, lb := d("policy.logits.w"), d("policy.logits.b")
	if n.polLWB == nil {
		n.polLWB = make([]float32, n.polPlanes*(P+1))
	}
	for c := 0; c < n.polPlanes; c++ {
		copy(n.polLWB[c*(P+1):], lw[c*P:(c+1)*P])
		n.polLWB[c*(P+1)+P] = lb[c]
	}
	n.valCW, n.valCB = d("value.conv.w"), d("value.conv.b")
	n.valF1W, n.valF1B = d("value.fc1.w"), d("value.fc1.b")
	n.valF2W, n.valF2B = d("value.fc2.w"), d("value.fc2.b")
}

// fastWorker owns the scratch buffers of one goroutine: activations in
// lane layout (see wino.go), the transformed input and products of one
// convolution, the heads' position-major buffers, and the small direct
// path's buffers.
type fastWorker struct {
	net              *fastNet
	k                *kernel.Set
	in, x, y, pc, vc []float32 // lane layout
	v, m             []float32 // V_ξ and M_ξ of one convolution
	pcT, vflat, vhid []float32 // position-major
	vpool            []float32 // the value filters' board averages
	d                directBuffers

	// A call's bookkeeping while this worker leads it (see Evaluate).
	next     atomic.Int64  // the call's next lane group
	borrowed []*fastWorker // idle workers lent to the call
	done     chan error    // this worker's result when borrowed
}

// directMax is the largest group that forwardDirect evaluates: a lane
// group costs the same whatever number of its lanes are used, about as
// much as 3.5 positions on the direct path.
const directMax = 3

// directBuffers are the direct path's activations, channel-major over at
// most directMax positions: row c holds channel c of every position, 64
// squares each, so that a 3×3 convolution is one matrix product
// W[out][in·9] × col[in·9][positions·64].
type directBuffers struct {
	in, x, y, col, pc, vc []float32
}

func newFastWorker(net *fastNet, k *kernel.Set, workers int) *fastWorker {
	cfg := net.cfg
	C, P, V, H := cfg.Channels, cfg.PolicyChannels, cfg.ValueChannels, cfg.ValueHidden
	rows := max(net.stem.Rows, net.polConv.Rows)
	planes := net.planes
	const dn = directMax * env.PlaneSize
	return &fastWorker{
		net: net, k: k,
		borrowed: make([]*fastWorker, 0, workers-1),
		done:     make(chan error, 1),
		in:       make([]float32, planes*kernel.LaneChannel),
		x:        make([]float32, C*kernel.LaneChannel),
		y:        make([]float32, C*kernel.LaneChannel),
		pc:       make([]float32, P*kernel.LaneChannel),
		vc:       make([]float32, V*kernel.LaneChannel),
		v:        make([]float32, kernel.Points*kernel.Stride(max(planes, C))),
		m:        make([]float32, kernel.Points*kernel.Stride(rows)),
		pcT:      onesRows(kernel.Lanes, P+1, env.PlaneSize),
		vflat:    make([]float32, kernel.Lanes*V*env.PlaneSize),
		vpool:    make([]float32, kernel.Lanes*V),
		vhid:     make([]float32, kernel.Lanes*H),
		d: directBuffers{
			in:  make([]float32, planes*dn),
			x:   make([]float32, C*dn),
			y:   make([]float32, C*dn),
			col: make([]float32, max(planes, C)*9*dn),
			pc:  make([]float32, (P+1)*dn),
			vc:  make([]float32, V*dn),
		},
	}
}

// runSafe evaluates lane groups of job until none is left, turning a panic
// (a bug) into an error rather than killing the process from a worker
// goroutine.
func (f *fastWorker) runSafe(job fastJob) (err error) {
	defer catch(&err, "fast evaluator")
	for {
		lo := int(job.next.Add(1)-1) * kernel.Lanes
		if lo >= job.n {
			return nil
		}
		s := min(kernel.Lanes, job.n-lo)
		planes, policy, wdl := job.planes[lo*f.net.inSize:], job.policy[lo*f.net.polSize:], job.wdl[lo*env.WDLSize:]
		if s <= directMax {
			f.forwardDirect(planes, s, policy, wdl)
		} else {
			f.forward(planes, s, policy, wdl)
		}
	}
}

// forward runs s ≤ lanes positions through the network as one lane group.
func (f *fastWorker) forward(planes []float32, s int, policy, wdl []float32) {
	net := f.net
	cfg := net.cfg
	P, V := cfg.PolicyChannels, cfg.ValueChannels

	f.k.ToLanes(planes, net.planes, s, f.in)
	f.conv3x3(f.in, net.stem, f.x, false)
	for b := range net.res1 {
		f.conv3x3(f.x, net.res1[b], f.y, false)
		// x = relu(x + conv(y)), in place: the output transform reads each
		// residual value just before it writes the sum there.
		f.conv3x3(f.y, net.res2[b], f.x, true)
	}

	f.conv3x3(f.x, net.polConv, f.pc, false)
	f.k.FromLanes(f.pc, P, s, f.pcT, (P+1)*env.PlaneSize)
	f.policyLogits(f.pcT, (P+1)*env.PlaneSize, env.PlaneSize, s, policy)

	// The value head's 1×1 conv and ReLU run over the padded planes: the
	// border's values are never read.
	f.conv1x1(f.x, cfg.Channels, net.valCW, net.valCB, V, kernel.LaneChannel, f.vc)
	f.k.FromLanes(f.vc, V, s, f.vflat, V*env.PlaneSize)
	f.valueHead(s, wdl)
}

// forwardDirect runs s ≤ directMax positions through the network by
// direct convolutions (im2col and one matrix product each), which for a
// few positions costs less than a lane group.
func (f *fastWorker) forwardDirect(planes []float32, s int, policy, wdl []float32) {
	net := f.net
	cfg := net.cfg
	C, P, V := cfg.Channels, cfg.PolicyChannels, cfg.ValueChannels
	const sq = env.PlaneSize
	N := s * sq
	d := &f.d

	// Planes arrive position-major; regroup them channel-major.
	in := d.in[:net.planes*N]
	for p := 0; p < s; p++ {
		for c := 0; c < net.planes; c++ {
			copy(in[c*N+p*sq:c*N+(p+1)*sq], planes[(p*net.planes+c)*sq:])
		}
	}
	x, y := d.x[:C*N], d.y[:C*N]
	f.conv3x3Direct(in, net.stem, N, x, false)
	for b := range net.res1 {
		f.conv3x3Direct(x, net.res1[b], N, y, false)
		f.conv3x3Direct(y, net.res2[b], N, x, true)
	}

	pc := d.pc[:(P+1)*N]
	f.conv3x3Direct(x, net.polConv, N, pc, false)
	kernel.Fill(pc[P*N:], 1) // the bias's input channel
	f.policyLogits(pc, sq, N, s, policy)

	vc := d.vc[:V*N]
	f.conv1x1(x, C, net.valCW, net.valCB, V, N, vc)
	for p := 0; p < s; p++ {
		for c := 0; c < V; c++ {
			copy(f.vflat[(p*V+c)*sq:(p*V+c+1)*sq], vc[c*N+p*sq:])
		}
	}
	f.valueHead(s, wdl)
}

// conv3x3 computes dst = relu(bias + conv(src)), or with residual
// dst = relu(dst + bias + conv(src)), for layer l, in lane layout. dst
// must not alias src.
func (f *fastWorker) conv3x3(src []float32, l *kernel.Layer, dst []float32, residual bool) {
	f.k.WinoIn(src, l.Cin, f.v, kernel.Cols, kernel.Stride(l.Cin))
	f.k.Products(l, f.v, f.m)
	f.k.WinoOut(f.m, l.Rows, l.Cout, l.Bias, dst, residual, true)
}

// conv3x3Direct is conv3x3 on channel-major activations of N = positions·64
// columns, by im2col and one product with a fused ReLU.
func (f *fastWorker) conv3x3Direct(src []float32, l *kernel.Layer, N int, dst []float32, residual bool) {
	col := f.d.col[:l.Cin*9*N]
	im2col3x3(src, l.Cin, N, col)
	for c := 0; c < l.Cout; c++ {
		if residual {
			addScalar(dst[c*N:(c+1)*N], l.Bias[c])
		} else {
			kernel.Fill(dst[c*N:(c+1)*N], l.Bias[c])
		}
	}
	f.k.Gemm(l.Cout, N, l.Cin*9, l.W, l.Cin*9, col, N, dst, N, true)
}

// conv1x1 computes dst[cout][N] = relu(bias + W·src) for src[cin][N].
func (f *fastWorker) conv1x1(src []float32, cin int, w, bias []float32, cout, N int, dst []float32) {
	for c := 0; c < cout; c++ {
		kernel.Fill(dst[c*N:(c+1)*N], bias[c])
	}
	f.k.Gemm(cout, N, cin, w, cin, src, N, dst, N, true)
}

// policyLogits writes s positions' logits: the 1×1 convolution from the
// policy conv's output pc (P channels and a channel of ones for the bias;
// position p's at pc[p·posStride:], chanStride floats apart) to the
// move-type planes, whose per-position [plane][square] layout is the
// policy's index order.
func (f *fastWorker) policyLogits(pc []float32, posStride, chanStride, s int, policy []float32) {
	K := f.net.cfg.PolicyChannels + 1
	const sq = env.PlaneSize
	for p := 0; p < s; p++ {
		f.k.GemmTo(f.net.polPlanes, sq, K, f.net.polLWB, K, pc[p*posStride:], chanStride, policy[p*f.net.polSize:], sq, false)
	}
}

// onesRows returns blocks blocks of rows rows of n floats, zero but for
// each block's last row, which is ones (the bias's input channel).
func onesRows(blocks, rows, n int) []float32 {
	s := make([]float32, blocks*rows*n)
	for b := 0; b < blocks; b++ {
		kernel.Fill(s[(b*rows+rows-1)*n:(b+1)*rows*n], 1)
	}
	return s
}

// valueHead computes s positions' WDL from the value conv's output,
// flattened position-major in f.vflat: average over the board, FC, ReLU,
// FC, softmax.
func (f *fastWorker) valueHead(s int, wdl []float32) {
	net := f.net
	const sq = env.PlaneSize
	H, V := net.cfg.ValueHidden, net.cfg.ValueChannels
	pool := f.vpool[:s*V]
	for i := range pool {
		var sum float32
		for _, x := range f.vflat[i*sq : (i+1)*sq] {
			sum += x
		}
		pool[i] = sum / sq
	}
	hid := f.vhid[:s*H]
	for p := 0; p < s; p++ {
		copy(hid[p*H:(p+1)*H], net.valF1B)
	}
	f.k.Gemm(s, H, V, pool, V, net.valF1W, H, hid, H, true)
	for p := 0; p < s; p++ {
		h := hid[p*H : (p+1)*H]
		var l [env.WDLSize]float32
		for j := range l {
			l[j] = net.valF2B[j]
		}
		for i, hv := range h {
			if hv == 0 {
				continue // ReLU output is often exactly zero
			}
			row := net.valF2W[i*env.WDLSize : (i+1)*env.WDLSize]
			for j := range l {
				l[j] += hv * row[j]
			}
		}
		softmax3(l[:], wdl[p*env.WDLSize:(p+1)*env.WDLSize])
	}
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

func addScalar(s []float32, v float32) {
	for i := range s {
		s[i] += v
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
