package runtime_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"rulesh/dsl/internal/runtime"
)

// callsRules call rules in every shape a call takes: arguments converted to their
// parameter's type or refused, defaults reading earlier parameters, arguments skipped by
// naming later ones, a nil record, a result refused, an argument that fails before the call,
// a call inside an argument, the call depth limit, parameters passed on (whose check may be
// skipped: a record of the same kind) to parameters of the same type or not, a nil one.
// Most of these rules are one return statement, so that untraced calls of them run inlined
// (Proc.Inline): an inlined call inside another's body (inner, whose caller reads its own
// parameters after it), a float result that is infinite, a record, an enum and a nil
// argument, a global read in the body.
const callsRules = `
kind Unit { force: int = 3 }
entity u: Unit { }
rule halve(x: float): float { return x / 2 }
rule whole(n: int): int { return n * 3 }
rule opt(a: int, b: int = a + 1, c: string = "x" + str(a)): string { return "{a} {b} {c}" }
rule named(a: int, b: int = 7, c: int = 8): int { return a * 100 + b * 10 + c }
rule who(c: Unit = nil): string { return c == nil ? "nobody" : str(c.force) }
rule back(x: any): int { return x }
rule deep(n: int): int { return n == 0 ? 0 : deep(n - 1) + 1 }
rule fails(n: int, s: string): int {
  let q = n - 3
  return 10 / q + len(s)
}
action calls(x: any, n: int): list {
  return [halve(n), opt(n), opt(n, c = "z"), named(1, c = 3), who(), who(u), whole(whole(n)), fails(n, "ab")]
}
action converts(x: any): list {
  return [halve(x), whole(x), back(x)]
}
action early(n: int): int {
  return whole(10 / (n - 3)) + whole(n)
}
rule strength(c: Unit): int { return c.force }
rule maybe(c: Unit = nil): int { return strength(c) }
rule hands(c: Unit, x: float, l: list, m: map[string]int): list {
  return [strength(c), whole(x), maybe(c), halve(x), typed(m), len(l)]
}
rule typed(m: map[string]int): int { return len(m) }
kind Other { force: int = 1 }
entity o: Other { }
rule unit_of(c: Unit): Unit { return c }
rule nobody(): Unit { return nil }
rule any_of(x: any): any { return x }
action lets(c: Unit, d: Other, which: bool): list {
  let a = unit_of(c)
  let out = [strength(a)]
  if which {
    a = any_of(d)
  }
  let n = nobody()
  return concat(out, [strength(a), strength(n)])
}
rule inner(x: int, y: int): int { return x - y }
rule outer(a: int, b: int): int { return inner(b, a) * 100 + inner(a, 1) * 10 + b }
rule square(x: float): float { return x * x }
enum Side { left, right }
rule side(c: Unit, s: Side): string { return s + str(c.force) }
rule forces(c: Unit): int { return c.force + BASE }
const BASE = 100
rule at(l: list, i: int): any { return l[i] }
action via(what: string, a: any, b: any): any {
  if what == "outer" {
    return outer(a, b)
  } else if what == "spread" {
    return spread(a, b)
  } else if what == "badlet" {
    return badlet(a)
  } else if what == "square" {
    return square(a)
  } else if what == "side" {
    return side(a, b)
  } else if what == "forces" {
    return forces(a)
  }
  return at(a, b)
}
rule spread(a: int, b: int): list {
  let lo = min(a, b)
  let hi: float = max(a, b)
  return [lo, hi, inner(hi, lo), 10 / (hi - lo)]
}
rule badlet(x: any): int {
  let n: int = x
  return n + 1
}
`

