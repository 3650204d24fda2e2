package check_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
)

// mapDecls heads every case of TestTypedMapDiagnostics: an enum and a kind with typed maps.
const mapDecls = `enum Poste { Commandement, Barre, Voilure }
kind Figurant {
  défense: map[Poste]int
  notes: map[string]string
}
`

// TestTypedMapDiagnostics checks each place a typed map's key or value is checked at load,
// with the exact message. Line 6 is the first line after mapDecls.
func TestTypedMapDiagnostics(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"correct uses", `entity f: Figurant { défense: {Barre: 2}, notes: {"a": "b"} }
action a(g: Figurant, p: Poste): int {
  g.défense[p] -= 1
  g.défense.Voilure += 2
  g.défense["Barre"] = 0
  g.notes["x"] += "y"
  for k, v in g.défense { emit "{k} {v}" }
  let m: map[string][]int = {a: [1]}
  return g.défense[p] + g.défense.Commandement
}`, nil},
		{"key type not a string", `kind K { m: map[int]int }`,
			[]string{"t.rules:6:17: a map's key is a string or an enum, not int (write map[string]int, or declare an enum of the keys)"}},
		{"unknown key type", `kind K { m: map[Postes]int }`,
			[]string{"t.rules:6:17: unknown type Postes (did you mean Poste?)"}},
		{"unknown value type", `kind K { m: map[string]Figuran }`,
			[]string{"t.rules:6:24: unknown type Figuran (did you mean Figurant?)"}},
		{"key type on another type", `kind K { m: list[string]int }`,
			[]string{"t.rules:6:13: list takes no key type (only map is written with one: map[string]int)"}},
		{"read with a misspelt key", `rule r(f: Figurant): int {
  return f.défense.Bare
}`, []string{`t.rules:7:20: key of map[Poste]int: "Bare" is not a value of Poste (did you mean Barre? Poste is Commandement, Barre, Voilure)`}},
		{"read with a misspelt string key", `rule r(f: Figurant): int {
  return f.défense["Voilur"]
}`, []string{`t.rules:7:20: key of map[Poste]int: "Voilur" is not a value of Poste (did you mean Voilure? Poste is Commandement, Barre, Voilure)`}},
		{"write with a misspelt key", `action a(f: Figurant) {
  f.défense.Vollure = 1
}`, []string{`t.rules:7:13: key of map[Poste]int: "Vollure" is not a value of Poste (did you mean Voilure? Poste is Commandement, Barre, Voilure)`}},
		{"write with a misspelt string key", `action a(f: Figurant) {
  f.défense["barre"] += 1
}`, []string{`t.rules:7:13: key of map[Poste]int: "barre" is not a value of Poste (did you mean Barre? Poste is Commandement, Barre, Voilure)`}},
		{"write of a wrong value", `action a(f: Figurant) {
  f.défense.Barre = "deux"
}`, []string{"t.rules:7:21: field Barre is int, got string"}},
		{"literal with a misspelt key", `entity f: Figurant { défense: {Barre: 1, Voile: 2} }`,
			[]string{`t.rules:6:42: key of map[Poste]int: "Voile" is not a value of Poste (did you mean Voilure? Poste is Commandement, Barre, Voilure)`}},
		{"literal with a wrong value", `entity f: Figurant { notes: {a: 1} }`,
			[]string{"t.rules:6:33: entry a: expected string, got int"}},
		{"write with a key of another enum", `enum Vent { nord }
action a(f: Figurant, v: Vent) {
  f.défense[v] = 1
}`, []string{"t.rules:8:13: key of map[Poste]int: expected Poste, got Vent"}},
		{"read with a key of another enum", `enum Vent { nord }
rule r(f: Figurant, v: Vent): int {
  return f.défense[v]
}`, []string{"t.rules:8:20: key of map[Poste]int: expected Poste, got Vent"}},
		{"typed map into another", `action a(f: Figurant) {
  f.notes = f.défense
}`, []string{"t.rules:7:13: field notes is map[string]string, got map[Poste]int"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := dsl.LoadSource("t.rules", []byte(mapDecls+tt.src))
			var got []string
			for _, d := range diags {
				got = append(got, d.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
