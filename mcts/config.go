package mcts

import (
	"fmt"
	"math"
)

// Config holds every setting of the search. Build one with DefaultConfig
// (self-play) or DefaultPlayConfig (matches, UCI) and adjust fields; a
// Searcher checks it with Validate.
type Config struct {
	// Simulations is the number of playouts one search adds to the root
	// (SearchBatch always; Search when its Limits set no other bound). The
	// evaluation of a fresh root counts as the first playout, so on a fresh
	// tree the root's children receive Simulations-1 visits; a root kept by
	// tree reuse (Advance) keeps its visits and its children receive all
	// Simulations new ones.
	Simulations int

	// Gumbel selects Gumbel root search (Danihelka et al. 2022): top-k
	// sampling with Gumbel noise and sequential halving at the root, the
	// deterministic "improved policy" selection below it, and the improved
	// policy softmax(logits + σ(completed Q)) as the training target. It
	// needs a simulation budget known in advance: Search with a time limit
	// or Infinite falls back to PUCT. Dirichlet noise and the move
	// temperature are not used with Gumbel (its noise is the Gumbel sample;
	// the move played is the sequential-halving winner).
	Gumbel bool
	// GumbelK is the most actions considered at the root (k in the paper).
	GumbelK int
	// GumbelNoise adds the Gumbel sample to the root logits (self-play);
	// without it the top-k actions are those of the highest logits, for
	// play. Small playout-cap searches never add it.
	GumbelNoise bool
	// GumbelCVisit and GumbelCScale set σ(q) = (CVisit + max_b N(b)) ·
	// CScale · q, with q mapped from [-1, 1] to [0, 1].
	GumbelCVisit float32
	GumbelCScale float32

	// CPuct is c_init of the PUCT formula U = c(N)·P·√N_parent/(1+N).
	CPuct float32
	// CPuctBase and CPuctFactor add lc0's logarithmic growth:
	// c(N) = CPuct + CPuctFactor·ln((N + CPuctBase)/CPuctBase). CPuctBase 0
	// disables it.
	CPuctBase   float32
	CPuctFactor float32
	// FPUReduction: an unvisited child below the root is valued at the
	// parent's Q minus FPUReduction·√(sum of the visited children's priors).
	FPUReduction float32
	// RootFPUReduction is FPUReduction at the root, unless RootFPUAbsolute
	// is set: then unvisited root children are valued at RootFPUValue (W-L
	// from the root player's view; 1 makes every root child be tried once,
	// as lc0 does with noise).
	RootFPUReduction float32
	RootFPUAbsolute  bool
	RootFPUValue     float32
	// PolicyTemperature is the softmax temperature applied to the network's
	// logits of the legal moves to give the priors (1 = unchanged).
	PolicyTemperature float32
	// VirtualLoss is the loss (in W-L units) a leaf in flight counts for on
	// its path while several leaves of one tree are being evaluated.
	VirtualLoss float32

	// DirichletAlpha and DirichletEpsilon mix Dirichlet(α) noise into the
	// root priors: P = (1-ε)·P + ε·η. Epsilon 0 disables noise. PUCT only.
	DirichletAlpha   float64
	DirichletEpsilon float64

	// Temperature is the move-choice temperature: while the root
	// position's ply (counted from the position the game was set up from)
	// is below TemperaturePlies the move is sampled with probability ∝
	// N^(1/T); after that, and when Temperature is 0, the most visited
	// move is played. With TemperatureDecay, T falls linearly from
	// Temperature at ply 0 to 0 at TemperaturePlies. PUCT only.
	Temperature      float64
	TemperaturePlies int
	TemperatureDecay bool

	// PlayoutCapProb is KataGo's playout-cap randomisation: with this
	// probability a SearchBatch search is a small one, of
	// max(1, Simulations/PlayoutCapFactor) playouts, without root noise,
	// and its Result has UseForTraining false. 0 disables it.
	PlayoutCapProb   float64
	PlayoutCapFactor int

	// MateProbe is how far every new leaf looks for a forced mate by the
	// side to move before the network is asked: 0 not at all, 1 a mate in
	// one (playing the moves that give check), 2 also a mate in two that
	// starts with a check, every reply to it allowing a mate in one. Such a
	// leaf is a proven win at once, which lets the solver prove short
	// mates, and avoid walking into them, with few playouts. A mate in one
	// costs a make/unmake per legal move of each new leaf; a mate in two
	// the same again per reply to each check, most checks being refuted
	// by their first reply.
	MateProbe int

	// DrawPenalty is what moving into a draw by the rules (repetition,
	// stalemate, fifty moves, dead position) or the ply cap costs the
	// mover, in W-L units; 0 scores draws exactly. Self-play uses a small
	// penalty: a young network's values sit a little below zero everywhere,
	// so without it the exact 0 of a repetition beats every real move and
	// games end in shuffles that teach the network nothing.
	DrawPenalty float32

	// PlyCap, if positive, scores positions reached at or after this ply
	// (counted from the set-up position) as adjudicated draws, as a game
	// capped at PlyCap plies would be.
	PlyCap int
	// CapMaterialMargin, if positive, scores a position at the ply cap as
	// a win for the side at least this many pawns of material ahead (see
	// env.Position.CapResult), as self-play then records the game; else it
	// is a draw.
	CapMaterialMargin int

	// BatchSize is the number of leaves given to one Evaluate call: by each
	// worker of Search (virtual loss spreads them over one tree; a search
	// with a node budget gathers at most an eighth of it at once) and by
	// each worker of SearchBatch (gathered over its games).
	BatchSize int
	// Workers is the number of goroutines that evaluate at once; each owns
	// a batch. More than one lets the CPU gather a batch while another is
	// on the accelerator. Search is deterministic only with Workers 1;
	// SearchBatch splits its games among the workers.
	Workers int
	// MaxInFlightPerTree bounds the leaves one game contributes to one
	// batch in SearchBatch (virtual loss); it lets batches stay full when
	// fewer games than BatchSize are still searching.
	MaxInFlightPerTree int
	// MaxCollisions bounds the collisions (selections that end on a leaf
	// already being evaluated) tolerated while gathering one batch of one
	// tree before the batch is sent as it is.
	MaxCollisions int
	// CacheEntries is the approximate number of positions the evaluation
	// cache holds (about 256 bytes each: the default 1<<18 takes ~64 MiB);
	// 0 disables it.
	CacheEntries int
	// ReuseTree keeps the played move's subtree in Tree.Advance; without
	// it Advance starts a fresh tree.
	ReuseTree bool
	// TreeBytes, if positive, bounds the memory of a tree's pools in
	// bytes: nodes of 56 bytes for the positions playouts reached, edges
	// of 8 for their moves, and spare pools of half the size that Advance
	// and a full tree's rebuild compact into (see poolSizes). The pools
	// are reserved at the bound, never grown; their pages cost memory only
	// once the tree reaches them. A search that fills them goes on: it
	// rebuilds the tree keeping its most visited part (the rest of the
	// tree's nodes keep their values and lose their subtrees). Each visit
	// adds a node and, where it expands a position, an edge per legal
	// move: from the opening about 320 bytes a visit, 2,000 visits a MiB
	// of TreeBytes before the first rebuild. 0: the pools grow as the
	// tree does.
	TreeBytes int
}

