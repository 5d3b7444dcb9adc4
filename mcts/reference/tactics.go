package reference

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// A Tactic is a position of a tactics suite. Either the side to move has a
// forced mate in Mate moves (EPD "dm N; bm MOVE;"), or a game's move Avoid
// let the opponent force mate in Allows moves while another move did not
// (EPD "am MOVE; adm N;", adm being this project's opcode: the mate the
// avoided move allows).
type Tactic struct {
	ID     string
	Pos    *env.Position
	Mate   int      // > 0: the side to move mates in Mate moves
	Best   env.Move // a mating move, when Mate > 0
	Allows int      // > 0: after Avoid the opponent mates in Allows moves
	Avoid  env.Move
}

// EPD writes the tactic as an EPD line.
func (t Tactic) EPD() string {
	e := env.EPD{Position: t.Pos}
	if t.Mate > 0 {
		e.Ops = append(e.Ops, env.EPDOp{Code: "bm", Operand: t.Pos.SAN(t.Best)}, env.EPDOp{Code: "dm", Operand: strconv.Itoa(t.Mate)})
	} else {
		e.Ops = append(e.Ops, env.EPDOp{Code: "am", Operand: t.Pos.SAN(t.Avoid)}, env.EPDOp{Code: "adm", Operand: strconv.Itoa(t.Allows)})
	}
	if t.ID != "" {
		e.Ops = append(e.Ops, env.EPDOp{Code: "id", Operand: t.ID})
	}
	return e.String()
}

// ParseTactic reads a tactic's EPD line (see Tactic) of variant v.
func ParseTactic(line string, v env.Variant) (Tactic, error) {
	e, err := env.ParseEPD(line, v)
	if err != nil {
		return Tactic{}, err
	}
	t := Tactic{Pos: e.Position}
	t.ID, _ = e.Op("id")
	move := func(code string) (env.Move, error) {
		s, ok := e.Op(code)
		if !ok {
			return env.NoMove, fmt.Errorf("tactic %q: no %s operation", t.ID, code)
		}
		m, err := t.Pos.ParseSAN(s)
		if err != nil {
			return env.NoMove, fmt.Errorf("tactic %q: %s %s: %w", t.ID, code, s, err)
		}
		return m, nil
	}
	count := func(code string) (int, error) {
		s, _ := e.Op(code)
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || 2*n-1 > MaxDepth {
			return 0, fmt.Errorf("tactic %q: %s %q is not a mate length in 1..%d", t.ID, code, s, (MaxDepth+1)/2)
		}
		return n, nil
	}
	switch _, dm := e.Op("dm"); {
	case dm:
		if t.Mate, err = count("dm"); err == nil {
			t.Best, err = move("bm")
		}
	default:
		if t.Allows, err = count("adm"); err == nil {
			t.Avoid, err = move("am")
		}
	}
	if err != nil {
		return Tactic{}, err
	}
	return t, nil
}

// A MateFinder proves forced mates with the alpha-beta, full width and
// without quiescence: a mate it reports is forced (the losing side's every
// reply is searched), and a search of 2n-1 plies finds every mate in n
// moves or fewer, the shortest first (iterative deepening stops at the
// first depth that mates).
type MateFinder struct {
	byDepth map[int]*AlphaBeta
}

// NewMateFinder returns a mate finder.
func NewMateFinder() *MateFinder { return &MateFinder{byDepth: map[int]*AlphaBeta{}} }

// MateIn returns the shortest forced mate in at most n moves for the side
// to move at pos, and its first move; 0 when there is none.
func (f *MateFinder) MateIn(ctx context.Context, pos *env.Position, n int) (int, env.Move, error) {
	if st := pos.Status(); st.IsOver() {
		return 0, env.NoMove, nil
	}
	ab, err := f.searcher(2*n - 1)
	if err != nil {
		return 0, env.NoMove, err
	}
	r, err := ab.Search(ctx, pos, clock.Limits{})
	if err == nil {
		err = ctx.Err() // a search cut short proves nothing
	}
	if err != nil {
		return 0, env.NoMove, err
	}
	if r.Score < MateScore-maxPly {
		return 0, env.NoMove, nil
	}
	return (MateScore - r.Score + 1) / 2, r.Move, nil
}

func (f *MateFinder) searcher(depth int) (*AlphaBeta, error) {
	if ab, ok := f.byDepth[depth]; ok {
		return ab, nil
	}
	ab, err := NewAlphaBeta("mate finder", AlphaBetaConfig{Depth: depth})
	if err != nil {
		return nil, err
	}
	f.byDepth[depth] = ab
	return ab, nil
}

