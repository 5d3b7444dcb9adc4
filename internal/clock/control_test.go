package clock

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	const (
		s  = time.Second
		m  = time.Minute
		ms = time.Millisecond
	)
	tests := []struct {
		cv   Convention
		in   string
		want Control
	}{
		// Explicit units mean the same in every convention.
		{Seconds, "3m+2s", Control{Base: 3 * m, Inc: 2 * s}},
		{Lobby, "3m+2s", Control{Base: 3 * m, Inc: 2 * s}},
		{Seconds, "90s+0.5s", Control{Base: 90 * s, Inc: 500 * ms}},
		{Lobby, "1m30s+2s", Control{Base: 90 * s, Inc: 2 * s}},
		{Seconds, "1m30s+2s", Control{Base: 90 * s, Inc: 2 * s}},
		{Seconds, "500ms+10ms", Control{Base: 500 * ms, Inc: 10 * ms}},
		// The arena's --tc and tc=: bare numbers are seconds, as in PGN.
		{Seconds, "180+2", Control{Base: 3 * m, Inc: 2 * s}},
		{Seconds, "10+0.1", Control{Base: 10 * s, Inc: 100 * ms}},
		{Seconds, "10s+0.1s", Control{Base: 10 * s, Inc: 100 * ms}},
		{Seconds, "60", Control{Base: m}},
		{Seconds, "1m", Control{Base: m}},
		{Seconds, "3m+2", Control{Base: 3 * m, Inc: 2 * s}},
		{Seconds, "40/300", Control{Base: 5 * m, Moves: 40}},
		{Seconds, "40/5m+2s", Control{Base: 5 * m, Inc: 2 * s, Moves: 40}},
		{Seconds, "0", Control{}},
		{Seconds, "none", Control{}},
		{Seconds, "-", Control{}},
		// pychess --min-tc/--max-tc and the web API's time_control: the
		// lobbies' minutes+seconds.
		{Lobby, "3+2", Control{Base: 3 * m, Inc: 2 * s}},
		{Lobby, " 15 + 10 ", Control{Base: 15 * m, Inc: 10 * s}},
		{Lobby, "0.5+0", Control{Base: 30 * s}},
		{Lobby, "2+0.5", Control{Base: 2 * m, Inc: 500 * ms}},
		{Lobby, "0.05+1", Control{Base: 3 * s, Inc: s}},
		{Lobby, "180+180", Control{Base: 3 * time.Hour, Inc: 3 * m}},
		{Lobby, "0+1", Control{Inc: s}},
		{Lobby, "None", Control{}},
		{Lobby, "5.+3", Control{Base: 5 * m, Inc: 3 * s}},
		{Lobby, ".5+3", Control{Base: 30 * s, Inc: 3 * s}},
	}
	for _, tt := range tests {
		got, err := tt.cv.Parse(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("%s %q: %+v, %v; want %+v", tt.cv.Name, tt.in, got, err, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		cv       Convention
		in, frag string
	}{
		{Seconds, "", "empty"},
		{Seconds, "3+", "no increment after the +"},
		{Lobby, "3+", "no increment after the +"},
		{Lobby, "3", "no increment"},
		{Lobby, "3m", "no increment"},
		{Lobby, "fast", "no increment"},
		{Seconds, "+2", "no base"},
		{Seconds, "-1+2", `base "-1" is negative`},
		{Seconds, "1+-2", `increment "-2" is negative`},
		{Seconds, "abc", `base "abc" is neither a number nor a duration`},
		{Lobby, "a+b", `base "a" is neither`},
		{Seconds, "3m+2x", `increment "2x" is neither`},
		{Lobby, "5+x", `increment "x" is neither`},
		{Seconds, "1+2+3", `increment "2+3" is neither`},
		{Lobby, "1e9+0", `base "1e9" is neither`},
		{Lobby, "0x10+0", `base "0x10" is neither`},
		{Lobby, "Inf+0", `base "Inf" is neither`},
		{Lobby, "NaN+0", `base "NaN" is neither`},
		{Lobby, "1.2.3+0", `base "1.2.3" is neither`},
		{Lobby, "３+2", `base "３" is neither`},
		{Lobby, ".+0", `base "." is neither`},
		{Seconds, "99999999999999999999+0", "too long"},
		{Seconds, "9999999999h+0", "too long"},
		{Lobby, "1000001+0", "too long"},
		{Seconds, "1m+20000000m", `increment "20000000m" is too long`},
		{Seconds, "0/60+1", "moves per period"},
		{Seconds, "x/60+1", "moves per period"},
		{Seconds, "+4/60+1", "moves per period"},
	}
	for _, tt := range tests {
		_, err := tt.cv.Parse(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.frag) || !strings.Contains(err.Error(), "e.g. "+tt.cv.Example+" in "+tt.cv.Name) {
			t.Errorf("%s %q: error %v; want one about %q with an example", tt.cv.Name, tt.in, err, tt.frag)
		}
	}
}

// TestParseLevel covers XBoard's level, and its st read by ParseTime.
func TestParseLevel(t *testing.T) {
	tests := []struct {
		mps, base, inc string
		want           Control
	}{
		{"40", "5", "0", Control{Base: 5 * time.Minute, Moves: 40}},
		{"0", "2:30", "3", Control{Base: 150 * time.Second, Inc: 3 * time.Second}},
		{"0", "0.5", "0.5", Control{Base: 30 * time.Second, Inc: 500 * time.Millisecond}},
		{"0", "0:30", "1", Control{Base: 30 * time.Second, Inc: time.Second}},
		{"0", "0", "0", Control{}},
	}
	for _, tt := range tests {
		got, err := ParseLevel(tt.mps, tt.base, tt.inc)
		if err != nil || got != tt.want {
			t.Errorf("level %s %s %s: %+v, %v; want %+v", tt.mps, tt.base, tt.inc, got, err, tt.want)
		}
	}
	for _, bad := range [][3]string{{"x", "5", "0"}, {"-1", "5", "0"}, {"0", "x", "0"}, {"0", "1:x", "0"}, {"0", "-1:0", "0"}, {"0", "-5", "0"}, {"0", "5", "-1"}, {"0", "5", "1e9"}, {"0", "1e9", "0"}} {
		if c, err := ParseLevel(bad[0], bad[1], bad[2]); err == nil || !strings.HasPrefix(err.Error(), "level: ") {
			t.Errorf("level %q: %+v, %v; want an error", bad, c, err)
		}
	}
	times := []struct {
		in   string
		unit time.Duration
		want time.Duration
	}{
		{"5", time.Second, 5 * time.Second}, // st 5
		{"0.25", time.Second, 250 * time.Millisecond},
		{"500ms", time.Second, 500 * time.Millisecond}, // movetime=500ms
		{"1.5", time.Minute, 90 * time.Second},
		{"0", time.Second, 0},
	}
	for _, tt := range times {
		if got, err := ParseTime("st", tt.in, tt.unit); err != nil || got != tt.want {
			t.Errorf("%q in %v: %v, %v; want %v", tt.in, tt.unit, got, err, tt.want)
		}
	}
	if _, err := ParseTime("st", "3", 10*time.Millisecond); err == nil {
		t.Error("a unit without a suffix read bare numbers")
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		c                       Control
		str, pgn, lobby, second string
	}{
		{Control{}, "none", "-", "none", "none"},
		{Control{Base: 3 * time.Minute, Inc: 2 * time.Second}, "3m+2s", "180+2", "3+2", "180+2"},
		{Control{Base: 3 * time.Second, Inc: time.Second}, "3s+1s", "3+1", "0.05+1", "3+1"},
		{Control{Base: 90 * time.Second, Inc: 100 * time.Millisecond}, "1m30s+100ms", "90+0.1", "1.5+0.1", "90+0.1"},
		{Control{Base: time.Hour}, "1h+0s", "3600+0", "60+0", "3600+0"},
		{Control{Base: 5 * time.Minute, Moves: 40}, "40/5m+0s", "40/300", "40/5+0", "40/300+0"},
		{Control{Base: 5 * time.Minute, Inc: 2 * time.Second, Moves: 40}, "40/5m+2s", "40/300+2", "40/5+2", "40/300+2"},
		{Control{Base: 1e6 * time.Second}, "277h46m40s+0s", "1000000+0", "16666.666666666668+0", "1000000+0"},
	}
	for _, tt := range tests {
		if s, p, l, sec := tt.c.String(), tt.c.PGN(), Lobby.Format(tt.c), Seconds.Format(tt.c); s != tt.str || p != tt.pgn || l != tt.lobby || sec != tt.second {
			t.Errorf("%+v: %q %q %q %q; want %q %q %q %q", tt.c, s, p, l, sec, tt.str, tt.pgn, tt.lobby, tt.second)
		}
		// Each written form reads back.
		for _, back := range []struct {
			cv Convention
			s  string
		}{{Seconds, tt.str}, {Lobby, tt.str}, {Seconds, tt.second}} {
			if got, err := back.cv.Parse(back.s); err != nil || got != tt.c && !(tt.c.Base == 1e6*time.Second && back.cv.Name == Lobby.Name) {
				t.Errorf("%s %q read back as %+v, %v; want %+v", back.cv.Name, back.s, got, err, tt.c)
			}
		}
	}
}

func TestControlMovesToGo(t *testing.T) {
	c := Control{Base: time.Minute, Inc: time.Second, Moves: 40}
	for played, want := range map[int]int{0: 40, 1: 39, 39: 1, 40: 40, 81: 39} {
		if got := c.MovesToGo(played); got != want {
			t.Errorf("after %d moves: %d to go, want %d", played, got, want)
		}
	}
	if got := (Control{Base: time.Minute}).MovesToGo(5); got != 0 {
		t.Errorf("no periods: %d to go", got)
	}
}

func ExampleConvention_Parse() {
	arena, _ := Seconds.Parse("180+2") // the arena's --tc, as PGN writes it
	lobby, _ := Lobby.Parse("3+2")     // a pychess.org or lichess seek
	either, _ := Lobby.Parse("3m+2s")  // units mean the same everywhere
	fmt.Println(arena == lobby, lobby == either, arena, arena.PGN())
	_, err := Lobby.Parse("3+")
	fmt.Println(err)
	// Output:
	// true true 3m+2s 180+2
	// time control "3+": no increment after the + (want [MOVES/]BASE+INC, e.g. 3+2 in minutes+seconds, or 3m+2s)
}

// A time flag reads what ParseTime reads, bare numbers in seconds, and
// refuses what it refuses; the help shows a default as a duration.
func TestTimeFlag(t *testing.T) {
	for _, tt := range []struct {
		arg  string
		want time.Duration
		err  string
	}{
		{"0.5", 500 * time.Millisecond, ""},
		{"500ms", 500 * time.Millisecond, ""},
		{"2", 2 * time.Second, ""},
		{"1m30s", 90 * time.Second, ""},
		{"0", 0, ""},
		{"-1s", 0, `time "-1s" is negative`},
		{"soon", 0, `time "soon" is neither a number nor a duration`},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		d := TimeFlag(fs, "movetime", time.Second, "`time` per move")
		err := fs.Parse([]string{"--movetime", tt.arg})
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("--movetime %s: %v, want an error saying %q", tt.arg, err, tt.err)
		case tt.err == "" && (err != nil || *d != tt.want):
			t.Errorf("--movetime %s: %v, %v; want %v", tt.arg, *d, err, tt.want)
		}
	}
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	var help strings.Builder
	fs.SetOutput(&help)
	d := TimeFlag(fs, "movetime", 100*time.Millisecond, "`time` per move")
	TimeFlag(fs, "overhead", 0, "`time` kept back")
	fs.PrintDefaults()
	if *d != 100*time.Millisecond || !strings.Contains(help.String(), "-movetime time") || !strings.Contains(help.String(), "(default 100ms)") || strings.Contains(help.String(), "default 0s") {
		t.Errorf("default %v, help:\n%s", *d, help.String())
	}
}
