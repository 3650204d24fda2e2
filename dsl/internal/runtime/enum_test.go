package runtime_test

import (
	"encoding/json"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/dsltest"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
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
	tests := []dsltest.Case{
		{Name: "qualified value is a string", Src: `Objectif.réduire`, Want: `"réduire"`},
		{Name: "indexed value", Src: `Objectif["augmenter"]`, Want: `"augmenter"`},
		{Name: "the name lists the values", Src: `Objectif`, Want: `["réduire", "maintenir", "augmenter"]`},
		{Name: "by position", Src: `Objectif[2]`, Want: `"augmenter"`},
		{Name: "membership", Src: `["maintenir" in Objectif, lower("X") in Objectif]`, Want: "[true, false]"},
		{Name: "compares with a string", Src: `Objectif.réduire == "réduire" && f.objectif == Objectif.maintenir`, Want: "true"},
		{Name: "field default", Src: `f.objectif`, Want: `"maintenir"`},
		{Name: "field without default is the first value", Src: `f.repli`, Want: `"réduire"`},
		{Name: "constructor default", Src: `Flotte({nom: "G"}).objectif`, Want: `"maintenir"`},
		{Name: "iteration in order", Src: `tous()`, Want: `"0:réduire=2 1:maintenir=1 2:augmenter=3 "`},
		{Name: "table key", Src: `effort(Objectif.augmenter)`, Want: "3"},
		{Name: "argument and result", Src: `viser(f, "augmenter")`, Want: `"augmenter"`},
		{Name: "record prints values as strings", Src: `f`, Want: `Flotte{nom: "F", objectif: "maintenir", repli: "réduire"}`},
		{Name: "string built at run time", Src: `viser(f, "aug" + "menter")`, Want: `"augmenter"`},
		{Name: "parameter checked at run time", Src: `viser(f, "aug" + "mente")`,
			Err: `viser: parameter o: "augmente" is not a value of Objectif (did you mean augmenter? Objectif is réduire, maintenir, augmenter)`},
		{Name: "table key checked at run time", Src: `effort(lower("RÉDUIR"))`,
			Err: `effort: parameter o: "réduir" is not a value of Objectif (did you mean réduire? Objectif is réduire, maintenir, augmenter)`},
		{Name: "field checked at run time", Src: `écrire(f, "loin")`,
			Err: `"loin" is not a value of Objectif (Objectif is réduire, maintenir, augmenter)`},
		{Name: "result checked at run time", Src: `rendre(3)`, Err: "t.rules:29:3: rendre: result: expected Objectif, got 3"},
		{Name: "constructor checked at run time", Src: `Flotte({objectif: "x"})`,
			Err: `"x" is not a value of Objectif (Objectif is réduire, maintenir, augmenter)`},
	}
	dsltest.CheckCases(t, enumRules, tests)
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
	peek.Machine(m).Emit = func(s string) { out = append(out, s) }
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