// Solves reports whether m answers t: it mates within t.Mate moves, or
// after it the opponent has no mate within t.Allows moves.
func (f *MateFinder) Solves(ctx context.Context, t Tactic, m env.Move) (bool, error) {
	q := t.Pos.Clone()
	var ml env.MoveList
	q.LegalMoves(&ml)
	mv, ok := ml.Find(m)
	if !ok {
		return false, fmt.Errorf("tactic %q: %s is not legal", t.ID, m.UCI())
	}
	q.MakeMove(mv)
	if t.Mate > 0 {
		if q.Status() == env.Checkmate {
			return true, nil
		}
		if t.Mate == 1 {
			return false, nil
		}
		// The opponent must be unable to escape a mate in Mate-1 more
		// moves: every reply of theirs leaves us a mate in Mate-2 … found
		// by a search of 2(Mate-1) plies from their side.
		return f.mated(ctx, q, t.Mate-1)
	}
	n, _, err := f.MateIn(ctx, q, t.Allows)
	return n == 0 && err == nil, err
}

// mated reports whether the side to move at pos is mated within n moves
// whatever it plays.
func (f *MateFinder) mated(ctx context.Context, pos *env.Position, n int) (bool, error) {
	ab, err := f.searcher(2 * n)
	if err != nil {
		return false, err
	}
	r, err := ab.Search(ctx, pos, clock.Limits{})
	if err != nil {
		return false, err
	}
	return r.Score <= -MateScore+maxPly, ctx.Err()
}

// FindTactics walks game and returns, for each move of side, a tactic
// where the move missed a forced mate in at most maxMate moves (the mover
// had one and the move kept none as short), or allowed the opponent one
// that another move avoided. Each is named by id and the move number.
func (f *MateFinder) FindTactics(ctx context.Context, game *env.Game, side env.Colour, maxMate int, id string) ([]Tactic, error) {
	pos, err := game.StartPosition()
	if err != nil {
		return nil, err
	}
	var found []Tactic
	for _, m := range game.Moves {
		if pos.Status().IsOver() {
			break
		}
		var ml env.MoveList
		pos.LegalMoves(&ml)
		mv, ok := ml.Find(m)
		if !ok {
			return found, fmt.Errorf("%s: %s is not legal in %s", id, m.UCI(), pos.FEN())
		}
		if pos.SideToMove() == side {
			t, ok, err := f.judge(ctx, pos, mv, maxMate)
			if err != nil {
				return found, err
			}
			if ok {
				t.ID = fmt.Sprintf("%s move %d", id, pos.FullmoveNumber())
				found = append(found, t)
			}
		}
		pos.MakeMove(mv)
	}
	return found, nil
}

// judge finds what move m (legal) at pos missed or allowed.
func (f *MateFinder) judge(ctx context.Context, pos *env.Position, m env.Move, maxMate int) (Tactic, bool, error) {
	mate, best, err := f.MateIn(ctx, pos, maxMate)
	if err != nil {
		return Tactic{}, false, err
	}
	if mate > 0 {
		ok, err := f.Solves(ctx, Tactic{Pos: pos, Mate: mate}, m)
		if err != nil || ok {
			return Tactic{}, false, err
		}
		return Tactic{Pos: pos.Clone(), Mate: mate, Best: best}, true, nil
	}
	q := pos.Clone()
	q.MakeMove(m)
	allows, _, err := f.MateIn(ctx, q, maxMate)
	if err != nil || allows == 0 {
		return Tactic{}, false, err
	}
	// A blunder only if another move escapes that mate: otherwise the
	// position was lost already.
	t := Tactic{Pos: pos, Allows: allows, Avoid: m}
	var ml env.MoveList
	pos.LegalMoves(&ml)
	for _, alt := range ml.Moves[:ml.N] {
		if alt == m {
			continue
		}
		ok, err := f.Solves(ctx, t, alt)
		if err != nil {
			return Tactic{}, false, err
		}
		if ok {
			t.Pos = pos.Clone()
			return t, true, nil
		}
	}
	return Tactic{}, false, nil
}

//go:embed tactics.epd
var suiteEPD string

// Suite returns the project's tactics suite (tactics.epd, one EPD line a
// tactic, '#' lines are comments): forced mates the built-in network
// missed or allowed in equal-time games against ab:depth=32, found by
// "alicezero replay --tactics net".
func Suite() ([]Tactic, error) {
	var ts []Tactic
	for i, line := range strings.Split(suiteEPD, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		t, err := ParseTactic(line, env.Alice)
		if err != nil {
			return nil, fmt.Errorf("tactics.epd:%d: %w", i+1, err)
		}
		ts = append(ts, t)
	}
	return ts, nil
}
