// Package player defines what every game-playing program of the project
// looks like to the code that runs games: the Player interface (a move is
// played under clock.Limits, from internal/clock), and the player specs of
// the command line ("ab:depth=2", "uci:/path/engine,Threads=2") with the
// Registry that turns a spec into a Player.
//
// The interface lives in its own small package so that the players
// (mcts/reference, the network player, external engines) and the code that
// runs them (train/arena, training's strength tracking) can all import it
// without importing each other.
//
// Spec syntax:
//
//	KIND[:ARG][,NAME=VALUE]...
//	KIND:NAME=VALUE[,NAME=VALUE]...
//
// The text after the colon is split at commas (a backslash escapes the next
// character, so "\," is a literal comma). The first element is the spec's
// argument (an engine command line, a checkpoint path) unless it reads
// NAME=VALUE with NAME a plain identifier (letters, digits, '_'); every
// other element must be NAME=VALUE (NAME may then contain spaces, as UCI
// option names do). Option names are matched case-insensitively. A
// player kind reads its options with Spec's accessors (Int, IntAtLeast,
// Uint64, Float, Bool), after CheckOptions refused the ones it does not
// know, so that every kind reports a bad option the same way.
package player
