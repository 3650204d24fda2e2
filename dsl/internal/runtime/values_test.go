package runtime_test

import (
	"encoding/json"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/dsltest"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// TestShuffleSparesHandGivenRolls: decks shuffle from the seeded source, so the start-up
// shuffle does not eat results given by hand for dice.
func TestShuffleSparesHandGivenRolls(t *testing.T) {
	prog, d := dsl.LoadSource("c.rules", []byte("ruleset \"c\"\ndeck jeu standard {\n}\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	for _, q := range []*dice.Queue{dice.NewIntQueue([]int{3, 4}, nil), dice.NewIntQueue([]int{3, 4}, dice.NewPCG(2))} {
		m, err := dsl.NewMachine(prog, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := dsl.NewSession(m).Eval("<e>", "d(6) * 10 + d(6)")
		if err != nil || runtime.Repr(v) != "34" {
			t.Errorf("d(6)*10+d(6) = %v, %v; want 34", v, err)
		}
		if _, err := dsl.NewSession(m).Eval("<e>", "shuffle(jeu)"); err != nil {
			t.Errorf("shuffle with no hand-given result left: %v", err)
		}
	}
}

// TestCyclesPrint: records and maps that refer to each other convert to JSON and print,
// with the cycle marked.
func TestCyclesPrint(t *testing.T) {
	prog, d := dsl.LoadSource("c.rules", []byte("ruleset \"c\"\nkind N {\n  s: any\n  m: map\n}\nentity a: N { }\nentity b: N { }\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
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

func b(m *dsl.Machine) any { v, _ := m.Global("b"); return v }

// evalCase and checkEvals are dsltest's.
type evalCase = dsltest.Case

var checkEvals = dsltest.CheckEvals

// TestIntConversion: int() cuts a fraction toward zero, reads a string, takes a roll's total,
// and refuses a value beyond the whole numbers instead of wrapping it.
func TestIntConversion(t *testing.T) {
	prog, d := dsl.LoadSource("c.rules", []byte("ruleset \"c\"\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	cases := []evalCase{
		{Src: "int(2.7)", Want: "2"},
		{Src: "int(-2.7)", Want: "-2"},
		{Src: `int(" 12")`, Want: "12"},
		{Src: "int(1d6)", Want: "5"},
		{Src: "abs(-1 * 1d6)", Want: "5"},
		{Src: `int("x")`, Err: "not a whole number"},
		{Src: "int(1e300)", Err: "beyond the whole numbers"},
		{Src: "int(floor(5.0 / 0.0)) + 1", Err: "division by zero"}, // no +Inf to floor any more
		{Src: "int(-1e19)", Err: "beyond the whole numbers"},
	}
	checkEvals(t, prog, func() dice.Source { return dice.NewIntQueue([]int{5}, nil) }, cases)
}

// TestBuiltinNamesAndNaNBands: NaN is no table key nor band bound (it compares false both
// ways, so a band held every key); 0.0 / 0.0, which gave it, now fails at its operator. The
// half on builtin names is check's.
func TestBuiltinNamesAndNaNBands(t *testing.T) {
	prog, d := dsl.LoadSource("n.rules", []byte("table t(x) {\n  0.0 / 0.0 .. 1 : \"a\"\n  else : \"b\"\n}\ntable u(x) {\n  0 .. 1 : \"a\"\n  else : \"b\"\n}\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	for _, c := range []struct{ src, want string }{
		{"t(0.5)", "n.rules:2:7: division by zero"},
		{"u(0.0 / 0.0)", "<e>:1:7: division by zero"},
	} {
		m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dsl.NewSession(m).Eval("<e>", c.src); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.src, err, c.want)
		}
	}
}

// TestTableDistErrorPlace: a rolled table whose odds cannot be computed says where the table
// is, not a column inside its notation.
func TestTableDistErrorPlace(t *testing.T) {
	prog, d := dsl.LoadSource("td.rules", []byte("table r2 roll 1d1000000 {\n  1 .. 10 : \"a\"\n  else : \"b\"\n}\n"))
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
	prog, d := dsl.LoadSource("c.rules", []byte("ruleset \"c\"\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	cases := []evalCase{
		{Src: `len(toJSON(map(1..20000, repeat("x", 10000))))`, Err: "memory_budget"},
		{Src: `len(join(map(1..30000, ""), repeat("x", 30000)))`, Err: "memory_budget"},
		{Src: `join(["a", "b", "c"], "-")`, Want: `"a-b-c"`},
		{Src: `join(["a", "b"])`, Want: `"ab"`},
		{Src: `join([1, 2])`, Err: "element 1 is int"},
		{Src: `{"__kind": [1]} == {"__kind": [1]}`, Want: "true"},
		{Src: `len(string(1..300000)) < 1100000`, Want: "true"},
		{Src: `uniq([1152921504606846976, 1152921504606846976.0])`, Want: "[1152921504606846976]"},
		{Src: `{"a]": 2, b: 3}`, Want: `{"a]": 2, b: 3}`},
		{Src: `int("float64 __rollf")`, Err: `int("float64 __rollf"): not a whole number`},
	}
	checkEvals(t, prog, func() dice.Source { return dice.NewPCG(1) }, cases)
}

// TestFloatsStayFinite: a division by zero is an error at its operator, as % by zero is, and
// no float arithmetic gives +Inf or NaN to a rule: typed operands (the float overloads),
// untyped ones (a rule's parameters), rolls, powers, sums and means, in expressions and in
// rules (10 / 0 gave +Inf, 0.0 / 0 NaN, and sampled odds counted them as outcomes).
func TestFloatsStayFinite(t *testing.T) {
	prog, d := dsl.LoadSource("f.rules", []byte(`ruleset "f"
rule par(a, b) {
  return a / b
}
rule fois(a, b) {
  return a * b
}
rule somme(xs) {
  return sum(xs)
}
`))
	if d.HasErrors() {
		t.Fatal(d)
	}
	cases := []evalCase{
		{Src: "10 / 0", Err: "<e>:1:4: division by zero"},
		{Src: "10 % 0", Err: "<e>:1:4: division by zero"},
		{Src: "10.0 / 0", Err: "<e>:1:6: division by zero"},
		{Src: "0.0 / 0", Err: "<e>:1:5: division by zero"},
		{Src: "1 + 10 / (5 - 5)", Err: "<e>:1:8: division by zero"},
		{Src: "par(10, 0)", Err: "f.rules:3:12: division by zero"},
		{Src: "d(6) / 0", Err: "<e>:1:6: division by zero"},
		{Src: "1e308 * 10", Err: "<e>:1:7: * gives a number too large (+Inf)"},
		{Src: "-1e308 - 1e308", Err: "gives a number too large (-Inf)"},
		{Src: "1e308 + 1e308 > 0", Err: "<e>:1:7: + gives a number too large (+Inf)"},
		{Src: "fois(1e308, 10)", Err: "f.rules:6:12: * gives a number too large (+Inf)"},
		{Src: "d(6) * 1e308 * 10", Err: "gives a number too large (+Inf)"},
		{Src: "2 ** 5000", Err: "<e>:1:3: ** gives a number too large (+Inf)"},
		{Src: "2.0 ^ 5000", Err: "gives a number too large (+Inf)"},
		{Src: "0 ** -1", Err: "** gives a number too large (+Inf)"},
		{Src: "(-8) ** 0.5", Err: "** gives no number (NaN)"},
		{Src: "sqrt(-1)", Err: "sqrt of a negative number"},
		{Src: "hypot(1e308, 1e308 * 2)", Err: "too large"},
		{Src: "sum([1e308, 1e308])", Err: "<e>:1:1: sum gives a number too large (+Inf)"},
		{Src: "[mean([1e308, 1e308])]", Err: "mean gives a number too large (+Inf)"},
		{Src: "somme([1e308, 1e308])", Err: "f.rules:9:10: sum gives a number too large (+Inf)"},
		// What stays finite is unchanged.
		{Src: "10 / 4", Want: "2.5"},
		{Src: "1.5 * 2", Want: "3.0"},
		{Src: "-1.5 * 2 + 1", Want: "-2.0"},
		{Src: "1 + 2.5", Want: "3.5"},
		{Src: "2 ** 3", Want: "8.0"},
		{Src: "par(7, 2)", Want: "3.5"},
		{Src: "1e308 * 1", Want: "1e+308"},
		{Src: "sum([1.5, 2])", Want: "3.5"},
		{Src: "floor(d(6) / 2)", Want: "2"},
		{Src: "1 - 8/10 >= 0.2", Want: "true"}, // folded literals still compare as rules see them
	}
	checkEvals(t, prog, func() dice.Source { return dice.NewIntQueue([]int{5, 5, 5}, nil) }, cases)
}

// TestReprSummary: lists longer than the bound print as their count, at any depth, with the
// kind when every element is a record of one kind; shorter lists and a bound of 0 print
// whole, as Repr does.
func TestReprSummary(t *testing.T) {
	prog, d := dsl.LoadSource("c.rules", []byte("ruleset \"c\"\nkind P {\n  n: int\n}\nkind Q {\n  n: int\n}\n"))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	for _, c := range []struct {
		src  string
		max  int
		want string
	}{
		{"[1, 2, 3]", 3, "[1, 2, 3]"},
		{"[1, 2, 3, 4]", 3, "[4 items]"},
		{"[1, 2, 3, 4]", 0, "[1, 2, 3, 4]"},
		{"map(1..5, P({n: #}))", 4, "[5 × P]"},
		{"map(1..5, P({n: #}))", 5, "[P{n: 1}, P{n: 2}, P{n: 3}, P{n: 4}, P{n: 5}]"},
		{"[P({n: 1}), Q({n: 2}), P({n: 3})]", 2, "[3 items]"},
		{"[P({n: 1}), {n: 2}, P({n: 3})]", 2, "[3 items]"},
		{`{a: [1, 2, 3], b: [[1, 2, 3], [1]]}`, 2, "{a: [3 items], b: [[3 items], [1]]}"},
		{`[]`, 1, "[]"},
		{"1..20", 8, "[20 items]"},
		{"1..8", 8, "[1, 2, 3, 4, 5, 6, 7, 8]"},
	} {
		v, err := s.Eval("<e>", c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := runtime.ReprSummary(v, c.max); got != c.want {
			t.Errorf("ReprSummary(%s, %d) = %s, want %s", c.src, c.max, got, c.want)
		}
	}
}

// IsIdent says what IdentRE says, on names of every script, digits, marks, symbols and
// bytes that are not UTF-8.
func TestIsIdentMatchesIdentRE(t *testing.T) {
	cases := []string{"", "a", "_", "_1", "1a", "a1", "été", "ᾅ", "Ⅻ", "a²", "²", "x-y", "a b", "日本",
		"a\u0301", "\u0301", "a\xff", "\xff", "٣", "a٣", "ʰ", "$", "a$", "🎲", "ǅ", "a_b_c9", "a\n"}
	for r := rune(0); r < 0x30000; r += 3 {
		cases = append(cases, string(r), "a"+string(r), string(r)+"a")
	}
	for _, s := range cases {
		if got, want := runtime.IsIdent(s), runtime.IdentRE.Get().MatchString(s); got != want {
			t.Errorf("IsIdent(%q) = %v, IdentRE says %v", s, got, want)
		}
	}
}
