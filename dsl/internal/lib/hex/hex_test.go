package hex_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// TestBuiltinArgumentsChecked: hex builtins refuse a negative or huge count in the
// language's words, before doing the work (the card cases are lib/cards').
func TestBuiltinArgumentsChecked(t *testing.T) {
	prog, d := dsl.LoadSource("c.rules", []byte("ruleset \"c\"\ndeck jeu standard {\n}\npile main\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	cases := []struct{ src, want string }{
		{"ring(hex(1, 1), -1)", "radius cannot be negative"},
		{"hex_range(hex(1, 1), -3)", "radius cannot be negative"},
		{"len(ring(hex(1, 1), 2000000000))", "too far"},
		{"len(hex_range(hex(1, 1), 100000))", "max_steps"},
		{"len(line(hex(1, 1), hex(900000, 1)))", "max_steps"},
	}
	for _, c := range cases {
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		peek.Machine(m).Limits.MaxSteps = 100_000
		_, err = dsl.NewSession(m).Eval("<e>", c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.src, err, c.want)
		}
	}
}

// TestHexCoordinatesBounded: hexes far enough apart to overflow a distance are refused
// (hex_distance of (-2^63+1, 0) and (2^63-1, 0) said 2).
func TestHexCoordinatesBounded(t *testing.T) {
	s := session(t, "ruleset \"h\"\n")
	for src, want := range map[string]string{
		`hex_distance(hex(-9223372036854775807, 0), hex(9223372036854775807, 0))`: "a column or row is at most 1000000000 away from 0",
		`hex(1, 9223372036854775807)`:                           "a column or row is at most 1000000000 away from 0",
		`hex_distance(hex(-1000000000, 0), hex(1000000000, 0))`: "2000000000",
	} {
		v, err := s.Eval("<e>", src)
		got := runtime.Repr(v)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, want) {
			t.Errorf("%s = %s, want %s", src, got, want)
		}
	}
}

// session loads rules into a fresh session seeded with 1.
func session(t *testing.T, rules string) *dsl.Session {
	t.Helper()
	prog, d := dsl.LoadSource("t.rules", []byte(rules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	peek.Machine(m).Limits.MaxSteps = 10000
	return dsl.NewSession(m)
}

// TestHexParameterFields: the fields of a hex typed by a parameter, a let or a result are
// read (reading h.r of a `h: hex` parameter crashed the checker inside expr-lang).
func TestHexParameterFields(t *testing.T) {
	prog, d := dsl.LoadSource("h.rules", []byte(`ruleset "h"
rule f(h: hex): int { return h.r * 10 + h.q + hex_distance(h, h) }
rule g(h: hex): hex { return h }
rule k(): int {
  let h: hex = hex(3, 2)
  return h.q
}
`))
	if d.HasErrors() {
		t.Fatal(d)
	}
	for _, c := range []struct{ src, want string }{
		{"f(hex(2, 3))", "20"},
		{"[g(hex(2, 3)).q, g(hex(2, 3)).r]", "[0, 2]"},
		{"k()", "2"},
	} {
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := dsl.NewSession(m).Eval("<e>", c.src)
		if err != nil || runtime.Repr(v) != c.want {
			t.Errorf("%s = %s, %v; want %s", c.src, runtime.Repr(v), err, c.want)
		}
	}
}
