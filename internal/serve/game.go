package serve

import (
	"bytes"
	"strings"

	"github.com/alicezero/alicezero/env"
)

// game is a session's game: a position with its history back to the
// set-up position, and the tags of the PGN it was loaded from.
type game struct {
	pos *env.Position
	// version counts changes, so that an engine move searched for one
	// position is not played into another.
	version int
	tags    [][2]string
}

func newGame(p *env.Position) *game { return &game{pos: p} }

// gameJSON is a game as the page shows it.
type gameJSON struct {
	positionJSON
	StartFEN string     `json:"start_fen"`
	Moves    []moveJSON `json:"moves"`
	Version  int        `json:"version"`
}

// state describes the game: the current position and the moves from the
// set-up position.
func (g *game) state() gameJSON {
	q := g.pos.Clone()
	moves := make([]env.Move, q.Ply())
	for i := len(moves) - 1; i >= 0; i-- {
		moves[i] = q.LastMove()
		q.UnmakeMove()
	}
	js := gameJSON{positionJSON: describePosition(g.pos), StartFEN: q.FEN(), Moves: make([]moveJSON, 0, len(moves)), Version: g.version}
	for _, m := range moves {
		js.Moves = append(js.Moves, describeMove(q, m))
		q.MakeMove(m)
	}
	return js
}

// set replaces the game.
func (g *game) set(p *env.Position, tags [][2]string) {
	g.pos, g.tags = p, tags
	g.version++
}

// play plays the move written in UCI or SAN notation.
func (g *game) play(s string) error {
	if st := g.pos.Status(); st.IsOver() {
		return badRequest("the game is over (%s)", st)
	}
	m, err := g.pos.ParseMove(strings.TrimSpace(s))
	if err != nil {
		return badRequest("%v", err)
	}
	g.pos.MakeMove(m)
	g.version++
	return nil
}

// undo takes back up to n moves and reports how many it took back.
func (g *game) undo(n int) int {
	k := 0
	for ; k < n && g.pos.Ply() > 0; k++ {
		g.pos.UnmakeMove()
	}
	if k > 0 {
		g.version++
	}
	return k
}

// pgn writes the game as PGN, with the tags it was loaded with.
func (g *game) pgn() (string, error) {
	q := g.pos.Clone()
	pg := env.NewGame(q.Variant())
	pg.Moves = make([]env.Move, q.Ply())
	for i := len(pg.Moves) - 1; i >= 0; i-- {
		pg.Moves[i] = q.LastMove()
		q.UnmakeMove()
	}
	pg.StartFEN = q.FEN()
	for _, t := range g.tags {
		pg.SetTag(t[0], t[1])
	}
	if pg.Tag("Event") == "" {
		pg.SetTag("Event", "AliceZero web game")
	}
	pg.Result = g.pos.Outcome(g.pos.Status())
	var buf bytes.Buffer
	if err := env.WritePGN(&buf, pg); err != nil {
		return "", err
	}
	return buf.String(), nil
}
