package serve

// PGN texts: a text's games listed and one described with every position
// (/api/pgn), and a game of it read for a load or a review.

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/alicezero/alicezero/env"
)

// maxPGNGames bounds the games read from one PGN text.
const maxPGNGames = 5000

// positionFromPGN plays the game numbered index of a PGN text up to ply
// (nil: to its end).
func positionFromPGN(text, variant string, index int, ply *int) (*env.Position, [][2]string, error) {
	v, err := variantOrDefault(variant)
	if err != nil {
		return nil, nil, err
	}
	g, err := nthGame(text, v, index)
	if err != nil {
		return nil, nil, err
	}
	n := len(g.Moves)
	if ply != nil {
		if *ply < 0 || *ply > n {
			return nil, nil, badRequest("ply must lie in 0..%d, got %d", n, *ply)
		}
		n = *ply
	}
	p, err := g.StartPosition()
	if err != nil {
		return nil, nil, badRequest("pgn: %v", err)
	}
	if err := playLine(p, g.Moves[:n]); err != nil {
		return nil, nil, err
	}
	var tags [][2]string
	for _, t := range g.Tags {
		switch t[0] {
		// Termination told how the loaded game ended, which the game
		// played on from here need not.
		case "Result", "Variant", "SetUp", "FEN", "Termination":
		default:
			tags = append(tags, t)
		}
	}
	return p, tags, nil
}

// nthGame reads games up to the one numbered index (from 0), which must
// read without error.
func nthGame(text string, v env.Variant, index int) (*env.Game, error) {
	if index < 0 || index >= maxPGNGames {
		return nil, badRequest("game must lie in 0..%d, got %d", maxPGNGames-1, index)
	}
	pr := env.NewPGNReader(strings.NewReader(text), v)
	for i := 0; ; i++ {
		g, err := pr.Next()
		if errors.Is(err, io.EOF) {
			if i == 0 {
				return nil, badRequest("pgn: no game in it")
			}
			return nil, badRequest("pgn: game %d asked for, but it holds %d", index, i)
		}
		if i == index {
			if err != nil {
				return nil, badRequest("pgn: %v", err)
			}
			return g, nil
		}
		var pe *env.PGNError
		if err != nil && !errors.As(err, &pe) {
			return nil, badRequest("pgn: %v", err)
		}
	}
}

func variantOrDefault(name string) (env.Variant, error) {
	if name == "" {
		return env.Alice, nil
	}
	v, err := env.VariantByName(name)
	if err != nil {
		return env.Variant{}, badRequest("variant: %v", err)
	}
	return v, nil
}

type pgnRequest struct {
	PGN     string `json:"pgn"`
	Variant string `json:"variant"`
	// Game is the game to describe in full (index from 0).
	Game int `json:"game"`
}

// pgnGameSummary is one game of a PGN text in a list.
type pgnGameSummary struct {
	Index  int    `json:"index"`
	Event  string `json:"event,omitempty"`
	Round  string `json:"round,omitempty"`
	White  string `json:"white,omitempty"`
	Black  string `json:"black,omitempty"`
	Result string `json:"result"`
	Plies  int    `json:"plies"`
	Error  string `json:"error,omitempty"`
}

// plyPositionJSON is a position of a game being reviewed.
type plyPositionJSON struct {
	FEN    string `json:"fen"`
	Side   string `json:"side"`
	Check  bool   `json:"check"`
	Status string `json:"status"`
	shapeJSON
	Boards   boardsJSON `json:"boards"`
	LastMove *moveJSON  `json:"last_move,omitempty"`
}

// pgnGameJSON is one game in full: its moves and every position.
type pgnGameJSON struct {
	Index     int               `json:"index"`
	Tags      [][2]string       `json:"tags"`
	Variant   string            `json:"variant"`
	StartFEN  string            `json:"start_fen"`
	Result    string            `json:"result"`
	Moves     []moveJSON        `json:"moves"`
	Positions []plyPositionJSON `json:"positions"`
	Error     string            `json:"error,omitempty"`
}

