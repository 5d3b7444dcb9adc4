package serve

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/alicezero/alicezero/internal/clock"
	"github.com/alicezero/alicezero/mcts/engine"
)

// endJSON says why a search ended: Reason for a program, Text for a
// person ("the 400 visits asked for were reached").
type endJSON struct {
	Reason string `json:"reason"`
	Text   string `json:"text"`
}

// The reasons a search ends.
const (
	endVisits   = "visits"   // its visits were reached
	endTime     = "time"     // the time asked for was reached
	endClock    = "clock"    // the time its clock gave the move was reached
	endMate     = "mate"     // a forced mate was found
	endProven   = "proven"   // the result was proven otherwise (a draw)
	endStopped  = "stopped"  // stopped: by the visitor, a newer search, the game's change
	endEarly    = "early"    // the engine ended it before its limits
	endComplete = "complete" // a review's every position evaluated
	endError    = "error"    // it failed
)

// stoppedEnd says why sr, cancelled, was stopped.
func (s *Server) stoppedEnd(sr *search) endJSON {
	if s.ctx.Err() != nil {
		return endJSON{Reason: endStopped, Text: "the server is shutting down"}
	}
	cause := context.Cause(sr.ctx)
	for _, why := range []error{errStopVisitor, errStopReplaced, errStopGame, errStopSession, errStopRefused} {
		if errors.Is(cause, why) {
			return endJSON{Reason: endStopped, Text: why.Error()}
		}
	}
	return endJSON{Reason: endStopped, Text: "stopped"}
}

// timeSlack is how far short of its time budget a search may end and
// still count as having spent it: the engine stops at its next check.
func timeSlack(budget time.Duration) time.Duration { return max(budget/20, 30*time.Millisecond) }

// searchEnd says why sr's search, which returned in, ended. ctx is the
// context it ran under (for a timed game, with the backstop before the
// engine's flag falls); lim its limits, its nodes as eng counts them (for
// the alpha-beta, as many as take as long as the visits sr asked for).
func (s *Server) searchEnd(sr *search, ctx context.Context, eng engine.Interface, lim clock.Limits, in searched) endJSON {
	if sr.ctx.Err() != nil {
		return s.stoppedEnd(sr)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return endJSON{Reason: endClock, Text: "the engine's clock was about to run out"}
	}
	side := sr.root.SideToMove()
	switch {
	case in.MateIn != 0:
		winner := side
		if in.MateIn < 0 {
			winner = side.Other()
		}
		n := max(in.MateIn, -in.MateIn)
		return endJSON{Reason: endMate, Text: fmt.Sprintf("a forced mate was found: %s mates in %d", colourName(winner), n)}
	case in.Proven:
		return endJSON{Reason: endProven, Text: "the result is proven: no more search can change it"}
	case lim.Nodes > 0 && int64(in.Nodes) >= lim.Nodes:
		return endJSON{Reason: endVisits, Text: fmt.Sprintf("the %s visits asked for were reached", thousands(sr.lim.Nodes))}
	}
	// The time the engine gave itself, as it reckons it (engine.Go).
	if lim.Overhead == 0 {
		lim.Overhead = eng.Options().MoveOverhead
	}
	budget := lim.Budget(side)
	// The clock's share of the time, or the time asked for (less the
	// overhead the engine keeps back).
	byClock := (lim.WTime > 0 || lim.BTime > 0) && (lim.MoveTime == 0 || budget < lim.MoveTime-lim.Overhead)
	if budget > 0 && in.Elapsed >= budget-timeSlack(budget) {
		if byClock {
			return endJSON{Reason: endClock, Text: fmt.Sprintf("the %s its clock gave this move were spent", seconds(budget))}
		}
		return endJSON{Reason: endTime, Text: fmt.Sprintf("the %s asked for were reached", seconds(lim.MoveTime))}
	}
	var asked []string
	if sr.lim.Nodes > 0 {
		asked = append(asked, thousands(sr.lim.Nodes)+" visits")
	}
	switch {
	case budget > 0 && byClock:
		asked = append(asked, seconds(budget)+" by its clock")
	case budget > 0:
		asked = append(asked, seconds(lim.MoveTime))
	}
	limit := "no limit"
	switch len(asked) {
	case 1:
		limit = asked[0]
	case 2:
		limit = asked[0] + " or " + asked[1]
	}
	unit := engine.NodeName(eng.SearchKind())
	return endJSON{Reason: endEarly, Text: fmt.Sprintf("the engine ended it before its limit (%s asked for), after %s %s in %s",
		limit, thousands(int64(in.Nodes)), unit, seconds(in.Elapsed))}
}

// seconds writes a duration as the page does: "20 s", "1.3 s".
func seconds(d time.Duration) string {
	s := d.Seconds()
	if s == float64(int64(s)) {
		return fmt.Sprintf("%d s", int64(s))
	}
	return fmt.Sprintf("%.1f s", s)
}

// thousands writes n with commas between its thousands: 17,152.
func thousands(n int64) string {
	if n < 0 {
		return "-" + thousands(-n)
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
