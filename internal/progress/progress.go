// Package progress reports how far a counted task has got (games played,
// optimiser steps taken) in the way that suits where the report goes: on a
// terminal, a progressbar/v3 bar redrawn in place; anywhere else (a log
// file, a pipe, a CI console) plain lines, one every Interval and one at
// the end, with no carriage returns or escape codes.
//
//	bar := progress.New(os.Stderr, games, "iteration 3/50 self-play", "games")
//	for range games {
//		play()
//		bar.Add(1)
//	}
//	bar.Finish()
//
// A nil writer gives a nil *Bar, whose methods do nothing, so callers need
// no checks of their own.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Interval is the time between two plain progress lines.
const Interval = 10 * time.Second

// minRateTime is the least elapsed time over which a rate is shown: over a
// shorter one the first step's rate is mostly noise.
const minRateTime = time.Second

// Bar is the progress of one counted task. Its methods are safe for
// concurrent use.
type Bar struct {
	mu    sync.Mutex
	w     io.Writer
	bar   *progressbar.ProgressBar // nil: plain lines
	max   int
	desc  string
	unit  string
	done  int
	start time.Time
	last  time.Time // when the last plain line was printed
	now   func() time.Time
	ended bool
}

// New returns a bar for a task of max steps counted in unit, described by
// desc; nil when w is nil.
func New(w io.Writer, max int, desc, unit string) *Bar {
	return newBar(w, max, desc, unit, time.Now)
}

func newBar(w io.Writer, max int, desc, unit string, now func() time.Time) *Bar {
	if w == nil {
		return nil
	}
	b := &Bar{w: w, max: max, desc: desc, unit: unit, now: now}
	b.start = b.now()
	b.last = b.start
	if IsTerminal(w) {
		b.bar = progressbar.NewOptions(max,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(desc),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString(unit),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionSetWidth(30),
			progressbar.OptionClearOnFinish(),
		)
		// Drawing the empty bar starts its clock now: otherwise it starts
		// at the first Add and shows that step's rate over a few
		// microseconds.
		_ = b.bar.RenderBlank()
	}
	return b
}

// IsTerminal reports whether w is a terminal (a character device that
// answers terminal requests).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Add counts n more steps done.
func (b *Bar) Add(n int) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ended {
		return
	}
	b.done += n
	if b.bar != nil {
		_ = b.bar.Add(n) // a terminal that stopped taking output is not the task's failure
		return
	}
	if now := b.now(); now.Sub(b.last) >= Interval && b.done < b.max {
		b.last = now
		b.line(now, false)
	}
}

// Finish ends the bar: the terminal bar is cleared (the caller's summary
// takes its place); in plain mode a last line gives the count, the time
// taken and the rate. Further calls do nothing.
func (b *Bar) Finish() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ended {
		return
	}
	b.ended = true
	if b.bar != nil {
		_ = b.bar.Finish()
		return
	}
	b.line(b.now(), true)
}

// line prints one plain progress line (call with b.mu held).
func (b *Bar) line(now time.Time, final bool) {
	el := now.Sub(b.start)
	s := fmt.Sprintf("%s: %d/%d %s", b.desc, b.done, b.max, b.unit)
	if final {
		s += " in " + el.Round(time.Second).String()
	}
	if el >= minRateTime && b.done > 0 {
		rate := float64(b.done) / el.Seconds()
		s += " (" + formatRate(rate, b.unit)
		if !final && b.done < b.max {
			left := time.Duration(float64(b.max-b.done) / rate * float64(time.Second))
			s += ", about " + left.Round(time.Second).String() + " left"
		}
		s += ")"
	}
	fmt.Fprintln(b.w, s)
}

// formatRate writes a rate per second, or per minute or hour when it is
// slow.
func formatRate(perSecond float64, unit string) string {
	switch {
	case perSecond >= 10:
		return fmt.Sprintf("%.0f %s/s", perSecond, unit)
	case perSecond >= 1:
		return fmt.Sprintf("%.1f %s/s", perSecond, unit)
	case perSecond*60 >= 1:
		return fmt.Sprintf("%.1f %s/min", perSecond*60, unit)
	}
	return fmt.Sprintf("%.1f %s/h", perSecond*3600, unit)
}