// MinTreeBytes is the smallest bound Config.TreeBytes takes: room for a
// position's moves and their nodes several times over in every pool.
const MinTreeBytes = 1 << 20

// DefaultConfig returns settings for self-play: PUCT with Dirichlet noise,
// a move temperature of 1 over the first 30 plies, tree reuse, no playout
// cap randomisation.
func DefaultConfig() Config {
	return Config{
		Simulations:        800,
		GumbelK:            16,
		GumbelNoise:        true,
		GumbelCVisit:       50,
		GumbelCScale:       1.0,
		CPuct:              1.75,
		CPuctBase:          19652,
		CPuctFactor:        2.0,
		FPUReduction:       0.33,
		RootFPUReduction:   0.33,
		RootFPUValue:       1.0,
		PolicyTemperature:  1.0,
		VirtualLoss:        1.0,
		DirichletAlpha:     0.3,
		DirichletEpsilon:   0.25,
		Temperature:        1.0,
		TemperaturePlies:   30,
		PlayoutCapProb:     0,
		PlayoutCapFactor:   4,
		BatchSize:          64,
		Workers:            1,
		MaxInFlightPerTree: 8,
		MaxCollisions:      8,
		CacheEntries:       1 << 18,
		ReuseTree:          true,
		MateProbe:          1,
	}
}

// DefaultPlayConfig returns settings for playing to win (matches, UCI): no
// Dirichlet or Gumbel noise, no temperature, a batch of 16 leaves per evaluation.
func DefaultPlayConfig() Config {
	c := DefaultConfig()
	c.DirichletEpsilon = 0
	c.GumbelNoise = false
	c.Temperature = 0
	c.TemperaturePlies = 0
	c.BatchSize = 16
	c.MaxCollisions = 16
	c.MateProbe = 2
	return c
}

// ConfigError reports an invalid Config field.
type ConfigError struct {
	Field  string
	Reason string
}

func (e *ConfigError) Error() string { return "mcts: config: " + e.Field + ": " + e.Reason }

