package dice_test

import (
	"fmt"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

const diceRules = `ruleset "d"
dice combat = [sabre, fusil, fusil, boulet, drapeau, général]
rule any_roll(x) {
  return roll(x)
}
rule any_d(x) {
  return d(x)
}
`

// TestDiceBuiltins: d and roll on hand-given results, with the message for every argument
// they refuse.
func TestDiceBuiltins(t *testing.T) {
	prog, diags := dsl.LoadSource("t.rules", []byte(diceRules))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, c := range []struct {
		src       string
		rolls     []int
		want, err string
	}{
		{src: "d(6)", rolls: []int{4}, want: "4"},
		{src: "d(1)", rolls: []int{1}, want: "1"},
		{src: "[d(20), d(20)]", rolls: []int{20, 1}, want: "[20, 1]"},
		{src: "d(6)", rolls: []int{7}, err: "<e>:1:1: hand-given result 7 does not fit a 6-sided die (it is discarded)"},
		{src: "d(0)", err: "<e>:1:1: a die has 1 to 1000000 sides, not 0"},
		{src: "d(1000001)", err: "<e>:1:1: a die has 1 to 1000000 sides, not 1000001"},
		{src: "d(6)", err: "<e>:1:1: no hand-given result left for a 6-sided die"},
		{src: `[roll("2d6+1").total, roll("2d6+1").faces]`, rolls: []int{3, 5, 6, 6}, want: "[9, [6, 6]]"},
		{src: `roll("2d6").total`, rolls: []int{3}, err: "<e>:1:1: no hand-given result left for d6"},
		{src: `roll("1d6/2")`, rolls: []int{3}, err: `<e>:1:1: roll("1d6/2"): column 4: 1d6 / 2 is a fraction and dice totals here are whole numbers: write floor(1d6 / 2) to round down (as / did before), round(1d6 / 2) or ceil(1d6 / 2); in a rule expression 1d6 / 2 is the fraction itself`},
		{src: `[roll("floor(1d6/2)").total, roll("round(1d6/2)").total, roll("4d6u=5").total]`, rolls: []int{3, 3, 5, 5, 2, 1, 1}, want: "[1, 2, 9]"},
		{src: `roll("3d")`, err: `<e>:1:1: roll("3d"): column 3: missing number of sides after d`},
		{src: `roll("2d6").dice`, err: "<e>:1:13: type roll has no field dice"},
		{src: "roll(combat, 0)", want: "0d[combat] []"},
		{src: `[roll(combat, 0).total, roll(combat, 0).faces, roll(combat, 0).symbols]`, want: "[0, [], []]"},
		{src: "roll(combat, -1)", err: "<e>:1:1: roll -1 dice: between 0 and 10000"},
		{src: "roll(combat, 10001)", err: "<e>:1:1: roll 10001 dice: between 0 and 10000"},
		{src: "roll(combat)", rolls: []int{7}, err: "<e>:1:1: hand-given result 7 is not a face of combat (sabre, fusil, boulet, drapeau, général; it is discarded)"},
		{src: "any_roll(3)", err: "t.rules:4:10: roll takes dice notation or a die, not 3"},
	} {
		m, err := dsl.NewMachine(prog, dice.NewIntQueue(c.rolls, nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := dsl.NewSession(m).Eval("<e>", c.src)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s: err = %v, want %q", c.src, err, c.err)
		case c.err == "" && (err != nil || runtime.Repr(v) != c.want):
			t.Errorf("%s = %v, %v; want %s", c.src, runtime.Repr(v), err, c.want)
		}
	}
}

// TestSymbolDice: hand-given results of a symbolic die are its face names; its faces count
// the distinct names in declaration order, and its total adds them up.
func TestSymbolDice(t *testing.T) {
	prog, diags := dsl.LoadSource("t.rules", []byte(diceRules))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, c := range []struct {
		given     []string
		src, want string
	}{
		{[]string{"sabre", "boulet", "général"}, "[roll(combat).symbols, roll(combat, 2).symbols]", `[["sabre"], ["boulet", "général"]]`},
		{[]string{"fusil", "drapeau"}, "roll(combat, 2).faces", "[2, 4]"},
		{[]string{"fusil", "drapeau"}, "roll(combat, 2).total", "6"},
		{[]string{"canon"}, "roll(combat)", `"<e>:1:1: hand-given result canon is not a face of combat (sabre, fusil, boulet, drapeau, général; it is discarded)"`},
	} {
		m, err := dsl.NewMachine(prog, dice.NewQueue(c.given, nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := dsl.NewSession(m).Eval("<e>", c.src)
		got := runtime.Repr(v)
		if err != nil {
			got = runtime.Repr(err.Error())
		}
		if got != c.want {
			t.Errorf("%v %s = %s, want %s", c.given, c.src, got, c.want)
		}
	}
}

// TestDiceFair: over a seeded run, d(6) and a custom die give every face, and only its
// faces, about as often as the next (a face seen less than half or more than twice its
// expected count would say the source is biased or the faces mapped wrong).
func TestDiceFair(t *testing.T) {
	prog, diags := dsl.LoadSource("t.rules", []byte(diceRules))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(7), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	const n = 6000
	for src, want := range map[string]map[string]int{
		fmt.Sprintf("groupBy(map(1..%d, d(6)), string(#))", n):              {"1": n / 6, "2": n / 6, "3": n / 6, "4": n / 6, "5": n / 6, "6": n / 6},
		fmt.Sprintf("groupBy(roll(combat, %d).symbols, #)", n):              {"sabre": n / 6, "fusil": n / 3, "boulet": n / 6, "drapeau": n / 6, "général": n / 6},
		fmt.Sprintf(`groupBy(map(1..%d, roll("1d6").total), string(#))`, n): {"1": n / 6, "2": n / 6, "3": n / 6, "4": n / 6, "5": n / 6, "6": n / 6},
	} {
		v, err := s.Eval("<e>", src)
		if err != nil {
			t.Fatal(err)
		}
		groups := map[string]int{}
		for k, g := range v.(map[any][]any) {
			groups[runtime.Str(k)] = len(g)
		}
		if len(groups) != len(want) {
			t.Errorf("%s: faces %s, want %d of them", src, runtime.Repr(v), len(want))
		}
		for face, w := range want {
			got := groups[face]
			if got < w/2 || got > 2*w {
				t.Errorf("%s: %s came %d times, expected about %d", src, face, got, w)
			}
		}
	}
}
