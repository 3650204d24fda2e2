package cli

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"rulesh/cmd/rulesh/internal/repl"
)

// repl is `rulesh` and `rulesh repl [-f FILE]... [--seed N] [--set K=V]...`.
func (c *cli) repl(args []string) int {
	fs := c.newFlags("repl", "repl [-f FILE]... [--seed N] [--set K=V]...")
	var files, sets listFlag
	fs.Var(&files, "f", "load a rule `FILE` (repeatable)")
	fs.Var(&sets, "set", "set an option before the first input, `NAME=VALUE` (repeatable), as :set does")
	seed := fs.Uint64("seed", 0, "seed the dice (default: a random seed)")
	rest, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	files = append(files, rest...) // `rulesh repl duel.rules` loads it too
	s := *seed
	if !flagSet(fs, "seed") {
		s = rand.Uint64()
	}
	sh, err := repl.New(repl.Config{Files: files, Seed: s, Stdout: c.stdout, Stderr: c.stderr})
	if err != nil {
		fmt.Fprintf(c.stderr, "rulesh: %v\n", err)
		return ExitError
	}
	for _, kv := range sets {
		name, val, ok := strings.Cut(kv, "=")
		if !ok {
			fmt.Fprintf(c.stderr, "rulesh: --set %q: want NAME=VALUE\n", kv)
			return ExitUsage
		}
		// As typed at the prompt, so the session's log and a recorded transcript hold it.
		if sh.Exec(":set " + name + " " + val); sh.Failed() {
			return ExitError
		}
	}
	if !sh.Run(c.stdin) {
		return ExitError
	}
	return ExitOK
}
