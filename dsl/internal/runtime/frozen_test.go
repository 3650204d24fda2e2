package runtime_test

import (
	"strings"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
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
