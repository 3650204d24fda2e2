package runtime_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

// slotsRules are procedures whose locals live in slots: each shape of reading and binding
// them (lets, loop variables, compound assignments, parameters and their defaults, the VM
// and templates reading what the shortcuts wrote, recursion, a frame reused, a local
// hiding an entity, a block's let of an outer name, more locals than the dirty mask holds,
// tables looked up with their parameters in slots, fields of records passed on and returned
// without their checks, a nil one still refused).
const slotsRules = `
kind Unit { force: int = 3 }
entity u: Unit { }
action counting(n: int): int {
  let s = 0
  for i in n {
    for j in 3 {
      s += (i - 1) * 10 + j
    }
  }
  return s
}
action vm(n: int): list {
  let s = 0
  let l = []
  for i, v in [5, 6, 7] {
    s += v * n
    l += [s, i]
  }
  return [s, len(l), l[len(l) - 1], map(l, # * n)]
}
action talk(who: string, n: int) {
  let k = n * 2
  emit "{who} says {k}"
  k += 1
  emit "{who} says {k} and {n}"
  require k < 0 else "{who}: {k} is not negative"
}
action fib(n: int): int {
  if n < 2 {
    return n
  }
  return fib(n - 1) + fib(n - 2)
}
action defaults(a: int, b: int = a + 1, c: string = "x" + str(a)): string {
  return "{a} {b} {c}"
}
action hides(): int {
  let a = 3
  let u = Unit({force: 9})
  return a * 100 + u.force
}
action inner(): int {
  let x = 1
  if x > 0 {
    let x = 2
    x += 1
  }
  return x
}
action fails(n: int, s: string): int {
  let q = n - 3
  return 10 / q + len(s)
}
action outer(n: int): int {
  return fails(n, "ab")
}
action while_(n: int): int {
  let k = 0
  while k * k < n {
    k += 1
  }
  return k
}
table band(d: float, note: string = "n") {
  0 .. 1.5 : "court"
  1.5 .. 4 : "moyen"
}
table rolled roll 1d6 {
  1 .. 3 : "bas"
  else   : "haut"
}
rule bands(a: float, b: int): string {
  return band(a) + "/" + band(b, "m") + "/" + rolled() + "/" + rolled(5)
}
kind Blade { cut: int = 2 }
kind Holder { blade: Blade, n: int = 1, t: float = 1 }
entity sword: Blade { cut: 5 }
entity h1: Holder { blade: sword, n: 3 }
entity h0: Holder { }
rule blade_of(h: Holder): Blade {
  return h.blade
}
rule cut_of(b: Blade, n: int): int {
  return b.cut * n
}
rule ratio(x: float, k: int): float {
  return x / k
}
rule cuts(h: Holder): int {
  return cut_of(h.blade, h.n) + cut_of(blade_of(h), 1)
}
rule held(): list {
  return [blade_of(h1).cut, blade_of(h0), cuts(h1), ratio(h1.t, h1.n)]
}
rule unheld(): int {
  return cuts(h0)
}
`

// slotsCalls are the calls run with slots and without; want is the result or the error,
// then the lines emitted.
var slotsCalls = []struct {
	proc string
	args []any
	want string
}{
	{"counting", []any{4}, "204"},
	{"vm", []any{2}, "[36, 6, 2, [20, 0, 44, 2, 72, 4]]"},
	{"talk", []any{"Ann", 3}, `error: t.rules:27:3: Ann: 7 is not negative in talk called at t.rules:22:1 ["Ann", 3] | Ann says 6 | Ann says 7 and 3`},
	{"fib", []any{12}, "144"},
	{"defaults", []any{4}, `"4 5 x4"`},
	{"defaults", []any{4, 9, "y"}, `"4 9 y"`},
	{"hides", nil, "309"},
	{"inner", nil, "3"},
	{"outer", []any{3}, `error: t.rules:53:13: division by zero in fails called at t.rules:56:10 [3, "ab"] in outer called at t.rules:55:1 [3]`},
	{"outer", []any{5}, "7"},
	{"while_", []any{50}, "8"},
	{"bands", []any{1.0, 2}, `"court/moyen/haut/haut"`},
	{"bands", []any{1.0, 9}, `error: t.rules:65:1: table band has no row for 9.0 in band called at t.rules:74:26 [9.0, "m"] in bands called at t.rules:73:1 [1.0, 9]`},
	{"band", []any{3.5}, `"moyen"`},
	{"held", nil, "[5, nil, 20, 0.333333333333333]"},
	{"unheld", nil, "error: t.rules:91:10: cut_of: parameter b: expected a Blade, got nil in cuts called at t.rules:97:10 [Holder{blade: nil, n: 1, t: 1}] in unheld called at t.rules:96:1 []"},
}

