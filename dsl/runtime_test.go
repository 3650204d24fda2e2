package dsl

import (
	"strings"
	"testing"

	"rulesh/stdlib/dice"
)

// TestShuffleSparesHandGivenRolls: decks shuffle from the seeded source, so the start-up
// shuffle does not eat results given by hand for dice.
func TestShuffleSparesHandGivenRolls(t *testing.T) {
	prog, d := LoadSource("c.rules", []byte("ruleset \"c\"\ndeck jeu standard {\n}\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	for _, q := range []*dice.Queue{dice.NewIntQueue([]int{3, 4}, nil), dice.NewIntQueue([]int{3, 4}, dice.NewPCG(2))} {
		m, err := NewMachine(prog, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := NewSession(m).Eval("<e>", "d(6) * 10 + d(6)")
		if err != nil || Repr(v) != "34" {
			t.Errorf("d(6)*10+d(6) = %v, %v; want 34", v, err)
		}
		if _, err := NewSession(m).Eval("<e>", "shuffle(jeu)"); err != nil {
			t.Errorf("shuffle with no hand-given result left: %v", err)
		}
	}
}

// TestBuiltinArgumentsChecked: hex and card builtins refuse a negative or huge count in the
// language's words, before doing the work.
func TestBuiltinArgumentsChecked(t *testing.T) {
	prog, d := LoadSource("c.rules", []byte("ruleset \"c\"\ndeck jeu standard {\n}\npile main\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	cases := []struct{ src, want string }{
		{"ring(hex(1, 1), -1)", "radius cannot be negative"},
		{"hex_range(hex(1, 1), -3)", "radius cannot be negative"},
		{"len(ring(hex(1, 1), 2000000000))", "too far"},
		{"len(hex_range(hex(1, 1), 100000))", "max_steps"},
		{"len(line(hex(1, 1), hex(900000, 1)))", "max_steps"},
		{"draw(jeu, -1)", "cannot be negative"},
		{"deal(jeu, main, -1)", "cannot be negative"},
	}
	for _, c := range cases {
		m, err := NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		m.Limits.MaxSteps = 100_000
		_, err = NewSession(m).Eval("<e>", c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.src, err, c.want)
		}
	}
}
