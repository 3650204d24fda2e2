package check_test

import (
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/runtime"
)

// A condition that is a lone count of successes (`if 3d6>=12`) is refused with both
// spellings; spaced, the same dice compare the total.
func TestCountAsCondition(t *testing.T) {
	const detail = "(glued, 3d6>=12 counts the dice showing 12 or more; to compare the total write 3d6 >= 12 (spaced), to use the count write total(3d6>=12))"
	for _, c := range []struct{ stmt, want string }{
		{"if 3d6>=12 { return 1 }", "3:6: 3d6>=12 is a count of successes, not true or false " + detail + "\n"},
		{"while  3d6>=12 { return 1 }", "3:10: 3d6>=12 is a count of successes, not true or false " + detail + "\n"},
		{"require 3d6>=12 else \"non\"", "3:11: 3d6>=12 is a count of successes, not true or false " + detail + "\n"},
		{"if 3d6 >= 12 { return 1 }", ""},
		{"if total(3d6>=12) > 0 { return 1 }", ""},
		{"if 3d6 { return 1 }", "3:6: condition is roll, not bool (compare it with ==, <, >= …)\n"},
	} {
		src := "ruleset \"t\"\nrule f(): int {\n  " + c.stmt + "\n  return 0\n}\n"
		_, diags := dsl.LoadSource("t.rules", []byte(src))
		if got := diagLines(diags); got != c.want {
			t.Errorf("%s:\ngot  %s\nwant %s", c.stmt, got, c.want)
		}
	}
}

// Glued, a comparison counts the dice; spaced, it compares the total; total(…) keeps the
// count plain where it is compared.
func TestCountAndTotal(t *testing.T) {
	for _, c := range []struct {
		expr  string
		rolls []int
		want  string
	}{
		{"total(3d10>=8)", []int{9, 2, 8}, "2"},
		{"total(3d10>=8) >= 2", []int{9, 2, 8}, "true"},
		{"3d10 >= 8", []int{9, 2, 8}, "true"},
		{"3d10 >= 20", []int{9, 2, 8}, "false"},
	} {
		v, _, err := run(t, "ruleset \"t\"\n", c.expr, c.rolls...)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		if got := runtime.Str(v); got != c.want {
			t.Errorf("%s = %s, want %s", c.expr, got, c.want)
		}
	}
}
