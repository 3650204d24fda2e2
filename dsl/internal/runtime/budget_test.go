package runtime_test

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"rulesh/dsl"
	"rulesh/dsl/internal/peek"
	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/dice"
)

const budgetRules = `
ruleset "b"
rule doubler(n: int): string {
  let s = "x"
  for i in 1..n {
    s = s + s
  }
  return s
}
rule remplir(n: int): int {
  let m = {}
  let i = 0
  while i < n {
    m[str(i)] = i
    i += 1
  }
  return len(m)
}
rule bâtir(n: int): int {
  let k = 0
  for i in 1..n {
    k = len(1..900000)
  }
  return k
}
rule chercher(n: int): int {
  let grand = map(1..500000, #)
  let k = 0
  for i in 1..n {
    if -1 in grand {
      k += 1
    }
  }
  return k
}
rule compter(n: int): int {
  let k = 0
  for i in 1..n {
    for j in 1..100 {
      k += 1
    }
  }
  return k
}
rule allonger(n: int): int {
  let l = []
  for i in 1..n {
    l += [i]
  }
  return len(l)
}
rule allonger2(n: int): int {
  let l = []
  for i in 1..n {
    l = l + [i]
  }
  return len(l)
}
rule écrire(n: int): int {
  let s = ""
  for i in 1..n {
    s += "xxxxxxxxxxxxxxxx"
  }
  return len(s)
}
rule profond(n: int): any {
  let v = [1]
  for i in 1..n {
    v = [v]
  }
  return v
}
rule profondm(n: int): any {
  let v = {}
  for i in 1..n {
    v = {"a": v}
  }
  return v
}
kind Nœud {
  suivant: Nœud
  l: list
}
entity n1: Nœud {}
entity n2: Nœud {}
action boucler(): bool {
  n1.suivant = n1
  n2.suivant = n2
  n1.l = [n1]
  n2.l = [n2]
  return n1 == n2 && n1 in [n2] && len(uniq([n1, n2])) == 1
}
table t(x) {
  1: "un"
  2: "deux"
  else: "autre"
}
`

