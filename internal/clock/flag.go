package clock

import (
	"flag"
	"time"
)

// TimeFlag defines a flag of a time on fs, read as ParseTime reads every
// time here: a Go duration ("500ms", "1m30s") or a bare number of seconds
// ("0.5"), never negative, so that "--movetime 0.5" means what a player's
// "movetime=0.5" and XBoard's "st 0.5" mean. The usage should name the
// value's kind in backquotes for the help ("`time` per move").
func TimeFlag(fs *flag.FlagSet, name string, value time.Duration, usage string) *time.Duration {
	d := value
	fs.Var((*timeValue)(&d), name, usage)
	return &d
}

// timeValue is a time flag's value.
type timeValue time.Duration

// Set reads s with ParseTime, bare numbers in seconds.
func (t *timeValue) Set(s string) error {
	d, err := ParseTime("time", s, time.Second)
	if err != nil {
		return err
	}
	*t = timeValue(d)
	return nil
}

// String writes the time as a Go duration, as the help shows a default.
func (t *timeValue) String() string { return time.Duration(*t).String() }
