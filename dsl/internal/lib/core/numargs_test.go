package core_test

import (
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/dsltest"
	"rulesh/stdlib/dice"
)

// numArgsRules passes values through id, whose result has type any: the checker lets them
// reach a builtin's number parameters, and the builtin itself must refuse what is not one.
const numArgsRules = `ruleset "n"
deck jeu standard
pile main
pile tapis
map champ {
  rows {
    ". ."
  }
  legend "." plaine
}
kind U {
  genre: string = "inf"
}
entity inf: U { }
dice pièce = [pile, face]
rule id(x) {
  return x
}
rule g(x: any, y: any): int {
  return div(x, y)
}
rule dix_sur(l: list): list {
  return filter(l, div(10, #) > 0)
}
rule coût(u: U, a: hex, b: hex): int {
  return 1
}
action a_draw(n) {
  return draw(jeu, n)
}
action a_deal(n) {
  return deal(jeu, main, n)
}
action a_allow(n) {
  return allow(main, tapis, n)
}
rule six_dans(m: map): bool {
  return any_face(m["r"], 6)
}
`

// TestNumberArgsThroughAny: every family of builtins (core, dice, cards, hex) refuses a
// value that is not a number where it takes one, at the call, naming itself, the argument
// and what it got; before, the value was read as 0 (div(2d6, 1) was 0, div(10, "x") a
// division by zero). Numbers, and rolls where a roll stands for its total, still work. The
// functions of a roll alone (any_face, all_faces, count_faces) refuse what is not a roll
// the same way; before, they said "expected a roll, got …", naming neither themselves nor
// the argument.
func TestNumberArgsThroughAny(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(numArgsRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	cases := []dsltest.Case{
		// core
		{Src: "g(2d6, 1)", Err: "t.rules:20:10: div: argument 1 must be a number, got 2d6 [", Rolls: []string{"4", "1"}},
		{Src: `g("12", 3)`, Err: `t.rules:20:10: div: argument 1 must be a number, got "12" (a string)`},
		{Src: `g(12, true)`, Err: `div: argument 2 must be a number, got true (a bool)`},
		{Src: `g(nil, 1)`, Err: `div: argument 1 must be a number, got nil`},
		{Src: `dix_sur([5, "x"])`, Err: `t.rules:23:20: div: argument 2 must be a number, got "x" (a string)`},
		{Src: `floor(id("x"))`, Err: `<e>:1:1: floor: argument 1 must be a number or a roll, got "x" (a string)`},
		{Src: `ceil(id([1]))`, Err: `ceil: argument 1 must be a number or a roll, got [1] (a list)`},
		{Src: `round(id("x"))`, Err: `round: argument 1 must be a number or a roll`},
		{Src: `half(id("x"))`, Err: `half: argument 1 must be a number or a roll`},
		{Src: `sign(id("x"))`, Err: `sign: argument 1 must be a number or a roll`},
		{Src: `clamp(5, id("x"), 9)`, Err: `clamp: argument 2 must be a number, got "x" (a string)`},
		{Src: `pct(id("x"))`, Err: `pct: argument 1 must be a number`},
		{Src: `sqrt(id("x"))`, Err: `sqrt: argument 1 must be a number`},
		{Src: `hypot(3, id("x"))`, Err: `hypot: argument 2 must be a number`},
		{Src: `fmt_num(id("x"), 1)`, Err: `fmt_num: argument 1 must be a number or a roll`},
		{Src: `total(id("x"))`, Err: `<e>:1:1: total: argument 1 must be a number or a roll, got "x" (a string)`},
		{Src: `total("x")`, Err: `<e>:1:1: total: argument 1 must be a number or a roll, got "x" (a string)`},
		{Src: `fmt_pct(0.5, id("x"))`, Err: `fmt_pct: argument 2 must be a number, got "x" (a string)`},
		{Src: `[g(7, 2), g(id(7.9), 2), floor(id(2.5)), clamp(id(5), 1, 3), hypot(id(3), 4)]`, Want: "[3, 3, 2, 3, 5.0]"},
		{Src: `floor(id(2d6))`, Want: "5", Rolls: []string{"4", "1"}},
		{Src: `any_face(id("x"), 6)`, Err: `<e>:1:1: any_face: argument 1 must be a roll, got "x" (a string)`},
		{Src: `all_faces(id(nil), 6)`, Err: `<e>:1:1: all_faces: argument 1 must be a roll, got nil`},
		{Src: `count_faces(id(6), 6)`, Err: `<e>:1:1: count_faces: argument 1 must be a roll, got 6 (an int)`},
		{Src: `count_faces(id([6]), 6)`, Err: `count_faces: argument 1 must be a roll, got [6] (a list)`},
		{Src: `six_dans({"r": "6"})`, Err: `t.rules:38:10: any_face: argument 1 must be a roll, got "6" (a string)`},
		{Src: `[any_face(id(2d6), 4), all_faces(id(2d6), 4), count_faces(id(2d6), 4, 1)]`, Want: "[true, false, 2]", Rolls: []string{"4", "1", "4", "3", "4", "1"}},
		// dice
		{Src: `d(id("6"))`, Err: `<e>:1:1: d: argument 1 must be a number, got "6" (a string)`},
		{Src: `roll(pièce, id("x"))`, Err: `roll: argument 2 must be a number, got "x" (a string)`},
		{Src: `sample([1, 2], id(1d6))`, Err: `sample: argument 2 must be a number, got 1d6 [`},
		{Src: `[d(id(6)), sample([1, 2], id(0))]`, Want: "[4, []]", Rolls: []string{"4"}},
		// cards
		{Src: `a_draw("x")`, Err: `t.rules:29:10: draw: argument 2 must be a number, got "x" (a string)`},
		{Src: `a_deal(id(1d6))`, Err: `t.rules:32:10: deal: argument 3 must be a number, got 1d6 [`},
		{Src: `a_allow(true)`, Err: `allow: argument 3 must be a number, got true (a bool)`},
		{Src: `[len(a_draw(2)), a_allow(1)]`, Want: "[2, 1]"},
		// hex
		{Src: `hex(id("1"), 1)`, Err: `hex: argument 1 must be a number, got "1" (a string)`},
		{Src: `ring(hex(1, 1), id("x"))`, Err: `ring: argument 2 must be a number`},
		{Src: `hex_range(hex(1, 1), id(nil))`, Err: `hex_range: argument 2 must be a number, got nil`},
		{Src: `units_within(champ, hex(1, 1), id("x"))`, Err: `units_within: argument 3 must be a number`},
		{Src: `reachable(champ, inf, hex(1, 1), id("x"), coût)`, Err: `reachable: argument 4 must be a number, got "x" (a string)`},
		{Src: `path(champ, inf, hex(1, 1), hex(2, 1), id("x"), coût)`, Err: `path: argument 5 must be a number`},
		{Src: `[hex(id(1), 1), reachable(champ, inf, hex(1, 1), id(1), coût)]`, Want: "[(1,1), [(2,1)]]"},
	}
	dsltest.CheckEvals(t, prog, func() dice.Source { return dice.NewPCG(1) }, cases)
}
