package clock

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Control is a game's time control: each side starts with Base on its
// clock and gains Inc after each of its moves (Fischer's clock). Moves,
// when positive, makes it a classical control of Moves moves per period,
// after which a side gains Base again (XBoard's "level 40 5 0"). The zero
// Control is no clock.
type Control struct {
	Base, Inc time.Duration
	Moves     int
}

// IsZero reports whether c is no clock at all.
func (c Control) IsZero() bool { return c == Control{} }

// MovesToGo is the moves to the end of the period for a side that has
// played played moves (0 without periods).
func (c Control) MovesToGo(played int) int {
	if c.Moves <= 0 {
		return 0
	}
	return c.Moves - played%c.Moves
}

// String writes c in explicit units, as every Convention reads it back:
// "3m+2s", "40/5m+0s", or "none".
func (c Control) String() string {
	if c.IsZero() {
		return "none"
	}
	s := short(c.Base) + "+" + short(c.Inc)
	if c.Moves > 0 {
		s = strconv.Itoa(c.Moves) + "/" + s
	}
	return s
}

// PGN writes c as PGN's TimeControl tag: seconds, then the increment in
// seconds ("180+2"), MOVES/SECONDS for a classical control ("40/300"), or
// "-" for none. A classical control with an increment, which PGN cannot
// express, is written as cutechess writes it ("40/300+2").
func (c Control) PGN() string {
	if c.IsZero() {
		return "-"
	}
	sec := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	if c.Moves > 0 {
		s := strconv.Itoa(c.Moves) + "/" + sec(c.Base)
		if c.Inc > 0 {
			s += "+" + sec(c.Inc)
		}
		return s
	}
	return sec(c.Base) + "+" + sec(c.Inc)
}

// short writes d as a Go duration without its trailing zero units
// ("3m", "1m30s", "500ms", "0s").
func short(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// A Convention is how a front end reads a time control written with bare
// numbers, the unit its host uses; a number with a unit ("3m", "90s",
// "1m30s", "500ms": Go durations) means the same in every convention.
// The grammar is [MOVES/]BASE[+INC], or "none" or "-" for no clock.
type Convention struct {
	// Name says how bare numbers are read, for error messages.
	Name string
	// Base and Inc are the units of a bare base and increment.
	Base, Inc time.Duration
	// NeedInc refuses a control without "+INC", where the host always
	// writes one and a lone number would be ambiguous.
	NeedInc bool
	// Example is a time control written in the convention.
	Example string
}

var (
	// Seconds reads bare numbers as seconds, as PGN's TimeControl tag
	// writes them ("180+2" is 3 minutes plus 2 seconds). The arena's --tc
	// and per-player tc= read it.
	Seconds = Convention{Name: "seconds+seconds", Base: time.Second, Inc: time.Second, Example: "180+2"}
	// Lobby reads bare numbers as minutes of base and seconds of
	// increment, as the lobbies of pychess.org and lichess write their
	// seeks ("3+2" is 3 minutes plus 2 seconds), and always wants the
	// increment. The pychess bot's --min-tc and --max-tc and the web
	// server's time_control read it.
	Lobby = Convention{Name: "minutes+seconds", Base: time.Minute, Inc: time.Second, NeedInc: true, Example: "3+2"}
)

// MaxTime bounds every time read, far beyond any game and far below a
// Duration's overflow.
const MaxTime = 1e6 * time.Minute

// Parse reads a time control in the convention. An error names the part
// that is wrong and what was wanted.
func (cv Convention) Parse(s string) (Control, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "none", "-":
		return Control{}, nil
	}
	fail := func(why string, args ...any) (Control, error) {
		return Control{}, fmt.Errorf("time control %q: %s (want [MOVES/]BASE+INC, e.g. %s in %s, or 3m+2s)", s, fmt.Sprintf(why, args...), cv.Example, cv.Name)
	}
	if s == "" {
		return fail("empty")
	}
	var c Control
	rest := s
	if moves, after, ok := strings.Cut(s, "/"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(moves))
		if err != nil || n <= 0 || strings.ContainsAny(moves, "+-") {
			return fail("the moves per period %q are not a whole number above 0", moves)
		}
		c.Moves, rest = n, after
	}
	base, inc, hasInc := strings.Cut(rest, "+")
	if !hasInc && cv.NeedInc {
		return fail("no increment")
	}
	var err error
	if c.Base, err = ParseTime("base", base, cv.Base); err != nil {
		return fail("%v", err)
	}
	if hasInc {
		if strings.TrimSpace(inc) == "" {
			return fail("no increment after the +")
		}
		if c.Inc, err = ParseTime("increment", inc, cv.Inc); err != nil {
			return fail("%v", err)
		}
	}
	return c, nil
}

