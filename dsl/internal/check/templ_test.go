package check_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/runtime"
)

// diagLines renders diagnostics one per line as line:col: [warning: ]summary (detail).
func diagLines(ds dsl.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		sev := ""
		if d.Severity == dsl.Warning {
			sev = "warning: "
		}
		fmt.Fprintf(&b, "%d:%d: %s%s (%s)\n", d.Pos.Line, d.Pos.Col, sev, d.Summary, d.Detail)
	}
	return b.String()
}

const templRules = `
kind K { nom: string, pv: int = 3 }
entity ana: K { nom: "Ana" }
rule titre(k: K): string {
  return "{k.nom} ({k.pv} pv)"
}
rule liste(k: K): string {
  let t = "{k.nom}"
  t += " : {k.pv}"
  t = "[{t}]"
  return t
}
rule accolades(): string {
  let t = "{{4d10, 5d6}}kh1"
  return t
}
rule brut(k: K): string {
  return "{k.nom}" + "!"
}
rule groupe(): string {
  return "{4d10, 5d6}kh1" + ""
}
action marquer(k: K) {
  k.nom = "{k.nom}*"
}
action après(k: K): string {
  marquer(k)
  return k.nom
}
table blessure(m) roll 1d6 + m {
  1..3: "indemne"
  4..9: "blessé ({m} de plus)"
}
`

