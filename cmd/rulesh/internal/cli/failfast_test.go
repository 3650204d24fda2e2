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
// third run at a limit stops them within seconds (the first runs all failing the same way,
// with --limit-runs 0), with exit 1 and the failure where eval places it, its source line
// and its call stack.
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
		{Prob, "prob", []string{"--limit-runs", "0"}},
		{Sim, "sim", []string{"--runs", "1000000", "--limit-runs", "0"}},
	} {
		args := append(append([]string{"-f", file}, c.args...), "roule()")
		code, out, errOut := runFor(t, 60*time.Second, c.cmd, args...)
		head := "rulesh " + c.name + ": 3 of the first 3 runs of roule() reached a limit, so " + c.name + " stopped there (--limit-runs N lets more count as outcomes; 0, all of them); the first reached max_loop_iterations:\n"
		if len(c.args) > 0 && c.args[len(c.args)-1] == "0" {
			head = "rulesh " + c.name + ": the first 20 runs of roule() fail the same way, so " + c.name + " stopped there (the others would too):\n"
		}
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
		head := "rulesh " + c.name + ": 3 of the first 3 runs of tours(n) reached a limit, so " + c.name + " stopped there"
		if code != ExitError || !strings.HasPrefix(errOut, head) || !strings.Contains(errOut, "in tours called at <"+c.name+">:1:1\n") {
			t.Errorf("%s --sweep: exit %d, stderr\n%s", c.name, code, errOut)
		}
	}
}

// TestSomeRunsAtALimitStop: prob and sim of a procedure that loops without end on one run in
// two ran for an hour (prob) or minutes (sim): the other runs succeed, so the runs do not all
// fail the same way. The third run at a limit stops them, saying how many of the runs so far
// reached one; --limit-runs 0 counts them as outcomes; a negative value is bad usage.
func TestSomeRunsAtALimitStop(t *testing.T) {
	file, err := filepath.Abs("../../../../analysis/testdata/endless.rules")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd  Command
		name string
		args []string
	}{
		{Prob, "prob", []string{"--budget", "1"}},
		{Sim, "sim", []string{"--runs", "1000000", "--seed", "1"}},
	} {
		args := append(append([]string{"-f", file}, c.args...), "moitié(1)")
		code, out, errOut := runFor(t, 20*time.Second, c.cmd, args...)
		head := "rulesh " + c.name + ": 3 of the first "
		tail := " runs of moitié(1) reached a limit, so " + c.name + " stopped there (--limit-runs N lets more count as outcomes; 0, all of them); the first reached max_loop_iterations:\n"
		if code != ExitError || out != "" || !strings.HasPrefix(errOut, head) || !strings.Contains(errOut, tail) ||
			!strings.Contains(errOut, "endless.rules:57:5: while loop exceeds the limit (max_loop_iterations = 100000)\n") ||
			!strings.HasSuffix(errOut, "    in moitié called at <"+c.name+">:1:1\n") {
			t.Errorf("%s %q: exit %d, stdout %q, stderr\n%s", c.name, c.args, code, out, errOut)
		}
	}
	code, out, errOut := runFor(t, 20*time.Second, Sim, "-f", file, "--runs", "10", "--seed", "1", "--limit-runs", "0", "moitié(1)")
	if code != ExitOK || !strings.Contains(out, "error: while loop exceeds the limit") {
		t.Errorf("--limit-runs 0: exit %d, stdout\n%s\nstderr %s", code, out, errOut)
	}
	for _, cmd := range []Command{Prob, Sim} {
		if code, _, errOut := runFor(t, 20*time.Second, cmd, "-f", file, "--limit-runs", "-1", "moitié(1)"); code != ExitUsage || !strings.Contains(errOut, "--limit-runs must be 0 or more") {
			t.Errorf("--limit-runs -1: exit %d, stderr %s", code, errOut)
		}
	}
}
