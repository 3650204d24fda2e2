// Command rulesh checks, runs and explores tabletop rule files.
//
// This file is the table of commands and their dispatch, nothing more: the commands and
// their output live in internal/cli, the REPL in internal/repl, golden transcripts in
// internal/transcript. Imports go one way: main -> cli -> repl -> transcript -> sysio, with
// output below repl and cli; all of them -> rulesh/dsl -> rulesh/stdlib. main also uses sysio
// to buffer standard output.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"rulesh/cmd/rulesh/internal/cli"
	"rulesh/cmd/rulesh/internal/lsp"
	"rulesh/cmd/rulesh/internal/sysio"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// run is Main as the binary runs it: standard output buffered, flushed before each message on
// standard error (so the two keep their order), before the REPL waits for a person, and at
// exit (sysio.Buffer). Output that cannot be written is an error, not a silent loss.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out, errw := sysio.Buffer(stdout, stderr)
	code := Main(args, stdin, out, errw)
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "rulesh: writing the output: %v\n", err)
		if code == cli.ExitOK {
			code = cli.ExitError
		}
	}
	return code
}

// command is one line of the table: a name, its line of help (the synopsis, and what it
// does when the synopsis leaves room), and what runs it.
type command struct {
	name, help string
	run        cli.Command
}

// commands is the table of commands, in the order the usage lists them.
var commands = []command{
	{"repl", "[-f FILE]... [--seed N]  REPL with rule files loaded", cli.REPL},
	{"roll", "[--seed N] [-n COUNT] [--stats] [--json] EXPR", cli.Roll},
	{"prob", "[-f FILE]... [--set K=V]... [--json] [--svg OUT] [--png OUT] [--compare K=V | --variant FILE] EXPR   odds of any expression or procedure call: exact, or sampled with intervals", cli.Prob},
	{"sim", "[-f FILE]... [--runs N] [--seed S] [--compare K=V] [--shard I/N] [--json] EXPR  Monte Carlo runs", cli.Sim},
	{"eval", "[-f FILE]... [--seed N] [--rolls LIST] [--set K=V]... [--json] EXPR", cli.Eval},
	{"check", "FILE...                  diagnostics as file:line:col: message; exit 1 on error", cli.Check},
	{"fmt", "[-w] [-l] FILE...        canonical formatting", cli.Fmt},
	{"test", "[PATH]...                run golden transcripts; --update rewrites them", cli.Test},
	{"map", "FILE [--svg OUT]         render a declared hex map (text, or an SVG picture)", cli.Map},
	{"lsp", "                         language server on stdin/stdout, for editors", func(s cli.IO, a []string) int { return lsp.Main(s.Stdin, s.Stdout, s.Stderr, a) }},
}

// usage lists the commands from the table; `rulesh` alone is the REPL.
func usage() string {
	var b strings.Builder
	b.WriteString("rulesh: check, run and explore tabletop house rules written as text.\n\nUsage:\n")
	line := func(name, help string) { fmt.Fprintf(&b, "  rulesh %-6s %s\n", name, help) }
	line("", "[-f FILE]... [--seed N]  REPL (same as rulesh repl)")
	for _, c := range commands {
		line(c.name, c.help)
	}
	b.WriteString("\nRun \"rulesh COMMAND -h\" for a command's flags. Exit codes: 0 success, 1 rule or input error,\n2 bad usage.\n")
	return b.String()
}

// Main runs the CLI with args (without the program name) and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	std := cli.IO{Stdin: stdin, Stdout: stdout, Stderr: stderr}
	if len(args) == 0 {
		return cli.REPL(std, nil)
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage())
		return cli.ExitOK
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(std, rest)
		}
	}
	if strings.HasPrefix(name, "-") {
		// `rulesh -f duel.rules` is the REPL with its flags, as `rulesh` alone is.
		return cli.REPL(std, args)
	}
	fmt.Fprintf(stderr, "rulesh: unknown command %q\n\n%s", name, usage())
	return cli.ExitUsage
}
