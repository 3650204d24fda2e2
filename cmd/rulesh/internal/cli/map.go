package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

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
		if err := replaceableSVG(*svg); err != nil {
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

// replaceableSVG refuses an existing OUT that is not empty and does not begin as an SVG
// picture: `--svg duel.rules`, or a link to a rule file, must not turn it into a picture.
// Whether OUT may be written at all (a device, a folder) is left to sysio.Write.
func replaceableSVG(path string) error {
	// Stat before opening: opening a FIFO would block.
	if st, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) || (err == nil && !st.Mode().IsRegular()) {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return err
	}
	head = bytes.TrimLeft(bytes.TrimPrefix(head[:n], []byte("\ufeff")), " \t\r\n")
	if len(head) == 0 || bytes.HasPrefix(head, []byte("<svg")) || bytes.HasPrefix(head, []byte("<?xml")) {
		return nil
	}
	return fmt.Errorf("%s exists and is not an SVG picture; not overwritten", path)
}
