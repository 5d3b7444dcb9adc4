// Package engine is the game-playing session behind every way of playing
// AliceZero — the UCI and XBoard protocols, the terminal game, the web
// server, the pychess bot, the arena's ckpt players and training's
// strength matches — so that they all play with the same network loading,
// search settings and time management.
//
// Interface is the one engine interface every front end drives, as lc0's
// UCI loop drives its controller: options (Options, SetOptions, Ready,
// Network, SearchKind), NewGame, Go with the game (an env.Game: the
// set-up position and the moves since, which env.GameOf makes from a
// position), clock.Limits and an mcts.Progress callback, stopped through
// its context, and Close. The front ends keep their own position; *Engine
// implements the interface; the front ends' tests script a fake of it
// (cmd/alicezero/internal/enginetest).
//
// An Engine holds the network, the searcher and its tree, kept from move
// to move: a game that continues the one searched last reuses the tree's
// subtree (and the alpha-beta its table), and its moves count for
// repetitions. Options.Search picks what Go
// runs: by default (SearchAuto) the classical alpha-beta of package
// alphabeta, the stronger player at every move time measured, whose table
// is Hash MB, whose MultiPV lines are exact and whose time on a clock
// stretches while the best move changes (classic.go); where a network is
// named (Weights "builtin", a checkpoint or run folder, weights in
// memory), the tree search guided by it, so that a network plays as
// itself. SearchMCTS and SearchAlphaBeta force either (the tree with no
// weights named plays the built-in network).
//
//	e, err := engine.New(engine.Options{Weights: "checkpoints/run1"})
//	defer e.Close()
//	pos := env.NewPosition(env.Alice) // the front end's game
//	_, err = pos.PlayUCI([]string{"e2e4", "d7d5"})
//	res, err := e.Go(ctx, env.GameOf(pos), clock.Limits{WTime: time.Minute, BTime: time.Minute},
//		mcts.Progress{Report: show, Interval: time.Second})
//	fmt.Println(res.BestMove)
//
// Go reports progress through mcts.Progress: the value and WDL, the
// principal variation, and every root move with its visits, WDL and line,
// which is what a UCI info line, an XBoard thinking line or a live analysis
// board shows. Limits are clock.Limits (package internal/clock): a node
// budget, a move time, or a game's clocks, turned into a time budget by
// the project's one time manager.
//
// LoadNetwork is the one way a name becomes a network: a checkpoint file,
// a training run's folder (its newest checkpoint), "builtin" for the
// built-in network, "none" for the plain search, or "" for the default
// network of the tree search, decided in one place. Its half for files,
// LoadCheckpoint, serves those that need the whole checkpoint (export
// writes its step and metadata), so that they read names the same way.
// Player turns an Engine into an arena player, and Register adds it to a
// player registry as "ckpt:PATH" (a network, through the tree) and "net"
// (the default engine).
//
// An Engine is not safe for concurrent use: a protocol runs Go on one
// goroutine and leaves the engine alone until it returns, stopping it
// through the context.
package engine
