package reference

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/player"
	"github.com/alicezero/alicezero/internal/seed"
)

// Scores are in centipawns from the side to move's point of view. A mate
// in p plies from the root scores ±(MateScore-p), so nearer mates score
// higher and are preferred.
const (
	MateScore = 1_000_000
	infinity  = MateScore + 1
	// maxPly bounds the search tree's height (depth plus quiescence).
	maxPly = 96
	// MaxDepth is the deepest nominal depth accepted.
	MaxDepth = 32
)

// pieceValue is the material evaluation: P=1, N=3, B=3, R=5, Q=9 pawns.
var pieceValue = [6]int32{100, 300, 300, 500, 900, 0}

// AlphaBetaConfig configures an AlphaBeta player.
type AlphaBetaConfig struct {
	// Depth is the nominal search depth in plies, ≥ 1. The search deepens
	// iteratively from 1 to Depth.
	Depth int
	// Quiescence extends leaves with captures and promotions (and every
	// evasion when in check) up to QDepth further plies, so that the
	// searcher does not stop in the middle of an exchange. Without it a
	// depth-1 searcher happily puts a queen en prise.
	Quiescence bool
	QDepth     int
	// Mobility adds this many centipawns per legal move more than the
	// opponent had at the previous ply (a cheap mobility term: the counts
	// come from move generation the search does anyway).
	Mobility int
	// Noise adds up to ±Noise centipawns to every leaf. The noise is a
	// function of the position and the seed, so a search stays consistent.
	Noise int
	// Shuffle puts the root moves in seeded random order before the
	// first iteration, which breaks ties between equal moves at random.
	Shuffle bool
	// Seed seeds the noise and the shuffle (combined with the arena's
	// per-game seed).
	Seed uint64
}

// DefaultAlphaBetaConfig is the configuration of a plain "ab" spec.
func DefaultAlphaBetaConfig() AlphaBetaConfig {
	return AlphaBetaConfig{Depth: 2, Quiescence: true, QDepth: 8, Shuffle: true}
}

// AlphaBeta is a negamax alpha-beta searcher with a material evaluation.
// It allocates nothing per node: the move list and ordering keys of every
// ply are preallocated. It plays at its configured depth whatever the
// node budget (Limits.Nodes is ignored, so a reference player's strength
// does not depend on the match settings); time limits stop the iterative
// deepening early, as a safety net against losing on time.
type AlphaBeta struct {
	name     string
	cfg      AlphaBetaConfig
	gameSeed uint64
	s        *searcher
	// score is the last move's search score, valid when scored is set.
	score  int
	scored bool
}

// SearchResult is the outcome of one search.
type SearchResult struct {
	Move  env.Move
	Score int   // centipawns from the side to move's view
	Depth int   // last fully searched depth
	Nodes int64 // nodes visited
}

// NewAlphaBeta returns an alpha-beta player named name.
func NewAlphaBeta(name string, cfg AlphaBetaConfig) (*AlphaBeta, error) {
	if cfg.Depth < 1 || cfg.Depth > MaxDepth {
		return nil, fmt.Errorf("alpha-beta %q: depth %d out of range 1..%d", name, cfg.Depth, MaxDepth)
	}
	if cfg.QDepth < 0 || cfg.Depth+cfg.QDepth >= maxPly {
		return nil, fmt.Errorf("alpha-beta %q: qdepth %d out of range 0..%d", name, cfg.QDepth, maxPly-1-cfg.Depth)
	}
	if cfg.Noise < 0 || cfg.Mobility < 0 {
		return nil, fmt.Errorf("alpha-beta %q: noise and mobility must be ≥ 0", name)
	}
	s := &searcher{pos: env.NewPosition(env.Alice)}
	s.rng = rand.New(&s.pcg)
	return &AlphaBeta{name: name, cfg: cfg, s: s}, nil
}

// Name returns the player's name.
func (a *AlphaBeta) Name() string { return a.name }

// Seed sets the per-game seed mixed into noise and shuffling.
func (a *AlphaBeta) Seed(s uint64) { a.gameSeed = s }

// NewGame does nothing: the searcher keeps no state between moves.
func (a *AlphaBeta) NewGame(context.Context) error { return nil }

// Close does nothing.
func (a *AlphaBeta) Close() error { return nil }

// IgnoresNodes implements player.NodeIgnorer.
func (a *AlphaBeta) IgnoresNodes() string {
	return fmt.Sprintf("ab searches to its depth (depth=%d), whatever the node count: set depth=N instead", a.cfg.Depth)
}

