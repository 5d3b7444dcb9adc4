package serve

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

// searchKind is what a search is for.
type searchKind string

const (
	// kindAnalyse searches a position and reports; nothing is played.
	kindAnalyse searchKind = "analyse"
	// kindPlay searches the session's game and plays the best move in it,
	// if the game has not changed meanwhile.
	kindPlay searchKind = "play"
	// kindReview evaluates every position of a line, one search each.
	kindReview searchKind = "review"
	// kindDraw answers a draw offered in the session's game: the engine
	// searches it and accepts when it rates the position level.
	kindDraw searchKind = "draw"
)

// The states of a search.
const (
	stateQueued  = "queued"
	stateRunning = "running"
	stateDone    = "done"    // finished within its limits
	stateStopped = "stopped" // stopped early, by the visitor or the server
	stateFailed  = "failed"
)

// search is one queued or running search and the events it has
// published, which its event streams replay.
type search struct {
	id      string
	owner   *session
	kind    searchKind
	root    *env.Position // kindReview: the line's set-up position
	line    []env.Move    // kindReview: the moves to evaluate after root
	lim     clock.Limits
	weights weightsChoice
	// version is the session game's version when a kindPlay search began;
	// clocked is set when that game is timed: the engine then moves by
	// its clock.
	version int
	clocked bool
	// offeredBy is the side that offers a kindDraw search's draw; the
	// engine plays the other.
	offeredBy env.Colour

	ctx    context.Context
	cancel context.CancelCauseFunc

	mu      sync.Mutex // guards everything below
	state   string
	events  []sseEvent
	seq     int
	changed chan struct{} // closed and replaced on every change
	last    *infoJSON     // the newest report
}

// sseEvent is one published event.
type sseEvent struct {
	seq  int
	name string
	data []byte
}

func newSearch(parent context.Context, owner *session, kind searchKind) *search {
	ctx, cancel := context.WithCancelCause(parent)
	return &search{id: newID(), owner: owner, kind: kind, ctx: ctx, cancel: cancel,
		state: stateQueued, changed: make(chan struct{})}
}

// Why a search was stopped, as its "done" event tells the visitor.
var (
	errStopVisitor  = errors.New("stopped by you")
	errStopReplaced = errors.New("stopped: a newer search took its place")
	errStopGame     = errors.New("stopped: the game changed (a new game, a take-back, a loaded one or its end)")
	errStopSession  = errors.New("stopped: the session ended")
	errStopRefused  = errors.New("not started: the request was refused")
)

// stop asks the search to stop, for the reason why (a queued search is
// then skipped).
func (sr *search) stop(why error) { sr.cancel(why) }

// publish adds an event. An "info" event replaces an "info" event that is
// still the newest, so that a slow reader sees the latest progress rather
// than every step of it.
func (sr *search) publish(name string, v any) { sr.emit(name, v, "") }

// setState changes the state, publishing a "state" event.
func (sr *search) setState(state string) {
	sr.emit("state", map[string]string{"state": state}, state)
}

// emit adds an event and, when state is not empty, changes the state with
// it, in one step: a reader that sees a search finished has its last
// event too.
func (sr *search) emit(name string, v any, state string) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(errorBody{Error: "encoding the event: " + err.Error()})
		name = "error"
	}
	sr.mu.Lock()
	defer sr.mu.Unlock()
	sr.seq++
	ev := sseEvent{seq: sr.seq, name: name, data: b}
	if n := len(sr.events); name == "info" && n > 0 && sr.events[n-1].name == "info" {
		sr.events[n-1] = ev
	} else {
		sr.events = append(sr.events, ev)
	}
	if state != "" {
		sr.state = state
	}
	close(sr.changed)
	sr.changed = make(chan struct{})
}

// setLast records the newest report.
func (sr *search) setLast(in *infoJSON) {
	sr.mu.Lock()
	sr.last = in
	sr.mu.Unlock()
}

// finished reports whether the search has ended.
func finished(state string) bool {
	return state == stateDone || state == stateStopped || state == stateFailed
}

// eventsAfter returns the events after sequence number seq, whether the
// search has ended, and a channel closed at the next change.
func (sr *search) eventsAfter(seq int) ([]sseEvent, bool, <-chan struct{}) {
	sr.mu.Lock()
	defer sr.mu.Unlock()
	var out []sseEvent
	for _, ev := range sr.events {
		if ev.seq > seq {
			out = append(out, ev)
		}
	}
	return out, finished(sr.state), sr.changed
}

// searchJSON is a search's summary.
type searchJSON struct {
	ID      string    `json:"id"`
	Kind    string    `json:"kind"`
	State   string    `json:"state"`
	Weights string    `json:"weights"`
	Queued  int       `json:"queued,omitempty"`
	Info    *infoJSON `json:"info,omitempty"`
}

func (sr *search) summary() searchJSON {
	sr.mu.Lock()
	defer sr.mu.Unlock()
	return searchJSON{ID: sr.id, Kind: string(sr.kind), State: sr.state, Weights: sr.weights.ID, Info: sr.last}
}