// callsCalls are the calls run; want is the result or the error with its frames (its
// beginning, for a long one).
var callsCalls = []struct {
	proc string
	args []any
	want string
}{
	{"calls", []any{0, 5}, `[2.5, "5 6 x5", "5 6 z", 173, "nobody", "3", 45, 7]`},
	{"calls", []any{0, 3}, `error: t.rules:13:13: division by zero in fails called at t.rules:16:95 [3, "ab"] in calls called at t.rules:15:1 [0, 3]`},
	{"converts", []any{4}, "[2.0, 12, 4]"},
	{"converts", []any{4.0}, "[2.0, 12, 4]"},
	{"back", []any{"s"}, "error: "},
	{"converts", []any{2.5}, `error: t.rules:19:21: whole: parameter n: expected an int, got 2.5 (use floor, ceil or round) in converts called at t.rules:18:1 [2.5]`},
	{"converts", []any{"s"}, `error: t.rules:19:11: halve: parameter x: expected float, got "s" in converts called at t.rules:18:1 ["s"]`},
	{"early", []any{3}, "error: t.rules:22:19: division by zero in early called at t.rules:21:1 [3]"},
	{"early", []any{4}, "42"},
	{"deep", []any{250}, "error: t.rules:10:46: call depth limit reached (max_call_depth = 200) calling deep in deep called at t.rules:10:46 [51] in deep"},
	{"deep", []any{150}, "150"},
	{"maybe", nil, `error: t.rules:25:41: strength: parameter c: expected a Unit, got nil in maybe called at t.rules:25:1 [nil]`},
	{"hands", []any{"u", 2.0, []any{1}, map[string]any{"a": 1}}, "[3, 6, 3, 1.0, 1, 1]"},
	{"hands", []any{"u", 2.5, []any{}, map[string]any{}}, "error: t.rules:27:24: whole: parameter n: expected an int, got 2.5"},
	// A local a let of a call bound to a record is passed on without its kind read again; a
	// record of another kind is refused where it is written, a nil result where it is passed.
	{"lets", []any{"u", "o", true}, "error: t.rules:39:5: a: expected a Unit, got Other{force: 1}"},
	{"lets", []any{"u", "o", false}, "error: t.rules:42:36: strength: parameter c: expected a Unit, got nil"},
	{"via", []any{"outer", 7, 3}, "-337"},
	{"via", []any{"square", 3, nil}, "9.0"},
	{"via", []any{"square", 1e200, nil}, "error: t.rules:46:41: * gives a number too large (+Inf) in square called at t.rules:60:12 [1e+200] in via"},
	{"via", []any{"side", "u", "left"}, `"left3"`},
	{"via", []any{"side", "u", "up"}, `error: t.rules:62:12: side: parameter s: "up" is not a value of Side`},
	{"via", []any{"side", "o", "right"}, `error: t.rules:62:12: side: parameter c: expected a Unit, got Other{force: 1}`},
	{"via", []any{"forces", "u", nil}, "103"},
	{"via", []any{"at", []any{1, 2}, 5}, "error: t.rules:51:41: index 5 out of range (the list has 2 elements) in at called at t.rules:66:10 [[1, 2], 5] in via"},
	{"via", []any{"spread", 7, 3}, "[3, 7.0, 4, 2.5]"},
	{"via", []any{"spread", 3, 3}, "error: t.rules:71:"},
	{"via", []any{"badlet", 2, nil}, "3"},
	{"via", []any{"badlet", 2.5, nil}, "error: t.rules:74:3: n: expected an int, got 2.5"},
	{"via", []any{"badlet", "s", nil}, `error: t.rules:74:3: n: expected int, got "s" in badlet called at t.rules:58:12 ["s"] in via`},
}

// runCalls runs callsCalls on one machine (frames reused from call to call); traced runs
// them with a trace, whose calls take their arguments as a list (CallAt), not straight
// into the callee's slots.
func runCalls(t *testing.T, traced bool) []string {
	t.Helper()
	_, m := newMachine(t, callsRules)
	if traced {
		m.Trace = func(int, string) {}
	}
	var out []string
	u, _ := m.Global("u")
	o, _ := m.Global("o")
	for _, c := range callsCalls {
		args := slices.Clone(c.args)
		if len(args) > 0 && args[0] == "u" {
			args[0] = u // the entity, not its name
		}
		if len(args) > 1 && args[1] == "o" {
			args[1] = o
		}
		if c.proc == "via" && args[1] == "u" {
			args[1] = u
		} else if c.proc == "via" && args[1] == "o" {
			args[1] = o
		}
		v, err := m.Call(c.proc, args...)
		got := runtime.Repr(v)
		if err != nil {
			got = "error: " + err.Error()
			if re, ok := err.(*runtime.RuntimeError); ok {
				for _, f := range re.Frames {
					got += fmt.Sprintf(" %s %v", f, runtime.Str(f.Args))
				}
			}
		}
		if d := m.Depth(); d != 0 {
			t.Errorf("%s%v: depth %d after the call", c.proc, c.args, d)
		}
		out = append(out, got)
	}
	return out
}