func budgetSession(t *testing.T) *dsl.Session {
	t.Helper()
	prog, d := dsl.LoadSource("b.rules", []byte(budgetRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	return dsl.NewSession(m)
}

// TestBudgetInsideExpressions: work inside one expression is charged to max_steps and what
// it builds to memory_budget, so none of these hangs or exhausts memory.
func TestBudgetInsideExpressions(t *testing.T) {
	cases := []struct{ src, want string }{
		{`sum(map(1..100000, roll("10000d6").total))`, "max_steps"},
		{`count(1..900000, roll("10000d6") > 0)`, "max_steps"},
		{`len(reduce(1..40, #acc + #acc, "x"))`, "memory_budget"},
		{`len(reduce(1..40, #acc + #acc, ["x"]))`, "memory_budget"},
		{`doubler(40)`, "memory_budget"},
		{`repeat("ab", 100000000000)`, "memory_budget"},
		{`len(repeat("ab", 10000000))`, "memory_budget"},
		{`sum(map(1..900000, t(#)) , len(#))`, "max_steps"},
		{`bâtir(100000)`, "max_steps"},
		{`chercher(100000)`, "max_steps"},
		// Joining copies both sides: the copy is charged, so appending to a long list or
		// string in a loop (quadratic work) ends on the step limit instead of running on.
		{`allonger(100000)`, "max_steps"},
		{`allonger2(100000)`, "max_steps"},
		{`écrire(100000)`, "max_steps"},
	}
	for _, c := range cases {
		s := budgetSession(t)
		peek.Machine(s.M).Limits.MaxSteps = 1_000_000
		_, err := s.Eval("<e>", c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %s", c.src, err, c.want)
		}
	}
}

// TestMapsBounded: a map filled in a loop is charged per entry.
func TestMapsBounded(t *testing.T) {
	s := budgetSession(t)
	peek.Machine(s.M).Limits.MemoryBudget = 1000
	if v, err := s.Eval("<e>", "remplir(100)"); err != nil || runtime.Repr(v) != "100" {
		t.Fatalf("remplir(100) = %v, %v", v, err)
	}
	if _, err := s.Eval("<e>", "remplir(5000)"); err == nil || !strings.Contains(err.Error(), "memory_budget = 1000") {
		t.Fatalf("err = %v, want the memory limit", err)
	}
}

// TestCountersAreNotMemory: += on a number builds nothing, so a counter bumped in a long
// loop never reaches the memory limit, and a short append loop stays well inside both.
func TestCountersAreNotMemory(t *testing.T) {
	s := budgetSession(t)
	peek.Machine(s.M).Limits.MemoryBudget = 1000
	for _, c := range []struct{ src, want string }{
		{"compter(50)", "5000"}, {"allonger(200)", "200"}, {"allonger2(200)", "200"}, {"écrire(500)", "8000"},
	} {
		if v, err := s.Eval("<e>", c.src); err != nil || runtime.Repr(v) != c.want {
			t.Errorf("%s = %v, %v; want %s", c.src, runtime.Repr(v), err, c.want)
		}
	}
}

// TestLiteralsCharged: lists, maps and records written in expressions count against the
// memory budget, so a loop that nests one in the next (v = [v]) ends on the limit instead of
// filling the machine's memory.
func TestLiteralsCharged(t *testing.T) {
	for _, src := range []string{`profond(100000)`, `profondm(100000)`, `len(map(1..100000, Nœud({})))`} {
		s := budgetSession(t)
		peek.Machine(s.M).Limits.MemoryBudget = 50000
		if _, err := s.Eval("<e>", src); err == nil || !strings.Contains(err.Error(), "memory_budget = 50000") {
			t.Errorf("%s: err = %v, want the memory limit", src, err)
		}
	}
}

// TestDeepComparisonBounded: == looks into lists, maps and records to a bounded depth (Go's
// comparison overflowed the stack on a value nested a million deep), a value that holds
// itself still compares, and uniq's quadratic comparisons are charged.
func TestDeepComparisonBounded(t *testing.T) {
	cases := []struct{ src, want string }{
		{`profond(20000) == profond(20000)`, "nested more than 10000 deep"},
		{`profond(20000) != profond(20000)`, "nested more than 10000 deep"},
		{`profond(20000) in [profond(20000)]`, "nested more than 10000 deep"},
		{`uniq([profond(20000), profond(20000)])`, "nested more than 10000 deep"},
		{`len(uniq(map(1..100000, [#])))`, "max_steps"},
		{`len(uniq(map(1..200000, # % 7)))`, "7"},
		{`profond(100) == profond(100)`, "true"},
		{`profond(100) == profond(99)`, "false"},
		{`[1, [2, {"a": [3]}]] == [1, [2, {"a": [3]}]]`, "true"},
		{`{"a": [1]} != {"a": [2]}`, "true"},
		{`[1d6 * 0] == [0]`, "true"},
		{`nil == nil`, "true"},
		{`uniq([[1], [1], [2], 1, 1.0, "a", "a", true, true])`, "[[1], [2], 1, \"a\", true]"},
		{`boucler()`, "true"},
	}
	for _, c := range cases {
		s := budgetSession(t)
		peek.Machine(s.M).Limits.MaxSteps = 1_000_000
		v, err := s.Eval("<e>", c.src)
		got := runtime.Repr(v)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s = %s, want %s", c.src, got, c.want)
		}
	}
}

// TestInterruptInsideExpression: Ctrl-C stops an expression that runs no statement.
func TestInterruptInsideExpression(t *testing.T) {
	s := budgetSession(t)
	var stop atomic.Bool
	stop.Store(true)
	peek.Machine(s.M).Interrupt = &stop
	_, err := s.Eval("<e>", "sum(map(1..1000, 1d6))")
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("err = %v, want interrupted", err)
	}
}

