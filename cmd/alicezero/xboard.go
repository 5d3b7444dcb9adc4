package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/board16"
	"github.com/alicezero/alicezero/cmd/alicezero/internal/xboard"
	"github.com/alicezero/alicezero/env"
)

func runXboard(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("xboard", "", stderr)
	ef := addEngineFlags(fs, "visits per move when the GUI sets no time control")
	variant := fs.String("variant", env.Alice.Name, "rule set to start with ("+strings.Join(xboard.Offered(), ", ")+"; default: the one --weights were trained for, else alice); XBoard's variant command changes it")
	royal := fs.Bool("royal-king", false, "show the kings as XBoard kings: castling is drawn right, but XBoard then draws every sideways king step as a castling")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: alicezero xboard [flags]\n\nSpeaks the XBoard/WinBoard protocol (CECP v2) on standard input and output,\nAlice Chess as engine-defined variants (%s) with both\nboards side by side: a 16x8 board (files a-h: board A, i-p: board B), or 8x8\nfor alice-mini (a-d: A, e-h: B). alice-3 does not fit XBoard's board. Run\nXBoard with -testLegality false.\n\nFlags:\n", strings.Join(xboard.Offered(), ", "))
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
	if _, err := board16.LayoutOf(v); err != nil {
		return fmt.Errorf("--variant: %w", err)
	}
	e, err := ef.newEngine(v)
	if err != nil {
		return err
	}
	defer e.Close()
	return interrupted(ctx, xboard.Run(ctx, e, stdin, stdout, xboard.Options{RoyalKing: *royal}))
}
