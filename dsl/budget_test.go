package dsl

import (
	"strings"
	"sync/atomic"
	"testing"

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
table t(x) {
  1: "un"
  2: "deux"
  else: "autre"
}
`

func budgetSession(t *testing.T) *Session {
	t.Helper()
	prog, d := LoadSource("b.rules", []byte(budgetRules))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	return NewSession(m)
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
	}
	for _, c := range cases {
		s := budgetSession(t)
		s.M.Limits.MaxSteps = 1_000_000
		_, err := s.Eval("<e>", c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %s", c.src, err, c.want)
		}
	}
}

// TestMapsBounded: a map filled in a loop is charged per entry.
func TestMapsBounded(t *testing.T) {
	s := budgetSession(t)
	s.M.Limits.MemoryBudget = 1000
	if v, err := s.Eval("<e>", "remplir(100)"); err != nil || Repr(v) != "100" {
		t.Fatalf("remplir(100) = %v, %v", v, err)
	}
	if _, err := s.Eval("<e>", "remplir(5000)"); err == nil || !strings.Contains(err.Error(), "memory_budget = 1000") {
		t.Fatalf("err = %v, want the memory limit", err)
	}
}

// TestInterruptInsideExpression: Ctrl-C stops an expression that runs no statement.
func TestInterruptInsideExpression(t *testing.T) {
	s := budgetSession(t)
	var stop atomic.Bool
	stop.Store(true)
	s.M.Interrupt = &stop
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
	} {
		s := budgetSession(t)
		v, err := s.Eval("<e>", src)
		if err != nil || v != true {
			t.Errorf("%s = %v, %v; want true", src, v, err)
		}
	}
}

// TestNoClock: builtins that read the clock or the host's time zones are not reachable.
func TestNoClock(t *testing.T) {
	for _, name := range disabledBuiltins {
		s := budgetSession(t)
		_, err := s.Eval("<e>", name+`("1h")`)
		if err == nil || !strings.Contains(err.Error(), "not available") {
			t.Errorf("%s: err = %v, want not available", name, err)
		}
	}
}
