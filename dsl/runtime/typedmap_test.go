package runtime_test

import (
	"encoding/json"
	"strings"
	"testing"

	"rulesh/dsl/runtime"
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
	tests := []struct {
		name, expr, want, err string
	}{
		{name: "entry set", expr: `f.défense.Barre`, want: "2"},
		{name: "missing int", expr: `[f.défense.Voilure, f.défense["Commandement"]]`, want: "[0, 0]"},
		{name: "missing float", expr: `f.taux.b`, want: "0.0"},
		{name: "int stored as float", expr: `f.taux.a`, want: "1.0"},
		{name: "missing list", expr: `f.cartes["Barre"]`, want: "[]"},
		{name: "missing enum is its first value", expr: `f.postures.x`, want: `"Commandement"`},
		{name: "missing nested map", expr: `[f.plan.a, f.plan.a.b]`, want: "[{}, 0]"},
		{name: "untyped map reads nil", expr: `f.libre.x`, want: "nil"},
		{name: "in a predicate", expr: `sum(map(Poste, f.défense[#]))`, want: "2"},
		{name: "parameter", expr: `lire(f.défense, "Voilure") + lire({Barre: 5}, "Barre")`, want: "5"},
		{name: "only entries set count", expr: `[len(f.défense), keys(f.défense), "Voilure" in f.défense]`, want: `[1, ["Barre"], false]`},
		{name: "compound assignment from zero", expr: `baisser("Voilure")`, want: "-1"},
		{name: "list appended from zero", expr: `noter("Barre", "Q♣")`, want: "nil"},
		{name: "prints as a map", expr: `f.défense`, want: "{Barre: 2}"},
		{name: "iteration", expr: `somme()`, want: "2"},
		{name: "key checked at run time", expr: `écrire(lower("BARR"), 1)`,
			err: `key of map[Poste]int: "barr" is not a value of Poste (did you mean Barre? Poste is Commandement, Barre, Voilure)`},
		{name: "value checked at run time", expr: `écrire("Barre", "x")`, err: `field Barre: expected int, got "x"`},
		{name: "whole map checked at run time", expr: `remplacer({Barre: 1, Voile: 2})`,
			err: `field défense: key "Voile" is not a value of Poste (did you mean Voilure? Poste is Commandement, Barre, Voilure)`},
		{name: "whole map's values checked at run time", expr: `remplacer({Barre: 1.5})`,
			err: `field défense: entry "Barre": expected an int, got 1.5 (use floor, ceil or round)`},
		{name: "a record is not a typed map", expr: `remplacer(f)`, err: `field défense: expected map[Poste]int, got Figurant{`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, _, err := run(t, mapRules, tt.expr)
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
