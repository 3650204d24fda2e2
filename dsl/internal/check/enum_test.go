package check_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
)

// enumDecls heads every case of TestEnumDiagnostics: two enums, a kind and a procedure that
// use them, all correct.
const enumDecls = `enum Objectif { réduire, maintenir, augmenter }
enum Posture {
  prudente
  audacieuse
}
kind Flotte {
  objectif: Objectif = "réduire"
  posture: Posture
}
rule viser(o: Objectif): Objectif {
  return o
}
`

// TestEnumDiagnostics checks each place a misspelt enum value is caught at load, with the
// exact message. Line 13 is the first line after enumDecls.
func TestEnumDiagnostics(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"correct uses", `entity f: Flotte { objectif: Objectif.augmenter, posture: "audacieuse" }
table effort(o: Objectif) {
  réduire, maintenir : 1
  augmenter          : 2
}
action a(): Objectif {
  let p: Posture = Posture.prudente
  if f.objectif == "maintenir" || f.objectif in ["réduire", Objectif.augmenter] { emit "{p}" }
  for o in Objectif {
    if o == Objectif.réduire { return viser(o) }
  }
  return viser("augmenter")
}`, nil},
		{"ordered", `rule avant(o: Objectif): bool {
  return o < Objectif.maintenir
}`,
			[]string{"t.rules:14:12: values of Objectif have no order: < would compare their spelling (compare them with == or !=, or compare their places in the declaration: findIndex(Objectif, # == x))"}},
		{"duplicate value", `enum Vent { nord, sud, nord }`,
			[]string{"t.rules:13:24: nord is listed twice in enum Vent (remove one)"}},
		{"no values", `enum Vide {}`,
			[]string{"t.rules:13:1: enum Vide has no values (list them between the braces: enum Vide { a, b, c })"}},
		{"value not a name", `enum Vent { nord, let }`,
			[]string{"t.rules:13:19: let is a reserved word"}},
		{"unknown type", `kind K { o: Objectf }`,
			[]string{"t.rules:13:13: unknown type Objectf (did you mean Objectif?)"}},
		{"field default", `kind K { o: Objectif = "réduir" }`,
			[]string{`t.rules:13:24: "réduir" is not a value of Objectif (did you mean réduire? Objectif is réduire, maintenir, augmenter)`}},
		{"field default of another enum", `kind K { o: Objectif = Posture.prudente }`,
			[]string{"t.rules:13:24: expected Objectif, got Posture"}},
		{"entity field", `entity f: Flotte { posture: "prudent" }`,
			[]string{`t.rules:13:29: "prudent" is not a value of Posture (did you mean prudente? Posture is prudente, audacieuse)`}},
		{"unknown qualified value", `const X = Objectif.augmentr`,
			[]string{"t.rules:13:20: Objectif has no value augmentr (did you mean augmenter? Objectif is réduire, maintenir, augmenter)"}},
		{"argument", `action a() {
  viser("grandir")
}`, []string{`t.rules:14:9: argument o of viser: "grandir" is not a value of Objectif (Objectif is réduire, maintenir, augmenter)`}},
		{"argument of another enum", `action a() {
  viser(Posture.audacieuse)
}`, []string{"t.rules:14:9: argument o of viser: expected Objectif, got Posture"}},
		{"comparison", `rule r(f: Flotte): bool {
  return f.objectif == "réduir"
}`, []string{`t.rules:14:24: "réduir" is not a value of Objectif (did you mean réduire? Objectif is réduire, maintenir, augmenter)`}},
		{"comparison reversed", `rule r(o: Objectif): bool {
  return "maintenr" != o
}`, []string{`t.rules:14:10: "maintenr" is not a value of Objectif (did you mean maintenir? Objectif is réduire, maintenir, augmenter)`}},
		{"comparison of two enums", `rule r(o: Objectif): bool {
  return o == Posture.prudente
}`, []string{"t.rules:14:15: a value of Posture compared with a value of Objectif (values of different enums are never equal)"}},
		{"in a list literal", `rule r(o: Objectif): bool {
  return o in ["réduire", "augmente"]
}`, []string{`t.rules:14:27: "augmente" is not a value of Objectif (did you mean augmenter? Objectif is réduire, maintenir, augmenter)`}},
		{"in the enum", `rule r(): bool {
  return "audace" in Posture
}`, []string{`t.rules:14:10: "audace" is not a value of Posture (Posture is prudente, audacieuse)`}},
		{"let", `action a() {
  let p: Posture = "audacieux"
}`, []string{`t.rules:14:20: "audacieux" is not a value of Posture (did you mean audacieuse? Posture is prudente, audacieuse)`}},
		{"return", `rule r(): Objectif {
  return "plus"
}`, []string{`t.rules:14:10: "plus" is not a value of Objectif (Objectif is réduire, maintenir, augmenter)`}},
		{"field assignment", `action a(f: Flotte) {
  f.posture = "folle"
}`, []string{`t.rules:14:15: "folle" is not a value of Posture (Posture is prudente, audacieuse)`}},
		{"table key", `table effort(o: Objectif) {
  réduire   : 1
  maintenr  : 0
  augmenter : 2
}`, []string{`t.rules:15:3: "maintenr" is not a value of Objectif (did you mean maintenir? Objectif is réduire, maintenir, augmenter)`}},
		{"table missing a value", `table effort(o: Objectif) {
  réduire, maintenir : 1
}`, []string{"t.rules:13:1: warning: table effort has no row for augmenter (add the rows, or an else row for the values left)"}},
		{"table key named like a global", `const maintenir = 5
table effort(o: Objectif) {
  réduire   : 1
  maintenir : maintenir
  augmenter : 2
}`, nil},
		{"table with else", `table effort(o: Objectif) {
  réduire : 1
  else    : 0
}`, nil},
		{"a local hides the enum", `action a() {
  let Posture = 1
}`, []string{"t.rules:14:3: Posture hides the enum declared at t.rules:2:1 (rename the local)"}},
		{"declared twice", `enum Posture { x }`,
			[]string{"t.rules:13:1: Posture is already declared (first declared at t.rules:2:1)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := dsl.LoadSource("t.rules", []byte(enumDecls+tt.src))
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
