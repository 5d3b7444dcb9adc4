package arena

import (
	"time"

	"github.com/alicezero/alicezero/env"
)

// Termination says how a game ended; it is written as the PGN tag.
type Termination string

const (
	TermCheckmate   Termination = "checkmate"
	TermStalemate   Termination = "stalemate"
	TermThreefold   Termination = "threefold repetition"
	TermFiftyMove   Termination = "fifty-move rule"
	TermDead        Termination = "dead position"
	TermAdjudicated Termination = "adjudication" // ply cap reached (a draw), or the scores' verdict
	TermTime        Termination = "time forfeit"
	TermIllegal     Termination = "illegal move"
	TermFailure     Termination = "engine failure" // crashed, hung up or failed to start
)

func terminationOf(st env.Status) Termination {
	switch st {
	case env.Checkmate:
		return TermCheckmate
	case env.Stalemate:
		return TermStalemate
	case env.Threefold:
		return TermThreefold
	case env.FiftyMove:
		return TermFiftyMove
	case env.DeadPosition:
		return TermDead
	case env.Adjudicated:
		return TermAdjudicated
	}
	return Termination(st.String())
}

// GameRecord is one finished game.
type GameRecord struct {
	// Number is the game's place in the schedule, from 1.
	Number int
	// Pairing indexes Result.Pairings; White and Black index the players.
	Pairing      int
	White, Black int
	Opening      Opening
	// Game holds the PGN tags and all moves, the opening's included.
	Game        *env.Game
	Result      env.Result
	Termination Termination
	// Detail explains a forfeit (the player's error) or a score
	// adjudication; "" otherwise.
	Detail string
	// Overrun is, for a loss on time, how far the move went past the
	// loser's move time or clock (the margin included in it).
	Overrun time.Duration
}

// PairingResult is the record of one pairing from player A's side.
type PairingResult struct {
	A, B                 int
	NameA, NameB         string
	Wins, Draws, Losses  int
	Games                int
	Score                float64 // A's points per game
	Elo                  EloEstimate
	LOS                  float64 // likelihood that A is stronger
	Adjudicated, Forfeit int     // games ended by the ply cap, by time/illegal move/failure
}

// PlayerRating is one line of the rating list.
type PlayerRating struct {
	Name      string
	Elo       float64 // maximum-likelihood rating, anchor = 0
	Low, High float64 // 95% interval
	Games     int
	Points    float64
	Score     float64 // points per game
}

// SPRTResult is the state of the match's SPRT at its end.
type SPRTResult struct {
	SPRT
	LLR, Lower, Upper float64
	Decision          SPRTDecision
}

// Result is the outcome of Run.
type Result struct {
	Players []string
	Format  Format
	// Planned is the number of games scheduled; fewer were played when an
	// SPRT decided early or the match was interrupted.
	Planned     int
	Games       []GameRecord // finished games, in schedule order
	Pairings    []PairingResult
	Ratings     []PlayerRating // in player order
	Anchor      int
	SPRT        *SPRTResult
	Interrupted bool
}
