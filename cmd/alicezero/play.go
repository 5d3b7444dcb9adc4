package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/alicezero/alicezero/cmd/alicezero/internal/console"
	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/clock"
)

func runPlay(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("play", "", stderr)
	ef := addEngineFlags(fs, "the engine's visits per move")
	movetime := clock.TimeFlag(fs, "movetime", 0, "the engine's `time` per move: seconds (0.5) or a duration (2s) (default: a visit budget)")
	colour := fs.String("colour", "white", "your side: white or black")
	fs.StringVar(colour, "color", "white", "same as --colour")
	variant := fs.String("variant", env.Alice.Name, "rule set: "+variantNames+" (default: the one --weights were trained for, else alice)")
	fen := fs.String("fen", "", "start from this position (FEN, '|' before board-B pieces)")
	ascii := fs.Bool("ascii", false, "draw pieces as letters (PNBRQK, lower case for Black), not Unicode symbols")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: alicezero play [flags]\n\nPlay Alice Chess against the engine (the classical alpha-beta; --weights\nbuiltin for the built-in network, or a network of yours) in the terminal,\nevery variant's boards side by side. Moves in SAN (e4, Nf3, Bxf7+, O-O) or\nUCI (e2e4; in the variants also e4e4 for a null move, e2e4/a for\nalice-stone's move that stays, e2e4/c for alice-3's board C); type help for\nthe commands.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	var user env.Colour
	switch strings.ToLower(*colour) {
	case "white", "w":
		user = env.White
	case "black", "b":
		user = env.Black
	default:
		return fmt.Errorf("--colour: want white or black, got %q", *colour)
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
	var start *env.Position
	if *fen != "" {
		if start, err = env.ParseFEN(*fen, e.Options().Variant); err != nil {
			return fmt.Errorf("--fen: position: %w", err)
		}
	}
	return interrupted(ctx, console.Run(ctx, e, stdin, stdout, console.Options{User: user, ASCII: *ascii, Limits: clock.Limits{MoveTime: *movetime}, Start: start}))
}
