// Command gmd is a play-by-email Diplomacy judge. See gmd(1) and README.md.
package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
)

// command is one subcommand: it gets its own arguments and the standard
// streams, and returns the process exit status.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands is filled by the init functions of the files beside this one,
// one file per subcommand.
var commands = map[string]command{}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if isHelp(args[0]) {
		// gmd help, and gmd help COMMAND: asked for, so on standard
		// output, where a pager or grep finds it.
		if len(args) == 1 {
			usage(stdout)
			return 0
		}
		c, ok := commands[args[1]]
		if !ok {
			fmt.Fprintf(stderr, "gmd: unknown command %q\n", args[1])
			usage(stderr)
			return 2
		}
		return commandHelp(c, stdin, stdout)
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "gmd: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	if slices.ContainsFunc(args[1:], isHelpFlag) {
		return commandHelp(c, stdin, stdout)
	}
	return c.run(args[1:], stdin, stdout, stderr)
}

// isHelp reports whether the first argument asks for help.
func isHelp(arg string) bool { return arg == "help" || isHelpFlag(arg) }

// isHelpFlag reports whether arg is a help flag: anywhere after a
// command, it asks for the command's help rather than running it.
func isHelpFlag(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// commandHelp prints c's help on w, as c prints it for -h (its usage and
// flags), and returns status 0: help asked for is no error.
func commandHelp(c command, stdin io.Reader, w io.Writer) int {
	c.run([]string{"-h"}, stdin, w, w)
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: gmd <command> [flags]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
}
