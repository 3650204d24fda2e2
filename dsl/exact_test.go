package dsl_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
)

// TestExactThresholds: fractions compare, round and print as their decimal value (15
// significant digits); pct is a percentage; ceil, floor and round give ints.
func TestExactThresholds(t *testing.T) {
	_, s := facade(t)
	for _, c := range []struct{ expr, want string }{
		{"1 - 8/10 >= 0.2", "true"},
		{"1 - 8/10 < 0.2", "false"},
		{"1 - 8/10 == 0.2", "true"},
		{"0.1 + 0.2 == 0.3", "true"},
		{"0.1 + 0.2 != 0.3", "false"},
		{"0.1 + 0.2 > 0.3", "false"},
		{"0.1 + 0.2 <= 0.3", "true"},
		{"0.1 * 3 == 0.3", "true"},
		{"3 == 3.0", "true"},
		{"2 < 2.0000001", "true"},
		{"1/3 < 0.3333334", "true"},
		{"1/3 > 0.333333", "true"},
		{"0.1 + 0.2", "0.3"},
		{"1 - 8/10", "0.2"},
		{"1/3", "0.333333333333333"},
		{"2/3", "0.666666666666667"},
		{"10 * 0.3", "3.0"},
		{"pct(40)", "0.4"},
		{"pct(12.5)", "0.125"},
		{"4/10 >= pct(40)", "true"},
		{"39/100 >= pct(40)", "false"},
		{"ceil(10 * 0.3)", "3"},
		{"ceil(0.7 * 10)", "7"},
		{"ceil(2.1)", "3"},
		{"floor(-0.5)", "-1"},
		{"floor(7)", "7"},
		{"round(2.5)", "3"},
		{"round(-2.5)", "-3"},
		{"round(2.675 * 100)", "268"},
		{"type(ceil(2.5))", `"int"`},
		{"fmt_pct(1 - 8/10, 0)", `"20%"`},
		{"fmt_num(1 - 8/10, 20)", `"0.20000000000000000000"`},
		{"fmt_num(1/3, 17)", `"0.33333333333333300"`},
		{"40%", "0.4"},
		{"12.5%", "0.125"},
		{"0.5%", "0.005"},
		{"100%", "1.0"},
		{"1 - 8/10 >= 20%", "true"},
		{"max(40%, 2%)", "0.4"},
		{"[5%, 7 % 3, 7%3]", "[0.05, 1, 1]"},
		{"fmt_pct(40%, 0)", `"40%"`},
		{"(40%) - 0.1", "0.3"},
	} {
		v, err := s.Eval("<t>", c.expr)
		if got := dsl.Repr(v); err != nil || got != c.want {
			t.Errorf("%s = %s, %v; want %s", c.expr, dsl.Repr(v), err, c.want)
		}
	}
	// A sign after N% could start either a percentage's sum or a remainder's operand.
	for _, x := range []string{"40% - 1", "40 % -1", "40%+x"} {
		if _, err := s.Eval("<t>", x); err == nil || !strings.Contains(err.Error(), "is ambiguous") {
			t.Errorf("%s: %v, want ambiguous", x, err)
		}
	}
}
