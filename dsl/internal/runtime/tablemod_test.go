package runtime_test

import (
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/dsltest"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

const modRules = `table coup(m) roll 1d6 + m - 1 {
  <= 2   : "raté"
  3 .. 5 : "touché"
  >= 6   : "coulé"
}
table fixe roll 2d6 + 3 {
  < 10 : "bas"
  else : "haut"
}
`

// TestRollModifiers: a table's roll plus its modifiers is the key; a key given is looked up
// as it is.
func TestRollModifiers(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(modRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	dsltest.CheckEvals(t, prog, func() dice.Source { return dice.NewQueue(nil, nil) }, []dsltest.Case{
		{Src: "coup(0)", Rolls: []string{"3"}, Want: `"raté"`},
		{Src: "coup(1)", Rolls: []string{"3"}, Want: `"touché"`},
		{Src: "coup(2)", Rolls: []string{"5"}, Want: `"coulé"`},
		{Src: "coup(-5)", Rolls: []string{"6"}, Want: `"raté"`},
		{Src: "coup(0, 6)", Want: `"coulé"`},
		{Src: "coup(m = 4)", Rolls: []string{"1"}, Want: `"touché"`},
		{Src: "fixe()", Rolls: []string{"3", "3"}, Want: `"bas"`},
		{Src: "fixe()", Rolls: []string{"3", "4"}, Want: `"haut"`},
		{Src: `coup("x")`, Rolls: []string{"1"}, Err: `cannot apply + to int and string`},
		{Src: `coup(1.5)`, Rolls: []string{"1"}, Err: `the roll adds + m - 1, which must be a whole number, got 0.5`},
	})
}

// TestRollModifierOdds: the odds of coup(m) are those of 1d6 + m - 1, counted face by face.
func TestRollModifierOdds(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(modRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	for m := -6; m <= 6; m++ {
		count := map[string]int{}
		var order []string
		for f := 1; f <= 6; f++ {
			k, label := f+m-1, "coulé"
			switch {
			case k <= 2:
				label = "raté"
			case k <= 5:
				label = "touché"
			}
			if count[label] == 0 {
				order = append(order, label)
			}
			count[label]++
		}
		dist, err := prog.TableDist("coup", m)
		if err != nil {
			t.Fatal(err)
		}
		if len(dist.W) != len(order) {
			t.Fatalf("coup(%d): %d outcomes, want %v", m, len(dist.W), order)
		}
		for i, label := range order {
			if dist.Syms[i] != label || dist.P(i+1).Cmp(bigRat(count[label], 6)) != 0 {
				t.Errorf("coup(%d): %s = %v, want %s %d/6", m, dist.Syms[i], dist.P(i+1), label, count[label])
			}
		}
	}
	for _, c := range []struct {
		name string
		args []any
		err  string
	}{
		{"coup", nil, "table coup adds + m - 1 to its roll: give m, as in coup(m)"},
		{"coup", []any{"x"}, `table coup: t.rules:1:24: cannot apply + to int and string`},
		{"fixe", []any{1}, "table fixe's roll reads 0 parameters: its odds take 0 arguments, not 1"},
	} {
		if _, err := prog.TableDist(c.name, c.args...); err == nil || err.Error() != c.err {
			t.Errorf("TableDist(%s, %v): %v, want %q", c.name, c.args, err, c.err)
		}
	}
	fixe, err := prog.TableDist("fixe")
	// 2d6 + 3 < 10: 2d6 <= 6, 15 of 36.
	if err != nil || fixe.P(1).Cmp(bigRat(15, 36)) != 0 {
		t.Errorf("fixe: %v, %v; want bas 15/36", fixe, err)
	}
}

// TestRollPlusOptionsConsts: roll 2d6 + stat * 2 - k reads an option, a const and a
// parameter with a default; its odds count the 36 faces of 2d6 by hand, and a call rolls
// the dice then adds the same terms.
func TestRollPlusOptionsConsts(t *testing.T) {
	prog, d := dsl.LoadSource("t.rules", []byte(`option stat = 1
const k = 3
table bande(m = 1) roll 2d6 + stat * 2 - k + m {
  <= 6   : "échec"
  7 .. 9 : "partiel"
  >= 10  : "réussite"
}
table mêlée roll 1d6 + 1d4 {
  <= 4 : "bas"
  else : "haut"
}
`))
	if d.HasErrors() {
		t.Fatal(d)
	}
	for _, m := range []int{1, -2} {
		count := map[string]int{}
		for a := 1; a <= 6; a++ {
			for b := 1; b <= 6; b++ {
				switch k := a + b + 1*2 - 3 + m; {
				case k <= 6:
					count["échec"]++
				case k <= 9:
					count["partiel"]++
				default:
					count["réussite"]++
				}
			}
		}
		var args []any
		if m != 1 {
			args = []any{m} // 1 is the default
		}
		dist, err := prog.TableDist("bande", args...)
		if err != nil {
			t.Fatal(err)
		}
		for i, label := range dist.Syms {
			if dist.P(i+1).Cmp(bigRat(count[label], 36)) != 0 {
				t.Errorf("bande(%d): %s = %v, want %d/36", m, label, dist.P(i+1), count[label])
			}
		}
	}
	if prog.RollsItsKey("mêlée") || !prog.RollsItsKey("bande") {
		t.Errorf("RollsItsKey: mêlée adds dice (the engine's odds), bande adds numbers (convolution)")
	}
	for _, c := range []struct {
		src   string
		rolls []int
		want  string
	}{
		{"bande()", []int{3, 3}, `"échec"`},    // 3+3 + 2 - 3 + 1 = 6
		{"bande(3)", []int{3, 3}, `"partiel"`}, // 3+3 + 2 - 3 + 3 = 8
		{"mêlée()", []int{2, 2}, `"bas"`},      // 4
		{"mêlée()", []int{2, 3}, `"haut"`},     // 5
	} {
		m, err := dsl.NewMachine(prog, dice.NewIntQueue(c.rolls, nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := dsl.NewSession(m).Eval("<e>", c.src)
		if err != nil || runtime.Repr(v) != c.want {
			t.Errorf("%s = %v, %v; want %s", c.src, runtime.Repr(v), err, c.want)
		}
	}
}
