package serve

import (
	"cmp"
	"math"
	"slices"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/mcts"
	"github.com/alicezero/alicezero/mcts/engine"
)

// lineMoveJSON is a move of a line: UCI and SAN.
type lineMoveJSON struct {
	UCI string `json:"uci"`
	SAN string `json:"san"`
}

// topMoveJSON is a root move's share of the search: of the tree's visits,
// or one of the alpha-beta's lines (no visits; Line its moves).
type topMoveJSON struct {
	UCI     string         `json:"uci"`
	SAN     string         `json:"san"`
	ToBoard string         `json:"to_board"`
	Visits  int            `json:"visits"`
	Share   float64        `json:"share"`
	Q       float64        `json:"q"`
	Prior   float64        `json:"prior"`
	MateIn  int            `json:"mate,omitempty"`
	Line    []lineMoveJSON `json:"line,omitempty"`
}

// infoJSON is a search report. WDL and Value are from the side to move's
// view, WhiteValue from White's.
type infoJSON struct {
	// Search is the search that reported (engine.SearchMCTS, whose Nodes
	// are visits, or engine.SearchAlphaBeta, whose top moves are its
	// lines).
	Search string `json:"search"`
	Nodes  int    `json:"nodes"`
	// TreeVisits, when more than Nodes, is the visits of the root's moves
	// in all: the search went on in a tree kept from the move before.
	TreeVisits int            `json:"tree_visits,omitempty"`
	NPS        int            `json:"nps"`
	ElapsedMS  int64          `json:"elapsed_ms"`
	Depth      int            `json:"depth"`
	SelDepth   int            `json:"seldepth"`
	Side       string         `json:"side"`
	WDL        [3]float64     `json:"wdl"`
	Value      float64        `json:"value"`
	WhiteValue float64        `json:"white_value"`
	MateIn     int            `json:"mate,omitempty"`
	Best       *lineMoveJSON  `json:"best,omitempty"`
	PV         []lineMoveJSON `json:"pv"`
	Top        []topMoveJSON  `json:"top"`
	Final      bool           `json:"final"`
}

// maxTopMoves bounds the root moves a report lists.
const maxTopMoves = 12

// describeInfo writes a report of a search of p (p is unchanged) by
// search (engine.SearchKind): its best move is its PV's first, its top
// moves the root's moves (Children) most visited first, or the
// alpha-beta's lines best first.
func describeInfo(p *env.Position, in mcts.Info, search string) *infoJSON {
	js := &infoJSON{
		Search:    search,
		Nodes:     in.Nodes,
		ElapsedMS: in.Elapsed.Milliseconds(),
		Depth:     in.Depth,
		SelDepth:  in.SelDepth,
		Side:      p.SideToMove().String(),
		MateIn:    in.MateIn,
		Final:     in.Final,
		PV:        []lineMoveJSON{},
		Top:       []topMoveJSON{},
	}
	if s := in.Elapsed.Seconds(); s > 0 {
		js.NPS = int(float64(in.Nodes) / s)
	}
	sum := 0.0
	for i, w := range in.WDL {
		x := float64(w)
		if !finite(x) || x < 0 {
			x = 0
		}
		js.WDL[i] = x
		sum += x
	}
	if sum > 0 {
		for i := range js.WDL {
			js.WDL[i] = round4(js.WDL[i] / sum)
		}
	} else {
		js.WDL = [3]float64{0, 1, 0}
	}
	js.Value = round4(js.WDL[0] - js.WDL[2])
	js.WhiteValue = js.Value
	if p.SideToMove() == env.Black {
		js.WhiteValue = -js.Value
	}
	var ml env.MoveList
	p.LegalMoves(&ml)
	if best := bestMove(in); best != env.NoMove && ml.Contains(best) {
		js.Best = &lineMoveJSON{UCI: p.UCI(best), SAN: p.SAN(best)}
	}
	js.PV = append(js.PV, lineMoves(p, in.PV)...)
	top := slices.Clone(in.Children)
	if search != engine.SearchAlphaBeta {
		// The alpha-beta's lines come ranked by the search, those of its
		// last full depth before any kept from a shallower one: their
		// values are not comparable across depths, so its order stands.
		slices.SortStableFunc(top, rankTop)
	}
	total := 0
	for _, t := range top {
		total += max(0, t.Visits)
	}
	if total > js.Nodes {
		js.TreeVisits = total
	}
	for _, t := range top {
		if len(js.Top) == maxTopMoves {
			break
		}
		if !ml.Contains(t.Move) {
			continue
		}
		_, to := p.MoveBoards(t.Move)
		tj := topMoveJSON{UCI: p.UCI(t.Move), SAN: p.SAN(t.Move), ToBoard: to.String(), Visits: t.Visits,
			Q: round4(clean(float64(t.Q))), Prior: round4(clean(float64(t.Prior))), MateIn: t.MateIn}
		if total > 0 {
			tj.Share = round4(float64(max(0, t.Visits)) / float64(total))
		}
		if search == engine.SearchAlphaBeta {
			tj.Line = lineMoves(p, t.PV)
		}
		js.Top = append(js.Top, tj)
	}
	return js
}

// rankTop orders the tree's root moves for the page: the most visited
// first, and among moves of as many visits the best for the side to move
// first, a mate sooner better, being mated later better.
func rankTop(a, b mcts.ChildStat) int {
	if a.Visits != b.Visits {
		return cmp.Compare(b.Visits, a.Visits)
	}
	return cmp.Compare(lineRank(b), lineRank(a))
}

// lineRank is a root move's worth for ranking: its value, beyond ±1 for
// a mate found, by the mate's distance.
func lineRank(c mcts.ChildStat) float64 {
	switch {
	case c.MateIn > 0:
		return 3 - float64(c.MateIn)/1000
	case c.MateIn < 0:
		return -3 - float64(c.MateIn)/1000
	}
	return clean(float64(c.Q))
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// clean maps NaN and infinities to 0, so that a report always encodes.
func clean(x float64) float64 {
	if !finite(x) {
		return 0
	}
	return x
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
