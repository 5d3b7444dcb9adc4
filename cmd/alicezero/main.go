// Command alicezero trains, evaluates and plays Alice Chess.
//
// Usage:
//
//	alicezero <command> [flags] [arguments]
//
// Run "alicezero help" for the list of commands and "alicezero <command>
// -h" for a command's flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// command is one subcommand: its name, a one-line summary and its body.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

// commands lists the subcommands in the order help shows them.
func commands() []command {
	cmds := []command{
		{"perft", "count leaf nodes of the legal move tree", runPerft},
		{"train", "learn from zero: self-play, optimiser steps and checkpoints, in a loop", runTrain},
		{"selfplay", "generate self-play games only, as shards in a folder (feeds 'learn')", runSelfPlay},
		{"learn", "train only, from the shards that 'selfplay' processes write to a folder", runLearn},
		{"arena", "play matches and tournaments between checkpoints and engines", runArena},
		{"replay", "play through PGN or movetext games and report each final position", runReplay},
		{"bench", "the standard benchmark: speed figures for this machine, one per line", runBench},
		{"uci", "run as a UCI engine (for GUIs and the arena)", runUCI},
		{"xboard", "run as an XBoard/WinBoard (CECP v2) engine", runXboard},
		{"play", "play against the engine in the terminal", runPlay},
		{"export", "write a checkpoint's network as ONNX plus a JSON description, or stripped to its weights", runExport},
		{"pychess", "play on pychess.org as a BOT account", runPychess},
		{"serve", "serve a web page to play, analyse, review games and watch training", runServe},
	}
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].name < cmds[j].name })
	return cmds
}

// errUsage marks an error already explained to the user by the flag package.
var errUsage = errors.New("usage")

// exitError carries a specific exit status.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) >= 2 && args[0] == "help" {
		// "help CMD" is "CMD -h".
		for _, c := range commands() {
			if c.name == args[1] {
				return run(ctx, []string{c.name, "-h"}, stdin, stdout, stderr)
			}
		}
		fmt.Fprintf(stderr, "alicezero help: unknown command %q\n\n", args[1])
		usage(stderr)
		return 2
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, args[1:], stdin, stdout, stderr)
		switch {
		case err == nil, errors.Is(err, flag.ErrHelp):
			return 0 // -h: the usage asked for
		case errors.Is(err, errUsage):
			return 2
		case errors.Is(err, context.Canceled) && ctx.Err() != nil:
			// Interrupted (Ctrl-C, SIGTERM): the command has said where it
			// stopped; exit as shells expect after SIGINT.
			return 130
		}
		fmt.Fprintf(stderr, "alicezero %s: %v\n", c.name, err)
		var ee *exitError
		if errors.As(err, &ee) {
			return ee.code
		}
		return 1
	}
	fmt.Fprintf(stderr, "alicezero: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "alicezero: self-play reinforcement learning for Alice Chess")
	fmt.Fprintln(w, "\nUsage: alicezero <command> [flags] [arguments]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'alicezero <command> -h' for a command's flags.")
}

// newFlagSet returns a flag set that reports errors to stderr and returns
// them rather than exiting.
func newFlagSet(name, argsUsage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: alicezero %s [flags] %s\n\nFlags:\n", name, argsUsage)
		fs.PrintDefaults()
	}
	return fs
}

// usageError says what is wrong with a command line (which argument is
// missing, which one is too many), shows the usage and returns errUsage.
func usageError(fs *flag.FlagSet, format string, args ...any) error {
	fmt.Fprintf(fs.Output(), "alicezero %s: %s\n\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return errUsage
}

// noArgs refuses arguments after the flags of a command that takes none.
func noArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return usageError(fs, "unexpected argument %q (flags start with -)", fs.Arg(0))
	}
	return nil
}

// parseFlags parses args and maps a parse failure to errUsage.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	return nil
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
