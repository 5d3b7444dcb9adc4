// Package serve is the web frontend behind "alicezero serve": an HTTP
// server with a JSON API under /api/ and a page, embedded in the binary,
// to play Alice Chess, in any of its variants, against the engine on all
// its boards at once, analyse positions, review games and watch training
// runs.
//
// The server knows the engine only as an engine.Interface (package
// mcts/engine), from a Loader that turns a weights choice into one;
// cmd/alicezero wires the real engine in, the tests enginetest's fake. A
// search hands the engine the game that led to the position searched
// (env.GameOf) at Go, with clock.Limits, and reports its mcts.Info as
// JSON, and its last event says why it ended (end.go):
// its limits reached, a mate or result proven, stopped and by what, an
// error, or the engine's own early end. A search's visits are the tree
// search's; an engine that runs the alpha-beta (its SearchKind) searches
// as long in its nodes, and for an analysis several exact lines, which
// the page lists as its top moves (worker.go). Each visitor gets a session (a
// cookie) with their own game; searches wait in a bounded queue served by
// a fixed number of workers, and report their progress as server-sent
// events. A game may be timed: the server alone keeps its clocks
// (gameclock.go) and hands them to the engine's time manager
// (internal/clock). It ends by the rules, on time, by a resignation, or by
// a draw agreed: a draw offered to the engine is a search whose
// evaluation answers it (draw.go). Training runs are read from a runs
// folder (see runs.go for the layout). The page links to the rule book,
// docs/RULES.md, which the server embeds and serves rendered (rules.go).
// The server logs through log/slog (Options.Logger), as the pychess bot
// does.
//
// Typical use:
//
//	srv, err := serve.New(serve.Options{Load: loader, RunsDir: "checkpoints"})
//	err = srv.ListenAndServe(ctx, "127.0.0.1:8080", false, os.Stdout) // prints the address
//
// docs/API.md documents the API. Its handlers are filed by what they
// serve: handlers_server.go the server's description (GET /api/info),
// handlers_game.go the session's game, handlers_position.go positions and
// their legal moves, handlers_pgn.go PGN texts, handlers_search.go
// searches and their reports (an "info" is always a search's report),
// handlers_runs.go training runs.
package serve
