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

// TestResultsNotSharedWithGo: a place in the rules that makes the same list again gives
// the list it made (runtime.Machine.ListOf), but a list handed to Go code is that code's:
// changing it changes no other result, neither one handed out before nor one to come.
func TestResultsNotSharedWithGo(t *testing.T) {
	s := sessionOf(t, `
rule paire(x: int): list {
  return [x, x + 1]
}
rule dans(x: int): map {
  return {p: [x, x + 1]}
}
`)
	change := func(v any) { v.([]any)[0] = 99 }
	a, err := s.M.Call("paire", 1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.M.Call("paire", 1)
	change(a)
	c, _ := s.M.Call("paire", 1)
	d, _ := s.Eval("<eval>", "paire(1)")
	change(d)
	e, _ := s.Eval("<eval>", "paire(1)")
	f, _ := s.M.Call("paire", 1)
	for i, v := range []any{b, c, e, f} {
		if got := Repr(v); got != "[1, 2]" {
			t.Errorf("result %d: %s, want [1, 2]", i+2, got)
		}
	}
	// A list inside a map handed out.
	g, _ := s.M.Call("dans", 1)
	h, _ := s.M.Call("dans", 1)
	change(g.(map[string]any)["p"])
	if got := Repr(h); got != "{p: [1, 2]}" {
		t.Errorf("a map's list: %s, want {p: [1, 2]}", got)
	}
}
