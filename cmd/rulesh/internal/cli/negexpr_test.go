package cli

import (
	"strings"
	"testing"
)

// TestNegativeExpressionIsNotAFlag: `rulesh roll -12*1d20` was refused as an unknown flag
// --12*1d20. An argument starting with a minus that reads as an expression is one, wherever
// it stands; unknown flags are still refused, and flag values are not mistaken for one.
func TestNegativeExpressionIsNotAFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"--seed", "1", "-12*1d20"}, 0, "-12 * 1d20 ["},
		{[]string{"-12*1d20", "--seed", "1"}, 0, "-12 * 1d20 ["},
		{[]string{"--seed", "1", "-d20+3"}, 0, "-d20 ["},
		{[]string{"--seed", "1", "-(1d4)"}, 0, "-1d4 ["},
		{[]string{"-n", "2", "--seed", "1", "-1d4"}, 0, "-1d4 ["},
		{[]string{"-x", "2d6"}, ExitUsage, ""},
		{[]string{"-json", "1d4"}, 0, `"expr"`},
	} {
		code, out, errOut := runIn(t, ".", "", Roll, c.args...)
		if code != c.code || !strings.Contains(out, c.out) {
			t.Errorf("roll %v: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, out, errOut, c.code, c.out)
		}
	}
}