// Move searches pos and returns the best move found.
func (a *AlphaBeta) Move(ctx context.Context, pos *env.Position, limits clock.Limits) (env.Move, error) {
	a.scored = false
	r, err := a.Search(ctx, pos, limits)
	if err != nil {
		return env.NoMove, err
	}
	a.score, a.scored = r.Score, true
	return r.Move, nil
}

// LastScore implements player.Scorer: the last search's score, a mate as
// ±player.MateScore.
func (a *AlphaBeta) LastScore() (int, bool) {
	switch {
	case a.score >= MateScore-maxPly:
		return player.MateScore, a.scored
	case a.score <= -MateScore+maxPly:
		return -player.MateScore, a.scored
	}
	return a.score, a.scored
}

// Search runs the iterative-deepening search on pos (left unchanged).
func (a *AlphaBeta) Search(ctx context.Context, pos *env.Position, limits clock.Limits) (SearchResult, error) {
	s := a.s
	s.pos.CopyFrom(pos)
	s.cfg = a.cfg
	s.seed = seed.Mix(a.cfg.Seed ^ seed.Mix(a.gameSeed))
	s.ctx = ctx
	s.nodes = 0
	s.stopped = false
	s.deadline = time.Time{}
	if b := limits.Budget(pos.SideToMove()); b > 0 {
		s.deadline = time.Now().Add(b)
	}

	root := &s.rootMoves
	s.pos.LegalMoves(root)
	if root.N == 0 {
		return SearchResult{}, fmt.Errorf("%s: no legal move in %s", a.name, pos.FEN())
	}
	if a.cfg.Shuffle {
		s.pcg.Seed(s.seed, pos.Hash())
		s.rng.Shuffle(root.N, func(i, j int) { root.Moves[i], root.Moves[j] = root.Moves[j], root.Moves[i] })
	}
	res := SearchResult{Move: root.Moves[0]}
	for d := 1; d <= a.cfg.Depth; d++ {
		m, score, ok := s.searchRoot(d)
		if !ok {
			break
		}
		res.Move, res.Score, res.Depth = m, int(score), d
		if score >= MateScore-maxPly || score <= -MateScore+maxPly {
			break // a forced mate: deeper search finds nothing better
		}
	}
	res.Nodes = s.nodes
	if res.Depth == 0 {
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("%s: %w", a.name, err)
		}
	}
	return res, nil
}

// searcher is the per-player search state, reused from move to move.
type searcher struct {
	pos       *env.Position
	cfg       AlphaBetaConfig
	seed      uint64
	ctx       context.Context
	deadline  time.Time
	nodes     int64
	stopped   bool
	pcg       rand.PCG
	rng       *rand.Rand // reads pcg; kept to allocate nothing per search
	rootMoves env.MoveList
	rootScore [env.MaxMoves]int32
	lists     [maxPly]env.MoveList
	keys      [maxPly][env.MaxMoves]int32
}

// checkStop polls the clock and the context every 1024 nodes.
func (s *searcher) checkStop() bool {
	if s.stopped {
		return true
	}
	if s.nodes&1023 != 0 {
		return false
	}
	if s.ctx.Err() != nil || !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.stopped = true
	}
	return s.stopped
}

// searchRoot searches every root move to depth d, best moves of the
// previous iteration first. ok is false when the search was stopped before
// the first move was searched fully.
func (s *searcher) searchRoot(d int) (best env.Move, bestScore int32, ok bool) {
	root := &s.rootMoves
	alpha := int32(-infinity)
	bestScore = -infinity
	for i := 0; i < root.N; i++ {
		m := root.Moves[i]
		s.pos.MakeMove(m)
		v := -s.search(d-1, 1, -infinity, -alpha, root.N)
		s.pos.UnmakeMove()
		if s.stopped {
			// A partly searched iteration still improves on the last one
			// when its best move was searched fully, but keep it simple and
			// safe: only completed iterations count.
			return env.NoMove, 0, false
		}
		s.rootScore[i] = v
		if v > bestScore {
			bestScore, best = v, m
			alpha = v
		}
	}
	// Stable insertion sort: best first, ties keep their (shuffled) order.
	for i := 1; i < root.N; i++ {
		m, v := root.Moves[i], s.rootScore[i]
		j := i
		for ; j > 0 && s.rootScore[j-1] < v; j-- {
			root.Moves[j], s.rootScore[j] = root.Moves[j-1], s.rootScore[j-1]
		}
		root.Moves[j], s.rootScore[j] = m, v
	}
	return best, bestScore, true
}

