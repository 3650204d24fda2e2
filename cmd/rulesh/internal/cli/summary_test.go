package cli

import (
	"testing"

	"rulesh/dsl"
)

// TestCheckSummary: check's summary counts every sort of declaration, so a file of dice, an
// enum, a deck or a map alone is not called empty.
func TestCheckSummary(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"dice a = [x, y]\ndice b = [1, 2]\n", "2 dice"},
		{"dice a = [x, y]\n", "1 dice"},
		{"enum E { p, q }\nenum F { r }\n", "2 enums"},
		{"option o = 1 \"o\"\nenum E { p }\ndice a = [x]\ndeck jeu standard\nrule r() {\n}\n", "1 option, 1 enum, 1 dice, 1 deck, 1 procedure"},
		{"", "empty"},
	} {
		prog, diags := dsl.LoadSource("t.rules", []byte(c.src))
		if diags.HasErrors() {
			t.Fatalf("%q: %v", c.src, diags)
		}
		if got := summary(prog); got != c.want {
			t.Errorf("%q: summary %q, want %q", c.src, got, c.want)
		}
	}
}
