package main

import (
	"fmt"
	"io"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// mapCmd is `rulesh map FILE [--name MAP] [--svg OUT]`: draw a declared hex board with the
// units standing on it (entities with a `position` field).
func (c *cli) mapCmd(args []string) int {
	fs := c.newFlags("map", "map FILE [--name MAP] [--svg OUT]")
	name := fs.String("name", "", "which map, when the file declares several")
	svg := fs.String("svg", "", "write an SVG picture to `OUT` instead of printing text")
	files, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintln(c.stderr, "rulesh map: no rule file given")
		fs.Usage()
		return exitUsage
	}
	prog, code := c.loadProgram(files, false)
	if prog == nil {
		return code
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		fmt.Fprintf(c.stderr, "rulesh map: %v\n", err)
		return exitError
	}
	board, err := m.Map(*name)
	if err != nil {
		fmt.Fprintf(c.stderr, "rulesh map: %v\n", err)
		return exitError
	}
	if *svg != "" {
		// Streamed: a large board is never held whole in memory.
		err := writeAtomic(*svg, func(w io.Writer) error { return board.WriteSVG(w, m.Units()) })
		if err != nil {
			fmt.Fprintf(c.stderr, "rulesh map: %v\n", err)
			return exitError
		}
		fmt.Fprintf(c.stdout, "wrote %s\n", *svg)
		return exitOK
	}
	fmt.Fprint(c.stdout, board.Render(m.Units()))
	return exitOK
}
