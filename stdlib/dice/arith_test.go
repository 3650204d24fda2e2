package dice

import (
	"strings"
	"testing"
)

// TestArithRefusedBothWays: an operation the notation refuses (a value beyond 2^53, a
// division by zero, a negative power) is the same error, with its column, when rolled and
// in the exact distribution: it used to wrap around (2^50*2^50 was 0), or to be left out
// of the distribution as lost probability reported as truncated explosions.
func TestArithRefusedBothWays(t *testing.T) {
	tests := []struct{ src, want string }{
		{"2^50*2^50", "column 5: a value beyond 2^53"},
		{"1099511627776*1099511627776*1d2", "column 14: a value beyond 2^53"},
		{"2^53 + 2^53", "column 6: a value beyond 2^53"},
		{"0 - 2^53 - 2^53", "a value beyond 2^53"},
		{"2^62", "column 2: a value beyond 2^53"},
		{"1d1 % (1d1-1)", "column 5: division by zero"},
		{"floor(1d1/(1d1-1))", "column 10: division by zero"},
		{"2^(1d1-2)", "column 2: 2^-1: a negative power gives a fraction"},
		{"floor(1099511627776*1099511627776*1099511627776/1)", "a value beyond 2^53"},
	}
	for _, tt := range tests {
		e, err := Parse(tt.src, nil)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		if _, err := e.Roll(NewPCG(1)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Roll(%q) = %v, want an error containing %q", tt.src, err, tt.want)
		}
		if d, err := e.Distribution(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Distribution(%q) = %v (mass %v), want an error containing %q", tt.src, err, d, tt.want)
		}
	}
}

// TestComputedCountOverflow: a computed count or number of sides beyond 2^53 says so, at
// its operator, rather than wrap around to no dice.
func TestComputedCountOverflow(t *testing.T) {
	for src, want := range map[string]string{
		"(2^40*2^40)d6": "column 6: a value beyond 2^53",
		"3d(2^40*2^40)": "column 8: a value beyond 2^53",
	} {
		if _, err := Parse(src, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", src, err, want)
		}
	}
}
