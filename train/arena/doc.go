// Package arena plays matches and tournaments between players: fixed
// reference players (package reference), external UCI engines and, once
// registered (engine.Register in mcts/engine), network checkpoints. It schedules game
// pairs (each opening played with both colours), runs games in parallel
// with one player instance per concurrent game, enforces time controls
// and the ply cap, and reports W/D/L, Elo differences with 95% intervals,
// likelihood of superiority, a maximum-likelihood rating list and an
// optional SPRT; games are saved as PGN.
//
// The packages split as follows so that nothing imports in a circle:
// package player holds the Player interface, specs and the Registry
// (moves are played under clock.Limits); package reference the reference
// players; this package the UCI engine player, openings, statistics and
// the tournament, and NewRegistry, which registers the built-in kinds
// (random, ab, uci). A match's clock is a clock.Control (Config's
// TimeControl, read by clock.Seconds: bare numbers are seconds, as in PGN)
// kept by a clock.Game, and its PGN tag is Control.PGN; its limits per
// move are Config's Nodes and MoveTime.
//
// The tournament's files: config.go (Config), format.go (pairing
// schemes), results.go (how games end and the result types), run.go (the
// scheduler: players, lanes, the record), play.go (one game), pgn.go (a
// game's PGN), tabulate.go (a result's tables), limits.go (per-player
// limit options).
//
// A match:
//
//	reg, _ := arena.NewRegistry()
//	res, err := arena.Run(ctx, arena.Config{
//		Players:  []string{"ab:depth=2", "random"},
//		Registry: reg,
//		Games:    20,
//		PlyCap:   400,
//	})
//	res.WriteReport(os.Stdout)
package arena
