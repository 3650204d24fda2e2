package runtime_test

import (
	"testing"

	"rulesh/dsl/internal/runtime"
)

// fieldRules read fields through every path of the machine's table of fields read lately
// (a name's field, an element's field in a predicate, a field compared to a string in a
// filter, a map's entry by a computed key) and write them every way a rule can (=, +=, an
// entry by a key made at run time, a field of a record in a list), between the reads.
const fieldRules = `
kind Grand {
  nom: string
  a: int = 1
  b: int = 2
  c: int = 3
  d: int = 4
  e: int = 5
  f: int = 6
  g: int = 7
  rôle: string = ""
  tab: map[string]int
}
entity x: Grand { nom: "x", tab: {un: 1, deux: 2} }
entity y: Grand { nom: "y", rôle: "soutien" }
entity z: Grand { nom: "z", rôle: "soutien" }
rule lire(p: Grand): string {
  return "{p.a} {p.g} {p.rôle} {p.tab['un'] ?? 0} {p.tab['deux'] ?? 0}"
}
rule soutiens(): list {
  return map(filter(entities("Grand"), #.rôle == "soutien"), #.nom)
}
rule somme(): int {
  return sum(map(entities("Grand"), #.a + #.g))
}
rule entrée(p: Grand, k: string): int {
  return p.tab[k] ?? -1
}
action changer() {
  let k = "u" + "n"
  x.a = 10
  x.g += 5
  x.rôle = "soutien"
  y.rôle = ""
  x.tab[k] = 11
  x.tab["tr" + "ois"] = 3
  for p in entities("Grand") {
    p.a += 100
  }
}
action échouer() {
  x.a = 999
  z.rôle = ""
  require false else "annulé"
}
action beaucoup(n: int): int {
  let rs = map(1..n, Grand({nom: str(#), a: #}))
  let t = sum(map(rs, #.a))
  for r in rs {
    r.a = r.a * 2
  }
  return sum(map(rs, #.a)) - 2 * t
}
`

// TestFieldCache reads fields before and after every kind of write, and after a call whose
// changes were undone: each read gives what the record holds (the table is written through,
// never stale), in a long machine and with the table's entries taken by many records.
func TestFieldCache(t *testing.T) {
	_, m := newMachine(t, fieldRules)
	global := func(name string) any {
		v, ok := m.Global(name)
		if !ok {
			t.Fatalf("no global %s", name)
		}
		return v
	}
	steps := []struct {
		proc string
		args []any
		want string
	}{
		{"lire", []any{"x"}, `"1 7  1 2"`},
		{"soutiens", nil, `["y", "z"]`},
		{"somme", nil, "24"},
		{"entrée", []any{"x", "un"}, "1"},
		{"entrée", []any{"x", "trois"}, "0"}, // a typed map's missing entry reads as its zero
		{"changer", nil, "nil"},
		{"lire", []any{"x"}, `"110 12 soutien 11 2"`},
		{"soutiens", nil, `["x", "z"]`},
		{"somme", nil, "338"},
		{"entrée", []any{"x", "un"}, "11"},
		{"entrée", []any{"x", "trois"}, "3"},
		{"échouer", nil, "error: t.rules:44:3: annulé"},
		{"lire", []any{"x"}, `"110 12 soutien 11 2"`},
		{"soutiens", nil, `["x", "z"]`},
		{"beaucoup", []any{2000}, "0"},
		{"lire", []any{"x"}, `"110 12 soutien 11 2"`},
		{"lire", []any{"y"}, `"101 7  0 0"`},
	}
	for _, s := range steps {
		args := make([]any, len(s.args))
		for i, a := range s.args {
			args[i] = a
			if name, ok := a.(string); ok && len(name) == 1 {
				args[i] = global(name)
			}
		}
		v, err := m.Call(s.proc, args...)
		got := runtime.Repr(v)
		if err != nil {
			got = "error: " + err.Error()
		}
		if got != s.want {
			t.Errorf("%s%v = %s, want %s", s.proc, s.args, got, s.want)
		}
	}
}

// TestFieldCacheTrial reads a field inside trials whose changes are undone: each trial
// starts from the record as it was, however the last one left the table.
func TestFieldCacheTrial(t *testing.T) {
	prog, m := newMachine(t, fieldRules)
	x, _ := m.Global("x")
	lire, changer, entrée := prog.Proc("lire"), prog.Proc("changer"), prog.Proc("entrée")
	for i := range 3 {
		var before, after, added any
		err := m.Trial(func() error {
			var err error
			if before, err = m.CallAt(lire, []any{x}, lire.Pos); err != nil {
				return err
			}
			if _, err = m.CallAt(changer, nil, changer.Pos); err != nil {
				return err
			}
			if after, err = m.CallAt(lire, []any{x}, lire.Pos); err != nil {
				return err
			}
			// An entry the trial adds, read once added: the undo takes it out again.
			added, err = m.CallAt(entrée, []any{x, "trois"}, entrée.Pos)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := runtime.Repr(before), `"1 7  1 2"`; got != want {
			t.Errorf("trial %d: before the change %s, want %s", i, got, want)
		}
		if got, want := runtime.Repr(after), `"110 12 soutien 11 2"`; got != want {
			t.Errorf("trial %d: after the change %s, want %s", i, got, want)
		}
		if got, want := runtime.Repr(added), "3"; got != want {
			t.Errorf("trial %d: the entry added reads %s, want %s", i, got, want)
		}
		if v, err := m.Call("entrée", x, "trois"); err != nil || runtime.Repr(v) != "0" {
			t.Errorf("after trial %d: the entry taken out reads %s, %v; want 0", i, runtime.Repr(v), err)
		}
	}
	if v, err := m.Call("lire", x); err != nil || runtime.Repr(v) != `"1 7  1 2"` {
		t.Errorf("after the trials: %s, %v; want \"1 7  1 2\"", runtime.Repr(v), err)
	}
}

// entityRules give an entity fields that another entity's initialiser reads first: the
// later entity's own initialiser then sets them, and every read after gives what it set.
const entityRules = `
kind K {
  x: int = 1
  s: string = "no"
  m: map[string]int
}
entity a: K { x: b.x + 10 + count([b], #.s == "no") + (b.m["z"] ?? 0) }
entity b: K { x: 5, s: "yes", m: {z: 4} }
rule bx(): int {
  return b.x
}
rule oui(): int {
  return count([b], #.s == "yes")
}
rule z(): int {
  return b.m["z"] ?? 0
}
rule ax(): int {
  return a.x
}
`

// TestFieldCacheEntityInits reads the fields an entity's initialiser set after another
// entity's initialiser read their defaults (the machine's table of fields was stale there).
func TestFieldCacheEntityInits(t *testing.T) {
	_, m := newMachine(t, entityRules)
	for proc, want := range map[string]string{"bx": "5", "oui": "1", "z": "4", "ax": "12"} {
		v, err := m.Call(proc)
		if got := runtime.Repr(v); err != nil || got != want {
			t.Errorf("%s() = %s, %v; want %s", proc, got, err, want)
		}
	}
}