// Validate reports the first invalid field, or nil.
func (c *Config) Validate() error {
	bad := func(field, format string, args ...any) error {
		return &ConfigError{Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	finite32 := func(x float32) bool { return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) }
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case c.Simulations < 1:
		return bad("Simulations", "must be at least 1, got %d", c.Simulations)
	case c.GumbelK < 1:
		return bad("GumbelK", "must be at least 1, got %d", c.GumbelK)
	case !finite32(c.GumbelCVisit) || c.GumbelCVisit < 0:
		return bad("GumbelCVisit", "must be a non-negative number, got %v", c.GumbelCVisit)
	case !finite32(c.GumbelCScale) || c.GumbelCScale <= 0:
		return bad("GumbelCScale", "must be positive, got %v", c.GumbelCScale)
	case !finite32(c.DrawPenalty) || c.DrawPenalty < 0 || c.DrawPenalty >= 1:
		return bad("DrawPenalty", "must be in [0, 1), got %v", c.DrawPenalty)
	case !finite32(c.CPuct) || c.CPuct <= 0:
		return bad("CPuct", "must be positive, got %v", c.CPuct)
	case !finite32(c.CPuctBase) || c.CPuctBase < 0:
		return bad("CPuctBase", "must be non-negative (0 disables growth), got %v", c.CPuctBase)
	case !finite32(c.CPuctFactor) || c.CPuctFactor < 0:
		return bad("CPuctFactor", "must be non-negative, got %v", c.CPuctFactor)
	case !finite32(c.FPUReduction) || c.FPUReduction < 0:
		return bad("FPUReduction", "must be non-negative, got %v", c.FPUReduction)
	case !finite32(c.RootFPUReduction) || c.RootFPUReduction < 0:
		return bad("RootFPUReduction", "must be non-negative, got %v", c.RootFPUReduction)
	case !finite32(c.RootFPUValue) || c.RootFPUValue < -1 || c.RootFPUValue > 1:
		return bad("RootFPUValue", "must lie in [-1, 1], got %v", c.RootFPUValue)
	case !finite32(c.PolicyTemperature) || c.PolicyTemperature <= 0:
		return bad("PolicyTemperature", "must be positive, got %v", c.PolicyTemperature)
	case !finite32(c.VirtualLoss) || c.VirtualLoss < 0:
		return bad("VirtualLoss", "must be non-negative, got %v", c.VirtualLoss)
	case !finite(c.DirichletEpsilon) || c.DirichletEpsilon < 0 || c.DirichletEpsilon > 1:
		return bad("DirichletEpsilon", "must lie in [0, 1], got %v", c.DirichletEpsilon)
	case c.DirichletEpsilon > 0 && (!finite(c.DirichletAlpha) || c.DirichletAlpha <= 0):
		return bad("DirichletAlpha", "must be positive when DirichletEpsilon > 0, got %v", c.DirichletAlpha)
	case !finite(c.Temperature) || c.Temperature < 0:
		return bad("Temperature", "must be non-negative, got %v", c.Temperature)
	case c.TemperaturePlies < 0:
		return bad("TemperaturePlies", "must be non-negative, got %d", c.TemperaturePlies)
	case !finite(c.PlayoutCapProb) || c.PlayoutCapProb < 0 || c.PlayoutCapProb > 1:
		return bad("PlayoutCapProb", "must lie in [0, 1], got %v", c.PlayoutCapProb)
	case c.PlayoutCapFactor < 1:
		return bad("PlayoutCapFactor", "must be at least 1, got %d", c.PlayoutCapFactor)
	case c.PlyCap < 0:
		return bad("PlyCap", "must be non-negative (0: no cap), got %d", c.PlyCap)
	case c.CapMaterialMargin < 0:
		return bad("CapMaterialMargin", "must be non-negative (0: capped games are draws), got %d", c.CapMaterialMargin)
	case c.BatchSize < 1:
		return bad("BatchSize", "must be at least 1, got %d", c.BatchSize)
	case c.MateProbe < 0 || c.MateProbe > 2:
		return bad("MateProbe", "must lie in 0..2, got %d", c.MateProbe)
	case c.Workers < 1:
		return bad("Workers", "must be at least 1, got %d", c.Workers)
	case c.MaxInFlightPerTree < 1:
		return bad("MaxInFlightPerTree", "must be at least 1, got %d", c.MaxInFlightPerTree)
	case c.MaxCollisions < 0:
		return bad("MaxCollisions", "must be non-negative, got %d", c.MaxCollisions)
	case c.CacheEntries < 0:
		return bad("CacheEntries", "must be non-negative (0 disables the cache), got %d", c.CacheEntries)
	case c.TreeBytes < 0 || (c.TreeBytes > 0 && c.TreeBytes < MinTreeBytes):
		return bad("TreeBytes", "must be 0 (no bound) or at least %d, got %d", MinTreeBytes, c.TreeBytes)
	}
	return nil
}