// run calls each of slotsCalls on one machine (frames are reused from call to call) and
// renders what it gave.
func runSlotsCalls(t *testing.T, src string) []string {
	t.Helper()
	_, m := newMachine(t, src)
	var out []string
	for _, c := range slotsCalls {
		var lines []string
		m.Emit = func(s string) { lines = append(lines, s) }
		v, err := m.Call(c.proc, c.args...)
		got := runtime.Repr(v)
		if err != nil {
			got = "error: " + err.Error()
			if re, ok := err.(*runtime.RuntimeError); ok {
				for _, f := range re.Frames {
					got += fmt.Sprintf(" %s %v", f, runtime.Str(f.Args))
				}
			}
		}
		out = append(out, strings.Join(append([]string{got}, lines...), " | "))
	}
	return out
}

// The locals in slots give what the frame's map gave: values, lines emitted, errors and
// the parameters a call stack shows.
func TestSlotsMatchMap(t *testing.T) {
	runtime.SetNoSlots(true)
	defer runtime.SetNoSlots(false)
	byMap := runSlotsCalls(t, slotsRules)
	runtime.SetNoSlots(false)
	bySlots := runSlotsCalls(t, slotsRules)
	for i, c := range slotsCalls {
		if bySlots[i] != byMap[i] {
			t.Errorf("%s%v: slots give %s, the map %s", c.proc, c.args, bySlots[i], byMap[i])
		}
		if bySlots[i] != c.want {
			t.Errorf("%s%v = %s, want %s", c.proc, c.args, bySlots[i], c.want)
		}
	}
}