// Format writes c with bare numbers in the convention's units ("3+2" in
// Lobby, "180+2" in Seconds; "40/…" for a classical control), or "none".
func (cv Convention) Format(c Control) string {
	if c.IsZero() {
		return "none"
	}
	in := func(d, unit time.Duration) string {
		return strconv.FormatFloat(float64(d)/float64(unit), 'f', -1, 64)
	}
	s := in(c.Base, cv.Base) + "+" + in(c.Inc, cv.Inc)
	if c.Moves > 0 {
		s = strconv.Itoa(c.Moves) + "/" + s
	}
	return s
}

// ParseLevel reads XBoard's "level MPS BASE INC": the moves per period (0:
// the whole game), the base in minutes or MINUTES:SECONDS, the increment
// in seconds.
func ParseLevel(mps, base, inc string) (Control, error) {
	var c Control
	n, err := strconv.Atoi(mps)
	if err != nil || n < 0 {
		return c, fmt.Errorf("level: the moves per period %q are not a whole number ≥ 0", mps)
	}
	c.Moves = n
	if m, sec, ok := strings.Cut(base, ":"); ok {
		mi, err1 := strconv.Atoi(m)
		se, err2 := strconv.Atoi(sec)
		if err1 != nil || err2 != nil || mi < 0 || se < 0 || mi > int(MaxTime/time.Minute) || se > int(MaxTime/time.Second) {
			return c, fmt.Errorf("level: the base %q is not MINUTES:SECONDS", base)
		}
		c.Base = time.Duration(mi)*time.Minute + time.Duration(se)*time.Second
	} else if c.Base, err = ParseTime("base", base, time.Minute); err != nil {
		return c, fmt.Errorf("level: %w (minutes)", err)
	}
	if c.Inc, err = ParseTime("increment", inc, time.Second); err != nil {
		return c, fmt.Errorf("level: %w (seconds)", err)
	}
	return c, nil
}

// unitSuffix is unit's suffix in a Go duration.
func unitSuffix(unit time.Duration) (string, bool) {
	switch unit {
	case time.Nanosecond:
		return "ns", true
	case time.Microsecond:
		return "us", true
	case time.Millisecond:
		return "ms", true
	case time.Second:
		return "s", true
	case time.Minute:
		return "m", true
	case time.Hour:
		return "h", true
	}
	return "", false
}

// number returns the length of the decimal number s starts with (digits
// with at most one point, at least one digit), 0 if none.
func number(s string) int {
	n, digits, point := 0, 0, false
	for ; n < len(s); n++ {
		switch c := s[n]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point:
			point = true
		default:
			if digits == 0 {
				return 0
			}
			return n
		}
	}
	if digits == 0 {
		return 0
	}
	return n
}

// isBare reports whether s is a plain decimal number ("2", "0.5", ".5").
func isBare(s string) bool { return s != "" && number(s) == len(s) }

// isDuration reports whether s is written as a Go duration: numbers each
// with a unit ("1m30s"), however large.
func isDuration(s string) bool {
	if s == "" {
		return false
	}
	for s != "" {
		n := number(s)
		if n == 0 {
			return false
		}
		s = s[n:]
		u := len(s) - len(strings.TrimLeft(s, "nuµμmsh"))
		switch s[:u] {
		case "ns", "us", "µs", "μs", "ms", "s", "m", "h":
		default:
			return false
		}
		s = s[u:]
	}
	return true
}

// ParseTime reads one time of at least zero: a Go duration ("500ms",
// "1m30s") or a bare decimal number of units ("0.5" of seconds; no signs,
// exponents or infinities). what names it in errors.
func ParseTime(what, s string, unit time.Duration) (time.Duration, error) {
	s = strings.TrimSpace(s)
	tooLong := fmt.Errorf("%s %q is too long (at most %v)", what, s, MaxTime)
	switch {
	case s == "":
		return 0, fmt.Errorf("no %s", what)
	case strings.HasPrefix(s, "-"):
		return 0, fmt.Errorf("%s %q is negative", what, s)
	case isBare(s):
		suffix, ok := unitSuffix(unit)
		if !ok {
			return 0, errors.New("clock: bare numbers need a unit of ns, us, ms, s, m or h")
		}
		// Reading "2.5" as the duration "2.5m" is exact, and catches an
		// overflow.
		d, err := time.ParseDuration(s + suffix)
		if err != nil || d > MaxTime {
			return 0, tooLong
		}
		return d, nil
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil && isDuration(s):
		return 0, tooLong
	case err != nil:
		return 0, fmt.Errorf("%s %q is neither a number nor a duration such as 2s or 1m30s", what, s)
	case d > MaxTime:
		return 0, tooLong
	}
	return d, nil
}
