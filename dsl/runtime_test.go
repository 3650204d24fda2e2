package dsl

import (
	"encoding/json"
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

// TestCyclesPrint: records and maps that refer to each other convert to JSON and print,
// with the cycle marked.
func TestCyclesPrint(t *testing.T) {
	prog, d := LoadSource("c.rules", []byte("ruleset \"c\"\nkind N {\n  s: any\n  m: map\n}\nentity a: N { }\nentity b: N { }\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(m)
	for _, src := range []string{"a.s = b", "b.s = a", `a.m["moi"] = a.m`} {
		if err := s.Exec("<e>", src); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := m.Global("a")
	out, err := json.Marshal(ToJSON(a))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"$kind":"N","m":{"moi":"\u003ccycle: map\u003e"},"s":{"$kind":"N","m":{},"s":"\u003ccycle: N\u003e"}}`
	if string(out) != want {
		t.Errorf("json = %s\nwant   %s", out, want)
	}
	if got, want := Repr(a), "N{s: N{s: <cycle: N>, m: {}}, m: {moi: <cycle: map>}}"; got != want {
		t.Errorf("Repr = %s, want %s", got, want)
	}
	// A value shared twice, without a cycle, prints twice.
	if err := s.Exec("<e>", "b.s = [a.m, a.m]"); err != nil {
		t.Fatal(err)
	}
	if got := Repr(b(m)); strings.Contains(got, "cycle: N") || strings.Count(got, "moi") != 2 {
		t.Errorf("shared value: Repr = %s", got)
	}
}

func b(m *Machine) any { v, _ := m.Global("b"); return v }
