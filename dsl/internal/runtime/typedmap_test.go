package runtime_test

import (
	"encoding/json"
	"testing"

	"rulesh/dsl/internal/dsltest"
	"rulesh/dsl/internal/runtime"
)

const mapRules = `
enum Poste { Commandement, Barre, Voilure }
kind Figurant {
  défense: map[Poste]int
  taux: map[string]float
  cartes: map[string][]string
  postures: map[string]Poste
  plan: map[string]map[string]int
  libre: map
}
entity f: Figurant { défense: {Barre: 2}, taux: {a: 1} }
action baisser(p: Poste): int {
  f.défense[p] -= 1
  return f.défense[p]
}
action noter(k: string, c: string) {
  f.cartes[k] += [c]
}
action écrire(k: string, v: any) {
  f.défense[k] = v
}
action remplacer(m: any) {
  f.défense = m
}
rule somme(): int {
  let s = 0
  for p, n in f.défense { s += n }
  return s
}
rule lire(m: map[Poste]int, p: Poste): int {
  return m[p]
}
`

// TestTypedMapValues checks that a missing key reads as the value type's zero, that keys,
// len, in, iteration and printing see only the entries set, and that a value of unknown
// static type is checked where it is stored (Conform).
func TestTypedMapValues(t *testing.T) {
	tests := []dsltest.Case{
		{Name: "entry set", Src: `f.défense.Barre`, Want: "2"},
		{Name: "missing int", Src: `[f.défense.Voilure, f.défense["Commandement"]]`, Want: "[0, 0]"},
		{Name: "missing float", Src: `f.taux.b`, Want: "0.0"},
		{Name: "int stored as float", Src: `f.taux.a`, Want: "1.0"},
		{Name: "missing list", Src: `f.cartes["Barre"]`, Want: "[]"},
		{Name: "missing enum is its first value", Src: `f.postures.x`, Want: `"Commandement"`},
		{Name: "missing nested map", Src: `[f.plan.a, f.plan.a.b]`, Want: "[{}, 0]"},
		{Name: "untyped map reads nil", Src: `f.libre.x`, Want: "nil"},
		{Name: "in a predicate", Src: `sum(map(Poste, f.défense[#]))`, Want: "2"},
		{Name: "parameter", Src: `lire(f.défense, "Voilure") + lire({Barre: 5}, "Barre")`, Want: "5"},
		{Name: "only entries set count", Src: `[len(f.défense), keys(f.défense), "Voilure" in f.défense]`, Want: `[1, ["Barre"], false]`},
		{Name: "compound assignment from zero", Src: `baisser("Voilure")`, Want: "-1"},
		{Name: "list appended from zero", Src: `noter("Barre", "Q♣")`, Want: "nil"},
		{Name: "prints as a map", Src: `f.défense`, Want: "{Barre: 2}"},
		{Name: "iteration", Src: `somme()`, Want: "2"},
		{Name: "key checked at run time", Src: `écrire(lower("BARR"), 1)`,
			Err: `key of map[Poste]int: "barr" is not a value of Poste (did you mean Barre? Poste is Commandement, Barre, Voilure)`},
		{Name: "value checked at run time", Src: `écrire("Barre", "x")`, Err: `field Barre: expected int, got "x"`},
		{Name: "whole map checked at run time", Src: `remplacer({Barre: 1, Voile: 2})`,
			Err: `field défense: key "Voile" is not a value of Poste (did you mean Voilure? Poste is Commandement, Barre, Voilure)`},
		{Name: "whole map's values checked at run time", Src: `remplacer({Barre: 1.5})`,
			Err: `field défense: entry "Barre": expected an int, got 1.5 (use floor, ceil or round)`},
		{Name: "a record is not a typed map", Src: `remplacer(f)`, Err: `field défense: expected map[Poste]int, got Figurant{`},
	}
	dsltest.CheckCases(t, mapRules, tests)
}

// TestTypedMapKeepsEntries: a compound assignment stores the entry, and JSON shows only the
// entries set.
func TestTypedMapKeepsEntries(t *testing.T) {
	v, _, err := run(t, mapRules, `[baisser("Commandement"), noter("Barre", "7♠"), f.défense, f.cartes]`)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := runtime.Repr(v), `[-1, nil, {Barre: 2, Commandement: -1}, {Barre: ["7♠"]}]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	js, err := json.Marshal(runtime.ToJSON(v.([]any)[2]))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"Barre":2,"Commandement":-1}`; string(js) != want {
		t.Errorf("JSON %s, want %s", js, want)
	}
}
