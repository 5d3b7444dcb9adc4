package uci_test

import (
	"context"
	"os"
	"strings"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/enginetest"
	"github.com/alicezero/alicezero/cmd/alicezero/internal/uci"
)

// A GUI's side of a short conversation, with a fake engine that plays the
// first legal move.
func ExampleRun() {
	gui := strings.NewReader("isready\nfrobnicate\nposition startpos moves e2e4\ngo nodes 1\nquit\n")
	if err := uci.Run(context.Background(), enginetest.New(), gui, os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// readyok
	// info string error unknown command "frobnicate"
	// info string playing with fake network
	// info depth 1 seldepth 1 score cp 0 nodes 1 nps 0 time 0 pv b8a6
	// bestmove b8a6
}
