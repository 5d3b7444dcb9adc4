package main

import (
	"context"
	"fmt"
	"io"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/uci"
)

func runUCI(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("uci", "", stderr)
	ef := addEngineFlags(fs, "visits per move when go sets no limit")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: alicezero uci [flags]\n\nSpeaks UCI on standard input and output (variants alice and alice-ep;\nFEN with '|' before board-B pieces, moves in UCI notation).\n\nFlags:\n")
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
	return uci.Run(ctx, e, stdin, stdout)
}
