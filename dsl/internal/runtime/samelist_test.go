package runtime_test

import (
	"testing"
	"unsafe"

	"rulesh/dsl/internal/runtime"
)

// bigBase is a variable, so that any(bigBase << 40) is boxed at run time, anew each time.
var bigBase = int64(1)

// listData is the address of a list's elements: the list's identity.
func listData(v any) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(v.([]any))) }

// ListOf gives a site's last list again only when it holds the very same values; any other
// values make a new list, and the lists given before keep theirs.
func TestListOfSameValuesOnly(t *testing.T) {
	_, m := newMachine(t, "const x = 1")
	one, other := runtime.NewListSite(), runtime.NewListSite()
	rec := map[string]any{"n": 1}
	big := func() any { return any(bigBase << 40) } // boxed anew at each call
	s := "deux"

	first := m.ListOf(one, []any{rec, s, 3})
	if again := m.ListOf(one, []any{rec, s, 3}); listData(again) != listData(first) {
		t.Error("the same values at the same site made a new list")
	}
	// Another site keeps its own list, and leaves the first one's alone.
	if o := m.ListOf(other, []any{rec, s, 3}); listData(o) == listData(first) {
		t.Error("two sites share a list")
	}
	if again := m.ListOf(one, []any{rec, s, 3}); listData(again) != listData(first) {
		t.Error("another site's list replaced this one's")
	}
	for _, c := range []struct {
		name  string
		elems []any
	}{
		{"another value", []any{rec, s, 4}},
		{"one fewer", []any{rec, s}},
		{"one more", []any{rec, s, 3, 3}},
		{"another record", []any{map[string]any{"n": 1}, s, 3}},
		// Go boxes small ints of every int type at one address: the type word tells them.
		{"an int of another type", []any{rec, s, int(bigBase * 4)}},
		{"an int of another type, again", []any{rec, s, bigBase * 4}},
		{"equal values boxed apart", []any{big(), big()}},
		{"equal values boxed apart, again", []any{big(), big()}},
	} {
		before := runtime.Repr(first)
		got := m.ListOf(one, c.elems)
		if listData(got) == listData(first) {
			t.Errorf("%s: the site's last list was given again", c.name)
		}
		if runtime.Repr(got) != runtime.Repr(c.elems) {
			t.Errorf("%s: got %s, want %s", c.name, runtime.Repr(got), runtime.Repr(c.elems))
		}
		if runtime.Repr(first) != before {
			t.Errorf("%s: a list given before changed: %s, was %s", c.name, runtime.Repr(first), before)
		}
		first = got
	}
	// The elements are copied: the caller's scratch space may change after.
	elems := []any{1, 2}
	l := m.ListOf(one, elems)
	elems[0] = 9
	if runtime.Repr(l) != "[1, 2]" {
		t.Errorf("the list follows the caller's slice: %s", runtime.Repr(l))
	}
	if e := m.ListOf(one, nil); e == nil || len(e.([]any)) != 0 {
		t.Errorf("no values: got %#v, want an empty list", e)
	}
}

// The lists that filters, maps, sorts and list literals give, made again at one place of
// the rules while what they read changes under them: each call gives the values of its
// time, and the lists given before stay as they were.
func TestListsMadeAgainFollowTheRules(t *testing.T) {
	_, m := newMachine(t, `
kind P { nom: string, rôle: string = "", v: int = 0 }
entity a: P { nom: "a", rôle: "x", v: 3 }
entity b: P { nom: "b", v: 1 }
entity c: P { nom: "c", rôle: "y", v: 2 }
rule avec(): list { return filter(entities("P"), #.rôle != "") }
rule rôles(): list { return map(entities("P"), #.rôle) }
rule ordre(): list { return sortBy(entities("P"), #.v) }
rule paire(x: int): list { return [x, x + 1] }
action donne(p: P, r: string) { p.rôle = r }
action vaut(p: P, v: int) { p.v = v }
action tour(): list {
  let avant = [avec(), rôles(), ordre(), paire(1)]
  b.rôle = "z"
  b.v = 9
  let après = [avec(), rôles(), ordre(), paire(2)]
  return [avant, après, avec(), paire(2)]
}
`)
	steps := []struct {
		proc string
		args []any
		want string
	}{
		{"avec", nil, "[a, c]"},
		{"avec", nil, "[a, c]"},
		{"rôles", nil, `["x", "", "y"]`},
		{"ordre", nil, "[b, c, a]"},
		{"paire", []any{1}, "[1, 2]"},
		{"paire", []any{1}, "[1, 2]"},
		{"paire", []any{5}, "[5, 6]"},
		// A list holds the records themselves: b's place in the first sort is the one it had.
		{"tour", nil, `[[[a, c], ["x", "", "y"], [b, c, a], [1, 2]], [[a, b, c], ["x", "z", "y"], [c, a, b], [2, 3]], [a, b, c], [2, 3]]`},
		{"donne", []any{"a", ""}, "nil"},
		{"avec", nil, "[b, c]"},
		{"vaut", []any{"c", 0}, "nil"},
		{"ordre", nil, "[c, a, b]"},
	}
	for _, st := range steps {
		args := make([]any, len(st.args))
		for i, a := range st.args {
			if name, ok := a.(string); ok && len(st.args) == 2 && i == 0 {
				a, _ = m.Global(name)
			}
			args[i] = a
		}
		v, err := m.Call(st.proc, args...)
		if err != nil {
			t.Fatalf("%s: %v", st.proc, err)
		}
		if got := names(v); got != st.want {
			t.Errorf("%s%v = %s, want %s", st.proc, st.args, got, st.want)
		}
	}
}

// names prints v as Repr does, each record as its field nom.
func names(v any) string {
	switch x := v.(type) {
	case []any:
		s := "["
		for i, e := range x {
			if i > 0 {
				s += ", "
			}
			s += names(e)
		}
		return s + "]"
	case map[string]any:
		if n, ok := x["nom"].(string); ok {
			return n
		}
	}
	return runtime.Repr(v)
}
