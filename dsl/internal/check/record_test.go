package check_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/runtime"
)

// An entity's fields are written name: value, as in a constructor's map; the older form
// name = value still loads, with a warning at the = that says how to write it.
func TestEntityFieldForms(t *testing.T) {
	const kind = "kind K { nom: string, pv: int = 3, tags: map }\n"
	for _, c := range []struct{ name, src, want string }{
		{"colon", `entity a: K { nom: "A", pv: 5 }`, ""},
		{"colon over lines", "entity a: K {\n  nom: \"A\"\n  pv: 5,\n}", ""},
		{"map value", `entity a: K { nom: "A", tags: {x: 1}, pv: 5 }`, ""},
		{"ternary value", `entity a: K { nom: true ? "A" : "B", pv: 5 }`, ""},
		{"older form", `entity a: K { nom = "A", pv: 5 }`,
			`2:19: warning: field nom is set with =, the older form (write nom: "A", as in the constructor K({nom: "A"}); rulesh fmt -w rewrites the file)` + "\n"},
		{"older form, long value", `entity a: K { nom = "un nom bien trop long pour tenir dans le message", pv: 5 }`,
			`2:19: warning: field nom is set with =, the older form (write nom: "un nom bien trop long pour tenir dans …, as in the constructor K({nom: "un nom bien trop long pour tenir dans …}); rulesh fmt -w rewrites the file)` + "\n"},
	} {
		src := kind + c.src + "\n"
		_, diags := dsl.LoadSource("t.rules", []byte(src))
		if diags.HasErrors() {
			t.Fatalf("%s: %v", c.name, diags)
		}
		if got := diagLines(diags); got != c.want {
			t.Errorf("%s:\ngot  %s\nwant %s", c.name, got, c.want)
		}
		v, _, err := run(t, src, `a.pv`)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := runtime.Str(v); got != "5" {
			t.Errorf("%s: a.pv = %s, want 5", c.name, got)
		}
	}
}

// A record's entry set by a computed key (e[k] = v) loads (the checker crashed on it: the
// field is known only when it runs), and the run checks the field and its type.
func TestRecordEntryByComputedKey(t *testing.T) {
	const src = `kind K { x: int = 1 }
entity e: K { }
action w(k: string, v) {
  e[k] = v
}
action suite(): int {
  w("x", 7)
  return e.x
}
`
	if _, diags := dsl.LoadSource("t.rules", []byte(src)); diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, c := range []struct{ expr, want string }{
		{`suite()`, "7"},
		{`w("y", 2)`, "error: t.rules:4:3: K has no field y"},
		{`w("x", "a")`, `error: t.rules:4:3: field x: expected int, got "a"`},
	} {
		v, _, err := run(t, src, c.expr)
		got := runtime.Str(v)
		if err != nil {
			got = "error: " + strings.SplitN(err.Error(), "\n", 2)[0]
		}
		if got != c.want {
			t.Errorf("%s = %s, want %s", c.expr, got, c.want)
		}
	}
}
