package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/alicezero/alicezero/env"
)

func runPerft(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("perft", "DEPTH", stderr)
	variant := fs.String("variant", env.Alice.Name, "rule set: "+variantNames)
	fen := fs.String("fen", "", "position to count from (default: the variant's start)")
	moves := fs.String("moves", "", "UCI moves to play first, space-separated")
	byMove := fs.Bool("divide", false, "print the count below each legal move")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
		return usageError(fs, "missing DEPTH (the number of plies to count, e.g. 5)")
	case 1:
	default:
		return usageError(fs, "unexpected argument %q after DEPTH", fs.Arg(1))
	}
	depth, err := strconv.Atoi(fs.Arg(0))
	if err != nil || depth < 0 || depth > 20 {
		return fmt.Errorf("depth %q: want a whole number from 0 to 20", fs.Arg(0))
	}
	v, err := lookupVariant(*variant)
	if err != nil {
		return err
	}
	if *fen == "" {
		*fen = v.StartFEN()
	}
	pos, err := env.ParseFEN(*fen, v)
	if err != nil {
		return err
	}
	if ms := strings.Fields(*moves); len(ms) > 0 {
		if i, err := pos.PlayUCI(ms); err != nil {
			return fmt.Errorf("--moves, move %d: %w", i+1, err)
		}
	}
	var total uint64
	if *byMove && depth > 0 {
		if total, err = divide(ctx, pos, depth, func(m env.Move, n uint64) {
			fmt.Fprintf(stdout, "%s: %d\n", pos.UCI(m), n)
		}); err != nil {
			return err
		}
		fmt.Fprintln(stdout)
	} else if total, err = perft(ctx, pos, depth); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Nodes searched: %d\n", total)
	return nil
}

// perftChunk is the depth counted without looking at the context: a few
// milliseconds of work.
const perftChunk = 4

// perft counts as pos.Perft does, looking at ctx between subtrees so that
// an interrupt stops a deep count within milliseconds.
func perft(ctx context.Context, pos *env.Position, depth int) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if depth <= perftChunk {
		return pos.Perft(depth), nil
	}
	return divide(ctx, pos, depth, nil)
}

// divide counts as perft does below each legal move of pos (depth ≥ 1),
// calling each, if not nil, with the move and its count (pos is as given
// again then), and returns the total.
func divide(ctx context.Context, pos *env.Position, depth int, each func(m env.Move, n uint64)) (uint64, error) {
	var ml env.MoveList
	pos.LegalMoves(&ml)
	var total uint64
	for _, m := range ml.Slice() {
		pos.MakeMove(m)
		n, err := perft(ctx, pos, depth-1)
		pos.UnmakeMove()
		if err != nil {
			return 0, err
		}
		if each != nil {
			each(m, n)
		}
		total += n
	}
	return total, nil
}
