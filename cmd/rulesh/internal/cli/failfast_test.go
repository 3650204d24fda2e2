package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runFor runs a command and fails the test if it has not returned after d: a regression
// would run for an hour, and the test must not hang with it.
func runFor(t *testing.T, d time.Duration, cmd Command, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- cmd(IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}, args) }()
	select {
	case code := <-done:
		return code, out.String(), errOut.String()
	case <-time.After(d):
		t.Fatalf("%v: still running after %v", args, d)
	}
	panic("unreachable")
}

// TestEndlessDiceLoopStops: prob and sim of a procedure that rolls dice in a loop without
// end used to run for an hour (each of tens of thousands of runs to the loop's limit); the
// first runs all failing the same way stop them within seconds, with exit 1 and the failure
// where eval places it, its source line and its call stack.
func TestEndlessDiceLoopStops(t *testing.T) {
	file, err := filepath.Abs("../../../../analysis/testdata/endless.rules")
	if err != nil {
		t.Fatal(err)
	}
	code, _, evalErr := runFor(t, 30*time.Second, Eval, "-f", file, "roule()")
	if code != ExitError || !strings.Contains(evalErr, "in roule called at <eval>:1:1\n") {
		t.Fatalf("eval: exit %d, stderr %q", code, evalErr)
	}
	for _, c := range []struct {
		cmd  Command
		name string
		args []string
	}{
		{Prob, "prob", nil},
		{Prob, "prob", []string{"--samples", "1000000"}},
		{Sim, "sim", []string{"--runs", "1000000"}},
		{Sim, "sim", []string{"--runs", "1000000", "--workers", "1"}},
	} {
		args := append(append([]string{"-f", file}, c.args...), "roule()")
		code, out, errOut := runFor(t, 60*time.Second, c.cmd, args...)
		head := "rulesh " + c.name + ": the first 20 runs of roule() fail the same way, so " + c.name + " stopped there (the others would too):\n"
		where := strings.ReplaceAll(evalErr, "<eval>", "<"+c.name+">")
		if code != ExitError || out != "" || errOut != head+where {
			t.Errorf("%s %q: exit %d, stdout %q, stderr\n%s\nwant exit 1, no stdout, stderr\n%s", c.name, c.args, code, out, errOut, head+where)
		}
	}
	// A sweep whose last value loops without end stops there too, with the same report.
	for _, c := range []struct {
		cmd  Command
		name string
		args []string
	}{{Prob, "prob", nil}, {Sim, "sim", []string{"--runs", "2000"}}} {
		// The values that end are few and small: under the race detector a sweep of large
		// ones would take minutes before reaching the one that does not end.
		args := append(append([]string{"-f", file}, c.args...), "--sweep", "n=2,6", "tours(n)")
		code, _, errOut := runFor(t, 60*time.Second, c.cmd, args...)
		head := "rulesh " + c.name + ": the first 20 runs of tours(n) fail the same way, so " + c.name + " stopped there (the others would too):\n"
		if code != ExitError || !strings.HasPrefix(errOut, head) || !strings.Contains(errOut, "in tours called at <"+c.name+">:1:1\n") {
			t.Errorf("%s --sweep: exit %d, stderr\n%s", c.name, code, errOut)
		}
	}
}