// A call whose arguments go straight into the callee's slots gives what a call given its
// arguments as a list gives: values, conversions, errors and their frames, limits.
func TestDirectArgsMatchList(t *testing.T) {
	_, m := newMachine(t, callsRules)
	for _, name := range []string{"inner", "outer", "square", "side", "forces", "at", "whole", "halve", "spread", "badlet"} {
		if m.Proc(name).Inline == nil {
			t.Errorf("%s: not inlined", name)
		}
	}
	direct, listed := runCalls(t, false), runCalls(t, true)
	for i, c := range callsCalls {
		if direct[i] != listed[i] {
			t.Errorf("%s%v: straight into the slots %s, as a list %s", c.proc, c.args, direct[i], listed[i])
		}
		if !strings.HasPrefix(direct[i], c.want) {
			t.Errorf("%s%v = %s, want %s", c.proc, c.args, direct[i], c.want)
		}
	}
}

// An inlined call counts the steps a call counts, and stops where a call stops at the
// step limit and the depth limit: every limit from 1 on gives the same result, the same
// error and the same count of steps, traced (no call inlined) or not.
func TestInlinedLimitsMatchCalls(t *testing.T) {
	run := func(traced bool, steps, depth int) []string {
		_, m := newMachine(t, callsRules)
		if traced {
			m.Trace = func(int, string) {}
		}
		m.Limits.MaxSteps, m.Limits.MaxCallDepth = steps, depth
		var out []string
		for _, args := range [][]any{{"outer", 7, 3}, {"at", []any{1, 2}, 1}, {"square", 2, nil}, {"spread", 7, 3}} {
			v, err := m.Call("via", args...)
			out = append(out, fmt.Sprintf("%s %v %d %d", runtime.Repr(v), err, m.Steps(), m.Depth()))
		}
		return out
	}
	for steps := 1; steps <= 24; steps++ {
		for _, depth := range []int{1, 2, 3, 200} {
			direct, traced := run(false, steps, depth), run(true, steps, depth)
			if !slices.Equal(direct, traced) {
				t.Errorf("max_steps %d, max_call_depth %d: inlined %q, called %q", steps, depth, direct, traced)
			}
		}
	}
}

// An inlined body reads the globals as a call's frame does: an option set between two
// calls is the new value in the second (the machine's copies are made again), on each
// machine its own.
func TestInlinedReadsGlobals(t *testing.T) {
	const src = `
option bonus = 1
kind Unit { force: int = 3 }
entity u: Unit { }
rule strength(c: Unit): int { return c.force + bonus }
action twice(): list { return [strength(u), strength(u)] }
`
	_, m := newMachine(t, src)
	_, other := newMachine(t, src)
	if m.Proc("strength").Inline == nil {
		t.Fatal("strength: not inlined")
	}
	for _, c := range []struct {
		m     *runtime.Machine
		bonus int
		want  string
	}{{m, 1, "[4, 4]"}, {m, 5, "[8, 8]"}, {other, 1, "[4, 4]"}, {other, 2, "[5, 5]"}, {m, 5, "[8, 8]"}} {
		if err := c.m.SetOption("bonus", c.bonus); err != nil {
			t.Fatal(err)
		}
		v, err := c.m.Call("twice")
		if got := runtime.Repr(v); err != nil || got != c.want {
			t.Errorf("bonus %d: twice() = %s, %v, want %s", c.bonus, got, err, c.want)
		}
	}
}

// An inlined body has the memory budget of an evaluation of its own, as the call's body
// has: two calls that each build close to the budget in one expression both succeed, and
// one past it fails in the rule, as a call does.
func TestInlinedMemoryBudget(t *testing.T) {
	const src = `
rule many(n: int): list { return map(1..n, # * 2) }
action both(n: int): list { return [len(many(n)), len(many(n))] }
`
	for _, n := range []int{300, 450, 600} {
		var got [2]string
		for i, traced := range []bool{false, true} {
			_, m := newMachine(t, src)
			if traced {
				m.Trace = func(int, string) {}
			}
			m.Limits.MemoryBudget = 1000
			v, err := m.Call("both", n)
			got[i] = fmt.Sprintf("%s %v", runtime.Repr(v), err)
		}
		if got[0] != got[1] {
			t.Errorf("both(%d): inlined %s, called %s", n, got[0], got[1])
		}
		if ok := !strings.Contains(got[0], "memory limit"); ok != (2*n < 1000) {
			t.Errorf("both(%d) = %s", n, got[0])
		}
	}
}
