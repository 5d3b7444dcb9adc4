package arena

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/conc"

	"github.com/alicezero/alicezero/env"
)

// fakeEnv makes the test binary act as a scripted UCI engine: a test runs
// "uci:<test binary> MODE" with it set (see TestMain).
const fakeEnv = "ALICEZERO_FAKE_UCI"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) == "1" {
		mode := ""
		if len(os.Args) > 1 {
			mode = os.Args[1]
		}
		os.Exit(fakeUCI(mode, os.Stdin, os.Stdout))
	}
	// Engines the tests start inherit this and so run fakeUCI.
	os.Setenv(fakeEnv, "1")
	// Under the race detector a process sleeps a second at exit by
	// default; the fake engines need not.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

// fakeUCI is a minimal UCI engine. Modes:
//
//	first    plays the first legal move
//	illegal  answers every go with a move that is not legal
//	silent   never answers uci
//	crash    exits with status 3 at the first go
//	slow     answers go after 3 s (reading commands meanwhile)
//	nocombo  lists UCI_Variant without alice
//	options  lists the option Hash and plays the first legal move
//	echo     like options, and writes each go command to its stderr
//	badnet   lists the option Weights, and reports an error at each
//	         isready after it was set (weights it cannot load)
//	moaning  plays the first legal move, reporting an error at each go
func fakeUCI(mode string, in io.Reader, out io.Writer) int {
	var mu sync.Mutex // the slow mode answers from another goroutine
	w := bufio.NewWriter(out)
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, format+"\n", args...)
		w.Flush()
	}
	var late conc.WaitGroup
	pos := env.NewPosition(env.Alice)
	weights := ""
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			if mode == "silent" {
				continue
			}
			say("id name fake %s", mode)
			switch mode {
			case "nocombo":
				say("option name UCI_Variant type combo default chess var chess var crazyhouse")
			case "options", "echo":
				say("option name UCI_Variant type combo default chess var chess var alice")
				say("option name Hash type spin default 16 min 1 max 1024")
			case "badnet":
				say("option name Weights type string default <empty>")
			}
			say("uciok")
		case "setoption":
			if len(f) >= 5 && f[2] == "Weights" {
				weights = f[4]
			}
		case "isready":
			if mode == "badnet" && weights != "" {
				say("info string error weights: %s does not exist", weights)
			}
			say("readyok")
		case "position":
			var err error
			if pos, err = fakePosition(f[1:]); err != nil {
				say("info string bad position: %v", err)
				return 2
			}
		case "go":
			var ml env.MoveList
			pos.LegalMoves(&ml)
			best := "(none)"
			if ml.N > 0 {
				best = ml.Moves[0].UCI()
			}
			switch mode {
			case "crash":
				return 3
			case "illegal":
				best = "a1a1"
			case "echo":
				fmt.Fprintf(os.Stderr, "got %s\n", strings.Join(f, " "))
			case "moaning":
				say("info string error the hash is too small")
			case "slow":
				late.Go(func() {
					time.Sleep(3 * time.Second)
					say("bestmove %s", best)
				})
				continue
			}
			say("info depth 1 score cp 0")
			say("bestmove %s", best)
		case "quit":
			return 0
		}
	}
	return 0
}

func fakePosition(f []string) (*env.Position, error) {
	var pos *env.Position
	var err error
	switch {
	case len(f) > 0 && f[0] == "startpos":
		pos, f = env.NewPosition(env.Alice), f[1:]
	case len(f) > 0 && f[0] == "fen":
		i := 1
		for i < len(f) && f[i] != "moves" {
			i++
		}
		if pos, err = env.ParseFEN(strings.Join(f[1:i], " "), env.Alice); err != nil {
			return nil, err
		}
		f = f[i:]
	default:
		return nil, fmt.Errorf("want startpos or fen")
	}
	if len(f) > 0 && f[0] == "moves" {
		if _, err := pos.PlayUCI(f[1:]); err != nil {
			return nil, err
		}
	}
	return pos, nil
}
