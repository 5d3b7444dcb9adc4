package arena

import (
	"strconv"
	"time"

	"github.com/alicezero/alicezero/env"
)

// pgnGame builds the PGN record of a game.
func (r *runner) pgnGame(rec GameRecord, moves []env.Move, date time.Time) *env.Game {
	cfg := &r.cfg
	g := env.NewGame(cfg.Variant)
	g.StartFEN = rec.Opening.FEN
	g.Moves = moves
	g.Result = rec.Result
	event, site := cfg.Event, cfg.Site
	if event == "" {
		event = "AliceZero arena"
	}
	if site == "" {
		site = "?"
	}
	g.SetTag("Event", event)
	g.SetTag("Site", site)
	g.SetTag("Date", date.Format("2006.01.02"))
	g.SetTag("Round", strconv.Itoa(rec.Number))
	g.SetTag("White", cfg.Players[rec.White])
	g.SetTag("Black", cfg.Players[rec.Black])
	g.SetTag("Termination", string(rec.Termination))
	g.SetTag("PlyCount", strconv.Itoa(len(moves)))
	// One TimeControl tag when both sides had the same clock, else one
	// per side (cutechess's WhiteTimeControl and BlackTimeControl).
	wtc, btc := r.clocks[rec.White].PGN(), r.clocks[rec.Black].PGN()
	switch {
	case wtc == btc && wtc != "-":
		g.SetTag("TimeControl", wtc)
	case wtc != btc:
		g.SetTag("WhiteTimeControl", wtc)
		g.SetTag("BlackTimeControl", btc)
	}
	g.SetTag("Opening", rec.Opening.Name)
	return g
}
