package runtime_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/dsltest"
)

const codesRules = `
kind Perso {
  nom: string
  blaster: dice = "4D+2"
  esquive: dice
  compétences: map[string]dice
}
entity han: Perso { nom: "Han", esquive: "3D+1", compétences: {pilotage: "5D", réparation: "2D+2"} }

action entraîner(c: string) {
  han.compétences[c] += 1
  han.blaster -= 2
  han.compétences[c] = han.compétences[c] + 1D
}
action mal_entraîner() {
  han.blaster += 1D
}

rule pips(c: dice): dice {
  if c.bonus >= 3 { return pips(c + 1D - 3) }
  return c
}
rule tir(p: Perso): int { return roll(p.blaster + 1D) }
`

// TestDiceCodes: codes are values: added to, read, compared, printed and rolled (the dice
// hand-given).
func TestDiceCodes(t *testing.T) {
	tests := []dsltest.Case{
		{Name: "a default", Src: `han.blaster`, Want: "4D+2"},
		{Name: "an entity's field", Src: `han.esquive`, Want: "3D+1"},
		{Name: "a die more", Src: `han.blaster + 1D`, Want: "5D+2"},
		{Name: "a die less", Src: `han.blaster - 1D`, Want: "3D+2"},
		{Name: "pips", Src: `han.blaster - 2`, Want: "4D"},
		{Name: "pips first", Src: `1 + han.blaster`, Want: "4D+3"},
		{Name: "two codes", Src: `han.blaster + han.esquive`, Want: "7D+3"},
		{Name: "in sequence", Src: `han.blaster + 1D - 1D + 2D`, Want: "6D+2"},
		{Name: "parts", Src: `[han.blaster.count, han.blaster.sides, han.blaster.bonus]`, Want: "[4, 6, 2]"},
		{Name: "part of a sum", Src: `(han.esquive + 1D).count`, Want: "4"},
		{Name: "equal", Src: `han.blaster - 1D == han.esquive + 1`, Want: "true"},
		{Name: "bare D and d6", Src: `han.blaster != han.esquive`, Want: "true"},
		{Name: "printed", Src: `str(han.esquive - 2)`, Want: `"3D-1"`},
		{Name: "three pips make a die", Src: `pips(han.blaster + 5)`, Want: "6D+1"},
		{Name: "a string argument", Src: `pips("2D+4")`, Want: "3D+1"},
		{Name: "rolled", Src: `roll(han.blaster)`, Rolls: []string{"1", "2", "3", "4"}, Want: "4D [1, 2, 3, 4] + 2 = 12"},
		{Name: "rolled with a die more", Src: `tir(han)`, Rolls: []string{"6", "6", "6", "6", "6"}, Want: "32"},
		{Name: "other sides", Src: `han.blaster + 1d8`, Err: "4D+2 + 1d8: the dice have different sides (d6 and d8)"},
		{Name: "too few dice", Src: `han.blaster - 5D`, Err: "4D+2 - 5D leaves -1 dice"},
		{Name: "not a code", Src: `pips("2D+")`, Err: `pips: parameter c: "2D+" is not a dice code: expected a whole number after +`},
		{Name: "a roll is not a code", Src: `pips([4D][0])`, Rolls: []string{"1", "1", "1", "1"}, Err: "expected dice, got the roll 4D [1, 1, 1, 1] = 4"},
		{Name: "a dice literal is refused at load for a code", Src: `pips(4D)`, Err: "parameter c of pips is dice, got roll (a dice literal rolls where it stands; a code held as a value is written as a string: \"4D+2\")"},
		{Name: "no product", Src: `han.blaster * 2`, Err: "dice codes cannot be multiplied or divided (*)"},
		{Name: "no product on the left", Src: `2 * han.blaster`, Err: "dice codes cannot be multiplied or divided (*)"},
		// A map of codes: entries are codes (they were kept as strings), typed for the
		// operators, a missing key an error.
		{Name: "map entry", Src: `han.compétences["pilotage"] + 1D`, Want: "6D"},
		{Name: "map entry type", Src: `type(han.compétences.réparation)`, Want: `"dice"`},
		{Name: "map entry rolled", Src: `roll(han.compétences.réparation)`, Rolls: []string{"1", "2"}, Want: "2D [1, 2] + 2 = 5"},
		{Name: "map entry missing", Src: `han.compétences["tir"]`, Err: "no code for this key"},
		{Name: "compound assignments", Src: `[entraîner("réparation"), han.compétences.réparation, han.blaster]`, Want: "[nil, 3D+3, 4D]"},
		{Name: "compound with a roll", Src: `mal_entraîner()`, Rolls: []string{"3"}, Err: "cannot += 4D+2 with the roll 1D [3] = 3: a dice literal alone is rolled; write c = c + 1D"},
		{Name: "no order", Src: `han.blaster >= han.esquive`, Err: "dice codes have no order (>=) (a rule compares or scales their parts: c.count, c.sides, c.bonus)"},
	}
	dsltest.CheckCases(t, codesRules, tests)
}

// TestDiceCodeLoadErrors: a code written wrong is a load error where it is written.
func TestDiceCodeLoadErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{name: "a default", src: "kind P { a: dice = \"4D+\" }",
			want: `t.rules:1:20: "4D+" is not a dice code: expected a whole number after + (a code is N dice then an optional bonus: 4D+2, 1D, 3d6, 2d10-1)`},
		{name: "an entity's field", src: "kind P { a: dice }\nentity x: P { a: \"3x6\" }",
			want: `t.rules:2:18: "3x6" is not a dice code: expected d or D after the count`},
		{name: "a rolled literal", src: "kind P { a: dice = 4D+2 }",
			want: `t.rules:1:20: expected dice, got int`},
		{name: "a let", src: "rule f() { let c: dice = \"2D+1x\"\n return c }",
			want: `t.rules:1:26: "2D+1x" is not a dice code: expected a whole number after +`},
		{name: "beside a code", src: "rule f(c: dice): dice { return c + 2d6kh1 }",
			want: `t.rules:1:36: "2d6kh1" is not a dice code: unexpected "kh1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := dsl.LoadSource("t.rules", []byte(tt.src))
			if !diags.HasErrors() || !strings.Contains(diags.Error(), tt.want) {
				t.Fatalf("diagnostics %v, want %s", diags, tt.want)
			}
		})
	}
}