// TestRollsAsTotals: a roll behaves as its total wherever expr-lang adds or compares.
func TestRollsAsTotals(t *testing.T) {
	for _, src := range []string{
		"sum(map(1..3, 1d6)) >= 3",
		"max(map(1..3, 1d6)) <= 6",
		"min(1d6, 7) <= 6",
		"sum(1..3, 1d6) >= 3",
		"reduce(1..3, #acc + 1d6, 0) >= 3",
		"reduce(1..3, 1d6 + #acc, 0) >= 3",
		"string(1d1) == \"1\"",
		"mean(map(1..4, 1d1)) == 1",
		"1d1 in [1]",
		"1d1 not in [2]",
		"2 in [1d1 + 1, 5]",
	} {
		s := budgetSession(t)
		v, err := s.Eval("<e>", src)
		if err != nil || v != true {
			t.Errorf("%s = %v, %v; want true", src, v, err)
		}
	}
}

// TestMapOrderIsKeyOrder: keys, values and toPairs list a map in key order on every run
// (Go's map order is random), without a record's hidden kind.
func TestMapOrderIsKeyOrder(t *testing.T) {
	for i := 0; i < 20; i++ {
		s := budgetSession(t)
		v, err := s.Eval("<e>", `[keys({e: 5, a: 1, d: 4, b: 2, c: 3}), values({e: 5, a: 1, d: 4, b: 2, c: 3}), toPairs({b: 2, a: 1})]`)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := runtime.Repr(v), `[["a", "b", "c", "d", "e"], [1, 2, 3, 4, 5], [["a", 1], ["b", 2]]]`; got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
	}
	prog, _ := dsl.LoadSource("k.rules", []byte("ruleset \"k\"\nkind U {\n  b: int\n  a: int\n}\nentity u: U { }\n"))
	m, _ := dsl.NewMachine(prog, dice.NewPCG(1), nil)
	if v, err := dsl.NewSession(m).Eval("<e>", "keys(u)"); err != nil || runtime.Repr(v) != `["a", "b"]` {
		t.Errorf("keys(u) = %v, %v", runtime.Repr(v), err)
	}
}

// TestAmplifiersBounded: builtins that can build far more than their argument holds, and
// printing a value made of many references to one large value, stay bounded.
func TestAmplifiersBounded(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`len(flatten(map(1..1000, map(1..1000, #))))`, "memory_budget"},
		{`len(join(map(1..100000, repeat("x", 1000))))`, "memory_budget"},
		{`len(replace(repeat("x", 100000), "", repeat("y", 100000)))`, "memory_budget"},
		{`len(replace(repeat("x", 100000), "x", repeat("y", 100000)))`, "memory_budget"},
		{`len(split(repeat("x", 5000000), ""))`, "memory_budget"},
	} {
		s := budgetSession(t)
		_, err := s.Eval("<e>", c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %s", c.src, err, c.want)
		}
	}
	s := budgetSession(t)
	v, err := s.Eval("<e>", `map(1..300, map(1..1000, #))`)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(runtime.Repr(v)); n > 2*runtime.MaxReprBytes {
		t.Errorf("Repr gave %d bytes", n)
	}
	if _, err := json.Marshal(runtime.ToJSON(v)); err != nil {
		t.Fatal(err)
	}
	// Appending to a long string or list, one piece at a time, is linear, not refused.
	if _, err := s.Eval("<e>", `len(reduce(1..50000, #acc + "x", ""))`); err != nil {
		t.Errorf("appending: %v", err)
	}
}

// TestUntypedArithmeticExact: arithmetic whose operand types are known only when run stays
// exact on whole numbers, and follows expr-lang's rules (% keeps the sign of the dividend).
func TestUntypedArithmeticExact(t *testing.T) {
	s := budgetSession(t)
	for src, want := range map[string]string{
		`reduce([1], #acc + 1, 1152921504606846976) == 1152921504606846977`: "true",
		`reduce([1], #acc % 2, -7)`:                                         "-1",
		`reduce([1], #acc / 2, 7)`:                                          "3.5",
		`reduce([1], #acc * 1d1, 3)`:                                        "3",
	} {
		v, err := s.Eval("<e>", src)
		if err != nil || runtime.Repr(v) != want {
			t.Errorf("%s = %v, %v; want %s", src, runtime.Repr(v), err, want)
		}
	}
}
