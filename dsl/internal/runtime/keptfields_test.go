package runtime_test

import (
	"testing"

	"rulesh/dsl/internal/runtime"
)

// keptRules read fields of their parameters more than once: a rule's call keeps what it read
// (Frame.Kept) unless the parameter is bound again or the rule sets a field, and every call
// starts afresh, after an action changed the record or on a frame reused by recursion.
const keptRules = `
kind Arme {
  nom: string
  dé: int = 6
}
kind Homme {
  nom: string
  arme: Arme
  force: int = 2
}
entity épée: Arme { nom: "épée", dé: 8 }
entity hache: Arme { nom: "hache", dé: 10 }
entity ann: Homme { nom: "Ann", arme: épée }
entity bob: Homme { nom: "Bob", arme: hache, force: 5 }
rule lame(h: Homme): int {
  require h.force > 0 else "{h.nom} : force {h.force}"
  return h.arme.dé * 10 + h.arme.dé + h.force * h.force
}
rule une(h: Homme): int {
  require h.arme != nil else "{h.nom} : force {h.force}, sans arme"
  return h.force
}
rule tour(h: Homme, autre: Homme): int {
  let s = h.force
  h = autre
  return s * 100 + h.force
}
rule copie(h: Homme): int {
  let a = h.force
  let c = Homme({nom: "c", arme: h.arme})
  c.force = h.force + 1
  return a * 100 + c.force * 10 + h.force
}
rule chaîne(h: Homme, n: int): int {
  if n == 0 {
    return h.force
  }
  return h.force * 1000 + chaîne(bob, n - 1) + h.force
}
rule noms(a: Homme, b: Homme): string {
  return "{a.nom}/{b.nom}/{a.nom}/{b.nom}"
}
action renforcer(h: Homme, n: int) {
  h.force += n
}
action suite(): list {
  let a = lame(ann)
  renforcer(ann, 1)
  let b = lame(ann)
  ann.arme = hache
  return [a, b, lame(ann), lame(bob)]
}
`

func TestKeptFields(t *testing.T) {
	calls := []struct {
		proc string
		args []any
		want string
	}{
		{"suite", nil, "[92, 97, 119, 135]"},
		{"tour", []any{"ann", "bob"}, "305"},
		{"copie", []any{"bob"}, "565"},
		{"chaîne", []any{"ann", 2}, "8013"},
		{"noms", []any{"ann", "bob"}, `"Ann/Bob/Ann/Bob"`},
		{"renforcer", []any{"bob", -5}, "nil"},
		{"lame", []any{"bob"}, "error: t.rules:16:3: Bob : force 0"},
		{"une", []any{"ann"}, "3"},
	}
	run := func() []string {
		_, m := newMachine(t, keptRules)
		var out []string
		for _, c := range calls {
			args := make([]any, len(c.args))
			for i, a := range c.args {
				if name, ok := a.(string); ok {
					a, _ = m.Global(name)
				}
				args[i] = a
			}
			v, err := m.Call(c.proc, args...)
			got := runtime.Repr(v)
			if err != nil {
				got = "error: " + err.Error()
			}
			out = append(out, got)
		}
		return out
	}
	runtime.SetNoSlots(true)
	defer runtime.SetNoSlots(false)
	byMap := run()
	runtime.SetNoSlots(false)
	kept := run()
	for i, c := range calls {
		if kept[i] != c.want || byMap[i] != c.want {
			t.Errorf("%s%v = %s (without slots %s), want %s", c.proc, c.args, kept[i], byMap[i], c.want)
		}
	}

	prog, _ := newMachine(t, keptRules)
	for proc, want := range map[string]int{
		"lame":   2, // h.arme and h.force; h.nom is read only in the require's message
		"une":    0, // h.arme and h.force read once each, the message left out
		"tour":   0, // h bound again
		"copie":  0, // a field set
		"chaîne": 1,
		"noms":   2,
		"suite":  0, // an action
	} {
		if got := prog.Proc(proc).KeptFields(); got != want {
			t.Errorf("%s keeps %d fields, want %d", proc, got, want)
		}
	}
}
