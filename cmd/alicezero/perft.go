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
	variant := fs.String("variant", env.Alice.Name, "rule set: alice or alice-ep")
	fen := fs.String("fen", env.StartFEN, "position to count from")
	moves := fs.String("moves", "", "UCI moves to play first, space-separated")
	divide := fs.Bool("divide", false, "print the count below each legal move")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	depth, err := strconv.Atoi(fs.Arg(0))
	if err != nil || depth < 0 || depth > 20 {
		return fmt.Errorf("depth %q: want a whole number from 0 to 20", fs.Arg(0))
	}
	v, err := env.VariantByName(*variant)
	if err != nil {
		return err
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
	if *divide && depth > 0 {
		ms, counts := pos.Divide(depth)
		for i, m := range ms {
			fmt.Fprintf(stdout, "%s: %d\n", m.UCI(), counts[i])
			total += counts[i]
		}
		fmt.Fprintln(stdout)
	} else {
		total = pos.Perft(depth)
	}
	fmt.Fprintf(stdout, "Nodes searched: %d\n", total)
	return nil
}
