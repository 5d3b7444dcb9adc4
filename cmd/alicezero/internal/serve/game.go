package serve

import (
	"bytes"
	"strings"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// game is a session's game: a position with its history back to the
// set-up position, the tags of the PGN it was loaded from, and its clocks
// when it is timed.
type game struct {
	pos *env.Position
	// version counts changes, so that an engine move searched for one
	// position is not played into another.
	version int
	tags    [][2]string
	// clock is nil for an untimed game.
	clock *gameClock
	// ended is set when the game ended by a resignation or an agreed
	// draw, which no position shows.
	ended *gameEnd
}

// gameEnd is how a game ended that its position does not tell.
type gameEnd struct {
	status string // statusResigned or statusDrawAgreed
	result env.Result
}

// The statuses of a game ended by the players.
const (
	statusResigned   = "resigned"
	statusDrawAgreed = "draw-agreed"
)

// resign ends the game, side resigning, at now.
func (g *game) resign(side env.Colour, now time.Time) error {
	if g.isOver() {
		return badRequest("the game is over (%s)", g.overReason())
	}
	g.charge(now)
	g.ended = &gameEnd{status: statusResigned, result: env.WhiteWins}
	if side == env.White {
		g.ended.result = env.BlackWins
	}
	g.version++
	return nil
}

// agreeDraw ends the game drawn by agreement at now.
func (g *game) agreeDraw(now time.Time) error {
	if g.isOver() {
		return badRequest("the game is over (%s)", g.overReason())
	}
	g.charge(now)
	g.ended = &gameEnd{status: statusDrawAgreed, result: env.Draw}
	g.version++
	return nil
}

func newGame(p *env.Position) *game { return &game{pos: p} }

// gameJSON is a game as the page shows it.
type gameJSON struct {
	positionJSON
	StartFEN string     `json:"start_fen"`
	Moves    []moveJSON `json:"moves"`
	Version  int        `json:"version"`
	Clock    *clockJSON `json:"clock,omitempty"`
}

// state describes the game at now: the current position, the moves from
// the set-up position and the clocks. A game lost on time has that
// status and result, and no legal moves.
func (g *game) state(now time.Time) gameJSON {
	pg := env.GameOf(g.pos)
	js := gameJSON{positionJSON: describePosition(g.pos), StartFEN: pg.StartFEN, Moves: make([]moveJSON, 0, len(pg.Moves)), Version: g.version,
		Clock: g.describeClock(now)}
	q, err := pg.StartPosition()
	for _, m := range pg.Moves {
		if err != nil {
			// A FEN a position wrote reads back (env's fuzz tests check
			// it); were it not so, the moves are still listed.
			js.Moves = append(js.Moves, moveJSON{UCI: m.UCI()})
			continue
		}
		js.Moves = append(js.Moves, describeMove(q, m))
		q.MakeMove(m)
	}
	status, result := g.outcome()
	js.Status, js.Result = status, result.String()
	if g.isOver() {
		js.Legal = []moveJSON{}
	}
	return js
}

// set replaces the game; tc, when not nil, times it.
func (g *game) set(p *env.Position, tags [][2]string, tc *clock.Control) {
	g.pos, g.tags, g.clock, g.ended = p, tags, nil, nil
	if tc != nil {
		g.clock = newGameClock(*tc)
	}
	g.version++
}

// play plays the move written in UCI or SAN notation at now.
func (g *game) play(s string, now time.Time) error {
	g.tick(now)
	if g.isOver() {
		return badRequest("the game is over (%s)", g.overReason())
	}
	m, err := g.pos.ParseMove(strings.TrimSpace(s))
	if err != nil {
		return badRequest("%v", err)
	}
	g.makeMove(m, now)
	return nil
}

// makeMove plays m, a legal move, at now, settling the clocks.
func (g *game) makeMove(m env.Move, now time.Time) {
	g.moved(now)
	g.pos.MakeMove(m)
	g.version++
}

// undo takes back up to n moves at now and reports how many it took back.
// It gives back no time: the side to move's clock is charged up to now,
// and the side to move after the undo has its clock run from now on. A
// game lost on time stays lost.
func (g *game) undo(n int, now time.Time) (int, error) {
	g.tick(now)
	if g.clock != nil && g.clock.flagged() {
		return 0, badRequest("the game is over (%s): the time is spent, and undo gives none back; start a new game", g.overReason())
	}
	if g.ended != nil {
		return 0, badRequest("the game is over (%s): start a new game, or review this one", g.overReason())
	}
	g.charge(now)
	k := 0
	for ; k < n && g.pos.Ply() > 0; k++ {
		g.pos.UnmakeMove()
	}
	if k > 0 {
		g.version++
	}
	return k, nil
}

// pgn writes the game as PGN, with the tags it was loaded with; a timed
// game has its TimeControl tag and, once over, its Termination.
func (g *game) pgn() (string, error) {
	pg := env.GameOf(g.pos)
	for _, t := range g.tags {
		pg.SetTag(t[0], t[1])
	}
	if pg.Tag("Event") == "" {
		pg.SetTag("Event", "AliceZero web game")
	}
	_, pg.Result = g.outcome()
	if c := g.clock; c != nil {
		pg.SetTag("TimeControl", c.tc.PGN())
		switch {
		case c.flagged():
			pg.SetTag("Termination", "time forfeit")
		case g.pos.Status().IsOver():
			pg.SetTag("Termination", "normal")
		}
	}
	if g.ended != nil {
		// PGN's Termination knows no resignation or agreement: both end a
		// game normally, the result saying the rest.
		pg.SetTag("Termination", "normal")
	}
	var buf bytes.Buffer
	if err := env.WritePGN(&buf, pg); err != nil {
		return "", err
	}
	return buf.String(), nil
}
