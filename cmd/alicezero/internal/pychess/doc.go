// Package pychess plays on pychess.org as a bot, through its BOT API: a
// lichess-style HTTP API with an event stream (challenges, game starts)
// and one stream per game (moves and clocks), both newline-delimited JSON.
//
// Client speaks the API: it reads the streams (tolerating blank keep-alive
// lines, dropping over-long or malformed lines with a logged warning) and
// sends accepts, declines, moves and aborts. Bot runs a bot on a Client:
//
//	c, err := pychess.NewClient(pychess.DefaultServer, token, pychess.ClientOptions{Variants: []string{"alice"}})
//	b, err := pychess.New(c, []engine.Interface{e1, e2}, pychess.Config{MaxGames: 2, PGNDir: "games"})
//	err = b.Run(ctx) // until ctx ends
//
// It accepts the challenges that fit its variants, time controls and free
// game slots, plays several games at once, hands each move's search its
// clock for the engine's time manager (Clock), applies a draw rule (DrawRule), reconnects dropped
// streams with exponential backoff and jitter (Backoff), and writes each
// finished game as PGN. It plays with engine.Interface values (package
// mcts/engine), one per game searched at once: each search borrows a free
// one. The payload shapes it reads are recorded, with the server
// code they come from, in testdata/README.md.
package pychess