type pgnParseResponse struct {
	Games []pgnGameSummary `json:"games"`
	Game  *pgnGameJSON     `json:"game"`
}

func (s *Server) handlePGN(w http.ResponseWriter, r *http.Request, se *session) error {
	var req pgnRequest
	if err := readJSON(r, &req); err != nil {
		return err
	}
	res, err := parsePGNText(req.PGN, req.Variant, req.Game)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

// parsePGNText lists the games of a PGN text and describes the one
// numbered index in full. A game with an error is kept up to it, with the
// error.
func parsePGNText(text, variant string, index int) (*pgnParseResponse, error) {
	v, err := variantOrDefault(variant)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(text) == "" {
		return nil, badRequest("pgn: empty")
	}
	if index < 0 {
		return nil, badRequest("game must not be negative, got %d", index)
	}
	res := &pgnParseResponse{Games: []pgnGameSummary{}}
	pr := env.NewPGNReader(strings.NewReader(text), v)
	for i := 0; i < maxPGNGames; i++ {
		g, err := pr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *env.PGNError
		if err != nil && !errors.As(err, &pe) {
			return nil, badRequest("pgn: %v", err)
		}
		sum := pgnGameSummary{Index: i, Event: g.Tag("Event"), Round: g.Tag("Round"), White: g.Tag("White"), Black: g.Tag("Black"),
			Result: g.Result.String(), Plies: len(g.Moves)}
		if err != nil {
			sum.Error = err.Error()
		}
		res.Games = append(res.Games, sum)
		if i == index {
			gj, gerr := describeGame(g, i)
			if gerr != nil {
				return nil, gerr
			}
			if sum.Error != "" {
				gj.Error = sum.Error
			}
			res.Game = gj
		}
	}
	if len(res.Games) == 0 {
		return nil, badRequest("pgn: no game in it")
	}
	if res.Game == nil {
		return nil, badRequest("game %d asked for, but the PGN holds %d", index, len(res.Games))
	}
	return res, nil
}

// describeGame describes a game read from PGN with all its positions.
func describeGame(g *env.Game, index int) (*pgnGameJSON, error) {
	p, err := g.StartPosition()
	if err != nil {
		return nil, badRequest("pgn game %d: %v", index+1, err)
	}
	gj := &pgnGameJSON{Index: index, Tags: g.Tags, Variant: g.Variant.Name, StartFEN: p.FEN(), Result: g.Result.String(),
		Moves: make([]moveJSON, 0, len(g.Moves)), Positions: make([]plyPositionJSON, 0, len(g.Moves)+1)}
	if gj.Tags == nil {
		gj.Tags = [][2]string{}
	}
	add := func(last *moveJSON) {
		st := p.Status()
		gj.Positions = append(gj.Positions, plyPositionJSON{FEN: p.FEN(), Side: p.SideToMove().String(), Check: p.InCheck(),
			Status: st.String(), shapeJSON: shapeOf(p.Variant()), Boards: boardsOf(p), LastMove: last})
	}
	add(nil)
	for i, m := range g.Moves {
		m, err := p.ParseUCI(m.UCI()) // the legal move, with the flags MakeMove needs
		if err != nil {
			gj.Error = fmt.Sprintf("ply %d: %v", i+1, err)
			break
		}
		mj := describeMove(p, m)
		gj.Moves = append(gj.Moves, mj)
		p.MakeMove(m)
		add(&mj)
	}
	return gj, nil
}

// playLine plays moves on p, each checked for legality.
func playLine(p *env.Position, moves []env.Move) error {
	for i, m := range moves {
		lm, err := p.ParseUCI(m.UCI())
		if err != nil {
			return badRequest("ply %d: %v", i+1, err)
		}
		p.MakeMove(lm)
	}
	return nil
}
