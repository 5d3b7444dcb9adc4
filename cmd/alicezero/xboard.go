package main

import (
	"context"
	"fmt"
	"io"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/xboard"
)

func runXboard(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("xboard", "", stderr)
	ef := addEngineFlags(fs, "visits per move when the GUI sets no time control")
	royal := fs.Bool("royal-king", false, "show the kings as XBoard kings: castling is drawn right, but XBoard then draws every sideways king step as a castling")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: alicezero xboard [flags]\n\nSpeaks the XBoard/WinBoard protocol (CECP v2) on standard input and output,\nAlice Chess as the engine-defined variant %q on a 16x8 board (files a-h:\nboard A, i-p: board B). Run XBoard with -testLegality false.\n\nFlags:\n", xboard.Variant)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	e, err := ef.newEngine(env.Alice)
	if err != nil {
		return err
	}
	defer e.Close()
	return interrupted(ctx, xboard.Run(ctx, e, stdin, stdout, xboard.Options{RoyalKing: *royal}))
}