// Slots go to parameters and locals, not to a local that hides a global (the map holds the
// global until the local is bound), and to a table's parameters only when none of its
// expressions reads them.
func TestSlotsResolved(t *testing.T) {
	prog, diags := compile("t.rules", slotsRules+`
table t(x) {
  1 : "un"
  else : "autre"
}
table bounded(x, k) {
  (.. k] : "bas"
  else   : "haut"
}
table valued(x, k) {
  1    : k
  else : "{k} !"
}
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for proc, want := range map[string][]string{
		"counting": {"n", "s", "i", "j"},
		"vm":       {"n", "s", "l", "i", "v"},
		"hides":    {"a"},
		"inner":    {"x"},
		"t":        {"x"},
		"band":     {"d", "note"},
		"bounded":  nil,
		"valued":   nil,
		"talk":     {"who", "n", "k"},
		"outer":    {"n"},
		"while_":   {"n", "k"},
	} {
		if got := prog.Proc(proc).Locals; !slices.Equal(got, want) {
			t.Errorf("%s: slots %v, want %v", proc, got, want)
		}
	}
	// A field of a parameter's record, of the result's kind, is returned unchecked.
	if r := prog.Proc("blade_of").Body[0].(*runtime.ReturnStmt); r.FieldBy != 1 {
		t.Errorf("blade_of returns h.blade known by slot %d, want 1", r.FieldBy)
	}
}

// More locals than the dirty mask tracks: those past it are written through to the map,
// and the VM reads every one of them right.
func TestSlotsPastDirtyMask(t *testing.T) {
	var b strings.Builder
	b.WriteString("action many(n: int): list {\n")
	for i := range 70 {
		fmt.Fprintf(&b, "  let v%d = n + %d\n", i, i)
	}
	b.WriteString("  v0 += 100\n  v69 += 100\n  v64 = v63 * 2\n")
	b.WriteString("  return [v0, v1, v63, v64, v69, len([v0, v69])]\n}\n")
	prog, diags := compile("t.rules", b.String())
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if n := len(prog.Proc("many").Locals); n != 71 {
		t.Fatalf("%d slots, want 71", n)
	}
	m, err := runtime.NewMachine(prog, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2} { // the second call reuses the frame
		v, err := m.Call("many", n)
		want := fmt.Sprintf("[%d, %d, %d, %d, %d, 2]", n+100, n+1, n+63, 2*(n+63), n+169)
		if err != nil || runtime.Repr(v) != want {
			t.Errorf("many(%d) = %s, %v; want %s", n, runtime.Repr(v), err, want)
		}
	}
}

// The rule cache's Turn hook reads a frame's variables by name: it sees the locals kept in
// slots as they are at each turn, though no VM run copied them into the map.
func TestSlotsTurnHook(t *testing.T) {
	prog, diags := compile("t.rules", `
action acc(n: int): int {
  let s = 0
  for i in n {
    s += i * 10
  }
  return s
}
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, err := runtime.NewMachine(prog, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	m.Rules = &runtime.RuleCache{Drawn: func() int { return 0 }, Turn: func(depth int, vars map[string]any, loop, coll any, turn int) error {
		seen = append(seen, fmt.Sprintf("%d: n=%v s=%v i=%v", turn, vars["n"], vars["s"], vars["i"]))
		return nil
	}}
	if v, err := m.Call("acc", 3); err != nil || runtime.Repr(v) != "60" {
		t.Fatalf("acc(3) = %v, %v", v, err)
	}
	want := []string{"0: n=3 s=0 i=<nil>", "1: n=3 s=10 i=1", "2: n=3 s=30 i=2"}
	if !slices.Equal(seen, want) {
		t.Errorf("the hook saw %q, want %q", seen, want)
	}
}

// The globals a procedure reads and never binds live in slots after its locals, copied in
// when its frame is made and again after an option changes: a reused frame sees the new
// value. A local named as a global stays in the map (the checker refuses one in a
// procedure that also reads the global: TestLocalHidingAGlobalItReads).
func TestSlotsGlobals(t *testing.T) {
	prog, diags := compile("t.rules", `
option bonus = 2
kind Unit { force: int = 3 }
entity u: Unit { }
action strike(n: int): int {
  let t = u.force + bonus + n
  u.force += 1
  return t
}
action hides(): int {
  let a = 3 + bonus
  let u = Unit({force: 9})
  return a * 100 + u.force
}
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p := prog.Proc("strike")
	if want := []string{"n", "t", "bonus", "u"}; !slices.Equal(p.Locals, want) || p.GlobalFrom != 2 {
		t.Errorf("strike: slots %v from %d, want %v from 2", p.Locals, p.GlobalFrom, want)
	}
	if want := []string{"a", "bonus"}; !slices.Equal(prog.Proc("hides").Locals, want) {
		t.Errorf("hides: slots %v, want %v", prog.Proc("hides").Locals, want)
	}
	m, err := runtime.NewMachine(prog, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, opt := range []int{2, 2, 10} {
		if err := m.SetOption("bonus", opt); err != nil {
			t.Fatal(err)
		}
		v, err := m.Call("strike", i)
		w, err2 := m.Call("hides")
		got = append(got, fmt.Sprintf("%s %v %s %v", runtime.Repr(v), err, runtime.Repr(w), err2))
	}
	want := []string{"5 <nil> 509 <nil>", "7 <nil> 509 <nil>", "17 <nil> 1309 <nil>"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A field at the default its kind declares was written by no ConformField: an int in a float
// field, a string not of the enum, a map for a record, a roll for an int. Passed on or
// returned, it is checked and converted as before the fields went unchecked.
func TestFieldDefaultsChecked(t *testing.T) {
	prog, diags := compile("t.rules", `
enum Shade { dark, light }
option shade_o = "grey"
const LOOSE = {cut: 3}
kind Blade { cut: int = 2 }
kind Loose { t: float = 1, c: Shade = shade_o, blade: Blade = LOOSE, n: int = 1d6, b: Blade = Blade() }
entity lz: Loose { }
rule floats(x: float): list {
  return [x, x * 2]
}
rule whole(n: int): int {
  return n
}
rule shade(c: Shade): string {
  return c
}
rule cut_of(b: Blade): int {
  return b.cut
}
rule loose_blade(k: Loose): Blade {
  return k.blade
}
rule kept_blade(k: Loose): Blade {
  return k.b
}
rule loose(k: Loose): list {
  return [floats(k.t), whole(k.n), kept_blade(k), cut_of(k.b)]
}
rule loose_shade(k: Loose): string {
  return shade(k.c)
}
rule loose_cut(k: Loose): int {
  return cut_of(k.blade)
}
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, c := range []struct{ proc, want string }{
		{"loose", "[[1.0, 2.0], 4, Blade{cut: 2}, 2]"},
		{"loose_shade", `t.rules:30:10: shade: parameter c: "grey" is not a value of Shade (Shade is dark, light)`},
		{"loose_blade", "t.rules:21:3: loose_blade: result: expected a Blade, got {cut: 3}"},
		{"loose_cut", "t.rules:33:10: cut_of: parameter b: expected a Blade, got {cut: 3}"},
	} {
		m, err := runtime.NewMachine(prog, dice.NewPCG(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		lz, _ := m.Global("lz")
		v, err := m.Call(c.proc, lz)
		got := runtime.Repr(v)
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s(lz) = %s, want %s", c.proc, got, c.want)
		}
	}
}

// A table's parameter of a kind with the default nil may be left out or given nil, as a
// rule's may (LANGUAGE.md, action and rule). The table's defaults were compiled without
// Nullable (check.tableDefaults): check accepted the declaration and every call failed
// with "expected a Blade, got nil".
func TestTableNilDefault(t *testing.T) {
	prog, diags := compile("t.rules", `
kind Blade { cut: int = 2 }
table tb(b: Blade = nil) {
  else : "lame"
}
`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, err := runtime.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]any{nil, {nil}} {
		if v, err := m.Call("tb", args...); err != nil || v != "lame" {
			t.Errorf("tb%v = %v, %v; want \"lame\"", args, v, err)
		}
	}
}
