// Package reference holds the project's fixed references: a seeded random
// mover and a small alpha-beta searcher with a material evaluation, whose
// strength never changes, so that the arena and training's strength
// tracking can measure checkpoints against them over the whole life of
// the project; and the tactics tools built on the alpha-beta.
//
// Both players play by the env package's rules (move generator, terminal
// detection) and implement player.Player; Register adds their spec kinds
// to a player.Registry:
//
//	random[:seed=N]
//	ab[:depth=N][,q=on|off][,qdepth=N][,mobility=CP][,noise=CP][,shuffle=on|off][,seed=N]
//
// A MateFinder proves forced mates (full width, no quiescence, the
// shortest first). FindTactics walks a game for the mates one side missed
// or walked into, as Tactics that read and write as EPD lines (ParseTactic,
// Tactic.EPD), and Suite is the project's tactics suite (tactics.epd),
// made that way from the built-in network's equal-time games; MateFinder's
// Solves checks an engine's answer to one.
package reference
