package exprx_test

import (
	"testing"

	"rulesh/dsl/internal/check"
	"rulesh/dsl/internal/exprx"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	stddice "rulesh/stdlib/dice"
)

// namedRules declares procedures whose parameters calls name: a default that reads an
// earlier parameter (b = a * 10) shows a skipped parameter's default computed in the call.
const namedRules = rules + `enum Allure { lente, vive }
rule quatre(a: int, b = a * 10, c = 0, d: Allure = Allure.lente): string {
  return "{a} {b} {c} {d}"
}
table prix(objet, qualité = "bonne") {
  "épée" : 6
  "dague" : 4
}
`

// TestNamedArgs: named arguments are matched with the parameters at load, and what does
// not fit is reported at the name or the argument.
func TestNamedArgs(t *testing.T) {
	files, sources, diags := syntax.ParseFiles(memFiles{"t.rules": []byte(namedRules)}, "t.rules")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog := check.NewProgram(library(), sources, []string{"t.rules"})
	if diags := check.CheckFiles(prog, files); diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, tt := range []struct{ text, want, diag string }{
		{text: "quatre(1)", want: `"1 10 0 lente"`},
		{text: "quatre(1, c = 3)", want: `"1 10 3 lente"`},
		{text: "quatre(2, d = 'vive', b = 5)", want: `"2 5 0 vive"`},
		{text: "quatre(a = 4)", want: `"4 40 0 lente"`},
		{text: "quatre(1, c = quatre(2, d = 'vive') == '' ? 1 : 2)", want: `"1 10 2 lente"`},
		{text: "quatre(1, c = plus(2, y = 3))", want: `"1 10 5 lente"`},
		{text: "prix(qualité = 'piètre', objet = 'dague')", want: "4"},
		{text: "quatre(1, e = 2)", diag: "<t>:1:11: quatre has no parameter e (did you mean?)"},
		{text: "quatre(1, a = 2)", diag: "<t>:1:11: parameter a of quatre is given twice, by position and by name (argument 1 is already a: drop one of the two)"},
		{text: "quatre(1, c = 2, c = 3)", diag: "<t>:1:18: parameter c of quatre is named twice (keep one of the two)"},
		{text: "quatre(c = 2, 1)", diag: "<t>:1:15: a positional argument of quatre follows a named one (give the positional arguments first, or name this one too (parameter = value))"},
		{text: "quatre(c = 2)", diag: "<t>:1:1: quatre: missing a (parameter a has no default: give it by position or as a = …)"},
		{text: "quatre(1, 2, 3, 4, 5, c = 1)", diag: "<t>:1:1: quatre takes at most 4 arguments, got 5 by position (declared at t.rules:15:1)"},
		{text: "quatre(1, d = 'vif')", diag: `<t>:1:15: argument d of quatre: "vif" is not a value of Allure (did you mean? Allure is lente, vive)`},
		{text: "quatre(1, c: 2)", diag: "<t>:1:11: a named argument is written c = value (a call names an argument with =, as in f(x, c = …); `:` gives the keys of a map ({c: …}))"},
		{text: "max(1, x = 2)", diag: "<t>:1:8: max takes no named arguments (x = …) (named arguments are for actions, rules and tables; give max's arguments in order)"},
		{text: "Unit(nom = 'b')", diag: "<t>:1:6: Unit takes no named arguments (nom = …) (named arguments are for actions, rules and tables; give Unit's arguments in order)"},
		{text: "shuffle(deck = 1)", diag: "<t>:1:9: shuffle takes no named arguments (deck = …) (named arguments are for actions, rules and tables; give shuffle's arguments in order)"},
		{text: "quatre(1, c = )", diag: "<t>:1:11: named argument c has no value (write c = value, or leave c out to take its default)"},
		{text: "quatre(1, c =, d = 'vive')", diag: "<t>:1:11: named argument c has no value (write c = value, or leave c out to take its default)"},
		{text: "max(1, x = )", diag: "<t>:1:8: named argument x has no value (write x = value, or leave x out to take its default)"},
		{text: "[1].map(x = 1)", diag: "<t>:1:9: x = … is not an argument of a procedure (named arguments are for calls of actions, rules and tables by name; to compare, write ==)"},
	} {
		t.Run(tt.text, func(t *testing.T) {
			x := expr(tt.text)
			_, diags, cerr := exprx.NewCompiler(prog).Compile(x, &scope{prog: prog, inProc: true})
			if cerr != nil {
				t.Fatal(cerr)
			}
			got := ""
			if len(diags) > 0 {
				got = diags[0].Error()
			}
			if got != tt.diag {
				t.Fatalf("diagnostic %q, want %q", got, tt.diag)
			}
			if tt.diag != "" {
				return
			}
			m, err := runtime.NewMachine(prog, stddice.NewIntQueue(nil, nil), nil)
			if err != nil {
				t.Fatal(err)
			}
			v, err := m.Eval(x, map[string]any{"__rt": m})
			if err != nil {
				t.Fatal(err)
			}
			if got := runtime.Repr(v); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}
