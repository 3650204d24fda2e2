package check_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/syntax"
)

// TestTableLint: the usual slips in a table's bands, each at its row: a band sharing a whole
// end with an earlier one, a band the rows above hold entirely, a gap between fractional
// bands (a warning), and a gap the table's own dice can roll (an error).
func TestTableLint(t *testing.T) {
	for _, c := range []struct{ head, rows, want string }{
		// Shared whole end: the first row keeps 6.
		{"t(x)", "1 .. 6 : 1\n6 .. 12 : 2", "warning t.rules:3:1: band [6 .. 12] starts where [1 .. 6] (row t.rules:2:1) ends: 6 goes to the first row"},
		{"t roll 2d6", "2 .. 6 : 1\n6 .. 12 : 2", "warning t.rules:3:1: band [6 .. 12] starts where [2 .. 6] (row t.rules:2:1) ends: 6 goes to the first row"},
		{"t(x: int)", "<= 6 : 1\n6 .. 12 : 2\nelse : 3", "warning t.rules:3:1: band [6 .. 12] starts where ( .. 6] (row t.rules:2:1) ends: 6 goes to the first row"},
		// Fractional shared ends are the seeds' way of writing bands; an open end says so.
		{"t(x)", "0 .. 1.5 : 1\n1.5 .. 2.5 : 2", ""},
		{"t(x)", "1 .. 6 : 1\n(6 .. 12] : 2", ""},
		{"t(x)", "1 .. 6 : 1\n7 .. 12 : 2", ""},
		// A row no key can reach.
		{"t(x)", "< 10 : 1\n<= 5 : 2", "warning t.rules:3:1: no key reaches band ( .. 5]: the rows above it hold all of it"},
		{"t(x)", "<= 3 : 1\n> 3 : 2\n>= 10 : 3", "warning t.rules:4:1: no key reaches band [10 .. ): the rows above it hold all of it"},
		{"t(x)", "< 3 : 1\n<= 8 : 2\nelse : 3", ""},
		{"t(x)", "1 .. 4 : 1\n5 .. 8 : 2\n>= 9 : 3\n>= 12 : 4", "warning t.rules:5:1: no key reaches band [12 .. ): the rows above it hold all of it"},
		// Gaps between fractional bands, and whole bands among fractional ones.
		{"t(x)", "0 .. 1.5 : 1\n2 .. 3 : 2", "warning t.rules:3:1: no row between [0 .. 1.5] and [2 .. 3]"},
		{"t(x)", "0 .. 1.5 : 1\n1.5 .. 2 : 2\n3 .. 4 : 3", "warning t.rules:4:1: no row between [1.5 .. 2] and [3 .. 4]"},
		{"t(x)", "0 .. 1.5 : 1\n1.5 .. 2 : 2\n(2 .. 4] : 3", ""},
		{"t(x)", "[0 .. 1.5) : 1\n(1.5 .. 3] : 2\n1.5 : 9", ""},
		{"t(x)", "1 .. 3 : 1\n4 .. 6 : 2", ""},
		// A gap the table's dice can roll fails at its use: an error.
		{"t roll 3d6", "3 .. 10 : 1\n12 .. 18 : 2", "error t.rules:3:1: no row for 11 between this band and the one before"},
		{"t(x)", "3 .. 10 : 1\n12 .. 18 : 2", "warning t.rules:3:1: no row for 11 between this band and the one before"},
	} {
		src := "table " + c.head + " {\n" + c.rows + "\n}\n"
		_, diags := dsl.LoadSource("t.rules", []byte(src))
		var got []string
		for _, d := range diags {
			sev := "error"
			if d.Severity == syntax.Warning {
				sev = "warning"
			}
			got = append(got, sev+" "+d.Pos.String()+": "+d.Summary)
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%s %q:\ngot  %q\nwant %q", c.head, c.rows, got, c.want)
		}
	}
}
