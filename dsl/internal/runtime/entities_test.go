package runtime_test

import (
	"testing"

	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// TestEntitiesOfKept: entities(kind) gives the machine's list of the kind's records, in
// declaration order, the same list again (nothing copied) while no global binding changes,
// charged a step per entity declared each time; an unknown kind is an error.
func TestEntitiesOfKept(t *testing.T) {
	prog, diags := compile("t.rules", `ruleset "t"
option bonus = 1 "doc"
kind P { nom: string }
kind N { nom: string }
entity a: P { nom: "a" }
entity n: N { nom: "n" }
entity b: P { nom: "b" }
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, err := runtime.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	first, err := m.EntitiesOf("P")
	if err != nil || runtime.Repr(first) != `[P{nom: "a"}, P{nom: "b"}]` {
		t.Fatalf("EntitiesOf(P) = %s, %v", runtime.Repr(first), err)
	}
	before := m.Steps()
	again, _ := m.EntitiesOf("P")
	if &again[0] != &first[0] {
		t.Errorf("EntitiesOf(P) asked again made a new list")
	}
	if got := m.Steps() - before; got != 3 {
		t.Errorf("EntitiesOf(P) charged %d steps, want 3 (the entities declared)", got)
	}
	if allocs := testing.AllocsPerRun(100, func() { _, _ = m.EntitiesOf("P") }); allocs != 0 {
		t.Errorf("EntitiesOf(P) asked again: %v allocations, want 0", allocs)
	}
	ns, err := m.EntitiesOf("N")
	if err != nil || runtime.Repr(ns) != `[N{nom: "n"}]` {
		t.Errorf("EntitiesOf(N) = %s, %v", runtime.Repr(ns), err)
	}
	// A global binding changed: the list is made anew, with the same records.
	if err := m.SetOption("bonus", 2); err != nil {
		t.Fatal(err)
	}
	after, err := m.EntitiesOf("P")
	if err != nil || runtime.Repr(after) != runtime.Repr(first) || after[0].(map[string]any)["nom"] != "a" {
		t.Errorf("EntitiesOf(P) after a binding changed = %s, %v", runtime.Repr(after), err)
	}
	if _, err := m.EntitiesOf("Nope"); err == nil || err.Error() != "unknown kind Nope" {
		t.Errorf("EntitiesOf(Nope): %v", err)
	}
}

// Equal compares values that are no list or map as expressions do (1 equals 1.0, nil only
// nil), without charging a step, and lists and maps element by element, a step each.
func TestEqualScalarsAndCollections(t *testing.T) {
	prog, diags := compile("t.rules", `ruleset "t"
kind P { nom: string }
entity a: P { nom: "a" }
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, err := runtime.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := m.Global("a")
	for _, tc := range []struct {
		a, b  any
		want  bool
		steps int
	}{
		{"a", "a", true, 0}, {"a", "b", false, 0}, {1, 1.0, true, 0}, {1, 2, false, 0},
		{nil, nil, true, 0}, {nil, "", false, 0}, {true, true, true, 0}, {"a", []any{"a"}, false, 0},
		{[]any{1, "x"}, []any{1.0, "x"}, true, 2}, {[]any{1}, "a", false, 0},
		{map[string]any{"k": 1}, map[string]any{"k": 1}, true, 1}, {rec, rec, true, 0},
	} {
		before := m.Steps()
		got, err := m.Equal(tc.a, tc.b)
		if err != nil || got != tc.want || m.Steps()-before != tc.steps {
			t.Errorf("Equal(%s, %s) = %v, %v, %d steps; want %v, %d steps", runtime.Repr(tc.a), runtime.Repr(tc.b),
				got, err, m.Steps()-before, tc.want, tc.steps)
		}
	}
}

// TestEntityFieldWrites: a write to an entity's field conforms the value to the entity's
// kind (an int into a float field stays a float), and a parameter named like an entity is
// the parameter, whose kind's field is written, not the entity's.
func TestEntityFieldWrites(t *testing.T) {
	prog, diags := compile("t.rules", `ruleset "t"
kind K { a: float = 0.5 }
kind L { a: int = 0 }
entity e: K { }
entity g: L { }
action t(e: L) {
  e.a = 3
}
action u() {
  e.a = 2
  t(g)
}
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, err := runtime.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Call("u"); err != nil {
		t.Fatal(err)
	}
	e, _ := m.Global("e")
	g, _ := m.Global("g")
	if a, ok := e.(map[string]any)["a"].(float64); !ok || a != 2 {
		t.Errorf("e.a = %#v, want the float 2", e.(map[string]any)["a"])
	}
	if a, ok := g.(map[string]any)["a"].(int); !ok || a != 3 {
		t.Errorf("g.a = %#v, want the int 3", g.(map[string]any)["a"])
	}
}
