// Package reference holds the project's fixed reference players: a seeded
// random mover and a small alpha-beta searcher with a material evaluation.
// Their strength never changes, so the arena and training's strength
// tracking can measure checkpoints against them over the whole life of
// the project.
//
// Both play by the env package's rules (move generator, terminal
// detection) and implement player.Player; Register adds their spec kinds
// to a player.Registry:
//
//	random[:seed=N]
//	ab[:depth=N][,q=on|off][,qdepth=N][,mobility=CP][,noise=CP][,shuffle=on|off][,seed=N]
package reference
