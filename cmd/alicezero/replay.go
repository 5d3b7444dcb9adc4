package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/alicezero/alicezero/env"
	"github.com/alicezero/alicezero/internal/lines"
	"github.com/alicezero/alicezero/mcts/reference"
)

// runReplay plays through every game of a PGN file (or of bare movetext,
// in SAN or long algebraic) and prints each game's final position and
// status, or with --tactics NAME the tactics NAME's moves missed or
// allowed, as EPD lines of a tactics suite. A game with an
// unreadable or illegal move is reported on stderr, naming the game, the
// ply and the move; the other games are still replayed, and the command
// then exits with status 1.
func runReplay(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay", "[FILE]", stderr)
	variant := fs.String("variant", env.Alice.Name, "rule set of games without a [Variant] tag: "+variantNames)
	tactics := fs.String("tactics", "", "print, as EPD, each forced mate the player of this `name` (a White or Black tag) missed or allowed")
	maxMate := fs.Int("mate", 3, "with --tactics: the longest mate looked for, in moves (the alpha-beta searches 2N-1 plies)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usageError(fs, "unexpected argument %q: replay reads one file (or standard input)", fs.Arg(1))
	}
	v, err := lookupVariant(*variant)
	if err != nil {
		return err
	}
	if *maxMate < 1 || *maxMate > 8 {
		return usageError(fs, "--mate %d: want 1..8 moves", *maxMate)
	}
	finder := reference.NewMateFinder()
	// Standard input may be a terminal: Ctrl-C must stop a read waiting
	// on it, and the first Ctrl-D end it.
	in, where := lines.Interruptible(ctx, stdin), func(err error) error { return err }
	if fs.NArg() == 1 && fs.Arg(0) != "-" {
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
		where = func(err error) error { return fmt.Errorf("%s: %w", f.Name(), err) }
	}

	pr := env.NewPGNReader(in, v)
	var failed []error
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		g, err := pr.Next()
		if err == io.EOF {
			break
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			var pe *env.PGNError
			if !errors.As(err, &pe) {
				return where(err) // the input itself failed
			}
			failed = append(failed, where(err))
			continue
		}
		if *tactics != "" {
			for side, tag := range [2]string{"White", "Black"} {
				if g.Tag(tag) != *tactics {
					continue
				}
				found, err := finder.FindTactics(ctx, g, env.Colour(side), *maxMate, fmt.Sprintf("game %d", n))
				for _, t := range found {
					fmt.Fprintln(stdout, t.EPD())
				}
				if err != nil {
					return where(fmt.Errorf("game %d: %w", n, err))
				}
			}
			continue
		}
		p, err := g.FinalPosition()
		if err != nil {
			// The reader played every move already: this cannot fail.
			return where(fmt.Errorf("game %d: %w", n, err))
		}
		fmt.Fprintf(stdout, "fen: %s\nstatus: %s\n", p.FEN(), p.Status())
	}
	switch len(failed) {
	case 0:
		return nil
	case 1:
		return &exitError{code: 1, err: failed[0]}
	}
	// main prints the returned error once; the others go first.
	for _, err := range failed[:len(failed)-1] {
		fmt.Fprintf(stderr, "alicezero replay: %v\n", err)
	}
	return &exitError{code: 1, err: failed[len(failed)-1]}
}
