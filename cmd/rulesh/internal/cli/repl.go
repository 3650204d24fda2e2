package cli

import (
	"fmt"
	"math/rand/v2"

	"rulesh/cmd/rulesh/internal/repl"
)

// repl is `rulesh` and `rulesh repl [-f FILE]... [--seed N]`.
func (c *cli) repl(args []string) int {
	fs := c.newFlags("repl", "repl [-f FILE]... [--seed N]")
	var files listFlag
	fs.Var(&files, "f", "load a rule `FILE` (repeatable)")
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
	if !sh.Run(c.stdin) {
		return ExitError
	}
	return ExitOK
}
