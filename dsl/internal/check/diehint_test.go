package check_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
)

// TestUnknownDieHint: a misspelt declared die gets a "did you mean", in a rule's dice
// literal (bracketed or glued) and in a table's roll; a name far from every die gets none.
func TestUnknownDieHint(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"rule r() {\n  return 2d[abilty]\n}\n", "t.rules:3:13: dice 2d[abilty]: unknown die \"abilty\" / did you mean ability?"},
		{"rule r() {\n  return 2dabilty\n}\n", "t.rules:3:12: dice 2dabilty: unknown die \"abilty\" / did you mean ability?"},
		{"table t roll 1d[abilty] {\n  else : 1\n}\n", "t.rules:2:17: table t: dice 1d[abilty]: unknown die \"abilty\" / did you mean ability?"},
		{"rule r() {\n  return 2d[zzz]\n}\n", "t.rules:3:13: dice 2d[zzz]: unknown die \"zzz\" / "},
	} {
		_, diags := dsl.LoadSource("t.rules", []byte("dice ability = [a, b]\n"+c.src))
		if len(diags) != 1 {
			t.Fatalf("%q: %v", c.src, diags)
		}
		if got := diags[0].Pos.String() + ": " + diags[0].Summary + " / " + diags[0].Detail; got != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.src, got, c.want)
		}
	}
}

// TestDiceLiteralForDie: a dice literal rolls where it stands, so given to a parameter typed
// die it is a roll, refused at load with the way to pass a die; a declared die fits.
func TestDiceLiteralForDie(t *testing.T) {
	src := "dice six = [1, 2, 3, 4, 5, 6]\nrule pool(d: die, n: int): int {\n  return roll(d, n).total\n}\n"
	_, diags := dsl.LoadSource("t.rules", []byte(src+"rule a(): int {\n  return pool(six, 2)\n}\n"))
	if len(diags) != 0 {
		t.Fatalf("a declared die: %v", diags)
	}
	_, diags = dsl.LoadSource("t.rules", []byte(src+"rule a(): int {\n  return pool(d6, 2)\n}\n"))
	if len(diags) != 1 || diags[0].Pos.String()+": "+diags[0].Summary != "t.rules:6:15: parameter d of pool is die, got roll" ||
		!strings.Contains(diags[0].Detail, "declare the die") {
		t.Fatalf("d6 given for a die: %v", diags)
	}
}
