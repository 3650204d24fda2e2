package check_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
)

// TestTableGaps: the whole numbers no row holds between two bands are named, an open or
// one-sided band's bound included; an exact key or another band that holds them is no gap.
func TestTableGaps(t *testing.T) {
	for _, c := range []struct{ rows, want string }{
		// A one-sided band after a gap: 201 is in neither row.
		{"151 .. 200 : 1\n> 201 : 2", "t.rules:3:1: no row for 201 between this band and the one before"},
		{"151 .. 200 : 1\n>= 201 : 2", ""},
		{"< 100 : 1\n>= 151 : 2", "t.rules:3:1: no row for 100 to 150 between this band and the one before"},
		{"<= 3 : 1\n> 3 : 2", ""},
		{"(1 .. 3) : 1\n(3 .. 5) : 2", "t.rules:3:1: no row for 3 between this band and the one before"},
		{"1 .. 3 : 1\n6 .. 8 : 2", "t.rules:3:1: no row for 4 to 5 between this band and the one before"},
		// A key between two bands fills the gap, wherever its row is.
		{"1 .. 2 : 1\n3 : 2\n4 .. 6 : 3", ""},
		{"1 .. 2 : 1\n4 .. 6 : 3\n3 : 2", ""},
		{"1 .. 2 : 1\n4, 6 : 2\n8 .. 9 : 3", "t.rules:4:1: no row for 3, 5, 7 between this band and the one before"},
		{"1 .. 2 : 1\n4 : 2\n10 .. 12 : 3", "t.rules:4:1: no row for 3, 5 to 9 between this band and the one before"},
		{"1 .. 2 : 1\n5 .. 6 : 3\n3 .. 4 : 2", ""},
		{"1 .. 2 : 1\n2, 4, 6, 8, 10, 12, 14, 16 : 2\n17 .. 20 : 3", "t.rules:4:1: no row for 3, 5, 7, 9, 11, 13, … between this band and the one before"},
		{"1 .. 2 : 1\n5 .. 6 : 3\nelse : 0", ""},
	} {
		src := "table t(x) {\n" + c.rows + "\n}\n"
		_, diags := dsl.LoadSource("t.rules", []byte(src))
		var got []string
		for _, d := range diags {
			got = append(got, d.Pos.String()+": "+d.Summary)
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.rows, got, c.want)
		}
	}
}

// TestRolledTableGaps: a rolled table's gap is what its dice can roll.
func TestRolledTableGaps(t *testing.T) {
	checkSummaries(t, []struct{ src, want string }{
		{"table t roll 1d6 {\n  1 .. 2 : 1\n  > 4 : 2\n}\n", "t.rules:3:3: no row for 3 to 4 between this band and the one before"},
		{"table t roll 1d6 {\n  <= 2 : 1\n  > 200 : 2\n}\n", "t.rules:3:3: 1d6 can never reach band (200 .. ) (it gives 1 to 6)\nt.rules:3:3: no row for 3 to 6 between this band and the one before"},
	})
}

// TestAboveBelow: above and below rows belong to ratio columns, one of each.
func TestAboveBelow(t *testing.T) {
	checkSummaries(t, []struct{ src, want string }{
		{"table t(r, d) {\n  columns ratio 1:1, 2:1\n  below : 0\n  above : 9\n  1 : [1, 2]\n}\n", ""},
		{"table t(x) {\n  above : 9\n  1 : 1\n}\n", "t.rules:2:3: above is for ratio columns"},
		{"table t(c, x) {\n  columns \"A\", \"B\"\n  below : 9\n  1 : [1, 2]\n}\n", "t.rules:3:3: below is for ratio columns"},
		{"table t(r, d) {\n  columns ratio 1:1, 2:1\n  above : 0\n  above : 9\n  1 : [1, 2]\n}\n", "t.rules:4:3: table t has two above rows"},
		{"table t(r, d) {\n  columns ratio 1:1, 2:1\n  below : 0\n  below : 9\n  1 : [1, 2]\n}\n", "t.rules:4:3: table t has two below rows"},
	})
}

// TestRollModifierCheck: what a roll adds to its dice is any arithmetic of numbers,
// options, consts and parameters (an unknown name is reported where it stands); a table
// with columns takes none; a constant modifier shifts the range the reachability warnings
// use; the roll starts with dice and goes on with + or -.
func TestRollModifierCheck(t *testing.T) {
	checkSummaries(t, []struct{ src, want string }{
		{"table t(m) roll 1d6 + m {\n  < 4 : 1\n  else : 2\n}\n", ""},
		{"table t roll 1d6 + n {\n  else : 2\n}\n", "t.rules:1:20: unknown name n"},
		{"option stat = 1\nconst k = 2\ntable t(m) roll 2d6 + stat * 2 - (k + m) {\n  else : 2\n}\n", ""},
		{"table t roll 2d6 + 1d4 {\n  else : 2\n}\n", ""},
		{"option stat = 1\ntable t roll stat + 2d6 {\n  else : 2\n}\n", "t.rules:2:14: table t rolls stat + 2d6, which does not start with dice"},
		{"table t roll 2d6 * 2 {\n  else : 2\n}\n", "t.rules:1:18: table t rolls 2d6 * 2: after the dice, a roll adds or takes away terms"},
		{"table t roll 2dfoo {\n  else : 2\n}\n", "t.rules:1:16: table t: dice 2dfoo: unknown die \"foo\""},
		{"dice combat = [a, b]\ntable t roll 1dcombat {\n  a : 1\n  b : 2\n}\n", ""},
		{"table t roll 1d6 + 2 {\n  1 : 0\n  3 .. 8 : 1\n}\n", "t.rules:2:3: 1d6 can never roll 1 (it gives 3 to 8)"},
		{"table t(m) roll 1d6 - m {\n  -20 : 0\n  else : 1\n}\n", ""},
		{"table t(r, m) roll 1d6 + m {\n  columns ratio 1:1, 2:1\n  1 .. 6 : [1, 2]\n}\n", "t.rules:1:1: table t has columns and adds to its roll"},
	})
}

// checkSummaries loads each src and compares its diagnostics, "pos: summary" one per line,
// with want.
func checkSummaries(t *testing.T, cases []struct{ src, want string }) {
	t.Helper()
	for _, c := range cases {
		_, diags := dsl.LoadSource("t.rules", []byte(c.src))
		var got []string
		for _, d := range diags {
			got = append(got, d.Pos.String()+": "+d.Summary)
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.src, got, c.want)
		}
	}
}

// TestDieNameAfterCount: 2dcombat names a declared die in a rule expression as in the dice
// notation; an unknown name is reported at the literal's name, not as a number.
func TestDieNameAfterCount(t *testing.T) {
	checkSummaries(t, []struct{ src, want string }{
		{"dice combat = [a, b]\nrule r() {\n  return 2dcombat=a + 1dcombat=b\n}\n", ""},
		{"rule r() {\n  return 2dfoo + 1\n}\n", "t.rules:2:12: dice 2dfoo: unknown die \"foo\""},
	})
}
