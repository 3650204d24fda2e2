package runtime_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/runtime"
	"rulesh/stdlib/dice"
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
	tests := []struct {
		name, expr string
		rolls      []string
		want, err  string
	}{
		{name: "a default", expr: `han.blaster`, want: "4D+2"},
		{name: "an entity's field", expr: `han.esquive`, want: "3D+1"},
		{name: "a die more", expr: `han.blaster + 1D`, want: "5D+2"},
		{name: "a die less", expr: `han.blaster - 1D`, want: "3D+2"},
		{name: "pips", expr: `han.blaster - 2`, want: "4D"},
		{name: "pips first", expr: `1 + han.blaster`, want: "4D+3"},
		{name: "two codes", expr: `han.blaster + han.esquive`, want: "7D+3"},
		{name: "in sequence", expr: `han.blaster + 1D - 1D + 2D`, want: "6D+2"},
		{name: "parts", expr: `[han.blaster.count, han.blaster.sides, han.blaster.bonus]`, want: "[4, 6, 2]"},
		{name: "part of a sum", expr: `(han.esquive + 1D).count`, want: "4"},
		{name: "equal", expr: `han.blaster - 1D == han.esquive + 1`, want: "true"},
		{name: "bare D and d6", expr: `han.blaster != han.esquive`, want: "true"},
		{name: "printed", expr: `str(han.esquive - 2)`, want: `"3D-1"`},
		{name: "three pips make a die", expr: `pips(han.blaster + 5)`, want: "6D+1"},
		{name: "a string argument", expr: `pips("2D+4")`, want: "3D+1"},
		{name: "rolled", expr: `roll(han.blaster)`, rolls: []string{"1", "2", "3", "4"}, want: "4D [1, 2, 3, 4] + 2 = 12"},
		{name: "rolled with a die more", expr: `tir(han)`, rolls: []string{"6", "6", "6", "6", "6"}, want: "32"},
		{name: "other sides", expr: `han.blaster + 1d8`, err: "4D+2 + 1d8: the dice have different sides (d6 and d8)"},
		{name: "too few dice", expr: `han.blaster - 5D`, err: "4D+2 - 5D leaves -1 dice"},
		{name: "not a code", expr: `pips("2D+")`, err: `pips: parameter c: "2D+" is not a dice code: expected a whole number after +`},
		{name: "a roll is not a code", expr: `pips(4D)`, rolls: []string{"1", "1", "1", "1"}, err: "expected dice, got the roll 4D [1, 1, 1, 1] = 4"},
		{name: "no product", expr: `han.blaster * 2`, err: "dice codes cannot be multiplied or divided (*)"},
		{name: "no product on the left", expr: `2 * han.blaster`, err: "dice codes cannot be multiplied or divided (*)"},
		// A map of codes: entries are codes (they were kept as strings), typed for the
		// operators, a missing key an error.
		{name: "map entry", expr: `han.compétences["pilotage"] + 1D`, want: "6D"},
		{name: "map entry type", expr: `type(han.compétences.réparation)`, want: `"dice"`},
		{name: "map entry rolled", expr: `roll(han.compétences.réparation)`, rolls: []string{"1", "2"}, want: "2D [1, 2] + 2 = 5"},
		{name: "map entry missing", expr: `han.compétences["tir"]`, err: "no code for this key"},
		{name: "compound assignments", expr: `[entraîner("réparation"), han.compétences.réparation, han.blaster]`, want: "[nil, 3D+3, 4D]"},
		{name: "compound with a roll", expr: `mal_entraîner()`, rolls: []string{"3"}, err: "cannot += 4D+2 with the roll 1D [3] = 3: a dice literal alone is rolled; write c = c + 1D"},
		{name: "no order", expr: `han.blaster >= han.esquive`, err: "dice codes have no order (>=) (a rule compares or scales their parts: c.count, c.sides, c.bonus)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog, diags := dsl.LoadSource("t.rules", []byte(codesRules))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			m, err := dsl.NewMachine(prog, dice.NewQueue(tt.rolls, nil), nil)
			if err != nil {
				t.Fatal(err)
			}
			v, err := dsl.NewSession(m).Eval("<eval>", tt.expr)
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
