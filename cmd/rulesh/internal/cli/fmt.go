package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"rulesh/cmd/rulesh/internal/output"
	"rulesh/cmd/rulesh/internal/sysio"
	"rulesh/dsl"
)

// fmtCmd is `rulesh fmt [-w] [-l] FILE|DIR...`: print (or rewrite) rule files in canonical
// layout; a folder stands for the .rules files under it, as gofmt takes a folder of Go files.
func (c *cli) fmtCmd(args []string) int {
	fs := c.newFlags("fmt", "fmt [-w] [-l] FILE|DIR...")
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
	files, err := ruleFiles(files)
	if err != nil {
		fmt.Fprintf(c.stderr, "rulesh fmt: %v\n", err)
		status = ExitError
	}
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

// ruleFiles replaces each folder among paths by the .rules files under it, in lexical order
// (files named one by one are kept whatever their name).
func ruleFiles(paths []string) ([]string, error) {
	var out []string
	var errs []error
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			out = append(out, p) // reading it says what is wrong
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			if !d.IsDir() && strings.HasSuffix(path, ".rules") {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	return out, errors.Join(errs...)
}
