package runtime_test

import (
	"rulesh/dsl/internal/dsltest"
	"testing"
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
	tests := []dsltest.Case{
		{Name: "bare face", Src: `roll(combat) == fusil`, Rolls: []string{"fusil"}, Want: "true"},
		{Name: "bare face, other side", Src: `fusil != roll(combat)`, Rolls: []string{"fusil"}, Want: "false"},
		{Name: "string face", Src: `roll(combat) == "boulet"`, Rolls: []string{"boulet"}, Want: "true"},
		{Name: "literal die", Src: `1d[combat] == général`, Rolls: []string{"général"}, Want: "true"},
		{Name: "two rolls", Src: `roll(combat) == roll(combat)`, Rolls: []string{"fusil", "fusil"}, Want: "true"},
		{Name: "in a rule", Src: `[tir(), tir(), tir()]`, Rolls: []string{"sabre", "fusil", "général"}, Want: `["manqué", "touché", "ordre"]`},
		{Name: "a symbol of the roll", Src: `roll(combat).symbols[0] == drapeau`, Rolls: []string{"drapeau"}, Want: "true"},
		{Name: "reroll once, by name", Src: `1d[combat]ro=général == sabre`, Rolls: []string{"général", "sabre"}, Want: "true"},
		{Name: "a count is a number", Src: `2d[combat]=fusil + 1`, Rolls: []string{"fusil", "fusil"}, Want: "3"},
		{Name: "numeric die", Src: `roll(moral) + 1`, Rolls: []string{"1"}, Want: "2"},
		{Name: "arithmetic", Src: `roll(combat) + 1`, Rolls: []string{"fusil"},
			Err: "cannot apply + to 1d[combat] [fusil]: a face has a name, not a number (compare it with a face: r == fusil)"},
		{Name: "order", Src: `roll(combat) >= 2`, Rolls: []string{"sabre"},
			Err: "cannot apply >= to 1d[combat] [sabre]: a face has a name, not a number (compare it with a face: r == sabre)"},
		{Name: "a number compared", Src: `roll(combat) == 4`, Rolls: []string{"boulet"},
			Err: "cannot compare 1d[combat] [boulet] with 4: a face is compared with a face (r == boulet)"},
		{Name: "total", Src: `total(roll(combat))`, Rolls: []string{"boulet"},
			Err: "1d[combat] [boulet] is the face boulet: it has a name, not a number"},
		{Name: "int parameter", Src: `bonus(roll(combat))`, Rolls: []string{"boulet"},
			Err: "expected an int, got the face boulet of 1d[combat] (a face has a name, not a number)"},
		{Name: "not a face", Src: `roll(combat) == canon`, Err: "unknown name canon"},
		{Name: "a face compared with a number", Src: `3 == fusil`, Err: "unknown name fusil"},
	}
	dsltest.CheckCases(t, facesRules, tests)
}