// A string literal standing alone as the value of return, let, = or += is a template; inside
// a larger expression it is text as written.
func TestTemplatesAsStatementValues(t *testing.T) {
	for _, c := range []struct{ expr, want string }{
		{"titre(ana)", "Ana (3 pv)"},
		{"liste(ana)", "[Ana : 3]"},
		{"accolades()", "{4d10, 5d6}kh1"},
		{"brut(ana)", "{k.nom}!"},
		{"groupe()", "{4d10, 5d6}kh1"},
		{"après(ana)", "Ana*"},
		// A table's value standing alone is a template too (it was left as written).
		{"blessure(2, valeur = 5)", "blessé (2 de plus)"}, {"blessure(2, 1)", "indemne"},
	} {
		v, _, err := run(t, templRules, c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		if got := runtime.Str(v); got != c.want {
			t.Errorf("%s = %q, want %q", c.expr, got, c.want)
		}
	}
}

// check warns on a {name} the rule can see in a string that is not a template, at the brace.
func TestLiteralHoleWarnings(t *testing.T) {
	const detail = `only a string that is a statement's whole value (after emit, require … else, return, let or =) is a template; `
	for _, c := range []struct{ src, want string }{
		{templRules, "18:11: warning: {k.nom} is not interpolated in a string inside an expression (" + detail +
			`give this one its own let (let texte = "…{k.nom}…"), or join it: "…" + str(k.nom) + "…")` + "\n"},
		{"const N = 2\nrule f(): string {\n  emit \"a\" + \"b { N }\"\n  return \"\"\n}\n",
			"3:17: warning: { N } is not interpolated in a string inside an expression (" + detail +
				`give this one its own let (let texte = "…{ N }…"), or join it: "…" + str(N) + "…")` + "\n"},
		// Not a visible name, a dice group, an escaped brace: no warning.
		{"rule f(): list {\n  return [\"{nom}\", \"{{x}}\", \"{4d10, 5d6}kh1\", \"{\"]\n}\n", ""},
		// A table's value is a template: a hole naming nothing the table sees is an error.
		{"table t roll 1d6 {\n  1..6: \"perd {n} PV\"\n}\n", "2:16: unknown name n ()\n"},
		// A template's hole holding an error is reported once, and the let is dropped.
		{"rule f(): string {\n  let t = \"{1 +}\"\n  return t\n}\n", ""},
	} {
		_, diags := dsl.LoadSource("t.rules", []byte(c.src))
		got := diagLines(diags)
		if c.want == "" && strings.Contains(c.src, "{1 +}") {
			if !diags.HasErrors() || strings.Count(got, "\n") != 1 {
				t.Errorf("%q: want one error, got\n%s", c.src, got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%q:\ngot  %s\nwant %s", c.src, got, c.want)
		}
	}
}

// A record parameter declared `= nil` accepts nil; a nil default of any other type would fail
// at every call, and is refused at load.
func TestNilParameters(t *testing.T) {
	src := templRules + `
rule qui(k: K = nil): string {
  return k == nil ? "personne" : k.nom
}
rule libre(x = nil): any {
  return x
}
`
	for _, c := range []struct{ expr, want string }{
		{"qui()", "personne"},
		{"qui(nil)", "personne"},
		{"qui(ana)", "Ana"},
		{"libre()", "nil"},
	} {
		v, _, err := run(t, src, c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		if got := runtime.Str(v); got != c.want && runtime.Repr(v) != c.want {
			t.Errorf("%s = %q, want %q", c.expr, got, c.want)
		}
	}
	if _, _, err := run(t, src, "qui([3][0])"); err == nil || !strings.Contains(err.Error(), "qui: parameter k: expected a K, got 3") {
		t.Errorf("qui([3][0]): %v", err)
	}
	if _, _, err := run(t, src, "qui(3)"); err == nil || !strings.Contains(err.Error(), "1:5: parameter k of qui is K, got int") {
		t.Errorf("qui(3) should be refused at load: %v", err)
	}
	for _, c := range []struct{ decl, want string }{
		{"n: int = nil", "1:29: parameter n: int cannot be nil (only a parameter of a kind (a record) may default to nil, and it then accepts nil; give it an int default such as 0, or declare it any)\n"},
		{"l: []K = nil", "1:29: parameter l: []K cannot be nil (only a parameter of a kind (a record) may default to nil, and it then accepts nil; give it a []K default such as [], or declare it any)\n"},
		{"c: card = nil", "1:30: parameter c: card cannot be nil (only a parameter of a kind (a record) may default to nil, and it then accepts nil; give it a card default, or declare it any)\n"},
		{"s: string = nil", "1:32: parameter s: string cannot be nil (only a parameter of a kind (a record) may default to nil, and it then accepts nil; give it a string default such as \"\", or declare it any)\n"},
	} {
		_, diags := dsl.LoadSource("t.rules", []byte("rule f(k: K = nil, "+c.decl+") {\n}\nkind K { v: int }\n"))
		if got := diagLines(diags); got != c.want {
			t.Errorf("%s:\ngot  %s\nwant %s", c.decl, got, c.want)
		}
		// A table's parameters take the same defaults (one column further: `table f(`).
		_, diags = dsl.LoadSource("t.rules", []byte("table f(k: K = nil, "+c.decl+") {\n  else : 1\n}\nkind K { v: int }\n"))
		col, rest, _ := strings.Cut(strings.TrimPrefix(c.want, "1:"), ":")
		n, _ := strconv.Atoi(col)
		if got, want := diagLines(diags), fmt.Sprintf("1:%d:%s", n+1, rest); got != want {
			t.Errorf("table, %s:\ngot  %s\nwant %s", c.decl, got, want)
		}
	}
}

// Nested predicates name the outer element with expr's let: the inner # hides the outer one.
func TestNestedPredicates(t *testing.T) {
	src := `
kind U { nom: string, camp: string, voisins: []string }
entity a: U { nom: "a", camp: "bleu", voisins: ["b", "c"] }
entity b: U { nom: "b", camp: "rouge", voisins: ["a"] }
entity c: U { nom: "c", camp: "bleu", voisins: ["a"] }
rule menacés(): list {
  return map(filter(entities("U"), {
    let u = #;
    any(u.voisins, { let v = #; any(entities("U"), .nom == v && .camp != u.camp) })
  }), .nom)
}
rule communs(xs: list, ys: list): list {
  return filter(xs, { let x = #; any(ys, # == x) })
}
`
	for _, c := range []struct{ expr, want string }{
		{"menacés()", `["a", "b"]`},
		{"communs([1, 2, 3], [2, 3, 4])", "[2, 3]"},
		{"filter([1, 2, 3], any([2, 3], # == #))", "[1, 2, 3]"},
	} {
		v, _, err := run(t, src, c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		if got := runtime.Repr(v); got != c.want {
			t.Errorf("%s = %s, want %s", c.expr, got, c.want)
		}
	}
}

// The diagnostics of a template are placed in the file by rune column and byte offset: text
// before a hole that is not ASCII, escapes and doubled braces count one column per
// character.
func TestTemplatePositions(t *testing.T) {
	for _, c := range []struct{ tmpl, want string }{
		{`"é {nope}"`, "2:14: unknown name nope ()\n"},
		{`"\t{{«»}} {nope} "`, "2:21: unknown name nope ()\n"},
		{`"àé } {1}"`, "2:14: unmatched } in a string (write }} for a literal brace)\n"},
		{`"ñ {1} { 2 "`, "2:17: unclosed { in a string (write {{ for a literal brace)\n"},
		{`"ü {a[} ü"`, ""},
		{`"x {'}' + nope} {ß}"`, "2:20: unknown name nope ()\n2:27: unknown name ß ()\n"},
		{`"{1}{2}{nöpe}{3}"`, "2:18: unknown name nöpe ()\n"},
	} {
		src := "rule f(): string {\n  return " + c.tmpl + "\n}\n"
		_, diags := dsl.LoadSource("t.rules", []byte(src))
		got := diagLines(diags)
		if c.want == "" {
			// A hole the scanner cannot close: one error, wherever expr-lang places it.
			if !diags.HasErrors() {
				t.Errorf("%s: want an error", c.tmpl)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%s:\ngot  %s\nwant %s", c.tmpl, got, c.want)
		}
	}
}
