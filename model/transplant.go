package model

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/alicezero/alicezero/env"
)

// CopyReport says what CopyFromVariant carried over from one variant's
// network into another's, and what it left to start afresh.
type CopyReport struct {
	// From and To are the variants' names.
	From, To string
	// InputPlanes is the number of To's input planes and InputCopied how
	// many of them read what a plane of From's read (their stem filters
	// copied); the others' filters are zero, so that the new network
	// starts by ignoring them. InputZeroed names the groups of those
	// ("board C's men", "the en-passant square").
	InputPlanes, InputCopied int
	InputZeroed              []string
	// PolicyPlanes is the number of To's policy planes (move types of 64
	// from-squares each) and PolicyCopied how many of them stand for moves
	// a plane of From's stood for (their rows of the policy head copied);
	// the others keep the destination's fresh initialisation. PolicyFresh
	// names the groups of those ("null moves", "moves from board A to
	// board C").
	PolicyPlanes, PolicyCopied int
	PolicyFresh                []string
	// SameEncoding is set where both variants' networks have one encoding:
	// then, with every plane copied, so is every parameter.
	SameEncoding bool
}

// String says it in one line, e.g. "copied the trunk, the value head, 37
// of 51 input planes and 146 of 438 policy planes; zero-initialised 14
// input planes (board C's men, board C's attacks), fresh 292 policy
// planes (...)".
func (r CopyReport) String() string {
	if r.SameEncoding && r.InputCopied == r.InputPlanes && r.PolicyCopied == r.PolicyPlanes {
		if r.From == r.To {
			return "copied every parameter"
		}
		return fmt.Sprintf("copied every parameter (%s has the encoding of %s)", r.To, r.From)
	}
	s := fmt.Sprintf("copied the trunk, the value head, %d of %d input planes and %d of %d policy planes",
		r.InputCopied, r.InputPlanes, r.PolicyCopied, r.PolicyPlanes)
	var rest []string
	if n := r.InputPlanes - r.InputCopied; n > 0 {
		rest = append(rest, fmt.Sprintf("zero-initialised %d input %s (%s)", n, plural(n, "plane"), strings.Join(r.InputZeroed, ", ")))
	}
	if n := r.PolicyPlanes - r.PolicyCopied; n > 0 {
		rest = append(rest, fmt.Sprintf("fresh %d policy %s (%s)", n, plural(n, "plane"), strings.Join(r.PolicyFresh, ", ")))
	}
	if len(rest) == 0 {
		return s
	}
	return s + "; " + strings.Join(rest, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// CopyFromVariant overwrites w, a network of variant to's encoding, with
// what src, a network of variant from's encoding and of w's architecture
// (trunk and heads), knows that applies to to: a network for one variant
// started from another's (train --init). Where the encodings are equal it
// is CopyFrom. Otherwise the trunk, the policy head's 3×3 convolution and
// the value head are copied whole (the network is convolutional and
// averages over the board, so none of them depends on the encoding); the
// stem's filters of each of to's input planes that means what a plane of
// from's means (a man of a kind and side on a board, an attack plane, a
// castling right...) are copied and the others set to zero; and each of
// to's policy planes whose moves are moves of one of from's planes (the
// same movement and promotion, from a board to a board that plane
// covers) takes that plane's row of the policy head, the others keeping
// w's own fresh values.
//
// Planes that to lights and from never did start at zero too where the
// layouts share them: the en-passant plane of a network of a variant
// without en passant (alice's, read by alice-ep) holds filters no game
// ever trained.
//
// So on positions of to that have nothing from lacks (board C empty in
// alice-3, no en-passant square in alice-ep), the new network computes
// what src computes on the same position of from: the same value and the
// same logits on the moves both have.
//
// The errors wrap ErrArchMismatch (another trunk or heads) or ErrEncoding
// (src or w is not of the encoding of the variant named for it).
func (w *Weights) CopyFromVariant(src *Weights, from, to env.Variant) (CopyReport, error) {
	if src == nil {
		return CopyReport{}, errors.New("model: copy weights: nil source")
	}
	if err := CheckArch(src.cfg.architecture(), w.cfg.architecture()); err != nil {
		return CopyReport{}, fmt.Errorf("model: cannot copy weights of %v into %v: %w", src.cfg, w.cfg, err)
	}
	if err := src.cfg.Fits(from); err != nil {
		return CopyReport{}, fmt.Errorf("the source network is not %s's: %w", from.Name, err)
	}
	if err := w.cfg.Fits(to); err != nil {
		return CopyReport{}, fmt.Errorf("the destination network is not %s's: %w", to.Name, err)
	}
	inMap, zeroed := inputPlaneMap(from, to)
	polMap, fresh := policyPlaneMap(from, to)
	r := CopyReport{
		From: from.Name, To: to.Name,
		InputPlanes: to.NumPlanes(), InputZeroed: zeroed,
		PolicyPlanes: to.Policy().Planes(), PolicyFresh: fresh,
		SameEncoding: src.cfg.ForVariant(to) == src.cfg,
	}
	for _, s := range inMap {
		if s >= 0 {
			r.InputCopied++
		}
	}
	for _, s := range polMap {
		if s >= 0 {
			r.PolicyCopied++
		}
	}
	for i, p := range w.params {
		sp := src.byName[p.Name]
		switch p.Name {
		case "stem.w":
			// [out, in, 3, 3]: the in-plane slices are mapped.
			out, inDst, inSrc, k := p.Shape[0], p.Shape[1], sp.Shape[1], p.Shape[2]*p.Shape[3]
			for o := 0; o < out; o++ {
				for d := 0; d < inDst; d++ {
					dst := p.Data[(o*inDst+d)*k : (o*inDst+d+1)*k]
					if s := inMap[d]; s >= 0 {
						copy(dst, sp.Data[(o*inSrc+s)*k:(o*inSrc+s+1)*k])
					} else {
						clear(dst)
					}
				}
			}
		case "policy.logits.w", "policy.logits.b":
			// [planes, P, 1, 1] and [planes]: rows are planes.
			n := len(p.Data) / p.Shape[0]
			for d, s := range polMap {
				if s >= 0 {
					copy(p.Data[d*n:(d+1)*n], sp.Data[s*n:(s+1)*n])
				}
			}
		default:
			copy(w.params[i].Data, sp.Data)
		}
	}
	return r, nil
}

// inputMeaning is what an input plane shows, whatever its number in a
// variant's layout.
type inputMeaning struct {
	block string // "men", "attacks", or the name of a block of env's table
	board int
	ours  bool
	kind  env.Kind
	i     int // the plane's number in its block
}

// label names the plane's group for CopyReport.
func (m inputMeaning) label() string {
	switch m.block {
	case "men", "attacks":
		return fmt.Sprintf("board %v's %s", env.Board(m.board), m.block)
	case "en-passant":
		return "the en-passant square"
	}
	return "the " + m.block + " planes"
}

// inputMeanings returns every plane of the layout with what it shows.
func inputMeanings(l env.PlaneLayout) map[inputMeaning]int {
	m := map[inputMeaning]int{}
	for b := 0; b < l.Boards(); b++ {
		for _, ours := range []bool{true, false} {
			for k := env.Pawn; k <= env.King; k++ {
				m[inputMeaning{block: "men", board: b, ours: ours, kind: k}] = l.Piece(env.Board(b), ours, k)
			}
			m[inputMeaning{block: "attacks", board: b, ours: ours}] = l.Attack(env.Board(b), ours)
		}
	}
	for _, blk := range []struct {
		name  string
		first int
		n     int
	}{
		{"repetition", l.Repetitions(), 2}, {"castling", l.Castling(), 4}, {"halfmove-clock", l.Halfmove(), 1},
		{"en-passant", l.EnPassant(), 1}, {"ones", l.Ones(), 1},
	} {
		for i := range blk.n {
			m[inputMeaning{block: blk.name, i: i}] = blk.first + i
		}
	}
	return m
}

// inputPlaneMap returns, for each of to's input planes, the plane of
// from's that shows the same (-1 for none), and the groups of the planes
// that have none, in plane order.
func inputPlaneMap(from, to env.Variant) (src []int, zeroed []string) {
	fromM := inputMeanings(from.Planes())
	src = make([]int, to.NumPlanes())
	meaning := make([]inputMeaning, to.NumPlanes())
	for m, d := range inputMeanings(to.Planes()) {
		meaning[d] = m
		s, ok := fromM[m]
		if m.block == "en-passant" && !from.EnPassant && to.EnPassant {
			ok = false // from's filters of it never trained: see CopyFromVariant
		}
		if !ok {
			s = -1
		}
		src[d] = s
	}
	for d, s := range src {
		if l := meaning[d].label(); s < 0 && !slices.Contains(zeroed, l) {
			zeroed = append(zeroed, l)
		}
	}
	return src, zeroed
}

// boardPair is a move's from-board and landing board.
type boardPair struct{ from, to int }

// policyPlane is what a policy plane stands for: moves of one movement
// between the board pairs it covers.
type policyPlane struct {
	t     env.MoveType
	pairs []boardPair
	used  bool // some index of the plane names a move
}

// policyPlanes returns what each of the layout's planes stands for. A
// plane whose from-board the from-square implies (one man per square, two
// boards) covers a man's move from either board to the other; one whose
// landing the rules decide (alice-optional-transfer) covers the transfer,
// the landing it has unless the square there is taken.
func policyPlanes(l *env.PolicyLayout, boards int) []policyPlane {
	area := l.Height() * l.Width()
	out := make([]policyPlane, l.Planes())
	for p := range out {
		fb, _, t := l.PlaneMeaning(p)
		out[p].t = t
		toBoard := -1
		for sq := 0; sq < area; sq++ {
			if m, ok := l.Decode(p*area + sq); ok {
				out[p].used, toBoard = true, m.ToBoard
				break
			}
		}
		switch {
		case fb < 0:
			for x := 0; x < boards; x++ {
				out[p].pairs = append(out[p].pairs, boardPair{x, (x + 1) % boards})
			}
		case toBoard < 0:
			out[p].pairs = []boardPair{{fb, (fb + 1) % boards}}
		default:
			out[p].pairs = []boardPair{{fb, toBoard}}
		}
	}
	return out
}

// covers reports whether every move of plane q is a move of plane p (a
// plane that names no move, such as alice-stone's null move that stays,
// covers and is covered by none).
func (p policyPlane) covers(q policyPlane) bool {
	if !p.used || !q.used || p.t != q.t {
		return false
	}
	for _, b := range q.pairs {
		if !slices.Contains(p.pairs, b) {
			return false
		}
	}
	return true
}

// label names the plane's group for CopyReport.
func (p policyPlane) label() string {
	switch {
	case p.t.Null:
		return "null moves"
	case len(p.pairs) == 1 && p.pairs[0].from == p.pairs[0].to:
		return "moves that stay on their board"
	case len(p.pairs) == 1:
		return fmt.Sprintf("moves from board %v to board %v", env.Board(p.pairs[0].from), env.Board(p.pairs[0].to))
	}
	return "moves " + p.t.String()
}

// policyPlaneMap returns, for each of to's policy planes, the first plane
// of from's that covers it (-1 for none), and the groups of those that
// have none, in plane order.
func policyPlaneMap(from, to env.Variant) (src []int, fresh []string) {
	fp, tp := policyPlanes(from.Policy(), from.Planes().Boards()), policyPlanes(to.Policy(), to.Planes().Boards())
	src = make([]int, len(tp))
	for d, q := range tp {
		src[d] = -1
		for s, p := range fp {
			if p.covers(q) {
				src[d] = s
				break
			}
		}
		if l := q.label(); src[d] < 0 && !slices.Contains(fresh, l) {
			fresh = append(fresh, l)
		}
	}
	return src, fresh
}
