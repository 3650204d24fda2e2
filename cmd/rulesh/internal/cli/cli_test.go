package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// runIn runs a command from dir with stdin and returns its exit code, stdout and stderr.
func runIn(t *testing.T, dir, stdin string, cmd Command, args ...string) (int, string, string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errOut bytes.Buffer
	code := cmd(IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut}, args)
	return code, out.String(), errOut.String()
}
