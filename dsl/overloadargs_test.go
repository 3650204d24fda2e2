package dsl

import (
	"strings"
	"testing"
)

// TestOverloadedOperandsChecked: an error in an operand of an operator the rolls or lists
// overload (an argument too many) is reported where the call is, in typed input and in a
// rule file, as it is under an operator on plain ints; it used to run (1d6 + int(1, 2)
// gave the die) or stop with a Go stack (1d6 + str(1, 2)).
func TestOverloadedOperandsChecked(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"1d6 + int(1, 2)", "<input>:1:7: invalid number of arguments (expected 1, got 2)"},
		{"1d6 + str(1, 2)", "<input>:1:7: too many arguments to call str"},
		{"2 * (1d6 + int(1, 2))", "<input>:1:12: invalid number of arguments (expected 1, got 2)"},
		{"[1] + [int(1, 2)]", "<input>:1:8: invalid number of arguments (expected 1, got 2)"},
		{"3 + int(1, 2)", "<input>:1:5: invalid number of arguments (expected 1, got 2)"},
	} {
		s := newInputSession(t)
		_, err := s.Eval("<input>", c.src)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "goroutine") {
			t.Errorf("%s: error %v, want %q", c.src, err, c.want)
		}
	}
	// Operands that read # or a let's variable are checked where they stand, in the whole
	// tree (they ran, or failed when run with "expected machine, got int", or dropped an
	// argument: let y = 2; 1d6 + int(y, 2) gave a roll plus 2).
	for _, c := range []struct{ src, want string }{
		{"map([1, 2], 1d6 + int(#, 2))", "<input>:1:19: invalid number of arguments (expected 1, got 2)"},
		{"map([1, 2], 1d6 + nulle_part(#))", "<input>:1:19: unknown name nulle_part"},
		{"map([1, 2], 1d6 + upper(#))", "<input>:1:25: cannot use int as argument (type string) to call upper"},
		{"let y = 2; 1d6 + int(y, 2)", "<input>:1:18: invalid number of arguments (expected 1, got 2)"},
		// A roll's `in` is a call too, in a text with no operator the overloads take (it
		// failed when run: "expected bool, got int" at 1:8).
		{"1d6 in filter([1, 2], 1)", "<input>:1:23: predicate should return boolean (got int)"},
		{"1d6 in [int(1, 2)]", "<input>:1:9: invalid number of arguments (expected 1, got 2)"},
		{"filter([1], # + [int(#, 3)] != [])", "<input>:1:18: invalid number of arguments (expected 1, got 2)"},
	} {
		s := newInputSession(t)
		_, err := s.Eval("<input>", c.src)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.src, err, c.want)
		}
	}
	// Operands in a predicate or after a let that check still run.
	for src, want := range map[string]string{
		"let x = 2; 1d6 + x > 0":           "true",
		"all(map([1, 2], 1d6 + #), # > 1)": "true",
		"1d6 + int(2) > 2":                 "true",
		"let y = 2; 1d6 + int(y) > 2":      "true",
		"map([[1]], # + [2])":              "[[1, 2]]",
		"len(map([1, 2], 1d6 + int(#)))":   "2",
	} {
		s := newInputSession(t)
		v, err := s.Eval("<input>", src)
		if err != nil || Repr(v) != want {
			t.Errorf("%s = %v, %v; want %s", src, v, err, want)
		}
	}
	const rules = "rule r(): int {\n  return 1d6 + str(1, 2)\n}\n"
	_, diags := LoadSource("t.rules", []byte(rules))
	if got := diags.Error(); !strings.Contains(got, "t.rules:2:16: too many arguments to call str") || strings.Contains(got, "goroutine") {
		t.Errorf("load: %s", got)
	}
	_, diags = Check(memFiles{"t.rules": []byte(rules)}, "t.rules")
	if got := diags.Error(); !strings.Contains(got, "t.rules:2:16: too many arguments to call str") {
		t.Errorf("check: %s", got)
	}
}