// search is negamax with alpha-beta below the root. depth ≤ 0 is the
// quiescence search. oppMoves is the parent's legal move count, for the
// mobility term.
func (s *searcher) search(depth, ply int, alpha, beta int32, oppMoves int) int32 {
	s.nodes++
	if s.checkStop() {
		return 0
	}
	pos := s.pos
	ml := &s.lists[ply]
	pos.LegalMoves(ml)
	if v, over := terminal(pos, ml.N, ply); over {
		return v
	}

	inCheck := false
	best := int32(-infinity)
	if depth <= 0 {
		if !s.cfg.Quiescence || depth <= -s.cfg.QDepth || ply >= maxPly-1 {
			return s.evaluate(ml.N, oppMoves)
		}
		inCheck = pos.InCheck()
		if !inCheck {
			// Stand pat: the side to move may decline every capture.
			best = s.evaluate(ml.N, oppMoves)
			if best >= beta {
				return best
			}
			alpha = max(alpha, best)
		}
	} else if ply >= maxPly-1 {
		return s.evaluate(ml.N, oppMoves)
	}

	quietsToo := depth > 0 || inCheck
	keys := &s.keys[ply]
	n := 0
	for i := 0; i < ml.N; i++ {
		m := ml.Moves[i]
		k := s.orderKey(m)
		if k == 0 && !quietsToo {
			continue
		}
		ml.Moves[n], keys[n] = m, k
		n++
	}
	if n == 0 {
		return best // only quiet moves in the quiescence search: stand pat
	}
	for i := 0; i < n; i++ {
		// Selection sort step: the best remaining move to position i.
		bi := i
		for j := i + 1; j < n; j++ {
			if keys[j] > keys[bi] {
				bi = j
			}
		}
		ml.Moves[i], ml.Moves[bi] = ml.Moves[bi], ml.Moves[i]
		keys[i], keys[bi] = keys[bi], keys[i]

		pos.MakeMove(ml.Moves[i])
		v := -s.search(depth-1, ply+1, -beta, -alpha, ml.N)
		pos.UnmakeMove()
		if s.stopped {
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return best
}

// terminal scores a finished game: the rules of env's Status, in its order
// (a mate on the hundredth ply still wins, then the draws by rule), reusing
// the legal move count the search generated anyway. nLegal is the number of
// legal moves of pos, ply the distance from the root.
func terminal(pos *env.Position, nLegal, ply int) (score int32, over bool) {
	if nLegal == 0 {
		if pos.InCheck() {
			return -MateScore + int32(ply), true
		}
		return 0, true
	}
	if pos.OnlyKings() || pos.Repetitions() >= 2 || pos.HalfmoveClock() >= 100 {
		return 0, true
	}
	return 0, false
}

// orderKey ranks a move for ordering: captures by MVV-LVA, then
// promotions; quiet moves get 0.
func (s *searcher) orderKey(m env.Move) int32 {
	var k int32
	if victim := s.pos.Captured(m); victim != env.NoPiece {
		// The attacker on the board it moves from: in the variants where
		// a square may hold men on several boards, PieceAt may name
		// another.
		x, _ := s.pos.MoveBoards(m)
		attacker := s.pos.PieceOn(m.From(), x)
		k = 16*pieceValue[victim.Kind()] - pieceValue[attacker.Kind()]/100 + 1
	}
	if p := m.Promotion(); p != env.NoKind {
		k += pieceValue[p]
	}
	return k
}

// evaluate scores the position statically for the side to move.
func (s *searcher) evaluate(ourMoves, oppMoves int) int32 {
	pos := s.pos
	us := pos.SideToMove()
	them := us.Other()
	var v int32
	for k := env.Pawn; k < env.King; k++ {
		v += pieceValue[k] * int32(bits.OnesCount64(pos.Pieces(us, k))-bits.OnesCount64(pos.Pieces(them, k)))
	}
	if s.cfg.Mobility > 0 && oppMoves > 0 {
		v += int32(s.cfg.Mobility * (ourMoves - oppMoves))
	}
	if s.cfg.Noise > 0 {
		span := uint64(2*s.cfg.Noise + 1)
		v += int32(seed.Mix(pos.Hash()^s.seed)%span) - int32(s.cfg.Noise)
	}
	return v
}
