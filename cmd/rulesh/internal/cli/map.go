package cli

import (
	"fmt"
	"io"

	"rulesh/cmd/rulesh/internal/sysio"
	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// mapCmd is `rulesh map FILE [--name MAP] [--svg OUT]`: draw a declared hex board with the
// units its `units` lines place on it.
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
		return ExitUsage
	}
	prog, code := c.loadProgram(files, false)
	if prog == nil {
		return code
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		fmt.Fprintf(c.stderr, "rulesh map: %v\n", err)
		return ExitError
	}
	board, err := m.Map(*name)
	if err != nil {
		fmt.Fprintf(c.stderr, "rulesh map: %v\n", err)
		return ExitError
	}
	units, err := m.Units(*name)
	if err != nil {
		fmt.Fprintf(c.stderr, "rulesh map: %v\n", err)
		return ExitError
	}
	if *svg != "" {
		if err := sysio.ReplaceableSVG(*svg); err != nil {
			fmt.Fprintf(c.stderr, "rulesh map: %v\n", err)
			return ExitError
		}
		// Streamed: a large board is never held whole in memory.
		err := sysio.Write(*svg, func(w io.Writer) error { return board.WriteSVG(w, units) })
		if err != nil {
			fmt.Fprintf(c.stderr, "rulesh map: %v\n", err)
			return ExitError
		}
		fmt.Fprintf(c.stdout, "wrote %s\n", *svg)
		return ExitOK
	}
	fmt.Fprint(c.stdout, board.Render(units))
	return ExitOK
}
