package xboard_test

import (
	"context"
	"os"
	"strings"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/enginetest"
	"github.com/alicezero/alicezero/cmd/alicezero/internal/xboard"
)

// A GUI's side of a short conversation, with a fake engine that plays the
// first legal move: the GUI plays 1. e4 (from e2 of board A to e4 of board
// B, e2m4 on the 16×8 board) and the engine answers. A real engine is
// engine.New(engine.Options{Weights: "checkpoints/run1"}).
func ExampleRun() {
	gui := strings.NewReader("xboard\nnew\nvariant alice\nusermove e2m4\nping 1\nfrobnicate\nquit\n")
	if err := xboard.Run(context.Background(), enginetest.New(), gui, os.Stdout, xboard.Options{}); err != nil {
		panic(err)
	}
	// Output:
	// setup (PNBRQ.....K.pnbrq.....k.) 16x8+0_fairy rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1
	// # playing with fake network
	// move b8i6
	// pong 1
	// Error (unknown command): frobnicate
}
