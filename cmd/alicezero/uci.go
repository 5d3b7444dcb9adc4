package main

import (
	"context"
	"fmt"
	"io"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/uci"
	"github.com/alicezero/alicezero/env"
)

func runUCI(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("uci", "", stderr)
	ef := addEngineFlags(fs, "visits per move when go sets no limit")
	variant := fs.String("variant", env.Alice.Name, "rule set to start with ("+variantNames+"; default: the one --weights were trained for, else alice); UCI_Variant changes it")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: alicezero uci [flags]\n\nSpeaks UCI on standard input and output (UCI_Variant %s;\nFEN with '|' before board-B pieces, moves in UCI notation).\n\nFlags:\n", variantNames)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	v, err := ef.variant(fs, *variant)
	if err != nil {
		return err
	}
	e, err := ef.newEngine(v)
	if err != nil {
		return err
	}
	defer e.Close()
	return interrupted(ctx, uci.Run(ctx, e, stdin, stdout))
}
