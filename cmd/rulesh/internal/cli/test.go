package cli

import (
	"fmt"
	"strings"

	"rulesh/cmd/rulesh/internal/repl"
	"rulesh/cmd/rulesh/internal/transcript"
)

// test is `rulesh test [--update] [PATH]...`.
func (c *cli) test(args []string) int {
	fs := c.newFlags("test", "test [--update] [PATH]...")
	update := fs.Bool("update", false, "rewrite the expected output of every transcript")
	paths, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(paths) == 0 {
		paths = []string{"tests"}
	}
	files, err := transcript.Find(paths)
	if err != nil {
		fmt.Fprintf(c.stderr, "rulesh test: %v\n", err)
		return ExitError
	}
	if len(files) == 0 {
		fmt.Fprintf(c.stderr, "rulesh test: no .transcript file under %s\n", strings.Join(paths, ", "))
		return ExitError
	}
	pass, fail := 0, 0
	for _, f := range files {
		ok, msg := transcript.RunFile(f, *update, repl.Open)
		if ok {
			pass++
			fmt.Fprintf(c.stdout, "ok    %s\n", f)
			continue
		}
		fail++
		fmt.Fprintf(c.stdout, "FAIL  %s\n%s", f, msg)
	}
	fmt.Fprintf(c.stdout, "%d passed, %d failed\n", pass, fail)
	if fail > 0 {
		return ExitError
	}
	return ExitOK
}
