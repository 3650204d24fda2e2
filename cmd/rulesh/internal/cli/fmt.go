package cli

import (
	"bytes"
	"fmt"

	"rulesh/cmd/rulesh/internal/output"
	"rulesh/cmd/rulesh/internal/sysio"
	"rulesh/dsl"
)

// fmtCmd is `rulesh fmt [-w] FILE...`: print (or rewrite) rule files in canonical layout.
func (c *cli) fmtCmd(args []string) int {
	fs := c.newFlags("fmt", "fmt [-w] [-l] FILE...")
	write := fs.Bool("w", false, "rewrite the files in place")
	list := fs.Bool("l", false, "only list the files whose layout differs")
	files, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintln(c.stderr, "rulesh fmt: no file given")
		fs.Usage()
		return ExitUsage
	}
	status := ExitOK
	for _, f := range files {
		src, err := (dsl.OSFiles{}).ReadFile(f)
		if err != nil {
			fmt.Fprintf(c.stderr, "rulesh fmt: %v\n", err)
			status = ExitError
			continue
		}
		out, err := dsl.Format(f, src)
		if err != nil {
			output.Error(c.stderr, err, dsl.Sources{f: src})
			status = ExitError
			continue
		}
		switch {
		case *list:
			if !bytes.Equal(out, src) {
				fmt.Fprintln(c.stdout, f)
			}
		case *write:
			if !bytes.Equal(out, src) {
				if err := sysio.WriteFile(f, out); err != nil {
					fmt.Fprintf(c.stderr, "rulesh fmt: %v\n", err)
					status = ExitError
				}
			}
		default:
			c.stdout.Write(out)
		}
	}
	return status
}
