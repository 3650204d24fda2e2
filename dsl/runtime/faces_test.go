package runtime_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/runtime"
	"rulesh/stdlib/dice"
)

const facesRules = `
dice combat = [sabre, fusil, fusil, boulet, drapeau, général]
dice moral = [-1, 0, 1]

rule tir(): string {
  let r = roll(combat)
  if r == fusil { return "touché" }
  if général == r { return "ordre" }
  return "manqué"
}
rule bonus(n: int): int { return n }
`

// TestSymbolicFaces: a roll of one symbolic die is compared with a face, written bare or as
// a string; it has no number, so arithmetic, ordering and a number compared are errors. The
// dice are hand-given.
func TestSymbolicFaces(t *testing.T) {
	tests := []struct {
		name, expr string
		rolls      []string
		want, err  string
	}{
		{name: "bare face", expr: `roll(combat) == fusil`, rolls: []string{"fusil"}, want: "true"},
		{name: "bare face, other side", expr: `fusil != roll(combat)`, rolls: []string{"fusil"}, want: "false"},
		{name: "string face", expr: `roll(combat) == "boulet"`, rolls: []string{"boulet"}, want: "true"},
		{name: "literal die", expr: `1d[combat] == général`, rolls: []string{"général"}, want: "true"},
		{name: "two rolls", expr: `roll(combat) == roll(combat)`, rolls: []string{"fusil", "fusil"}, want: "true"},
		{name: "in a rule", expr: `[tir(), tir(), tir()]`, rolls: []string{"sabre", "fusil", "général"}, want: `["manqué", "touché", "ordre"]`},
		{name: "a symbol of the roll", expr: `roll(combat).symbols[0] == drapeau`, rolls: []string{"drapeau"}, want: "true"},
		{name: "reroll once, by name", expr: `1d[combat]ro=général == sabre`, rolls: []string{"général", "sabre"}, want: "true"},
		{name: "a count is a number", expr: `2d[combat]=fusil + 1`, rolls: []string{"fusil", "fusil"}, want: "3"},
		{name: "numeric die", expr: `roll(moral) + 1`, rolls: []string{"1"}, want: "2"},
		{name: "arithmetic", expr: `roll(combat) + 1`, rolls: []string{"fusil"},
			err: "cannot apply + to 1d[combat] [fusil]: a face has a name, not a number (compare it with a face: r == fusil)"},
		{name: "order", expr: `roll(combat) >= 2`, rolls: []string{"sabre"},
			err: "cannot apply >= to 1d[combat] [sabre]: a face has a name, not a number (compare it with a face: r == sabre)"},
		{name: "a number compared", expr: `roll(combat) == 4`, rolls: []string{"boulet"},
			err: "cannot compare 1d[combat] [boulet] with 4: a face is compared with a face (r == boulet)"},
		{name: "total", expr: `total(roll(combat))`, rolls: []string{"boulet"},
			err: "1d[combat] [boulet] is the face boulet: it has a name, not a number"},
		{name: "int parameter", expr: `bonus(roll(combat))`, rolls: []string{"boulet"},
			err: "expected an int, got the face boulet of 1d[combat] (a face has a name, not a number)"},
		{name: "not a face", expr: `roll(combat) == canon`, err: "unknown name canon"},
		{name: "a face compared with a number", expr: `3 == fusil`, err: "unknown name fusil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog, diags := dsl.LoadSource("t.rules", []byte(facesRules))
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
