package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestEmptyAndNilResults: max([]), min([]) and a missing key of a plain map printed nothing
// and exit 0. max and min of an empty list are errors with their position; a nil value is
// printed as nil, and only a call of a procedure that returns nothing prints nothing.
func TestEmptyAndNilResults(t *testing.T) {
	file := filepath.Join(t.TempDir(), "n.rules")
	if err := os.WriteFile(file, []byte("action act() {\n  emit \"hi\"\n}\nrule vide(): any {\n  return nil\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		expr, out, err string
		code           int
	}{
		{"max([])", "", "<eval>:1:1: max of an empty list has no value\n    max([])\n    ^\n", ExitError},
		{"1 + min(filter([1, 2], # > 5))", "", "<eval>:1:5: min of an empty list has no value\n    1 + min(filter([1, 2], # > 5))\n        ^\n", ExitError},
		{"max([3, 1d1])", "3\n", "", ExitOK},
		{`{"a": 1}.b`, "nil\n", "", ExitOK},
		{`{"a": 1}["b"]`, "nil\n", "", ExitOK},
		{"vide()", "nil\n", "", ExitOK},
		{"act()", "hi\n", "", ExitOK},
		{"act() ?? 2", "hi\n2\n", "", ExitOK},
	} {
		code, out, errOut := runFor(t, 20*time.Second, Eval, "-f", file, "--seed", "1", c.expr)
		if code != c.code || out != c.out || errOut != c.err {
			t.Errorf("eval %s: exit %d, stdout %q, stderr %q; want %d, %q, %q", c.expr, code, out, errOut, c.code, c.out, c.err)
		}
	}
}

// TestBudgetBounds: --budget beyond analysis.MaxBudget is bad usage, where a budget near
// the top of int64 overflowed and a budget of two trillion enumerated for hours.
func TestBudgetBounds(t *testing.T) {
	for _, b := range []string{"9223372036854775807", "2000000000000", "100000001", "0"} {
		code, out, errOut := runFor(t, 20*time.Second, Prob, "--budget", b, "--exact", "3d6")
		if code != ExitUsage || out != "" || errOut != "rulesh prob: --budget must be between 1 and 100000000\n" {
			t.Errorf("--budget %s: exit %d, stdout %q, stderr %q", b, code, out, errOut)
		}
	}
}
