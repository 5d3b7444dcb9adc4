package arena

import (
	"io"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/internal/player"
)

// Config describes a match or tournament.
type Config struct {
	// Players are player specs (see package player); they are also the
	// players' names.
	Players []string
	// Registry makes players from specs; nil means NewRegistry().
	Registry *player.Registry
	Format   Format
	// Games is the number of games per pairing, rounded up to even: each
	// opening is played twice, once with each player as White.
	Games int
	// Openings are played in order, cycling; nil means the built-in set.
	Openings []Opening
	// Concurrency is the number of games played at once (≤ 0: 1). Each
	// concurrent game has its own player instances.
	Concurrency int
	// TimeControl is each game's clock: both players start with Base and
	// gain Inc after each of their moves (moves per period are refused:
	// the clock is for the whole game), and a player whose clock runs out
	// loses on time. The zero Control is no clock.
	TimeControl clock.Control
	// Nodes and MoveTime bound each move (0: no bound), with a clock or
	// without. With neither and no clock nothing limits the players
	// (reference players then search to their depth, UCI engines get
	// DefaultEngineMoveTime).
	Nodes    int64
	MoveTime time.Duration
	// Overhead is passed to the players as it is (clock.Limits.Overhead).
	Overhead time.Duration
	// PlyCap ends a game still going after this many plies (counted from
	// the opening's set-up position) as a draw recorded as adjudication;
	// 0 means no cap.
	PlyCap  int
	Variant env.Variant
	// Seed seeds the players that take seeds (each game gets its own seed
	// derived from it and the game's number).
	Seed uint64
	// TimeMargin is the grace allowed past a move time or a clock before
	// a player loses on time.
	TimeMargin time.Duration
	// MoveTimeout bounds one move when neither a move time nor a clock
	// does (0: no bound); a player past it loses on time.
	MoveTimeout time.Duration
	// StartTimeout bounds a player's start-up (a UCI engine's uciok);
	// 0 means DefaultStartTimeout.
	StartTimeout time.Duration
	// Draw and Resign, when set, adjudicate games by the players' scores
	// (players that implement player.Scorer; a move without a score
	// restarts the count), recorded as adjudication. Off by default.
	Draw   *DrawRule
	Resign *ResignRule
	// SPRT, when set, tests the first player against the second (exactly
	// two players) and stops the match once it decides.
	SPRT *SPRT
	// Anchor names the player rated 0 in the rating list; "" means the
	// first.
	Anchor string
	// Event and Site fill the PGN tags; "" gives "AliceZero arena" and "?".
	Event, Site string
	// Progress receives the progress (package internal/progress: a bar on
	// a terminal, plain lines elsewhere); nil shows none.
	Progress io.Writer
	// Log receives failures (illegal moves, crashes) and engines' stderr;
	// nil discards them.
	Log io.Writer
	// OnGame, when set, is called after each finished game, one call at a
	// time.
	OnGame func(GameRecord)
}
