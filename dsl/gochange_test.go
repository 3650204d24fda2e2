package dsl_test

import (
	"testing"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// goChangeRules give an entity a field that rules read: a Go caller that changes the
// entity it was given (Machine.Global) sees the change in its next Call or Session.Eval,
// though the machine had read the field before.
const goChangeRules = `
kind Héros {
  nom: string
  pv: int = 5
}
entity héros: Héros { nom: "Ann" }
rule pv(): int {
  return héros.pv
}
`

func TestGoChangeSeenByTheNextCall(t *testing.T) {
	prog, d := dsl.LoadSource("g.rules", []byte(goChangeRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := dsl.NewSession(m)
	for i, want := range []int{5, 3, 7} {
		if i > 0 {
			rec, _ := m.Global("héros")
			rec.(map[string]any)["pv"] = want
		}
		if v, err := m.Call("pv"); err != nil || v != want {
			t.Errorf("Call after change %d: %v, %v; want %d", i, v, err, want)
		}
		rec, _ := m.Global("héros")
		rec.(map[string]any)["pv"] = want + 1
		if v, err := s.Eval("<eval>", "pv()"); err != nil || v != want+1 {
			t.Errorf("Eval after change %d: %v, %v; want %d", i, v, err, want+1)
		}
	}
}
