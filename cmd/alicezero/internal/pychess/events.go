package pychess

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// Event types on the event stream (testdata/README.md lists where each
// comes from).
const (
	EventChallenge  = "challenge"
	EventGameStart  = "gameStart"
	EventPing       = "ping"
	EventTerminated = "terminated"
)

// Event types on a game stream.
const (
	GameEventFull  = "gameFull"
	GameEventState = "gameState"
	GameEventEnd   = "gameEnd"
	GameEventChat  = "chatLine"
)

// Event is one line of the event stream. Challenge is set for a challenge,
// GameID for a gameStart.
type Event struct {
	Type      string
	Challenge *Challenge
	GameID    string
}

// Challenge is a challenge to the bot, as seek.challenge writes it.
type Challenge struct {
	ID         string `json:"id"`
	Challenger struct {
		Name   string `json:"name"`
		Rating int    `json:"rating"`
		Title  string `json:"title"`
	} `json:"challenger"`
	Variant struct {
		Key string `json:"key"`
	} `json:"variant"`
	Rated       bool        `json:"rated"`
	TimeControl TimeControl `json:"timeControl"`
	// Color is the colour the challenger asked for, from the challenger's
	// side: "white", "black" or "random".
	Color    string `json:"color"`
	Speed    string `json:"speed"`
	Chess960 bool   `json:"chess960"`
}

// TimeControl is a challenge's clock as the server sends it: Type "clock"
// with Limit and Increment in seconds, or "correspondence" with
// DaysPerTurn. The bot reads it as a clock.Control (Control).
type TimeControl struct {
	Type        string  `json:"type"`
	Limit       float64 `json:"limit"`
	Increment   float64 `json:"increment"`
	DaysPerTurn float64 `json:"daysPerTurn"`
}

// Base returns the clock's starting time.
func (tc TimeControl) Base() time.Duration { return seconds(tc.Limit) }

// Inc returns the clock's increment per move.
func (tc TimeControl) Inc() time.Duration { return seconds(tc.Increment) }

// Control is the clock as the one time-control type.
func (tc TimeControl) Control() clock.Control { return clock.Control{Base: tc.Base(), Inc: tc.Inc()} }

// String writes the time control as PGN's TimeControl tag ("300+3"), as
// pychess does, or "correspondence".
func (tc TimeControl) String() string {
	if tc.Type != "clock" {
		return tc.Type
	}
	return tc.Control().PGN()
}

// GameEvent is one line of a game stream: Full for gameFull, State for
// gameState, Chat for chatLine; gameEnd carries nothing.
type GameEvent struct {
	Type  string
	Full  *GameFull
	State *GameState
	Chat  *ChatLine
}

// GameFull is the first line of a game stream: the players, the start
// position and the state so far.
type GameFull struct {
	ID      string `json:"id"`
	Variant struct {
		Name string `json:"name"`
	} `json:"variant"`
	White struct {
		Name string `json:"name"`
	} `json:"white"`
	Black struct {
		Name string `json:"name"`
	} `json:"black"`
	// InitialFen is the start position in the rule book's notation; ""
	// (pychess) or "startpos" (lichess) for the variant's normal start.
	InitialFen string `json:"initialFen"`
	// CreatedAt is the game's creation time in Unix seconds.
	CreatedAt int64     `json:"createdAt"`
	State     GameState `json:"state"`
}

// StartFEN returns the game's start position as a FEN: InitialFen, or
// the normal start when it is empty.
func (g *GameFull) StartFEN() string {
	if f := strings.TrimSpace(g.InitialFen); f != "" && f != "startpos" {
		return f
	}
	return env.StartFEN
}

