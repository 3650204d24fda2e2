package dsl

import (
	"strings"
	"sync/atomic"
	"testing"

	"rulesh/stdlib/dice"
)

// TestLimitReached: a call that fails at a limit says which (the analyses stop on such
// runs, which may each have spent all their work); one that fails otherwise, succeeds or is
// interrupted names none, and the next call starts with none.
func TestLimitReached(t *testing.T) {
	const src = `
rule steps(): int {
  let t = 0
  for i in 1..900 { for j in 1..900 { t += 1 } }
  return t
}
rule turns(): int {
  let t = 0
  while true { t += 1 }
  return t
}
rule items(): int {
  let t = 0
  for i in 1..2000 { t += 1 }
  return t
}
rule deep(n: int): int { return deep(n + 1) }
rule big(): int {
  let l = []
  for i in 1..900 { l = l + [i, i, i, i, i, i, i, i, i, i, i, i] }
  return len(l)
}
rule bad(): int { return [1][3] }
rule fine(): int { return 1 }
`
	prog, d := LoadSource("l.rules", []byte(src))
	if d.HasErrors() {
		t.Fatal(d)
	}
	m, err := NewMachine(prog, dice.NewPCG(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	l := m.Limits()
	l.MaxSteps, l.MaxLoopIterations, l.MemoryBudget = 1_000_000, 1000, 5000 // cheap
	m.SetLimits(l)
	for _, c := range []struct{ call, limit string }{
		{"steps()", "max_steps"},
		{"fine()", ""},
		{"turns()", "max_loop_iterations"},
		{"bad()", ""},
		{"items()", "max_loop_iterations"},
		{"deep(0)", "max_call_depth"},
		{"big()", "memory_budget"},
		{"fine()", ""},
	} {
		_, err := NewSession(m).Eval("<t>", c.call)
		if (err != nil) != (c.call != "fine()") {
			t.Errorf("%s: %v", c.call, err)
		}
		if got := m.LimitReached(); got != c.limit || m.Interrupted() {
			t.Errorf("%s: limit %q, interrupted %v; want %q (%v)", c.call, got, m.Interrupted(), c.limit, err)
		}
	}
	var stop atomic.Bool
	stop.Store(true)
	m.SetInterrupt(&stop)
	if _, err := NewSession(m).Eval("<t>", "turns()"); err == nil || !m.Interrupted() || m.LimitReached() != "" {
		t.Errorf("interrupted: %v, interrupted %v, limit %q", err, m.Interrupted(), m.LimitReached())
	}
}

// TestLimitsSetDuringCall: limits and an interrupt flag set while a call runs (here by its
// emit's receiver) stop it at its next statement, as when set before it: the statements'
// step test keeps a bound computed from them, which SetLimits and SetInterrupt reset.
func TestLimitsSetDuringCall(t *testing.T) {
	src := `
rule tally(): int {
  emit "go"
  let t = 0
` + strings.Repeat("  t += 1\n", 40) + `  return t
}
`
	// Statements one after the other, no loop: a loop's turns check the limits of themselves.
	s := sessionOf(t, src)
	m := s.M
	base := m.Limits()
	if _, err := s.Eval("<t>", "tally()"); err != nil {
		t.Fatalf("unlimited: %v", err)
	}
	m.SetEmit(func(string) {
		l := base
		l.MaxSteps = 20
		m.SetLimits(l)
	})
	if _, err := s.Eval("<t>", "tally()"); err == nil || m.LimitReached() != "max_steps" {
		t.Errorf("limits set during the call: %v, limit %q", err, m.LimitReached())
	}
	m.SetLimits(base)
	var stop atomic.Bool
	m.SetEmit(func(string) {
		stop.Store(true)
		m.SetInterrupt(&stop)
	})
	if _, err := s.Eval("<t>", "tally()"); err == nil || !m.Interrupted() {
		t.Errorf("interrupt set during the call: %v, interrupted %v", err, m.Interrupted())
	}
}
