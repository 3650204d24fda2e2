package dsl

import "testing"

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
	s := sessionOf(t, goChangeRules)
	set := func(pv int) {
		rec, _ := s.M.Global("héros")
		rec.(map[string]any)["pv"] = pv
	}
	for i, want := range []int{5, 3, 7} {
		if i > 0 {
			set(want)
		}
		if v, err := s.M.Call("pv"); err != nil || v != want {
			t.Errorf("Call after change %d: %v, %v; want %d", i, v, err, want)
		}
		set(want + 1)
		if v, err := s.Eval("<eval>", "pv()"); err != nil || v != want+1 {
			t.Errorf("Eval after change %d: %v, %v; want %d", i, v, err, want+1)
		}
	}
}