// GameState is the state of a game after a move.
type GameState struct {
	// Moves are all moves so far in UCI, space-separated.
	Moves string `json:"moves"`
	// WTime and BTime are the clocks in milliseconds; WInc and BInc the
	// increments in seconds (pychess's units, not lichess's).
	WTime float64 `json:"wtime"`
	BTime float64 `json:"btime"`
	WInc  float64 `json:"winc"`
	BInc  float64 `json:"binc"`
	// WDraw and BDraw report a standing draw offer by White or Black.
	// pychess always sends false (testdata/README.md).
	WDraw  bool   `json:"wdraw"`
	BDraw  bool   `json:"bdraw"`
	Status string `json:"status"`
}

// MoveList returns the moves as a slice.
func (s *GameState) MoveList() []string { return strings.Fields(s.Moves) }

// Clock returns side c's remaining time and increment.
func (s *GameState) Clock(c env.Colour) (left, inc time.Duration) {
	if c == env.White {
		return millis(s.WTime), seconds(s.WInc)
	}
	return millis(s.BTime), seconds(s.BInc)
}

// DrawOffered reports whether side c has a standing draw offer.
func (s *GameState) DrawOffered(c env.Colour) bool {
	if c == env.White {
		return s.WDraw
	}
	return s.BDraw
}

// ChatLine is a chat message in a game.
type ChatLine struct {
	Username string `json:"username"`
	Room     string `json:"room"`
	Text     string `json:"text"`
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
func millis(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }

// errMalformed marks a line that is JSON of the wrong shape.
var errMalformed = errors.New("malformed event")

// envelope holds the fields of every event type; each type reads its own.
type envelope struct {
	Type      string     `json:"type"`
	Challenge *Challenge `json:"challenge"`
	Game      *struct {
		ID string `json:"id"`
	} `json:"game"`
}

// parseEvent decodes one event-stream line. Unknown types are returned
// as they are (the caller ignores them); a known type without its
// required fields is an error.
func parseEvent(line []byte) (Event, error) {
	var e envelope
	if err := json.Unmarshal(line, &e); err != nil {
		return Event{}, err
	}
	switch e.Type {
	case "":
		return Event{}, fmt.Errorf("%w: no type", errMalformed)
	case EventChallenge:
		if e.Challenge == nil || e.Challenge.ID == "" {
			return Event{}, fmt.Errorf("%w: challenge without an id", errMalformed)
		}
		return Event{Type: e.Type, Challenge: e.Challenge}, nil
	case EventGameStart:
		if e.Game == nil || e.Game.ID == "" {
			return Event{}, fmt.Errorf("%w: gameStart without a game id", errMalformed)
		}
		return Event{Type: e.Type, GameID: e.Game.ID}, nil
	}
	return Event{Type: e.Type}, nil
}

// parseGameEvent decodes one game-stream line, as parseEvent does. A
// gameFull needs its state and a gameState its moves: without them the
// bot would take the game for one at its start.
func parseGameEvent(line []byte) (GameEvent, error) {
	var head struct {
		Type  string          `json:"type"`
		Moves *string         `json:"moves"`
		State json.RawMessage `json:"state"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return GameEvent{}, err
	}
	ev := GameEvent{Type: head.Type}
	var err error
	switch head.Type {
	case "":
		return GameEvent{}, fmt.Errorf("%w: no type", errMalformed)
	case GameEventFull:
		ev.Full = new(GameFull)
		if err = json.Unmarshal(line, ev.Full); err == nil {
			var st struct {
				Moves *string `json:"moves"`
			}
			if len(head.State) == 0 || json.Unmarshal(head.State, &st) != nil || st.Moves == nil {
				err = fmt.Errorf("%w: gameFull without a state", errMalformed)
			}
		}
	case GameEventState:
		ev.State = new(GameState)
		if err = json.Unmarshal(line, ev.State); err == nil && head.Moves == nil {
			err = fmt.Errorf("%w: gameState without moves", errMalformed)
		}
	case GameEventChat:
		ev.Chat = new(ChatLine)
		err = json.Unmarshal(line, ev.Chat)
	}
	if err != nil {
		return GameEvent{}, err
	}
	return ev, nil
}
