package runtime_test

import (
	"reflect"
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/libtest"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
)

// Consts are frozen: a write through an alias fails and leaves the value as it was for the
// next run and for every other Machine; a record field initialised from a const, by a
// kind's default, an entity or a constructor, owns a copy.
func TestConstsAreFrozen(t *testing.T) {
	src := `
const base = {"a": 1, "sous": {"b": 2}}
const liste = [{"c": 3}]
kind U { m: map = base, l: list = liste, n: map = {"x": 1} }
entity u1: U {}
entity u2: U {}
entity u3: U { m: base }
action alias() {
  let m = base
  m["a"] = 99
}
action profond() {
  let s = base["sous"]
  s["b"] = 99
}
action champs() {
  u1.m["a"] = 5
  u1.m["sous"]["b"] = 6
  u1.n["x"] = 7
  u3.m["a"] = 8
  let r = U()
  r.m["a"] = 9
  let q = U({m: base})
  q.m["a"] = 10
  u2.n = base
  u2.n["a"] = 11
  emit "{u2.m} {u2.n} {u3.m} {base} {r.m} {q.m}"
}
`
	prog, diags := loaded("t.rules", src)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, name := range []string{"alias", "profond"} {
		m, err := runtime.NewMachine(prog, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = m.Call(name)
		if err == nil || !strings.Contains(err.Error(), "cannot change a value of const base") {
			t.Errorf("%s: got %v, want the const named as fixed", name, err)
		}
	}
	m, _ := runtime.NewMachine(prog, nil, nil)
	var out []string
	m.Emit = func(s string) { out = append(out, s) }
	if _, err := m.Call("champs"); err != nil {
		t.Fatal(err)
	}
	want := "{a: 1, sous: {b: 2}} {a: 11, sous: {b: 2}} {a: 8, sous: {b: 2}} {a: 1, sous: {b: 2}} {a: 9, sous: {b: 2}} {a: 10, sous: {b: 2}}"
	if len(out) != 1 || out[0] != want {
		t.Errorf("records share maps:\n got %q\nwant %q", out, want)
	}
	if got := runtime.Str(prog.Consts[0].Value); got != "{a: 1, sous: {b: 2}}" {
		t.Errorf("the Program's const changed: %s", got)
	}
	// Where the const is named in the target, check refuses the write.
	for _, target := range []string{"base.a", "base.sous.b", `base["sous"]["b"]`} {
		_, diags := dsl.LoadSource("t.rules", []byte(src+"action w() {\n  "+target+" = 1\n}\n"))
		if !strings.Contains(diags.Render(nil), "cannot assign to a field of const base") {
			t.Errorf("%s = 1: %v", target, diags)
		}
	}
}

// Machines sharing one Program each change their own copies of a const's map, and look up
// indexed tables, at the same time (run with -race).
func TestFrozenConstsConcurrent(t *testing.T) {
	prog, diags := loaded("t.rules", `
const base = {"pv": 10}
kind U { stats: map = base }
entity u: U {}
table t(x) {
  (0 .. 5] : "bas"
  (5 .. 10] : "haut"
  else : "hors"
}
action tour(): string {
  u.stats["pv"] -= 1
  return t(u.stats["pv"])
}
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		go func() {
			m, err := runtime.NewMachine(prog, nil, nil)
			for i := 0; i < 200 && err == nil; i++ {
				_, err = m.Call("tour")
			}
			errs <- err
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if got := runtime.Str(prog.Consts[0].Value); got != "{pv: 10}" {
		t.Errorf("the const changed: %s", got)
	}
}

// loaded compiles one rule file and freezes it as package dsl's Load does, so that a test
// can look at the consts of the loaded Program.
func loaded(name, src string) (*runtime.Program, syntax.Diagnostics) {
	prog, diags := compile(name, src)
	if diags.HasErrors() {
		return nil, diags
	}
	prog.Dice()
	_, _ = prog.DefaultDeck()
	for _, k := range prog.Kinds {
		k.Type()
	}
	prog.Freeze()
	return prog, diags
}

// frozenRules hold a const of every shape (a map, nested maps, a list of lists, maps and
// records, a record holding a map and a list, a typed map, an option's default, an enum),
// and actions that try to change one in place by every statement that changes a value.
const frozenRules = `
enum Poste { Barre, Vigie }
option réglage = {"seuil": 3}
const base = {"a": 1, "sous": {"b": 2}, "l": [1, 2]}
const liste = [3, 1, 2, [4, 5], {"c": 1}]
kind U { n: int = 1, m: map = {}, l: list = [] }
const hero = U({n: 5, m: {"x": 1}, l: [7]})
const héros = [U({n: 2}), U({n: 3})]
kind F { défense: map[Poste]int }
const fort = F({défense: {"Barre": 2}})

action set(m: map, k: string) { m[k] = 0 }
rule lire(): map { return base }

action field() { let x = hero
  x.n = 9 }
action field_add() { let x = hero
  x.n += 1 }
action field_map() { let x = hero
  x.m["x"] = 2 }
action field_map_alias() { let mm = hero.m
  mm["y"] = 1 }
action entry() { let x = base
  x["a"] = 2 }
action entry_new() { let x = base
  x["z"] = 2 }
action entry_add() { let x = base
  x["a"] += 1 }
action entry_sub() { let x = base
  x["a"] -= 1 }
action entry_mul() { let x = base
  x["a"] *= 3 }
action entry_list_add() { let x = base
  x["l"] += [3] }
action nested() { let x = base["sous"]
  x["b"] = 7 }
action nested_dot() { let x = base
  x.sous.b = 7 }
action ranged() { for k, v in base { if k == "sous" { v["b"] = 7 } } }
action in_list() { let x = liste[4]
  x["c"] = 2 }
action record_in_list() { let x = héros[0]
  x.n = 3 }
action record_ranged() { for u in héros { u.n += 1 } }
action typed() { let d = fort.défense
  d["Vigie"] = 1 }
action typed_add() { let d = fort.défense
  d["Barre"] += 1 }
action option_default() { let r = réglage
  r["seuil"] = 1 }
action parameter() { set(base, "a") }
action returned() { let x = lire()
  x["a"] = 5 }
action list_element() { let l = liste
  l[0] = 9 }
action list_in_list() { let l = liste[3]
  l[0] = 9 }

// What builds a new value from a const leaves the const as it was.
action builders(): list {
  let l = liste
  l += [6]
  let n = liste[3]
  n += [6]
  let h = hero
  h = U({m: base, l: liste})
  h.m["a"] = 8
  let r = U({m: hero.m})
  r.m["x"] = 8
  return [l, n, h, r, liste + [0], liste[1:], sort(liste[0:3]), sort(liste[0:3], "desc"),
    sortBy(héros, #.n, "desc"), reverse(liste), filter(liste, # != 3), map(liste, #),
    take(liste, 2), uniq(liste), flatten(liste), concat(liste, liste), keys(base),
    values(base), toPairs(base), fromPairs(toPairs(base)), groupBy(héros, #.n), len(liste),
    first(liste), last(liste), shuffled(liste), sample(liste, 2), pick(liste),
    choose("quoi ?", liste, premier), 3 in liste, "a" in base, toJSON(base), str(hero),
    same(hero, héros[0]), count(héros, #.n > 2), sum(liste[0:3]), max(liste[0:3]),
    reduce(liste[0:3], #acc + #, 0), keys(hero), values(hero), fort.défense[Poste.Vigie]]
}
rule premier(prompt: string, options: list): any { return options[0] }
`

// TestNoStatementOrBuiltinChangesAConst: every statement that changes a value in place is
// refused on a const's map, record or list (and on an option's default), wherever the value
// is reached from (an alias, a loop, a parameter, a returned value, inside a list or a
// record), and the operators and builtins that take lists and maps build new values: after
// all of it, every const reads as it did at load, on this Machine and on a fresh one.
func TestNoStatementOrBuiltinChangesAConst(t *testing.T) {
	prog, diags := loaded("t.rules", frozenRules)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	before := map[string]string{}
	for _, c := range prog.Consts {
		before[c.Name] = runtime.Repr(c.Value)
	}
	before["réglage"] = runtime.Repr(prog.Options[0].Default)
	m, err := runtime.NewMachine(prog, dice.NewPCG(7), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ action, owner string }{
		{"field", "const hero"}, {"field_add", "const hero"}, {"field_map", "const hero"},
		{"field_map_alias", "const hero"},
		{"entry", "const base"}, {"entry_new", "const base"}, {"entry_add", "const base"},
		{"entry_sub", "const base"}, {"entry_mul", "const base"}, {"entry_list_add", "const base"},
		{"nested", "const base"}, {"nested_dot", "const base"}, {"ranged", "const base"},
		{"in_list", "const liste"}, {"record_in_list", "const héros"}, {"record_ranged", "const héros"},
		{"typed", "const fort"}, {"typed_add", "const fort"},
		{"option_default", "option réglage"},
		{"parameter", "const base"}, {"returned", "const base"},
	} {
		_, err := m.Call(c.action)
		want := "cannot change a value of " + c.owner + ": it is fixed for every run"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", c.action, err, want)
		}
	}
	// A list is never changed in place, a const's or not.
	for _, action := range []string{"list_element", "list_in_list"} {
		if _, err := m.Call(action); err == nil || !strings.Contains(err.Error(), "cannot set an entry of [") {
			t.Errorf("%s: got %v, want the list refused", action, err)
		}
	}
	// A builtin that changed a const could make a later one fail: the consts are compared
	// below all the same.
	built, err := m.Call("builders")
	if err != nil {
		t.Errorf("builders: %v", err)
	} else if got := runtime.Repr(built.([]any)[:4]); got != `[[3, 1, 2, [4, 5], {c: 1}, 6], [4, 5, 6], U{n: 1, m: {a: 8, l: [1, 2], sous: {b: 2}}, l: [3, 1, 2, [4, 5], {c: 1}]}, U{n: 1, m: {x: 8}, l: []}]` {
		t.Errorf("the values built from consts: %s", got)
	}
	fresh, err := runtime.NewMachine(prog, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range prog.Consts {
		if got := runtime.Repr(c.Value); got != before[c.Name] {
			t.Errorf("const %s changed: %s, was %s", c.Name, got, before[c.Name])
		}
		for _, mach := range []*runtime.Machine{m, fresh} {
			if v, _ := mach.Global(c.Name); runtime.Repr(v) != before[c.Name] {
				t.Errorf("const %s reads %s on a Machine, was %s", c.Name, runtime.Repr(v), before[c.Name])
			}
		}
	}
	if got := runtime.Repr(prog.Options[0].Default); got != before["réglage"] {
		t.Errorf("option réglage's default changed: %s", got)
	}
}

// TestEveryListBuiltinIsTried: each builtin of the libraries that takes a list or a map is
// called on a const in frozenRules' builders, so a builtin added later that changed its
// argument in place would be caught there.
func TestEveryListBuiltinIsTried(t *testing.T) {
	lib := libtest.Library()
	found := 0
	for _, name := range runtime.SortedKeys(lib.Builtins) {
		for _, ty := range lib.Builtins[name].Types {
			ft := reflect.TypeOf(ty).Elem()
			takes := false
			for i := range ft.NumIn() {
				k := ft.In(i).Kind()
				takes = takes || k == reflect.Slice || k == reflect.Map
			}
			if takes {
				found++
				if !strings.Contains(frozenRules, name+"(") {
					t.Errorf("builtin %s takes a list or a map (%v) and is not tried on a const", name, ft)
				}
				break
			}
		}
	}
	if found < 4 { // choose, pick, sample, shuffled
		t.Errorf("only %d builtins take a list or a map", found)
	}
}

// TestCheckMutable: a frozen map, record or list is refused by name, a value of the run and
// an empty list are not; a copy (Thaw) of a frozen value is the run's. The machine's table
// of values found not frozen (CheckMutable) changes no answer: each is asked twice in a row,
// and again after many of the run's maps and lists were.
func TestCheckMutable(t *testing.T) {
	prog, diags := loaded("t.rules", frozenRules)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, err := runtime.NewMachine(prog, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := func(name string) any { v, _ := m.Global(name); return v }
	base := g("base").(map[string]any)
	for round := range 2 {
		for i := range 500 {
			v := any(map[string]any{"i": i})
			if i%2 == 1 {
				v = []any{i}
			}
			if err := m.CheckMutable(v); err != nil {
				t.Fatalf("round %d: the run's value %d: %v", round, i, err)
			}
		}
		checkMutable(t, m, g, base)
		checkMutable(t, m, g, base)
	}
}

func checkMutable(t *testing.T, m *runtime.Machine, g func(string) any, base map[string]any) {
	t.Helper()
	for _, c := range []struct {
		name string
		v    any
		err  string
	}{
		{"map", base, "cannot change a value of const base: it is fixed for every run"},
		{"nested map", base["sous"], "cannot change a value of const base: it is fixed for every run"},
		{"nested list", base["l"], "cannot change a value of const base: it is fixed for every run"},
		{"list", g("liste"), "cannot change a value of const liste: it is fixed for every run"},
		{"record", g("hero"), "cannot change a value of const hero: it is fixed for every run"},
		{"record in a list", g("héros").([]any)[1], "cannot change a value of const héros: it is fixed for every run"},
		{"enum's list", g("Poste"), "cannot change a value of enum Poste: it is fixed for every run"},
		{"a copy", m.Thaw(base), ""},
		{"a copy's nested map", m.Thaw(base).(map[string]any)["sous"], ""},
		{"the run's map", map[string]any{"a": 1}, ""},
		{"an empty list", []any{}, ""},
		{"a number", 3, ""},
	} {
		if got := errText(m.CheckMutable(c.v)); got != c.err {
			t.Errorf("%s: CheckMutable = %q, want %q", c.name, got, c.err)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// BenchmarkCheckMutable is what every assignment to a field or an entry pays for the side
// table: a lookup by the value's address, with the consts of frozenRules frozen.
func BenchmarkCheckMutable(b *testing.B) {
	prog, diags := loaded("t.rules", frozenRules)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	m, err := runtime.NewMachine(prog, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	rec := map[string]any{"a": 1}
	for b.Loop() {
		if m.CheckMutable(rec) != nil {
			b.Fatal("the run's map is refused")
		}
	}
}
