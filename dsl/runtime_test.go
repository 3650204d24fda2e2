package dsl

import (
	"encoding/json"
	"strings"
	"testing"

	"rulesh/dsl/runtime"
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
		if err != nil || runtime.Repr(v) != "34" {
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
		{"allow(main, jeu, -5)", "cannot be negative"},
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
	out, err := json.Marshal(runtime.ToJSON(a))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"$kind":"N","m":{"moi":"\u003ccycle: map\u003e"},"s":{"$kind":"N","m":{},"s":"\u003ccycle: N\u003e"}}`
	if string(out) != want {
		t.Errorf("json = %s\nwant   %s", out, want)
	}
	if got, want := runtime.Repr(a), "N{s: N{s: <cycle: N>, m: {}}, m: {moi: <cycle: map>}}"; got != want {
		t.Errorf("Repr = %s, want %s", got, want)
	}
	// A value shared twice, without a cycle, prints twice.
	if err := s.Exec("<e>", "b.s = [a.m, a.m]"); err != nil {
		t.Fatal(err)
	}
	if got := runtime.Repr(b(m)); strings.Contains(got, "cycle: N") || strings.Count(got, "moi") != 2 {
		t.Errorf("shared value: Repr = %s", got)
	}
}

func b(m *Machine) any { v, _ := m.Global("b"); return v }

// evalCase is an input and what it gives: a value printed as want, or an error holding err.
type evalCase struct{ src, want, err string }

// checkEvals evaluates each case on a fresh machine of prog, its dice from newSource.
func checkEvals(t *testing.T, prog *Program, newSource func() dice.Source, cases []evalCase) {
	t.Helper()
	for _, c := range cases {
		m, err := NewMachine(prog, newSource(), nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := NewSession(m).Eval("<e>", c.src)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: err = %v, want %q", c.src, err, c.err)
		case c.err == "" && (err != nil || runtime.Repr(v) != c.want):
			t.Errorf("%s = %v, %v; want %s", c.src, runtime.Repr(v), err, c.want)
		}
	}
}

// TestCardMembershipAndTypes: `in` finds a card in a list or a pile's cards (expr alone
// dereferenced the card and found nothing of its type), and type() names values in the
// language's words, not Go's.
func TestCardMembershipAndTypes(t *testing.T) {
	prog, d := LoadSource("c.rules", []byte("ruleset \"c\"\ndeck jeu standard {\n}\npile main\nkind Poste {\n  nom: string\n}\nentity p: Poste { nom = \"P\" }\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	cases := []evalCase{
		{src: "Q♣ in [Q♣]", want: "true"},
		{src: "K♣ in [Q♣, 7♠]", want: "false"},
		{src: "jeu.cards[3] in jeu.cards", want: "true"},
		{src: "Q♣ in main.cards", want: "false"},
		{src: "2 in [1, 2]", want: "true"},
		{src: `"a" in {"a": 1}`, want: "true"},
		{src: "type(Q♣)", want: `"card"`},
		{src: "type(1d6)", want: `"roll"`},
		{src: "type(p)", want: `"Poste"`},
		{src: "type([1])", want: `"list"`},
	}
	checkEvals(t, prog, func() dice.Source { return dice.NewPCG(1) }, cases)
}

// TestIntConversion: int() cuts a fraction toward zero, reads a string, takes a roll's total,
// and refuses a value beyond the whole numbers instead of wrapping it.
func TestIntConversion(t *testing.T) {
	prog, d := LoadSource("c.rules", []byte("ruleset \"c\"\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	cases := []evalCase{
		{src: "int(2.7)", want: "2"},
		{src: "int(-2.7)", want: "-2"},
		{src: `int(" 12")`, want: "12"},
		{src: "int(1d6)", want: "5"},
		{src: "abs(-1 * 1d6)", want: "5"},
		{src: `int("x")`, err: "not a whole number"},
		{src: "int(1e300)", err: "beyond the whole numbers"},
		{src: "int(floor(5.0 / 0.0)) + 1", err: "beyond the whole numbers"},
		{src: "int(-1e19)", err: "beyond the whole numbers"},
	}
	checkEvals(t, prog, func() dice.Source { return dice.NewIntQueue([]int{5}, nil) }, cases)
}

// TestCardMovesCharged: every pile change keeps the old cards for the rollback, so moving
// cards counts against the memory budget (dealing a deck back and forth 100,000 times in one
// call took 4 GB before the step limit answered).
func TestCardMovesCharged(t *testing.T) {
	src := "ruleset \"c\"\ndeck jeu standard {\n}\npile p\naction va_et_vient(n: int): int {\n  for i in 1..n {\n    deal(jeu, p, 52)\n    deal(p, jeu, 52)\n  }\n  return len(jeu.cards)\n}\n"
	prog, d := LoadSource("c.rules", []byte(src))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Limits.MemoryBudget = 100_000
	if v, err := NewSession(m).Eval("<e>", "va_et_vient(10)"); err != nil || runtime.Repr(v) != "52" {
		t.Errorf("va_et_vient(10) = %v, %v", runtime.Repr(v), err)
	}
	if _, err := NewSession(m).Eval("<e>", "va_et_vient(1000)"); err == nil || !strings.Contains(err.Error(), "memory_budget = 100000") {
		t.Errorf("va_et_vient(1000): %v, want the memory limit", err)
	}
}

// TestHexCoordinatesBounded: hexes far enough apart to overflow a distance are refused
// (hex_distance of (-2^63+1, 0) and (2^63-1, 0) said 2).
func TestHexCoordinatesBounded(t *testing.T) {
	s := newInputSession(t)
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

// TestBuiltinNamesAndNaNBands: a procedure or const named like an expr-lang builtin is
// refused (count(…) would reach the builtin, never the rule), and NaN is no table key nor
// band bound (it compares false both ways, so a band held every key).
func TestBuiltinNamesAndNaNBands(t *testing.T) {
	for _, src := range []string{"rule count(x: int): int {\n  return x\n}\n", "const filter = 1\n"} {
		if _, d := LoadSource("b.rules", []byte(src)); !strings.Contains(d.Error(), "is a builtin function") {
			t.Errorf("%q: %v, want a builtin clash", src, d)
		}
	}
	prog, d := LoadSource("n.rules", []byte("table t(x) {\n  0.0 / 0.0 .. 1 : \"a\"\n  else : \"b\"\n}\ntable u(x) {\n  0 .. 1 : \"a\"\n  else : \"b\"\n}\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	for _, c := range []struct{ src, want string }{
		{"t(0.5)", "bound must be a number, got NaN"},
		{"u(0.0 / 0.0)", "the key is NaN"},
	} {
		m, err := NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewSession(m).Eval("<e>", c.src); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.src, err, c.want)
		}
	}
}

// TestTableDistErrorPlace: a rolled table whose odds cannot be computed says where the table
// is, not a column inside its notation.
func TestTableDistErrorPlace(t *testing.T) {
	prog, d := LoadSource("td.rules", []byte("table r2 roll 1d1000000 {\n  1 .. 10 : \"a\"\n  else : \"b\"\n}\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	_, err := prog.TableDist("r2")
	if err == nil || !strings.HasPrefix(err.Error(), "td.rules:1:1: table r2: 1d1000000: exact odds") {
		t.Errorf("err = %v", err)
	}
}

// TestReviewedBounds: what toJSON and string build counts against memory_budget; join is
// sized with its separator before it builds; a map key "__kind" compares as any key; the
// printed form stops at its bound without trailing separators; uniq keeps what == keeps; a
// message quotes the rule's own text untranslated.
func TestReviewedBounds(t *testing.T) {
	prog, d := LoadSource("c.rules", []byte("ruleset \"c\"\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	cases := []evalCase{
		{src: `len(toJSON(map(1..20000, repeat("x", 10000))))`, err: "memory_budget"},
		{src: `len(join(map(1..30000, ""), repeat("x", 30000)))`, err: "memory_budget"},
		{src: `join(["a", "b", "c"], "-")`, want: `"a-b-c"`},
		{src: `join(["a", "b"])`, want: `"ab"`},
		{src: `join([1, 2])`, err: "element 1 is int"},
		{src: `{"__kind": [1]} == {"__kind": [1]}`, want: "true"},
		{src: `len(string(1..300000)) < 1100000`, want: "true"},
		{src: `uniq([1152921504606846976, 1152921504606846976.0])`, want: "[1152921504606846976]"},
		{src: `{"a]": 2, b: 3}`, want: `{"a]": 2, b: 3}`},
		{src: `int("float64 __rollf")`, err: `int("float64 __rollf"): not a whole number`},
	}
	checkEvals(t, prog, func() dice.Source { return dice.NewPCG(1) }, cases)
}
