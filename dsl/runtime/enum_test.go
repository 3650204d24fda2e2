package runtime_test

import (
	"encoding/json"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/runtime"
	"rulesh/stdlib/dice"
)

const enumRules = `
enum Objectif { réduire, maintenir, augmenter }
kind Flotte {
  nom: string
  objectif: Objectif = "maintenir"
  repli: Objectif
}
entity f: Flotte { nom: "F" }
table effort(o: Objectif) {
  réduire   : 2
  maintenir : 1
  augmenter : 3
}
action viser(fl: Flotte, o: Objectif): Objectif {
  fl.objectif = o
  return fl.objectif
}
rule tous(): string {
  let s = ""
  for i, o in Objectif {
    s += str(i) + ":" + o + "=" + str(effort(o)) + " "
  }
  return s
}
action écrire(fl: Flotte, v: any) {
  fl.objectif = v
}
rule rendre(v: any): Objectif {
  return v
}
`

// TestEnumValues checks how enum values are written, compared, iterated and printed, and
// that a value of unknown static type is checked where it is stored (Conform).
func TestEnumValues(t *testing.T) {
	tests := []struct {
		name, expr, want, err string
	}{
		{name: "qualified value is a string", expr: `Objectif.réduire`, want: `"réduire"`},
		{name: "indexed value", expr: `Objectif["augmenter"]`, want: `"augmenter"`},
		{name: "the name lists the values", expr: `Objectif`, want: `["réduire", "maintenir", "augmenter"]`},
		{name: "by position", expr: `Objectif[2]`, want: `"augmenter"`},
		{name: "membership", expr: `["maintenir" in Objectif, lower("X") in Objectif]`, want: "[true, false]"},
		{name: "compares with a string", expr: `Objectif.réduire == "réduire" && f.objectif == Objectif.maintenir`, want: "true"},
		{name: "field default", expr: `f.objectif`, want: `"maintenir"`},
		{name: "field without default is the first value", expr: `f.repli`, want: `"réduire"`},
		{name: "constructor default", expr: `Flotte({nom: "G"}).objectif`, want: `"maintenir"`},
		{name: "iteration in order", expr: `tous()`, want: `"0:réduire=2 1:maintenir=1 2:augmenter=3 "`},
		{name: "table key", expr: `effort(Objectif.augmenter)`, want: "3"},
		{name: "argument and result", expr: `viser(f, "augmenter")`, want: `"augmenter"`},
		{name: "record prints values as strings", expr: `f`, want: `Flotte{nom: "F", objectif: "maintenir", repli: "réduire"}`},
		{name: "string built at run time", expr: `viser(f, "aug" + "menter")`, want: `"augmenter"`},
		{name: "parameter checked at run time", expr: `viser(f, "aug" + "mente")`,
			err: `viser: parameter o: "augmente" is not a value of Objectif (did you mean augmenter? Objectif is réduire, maintenir, augmenter)`},
		{name: "table key checked at run time", expr: `effort(lower("RÉDUIR"))`,
			err: `effort: parameter o: "réduir" is not a value of Objectif (did you mean réduire? Objectif is réduire, maintenir, augmenter)`},
		{name: "field checked at run time", expr: `écrire(f, "loin")`,
			err: `"loin" is not a value of Objectif (Objectif is réduire, maintenir, augmenter)`},
		{name: "result checked at run time", expr: `rendre(3)`, err: "t.rules:29:3: rendre: result: expected Objectif, got 3"},
		{name: "constructor checked at run time", expr: `Flotte({objectif: "x"})`,
			err: `"x" is not a value of Objectif (Objectif is réduire, maintenir, augmenter)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, _, err := run(t, enumRules, tt.expr)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if got := runtime.Repr(v); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestEnumJSONAndEmit: an enum value is its name in JSON and in emitted text.
func TestEnumJSONAndEmit(t *testing.T) {
	prog, diags := dsl.LoadSource("t.rules", []byte(enumRules+`
action dire() { emit "objectif : {f.objectif}" }
`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, err := dsl.NewMachine(prog, dice.NewIntQueue(nil, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	m.Emit = func(s string) { out = append(out, s) }
	s := dsl.NewSession(m)
	if _, err := s.Eval("<eval>", "dire()"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(out, "\n"); got != "objectif : maintenir" {
		t.Errorf("emitted %q", got)
	}
	v, err := s.Eval("<eval>", "f")
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(runtime.ToJSON(v))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"$kind":"Flotte","nom":"F","objectif":"maintenir","repli":"réduire"}`; string(js) != want {
		t.Errorf("JSON %s, want %s", js, want)
	}
}
